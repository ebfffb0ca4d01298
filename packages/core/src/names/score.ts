/**
 * trawl's name scorer: what answers every keystroke of the @-picker.
 *
 * Tiers (the reference's order is the floor, spec/file-api.md §2.1):
 *   exact name or stem 100 · name up to its first dot 96 · equal ignoring separators (`mmapc` = `mmap.c`) 92 ·
 *   prefix 50 (+4 when the prefix ends a word) · prefix ignoring separators 46 · substring of the name 30
 *   (+8 when it starts a word or camelCase hump, +2 when it ends one) · fuzzy 5..22 (always below the lexical tiers).
 * The fuzzy tier is an optimal alignment over the whole relative path: matched characters earn more at the start
 * of the name, of a path segment, of a word (`_ - . space`), of a camelCase hump or a digit run, inside the name,
 * and next to the previous match; gaps cost. So `fb` finds `FooBar.ts`, `ext4inode` finds `fs/ext4/inode.c`.
 * A query with `/` scores its last segment against the name (the tiers above) and its earlier segments, in order,
 * against the directories (`net/ipv4/tcp` → `net/ipv4/tcp.c` above `net/ipv4/tcp_input.c`).
 * Every match then gains the reference's length bonus (shorter names first) and loses a little for depth
 * (shallower paths first among equals).
 */

/** A candidate, prepared once (the index keeps these; the walk builds one per scored entry). */
export class NameTarget {
  /** `rel` lowercased, same length (the same string when `rel` has no capitals). */
  readonly lower: string;
  /** Offset of the basename in `rel`. */
  readonly nameStart: number;
  /** Absolute offsets of the first and last dot in the basename (a leading dot counts), or -1. */
  readonly firstDot: number;
  readonly lastDot: number;
  /** Character masks (see {@link charMask}) of the basename and of the whole path. */
  readonly nameMask: number;
  readonly pathMask: number;
  /**
   * For a directory's main file — named `index.*`, `__init__.*`, `mod.rs`, or after its directory
   * (`Button/Button.tsx`, `linter/linter.js`) — the directory it stands for: the file also scores as that
   * directory, and wins the tie (files before directories).
   */
  readonly main: NameTarget | undefined;
  private compact: string | undefined;
  private compactStems = -1;

  /**
   * @param rel path relative to the search root, `/`-separated, original case
   * @param dirMask the {@link charMask} of the directory part, when the caller has it
   * @param parent the directory's own target, when the caller has it (used for main files)
   */
  constructor(
    readonly rel: string,
    readonly isDir: boolean,
    dirMask?: number,
    parent?: NameTarget,
    dir?: DirectoryPrefix,
    /** Identifies the directory among its siblings' targets (-1: unknown), for per-directory caches. */
    readonly dirKey = -1,
  ) {
    let lower: string;
    let nameStart: number;
    if (dir) {
      // the directory part is already known in lowercase: only the name needs looking at
      nameStart = dir.length;
      lower = dir.lower === undefined && !hasUpperOrNonAscii(rel, nameStart) ? rel : lowerSameLength(rel);
    } else {
      lower = hasUpperOrNonAscii(rel) ? lowerSameLength(rel) : rel;
      nameStart = rel.lastIndexOf('/') + 1;
    }
    const firstDot = lower.indexOf('.', nameStart);
    this.lower = lower;
    this.nameStart = nameStart;
    this.firstDot = firstDot;
    this.lastDot = firstDot < 0 ? -1 : lower.lastIndexOf('.');
    this.nameMask = charMask(lower, nameStart);
    this.pathMask = this.nameMask | (dirMask ?? charMask(lower, 0, nameStart));
    this.main =
      !isDir && nameStart > 1 && isMainFileName(lower, nameStart, firstDot)
        ? (parent ?? new NameTarget(rel.slice(0, nameStart - 1), true))
        : undefined;
    this.compact = undefined;
  }

  /** The basename lowercased with separators (`. _ -` and spaces) removed. */
  get compactName(): string {
    if (this.compact === undefined) {
      this.compact = compactOf(this.lower, this.nameStart);
      const last = this.lastDot < 0 ? 0xffff : compactLength(this.lower, this.nameStart, this.lastDot);
      const first = this.firstDot < 0 ? 0xffff : compactLength(this.lower, this.nameStart, this.firstDot);
      this.compactStems = last * 0x10000 + first;
    }
    return this.compact;
  }

  /** Length in {@link compactName} of the name up to its last dot (-1 when no dot). */
  get compactLastStem(): number {
    if (this.compact === undefined) void this.compactName;
    const v = Math.floor(this.compactStems / 0x10000);
    return v === 0xffff ? -1 : v;
  }

  /** Length in {@link compactName} of the name up to its first dot (-1 when no dot). */
  get compactFirstStem(): number {
    if (this.compact === undefined) void this.compactName;
    const v = this.compactStems % 0x10000;
    return v === 0xffff ? -1 : v;
  }
}

/** A directory's path prefix as its children see it: `length` of `dir/`, `lower` set when it has capitals. */
export interface DirectoryPrefix {
  readonly length: number;
  readonly lower: string | undefined;
}

function hasUpperOrNonAscii(s: string, from = 0): boolean {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c >= 128) return true;
  }
  return false;
}

/** A query, prepared once per search. */
export interface NameQuery {
  /** Normalised: trimmed, lowercased, `\` → `/`, no leading `./` or `/`, no trailing `/`. */
  readonly text: string;
  /** The part scored against the name: the whole text, or its last `/` segment. */
  readonly name: string;
  /** `name` without separators. */
  readonly nameCompact: string;
  /** The directory part of a `/` query (`''` for a plain query). */
  readonly dirSegments: readonly string[];
  /** The query ended in `/`: a directory is meant. */
  readonly wantsDir: boolean;
  readonly mask: number;
  readonly nameMask: number;
  /** Other readings of a query with spaces (see {@link prepareNameQuery}); empty otherwise. */
  readonly variants: readonly NameQuery[];
}

// ---- tiers ---------------------------------------------------------------------------------------------------
export const SCORE_EXACT = 100;
export const SCORE_FIRST_STEM = 96;
export const SCORE_COMPACT_EXACT = 92;
export const SCORE_PREFIX = 50;
export const SCORE_COMPACT_PREFIX = 46;
export const SCORE_SUBSTRING = 30;
export const SCORE_FUZZY_MIN = 5;
export const SCORE_FUZZY_MAX = 22;
const PREFIX_WORD_END_BONUS = 4;
const SUBSTRING_WORD_START_BONUS = 8;
const SUBSTRING_WORD_END_BONUS = 2;
const DIR_SEGMENTS_WEIGHT = 10;
const WANTS_DIR_BONUS = 3;
const DEPTH_PENALTY_PER_CHAR = 0.03;
const DEPTH_PENALTY_MAX = 2.5;

// ---- fuzzy alignment weights ---------------------------------------------------------------------------------
const F_BASE = 10;
const F_NAME_START = 12;
const F_PATH_START = 10;
const F_SEGMENT = 9;
const F_WORD = 7;
const F_CAMEL = 7;
const F_DIGIT = 3;
const F_IN_NAME = 4;
const F_CONSECUTIVE = 6;
const F_GAP_OPEN = 3;
const F_GAP_EXTEND = 1;
const F_GAP_MAX = 10;
const F_PER_CHAR_MAX = F_BASE + F_NAME_START + F_IN_NAME + F_CONSECUTIVE;

const SLASH = 47;

/** Lowercases without changing length (a character whose lowercase form is longer is kept as is). */
export function lowerSameLength(s: string): string {
  const l = s.toLowerCase();
  if (l.length === s.length) return l;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const lc = c.toLowerCase();
    out += lc.length === 1 ? lc : c;
  }
  return out;
}

/**
 * Which characters a string holds: a-z one bit each, digits in pairs (bits 26-30), anything non-ASCII bit 31.
 * Separators and punctuation are not counted: the separator-blind tiers may skip them.
 */
export function charMask(s: string, from = 0, to = s.length): number {
  let m = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) m |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) m |= 1 << (26 + ((c - 48) >> 1));
    else if (c >= 65 && c <= 90) m |= 1 << (c - 65);
    else if (c >= 128) m |= 1 << 31;
  }
  return m;
}

function isSeparator(c: number): boolean {
  return c === 46 || c === 95 || c === 45 || c === 32; // . _ - space
}

function compactOf(s: string, from = 0, to = s.length): string {
  let out = '';
  let start = from;
  for (let i = from; i < to; i++) {
    if (isSeparator(s.charCodeAt(i))) {
      if (i > start) out += s.slice(start, i);
      start = i + 1;
    }
  }
  if (to > start) out += s.slice(start, to);
  return out;
}

function compactLength(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (!isSeparator(s.charCodeAt(i))) n++;
  return n;
}

/** Prepares a candidate (see {@link NameTarget}). */
export function nameTarget(rel: string, isDir: boolean, dirMask?: number, parent?: NameTarget): NameTarget {
  return new NameTarget(rel, isDir, dirMask, parent);
}

/** The prefix record of directory `rel` (`''` = the root) for {@link NameTarget}'s fast path. */
export function directoryPrefix(rel: string): DirectoryPrefix {
  if (rel === '') return { length: 0, lower: undefined };
  return { length: rel.length + 1, lower: hasUpperOrNonAscii(rel) ? lowerSameLength(rel) : undefined };
}

/** Is `lower`'s basename `index.*`, `__init__.*`, `mod.*`, or its directory's name plus an extension? */
function isMainFileName(lower: string, nameStart: number, firstDot: number): boolean {
  if (firstDot <= nameStart) return false;
  const stemLen = firstDot - nameStart;
  if (stemLen === 5 && lower.startsWith('index', nameStart)) return true;
  if (stemLen === 8 && lower.startsWith('__init__', nameStart)) return true;
  if (stemLen === 3 && lower.startsWith('mod', nameStart)) return true;
  const parentStart = lower.lastIndexOf('/', nameStart - 2) + 1;
  if (nameStart - 1 - parentStart !== stemLen) return false;
  for (let i = 0; i < stemLen; i++) {
    if (lower.charCodeAt(parentStart + i) !== lower.charCodeAt(nameStart + i)) return false;
  }
  return true;
}

/**
 * Prepares a query; `null` when nothing is left to match. (The two-character minimum is the surface's rule.)
 * A query with spaces has three readings and a candidate takes the best: the words joined (`tcp input` →
 * `tcpinput`, also the fuzzy reading), the words as path segments (`ext4 inode` → `ext4/inode`), and the literal
 * text (names with spaces).
 */
export function prepareNameQuery(raw: string): NameQuery | null {
  let text = lowerSameLength(raw.trim()).replace(/\\/g, '/').replace(/\s+/g, ' ');
  text = text.replace(/ ?\/ ?/g, '/').replace(/\/{2,}/g, '/');
  while (text.startsWith('./')) text = text.slice(2);
  text = text.replace(/^\/+/, '');
  const wantsDir = text.endsWith('/');
  text = text.replace(/\/+$/, '');
  if (text.length === 0) return null;
  if (!text.includes(' ')) return singleReading(text, wantsDir, []);
  const words = text.split(' ');
  const literal = singleReading(text, wantsDir, []);
  const asPath = singleReading(words.join('/'), wantsDir, []);
  const joined = singleReading(words.join(''), wantsDir, [literal, asPath]);
  return { ...joined, nameMask: joined.nameMask & literal.nameMask & asPath.nameMask };
}

function singleReading(text: string, wantsDir: boolean, variants: NameQuery[]): NameQuery {
  const cut = text.lastIndexOf('/');
  const name = cut < 0 ? text : text.slice(cut + 1);
  return {
    text,
    name,
    nameCompact: compactOf(name),
    dirSegments: cut < 0 ? [] : text.slice(0, cut).split('/'),
    wantsDir,
    mask: charMask(text),
    nameMask: charMask(name),
    variants,
  };
}

/** Score of `t` for `q`; 0 means no match. Higher is better. `match`, when given, says how it matched. */
export function scoreTarget(q: NameQuery, t: NameTarget, match?: LexicalMatch): number {
  const s = lexicalScoreTarget(q, t, match);
  return s > 0 ? s : fuzzyScoreTarget(q, t);
}

/** The highest score a fuzzy match can reach for `q` (a name is at least one character long). */
export function fuzzyCeilingFor(q: NameQuery): number {
  return SCORE_FUZZY_MAX + (q.wantsDir ? WANTS_DIR_BONUS : 0) + 4.9;
}

/** What {@link lexicalScoreTarget} found besides the score, written into an object the caller owns. */
export interface LexicalMatch {
  /**
   * Matched only through the candidate's directory (a main file such as `router/index.js` for `router`): on an
   * equal score it ranks after a file matched by its own name.
   */
  aliasOnly: boolean;
}

/** The lexical tiers only: 0 when only the fuzzy tier could match. `match`, when given, says how it matched. */
export function lexicalScoreTarget(q: NameQuery, t: NameTarget, match?: LexicalMatch): number {
  const own = lexicalOwn(q, t);
  const main = t.main;
  if (match) match.aliasOnly = false;
  if (main === undefined || (q.mask & ~main.pathMask) !== 0) return own;
  const asDir = lexicalOwn(q, main);
  if (match && own === 0 && asDir > 0) match.aliasOnly = true;
  return Math.max(asDir, own);
}

function lexicalOwn(q: NameQuery, t: NameTarget): number {
  if ((q.mask & ~t.pathMask) !== 0 || (q.nameMask & ~t.nameMask) !== 0) return 0;
  let best = lexicalReading(q, t);
  let bestReading = q;
  for (const v of q.variants) {
    const s = lexicalReading(v, t);
    if (s > best) {
      best = s;
      bestReading = v;
    }
  }
  if (best === 0) return 0;
  // An exact match (name, stem, or ignoring separators) is as long as what was typed: an extension is not extra.
  const nameLen = t.rel.length - t.nameStart;
  const exact = lexicalNameScore(bestReading.name, bestReading.nameCompact, t) >= SCORE_COMPACT_EXACT;
  return finish(q, t, best, exact ? Math.min(bestReading.name.length, nameLen) : nameLen);
}

/** One reading of the query (as typed, or a variant): its name tier plus the directory segments' bonus. */
function lexicalReading(q: NameQuery, t: NameTarget): number {
  if ((q.nameMask & ~t.nameMask) !== 0) return 0;
  const tier = lexicalNameScore(q.name, q.nameCompact, t);
  if (tier === 0) return 0;
  let s = tier;
  if (q.dirSegments.length > 0) {
    const dq = dirSegmentsQuality(q.dirSegments, t);
    if (dq < 0) return 0;
    s += DIR_SEGMENTS_WEIGHT * dq;
  }
  return s;
}

/** The fuzzy tier only: 0 when `q` is not a subsequence of the path. */
export function fuzzyScoreTarget(q: NameQuery, t: NameTarget): number {
  if ((q.mask & ~t.pathMask) !== 0) return 0;
  return fuzzyScoreOf(q, t, fuzzyQuality(q.text, t));
}

/** The fuzzy tier's score for an alignment `quality` already computed (0 stays 0). */
export function fuzzyScoreOf(q: NameQuery, t: NameTarget, quality: number): number {
  if (quality <= 0) return 0;
  return finish(q, t, SCORE_FUZZY_MIN + (SCORE_FUZZY_MAX - SCORE_FUZZY_MIN) * quality);
}

function finish(q: NameQuery, t: NameTarget, s: number, nameLen = t.rel.length - t.nameStart): number {
  if (q.wantsDir && t.isDir) s += WANTS_DIR_BONUS;
  return (
    s + Math.max(0, 5 - 0.1 * nameLen) - Math.min(DEPTH_PENALTY_MAX, DEPTH_PENALTY_PER_CHAR * t.nameStart)
  );
}

/** Convenience for one-off scoring: `fuzzyScore('cfg', 'config.ts', 'src/config.ts')`. */
export function fuzzyScore(query: string, name: string, rel: string, isDir = false): number {
  const q = prepareNameQuery(query);
  if (!q) return 0;
  const r = rel.replace(/\\/g, '/');
  const t = nameTarget(r.endsWith(name) ? r : name, isDir);
  return scoreTarget(q, t);
}

function lexicalNameScore(qn: string, qc: string, t: NameTarget): number {
  const L = t.lower;
  const ns = t.nameStart;
  const nlen = L.length - ns;
  const qlen = qn.length;
  if (qlen > nlen) return compactTiers(qc, t);
  if (L.startsWith(qn, ns)) {
    if (qlen === nlen) return SCORE_EXACT;
    if (t.lastDot - ns === qlen) return SCORE_EXACT;
    if (t.firstDot - ns === qlen && t.firstDot > ns) return SCORE_FIRST_STEM;
    const c = compactTiers(qc, t);
    if (c === SCORE_COMPACT_EXACT) return c;
    return SCORE_PREFIX + (endsWord(t.rel, ns + qlen) ? PREFIX_WORD_END_BONUS : 0);
  }
  const c = compactTiers(qc, t);
  if (c > 0) return c;
  let idx = L.indexOf(qn, ns + 1);
  if (idx < 0) return 0;
  let best = 0;
  while (idx >= 0) {
    let s = SCORE_SUBSTRING;
    if (startsWord(t.rel, idx)) s += SUBSTRING_WORD_START_BONUS;
    if (endsWord(t.rel, idx + qlen)) s += SUBSTRING_WORD_END_BONUS;
    if (s > best) best = s;
    if (best === SCORE_SUBSTRING + SUBSTRING_WORD_START_BONUS + SUBSTRING_WORD_END_BONUS) break;
    idx = L.indexOf(qn, idx + 1);
  }
  return best;
}

/** The separator-blind tiers; only meaningful when the name or the query carries separators. */
function compactTiers(qc: string, t: NameTarget): number {
  if (qc.length < 2) return 0;
  const cn = t.compactName;
  if (!cn.startsWith(qc)) return 0;
  if (qc.length === cn.length || qc.length === t.compactLastStem || qc.length === t.compactFirstStem) {
    return SCORE_COMPACT_EXACT;
  }
  return SCORE_COMPACT_PREFIX;
}

function isLowerAscii(c: number): boolean {
  return c >= 97 && c <= 122;
}
function isUpperAscii(c: number): boolean {
  return c >= 65 && c <= 90;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The boundary bonus of position `i` in `rel` (original case). */
function boundaryBonus(rel: string, i: number, nameStart: number): number {
  if (i === nameStart) return F_NAME_START;
  if (i === 0) return F_PATH_START;
  const prev = rel.charCodeAt(i - 1);
  if (prev === SLASH) return F_SEGMENT;
  if (isSeparator(prev)) return F_WORD;
  const cur = rel.charCodeAt(i);
  if (isUpperAscii(cur) && isLowerAscii(prev)) return F_CAMEL;
  if (isDigit(cur) !== isDigit(prev) && !isSeparator(cur)) return F_DIGIT;
  return 0;
}

function startsWord(rel: string, i: number): boolean {
  if (i === 0) return true;
  const prev = rel.charCodeAt(i - 1);
  if (prev === SLASH || isSeparator(prev)) return true;
  const cur = rel.charCodeAt(i);
  return (isUpperAscii(cur) && isLowerAscii(prev)) || (isDigit(cur) && !isDigit(prev));
}

function endsWord(rel: string, end: number): boolean {
  if (end >= rel.length) return true;
  const next = rel.charCodeAt(end);
  if (next === SLASH || isSeparator(next)) return true;
  const last = rel.charCodeAt(end - 1);
  return (isUpperAscii(next) && isLowerAscii(last)) || isDigit(next) !== isDigit(last);
}

/**
 * How well a `/` query's directory segments match `t`'s directories, in order: 1 = every segment named exactly and
 * the last one is the parent; -1 = some segment matches no directory (the structured reading does not apply).
 */
let segmentsCacheFor: readonly string[] | undefined;
const segmentsCache = new Map<number, number>();

function dirSegmentsQuality(segments: readonly string[], t: NameTarget): number {
  if (t.dirKey < 0) return dirSegmentsQualityOf(segments, t);
  if (segmentsCacheFor !== segments) {
    segmentsCache.clear();
    segmentsCacheFor = segments;
  }
  let v = segmentsCache.get(t.dirKey);
  if (v === undefined) {
    v = dirSegmentsQualityOf(segments, t);
    segmentsCache.set(t.dirKey, v);
  }
  return v;
}

function dirSegmentsQualityOf(segments: readonly string[], t: NameTarget): number {
  const L = t.lower;
  const dirEnd = t.nameStart - 1; // index of the '/' before the name, or -1
  if (dirEnd <= 0) return -1;
  let pos = 0; // start of the next directory segment to consider
  let total = 0;
  let lastMatchedEnd = -1;
  for (const seg of segments) {
    if (seg.length === 0) continue;
    let matched = 0;
    while (pos < dirEnd) {
      let end = L.indexOf('/', pos);
      if (end < 0 || end > dirEnd) end = dirEnd;
      const len = end - pos;
      let q = 0;
      if (len === seg.length && L.startsWith(seg, pos)) q = 1;
      else if (len > seg.length && L.startsWith(seg, pos)) q = 0.6;
      else {
        const at = L.indexOf(seg, pos);
        if (at >= 0 && at + seg.length <= end) q = 0.4;
        else if (isSubsequence(seg, L, pos, end)) q = 0.2;
      }
      pos = end + 1;
      if (q > 0) {
        matched = q;
        lastMatchedEnd = end;
        break;
      }
    }
    if (matched === 0) return -1;
    total += matched;
  }
  const n = segments.filter((s) => s.length > 0).length;
  if (n === 0) return 0;
  const adjacency = lastMatchedEnd === dirEnd ? 1 : 0.9;
  return (total / n) * adjacency;
}

function isSubsequence(q: string, s: string, from: number, to: number): boolean {
  let qi = 0;
  for (let i = from; i < to && qi < q.length; i++) if (s.charCodeAt(i) === q.charCodeAt(qi)) qi++;
  return qi === q.length;
}

// Scratch for the alignment, grown on demand (the scorer is synchronous, so sharing it is safe).
let posBuf = new Int32Array(32 * 256);
let valBuf = new Float64Array(32 * 256);
const rowLen = new Int32Array(32);
const rowLo = new Int32Array(32);
const rowHi = new Int32Array(32);
const NEG = -1e9;
let tableFor = '';
const charTable = new Uint32Array(128);

function prepareTable(q: string): void {
  if (q === tableFor) return;
  charTable.fill(0);
  for (let i = 0; i < q.length && i < 32; i++) {
    const c = q.charCodeAt(i);
    if (c < 128) charTable[c]! |= 1 << i;
  }
  tableFor = q;
}

/**
 * Best alignment of `q` (lowercased) as a subsequence of `t.lower`, as a quality in (0, 1]; 0 when `q` is not a
 * subsequence. A `/` in the query only matches a `/` in the path. Exact, but computed over the positions where
 * each query character occurs (sparse), between its earliest and latest feasible position.
 */
export function fuzzyQuality(q: string, t: NameTarget): number {
  const m = q.length;
  if (m > 32 || nonAsciiIn(q)) return fuzzyQualityDense(q, t);
  const s = t.lower;
  const n = s.length;
  if (m === 0 || m > n) return 0;
  // earliest feasible position of each query char (forward greedy), latest (backward greedy)
  let qi = 0;
  for (let j = 0; j < n && qi < m; j++) if (s.charCodeAt(j) === q.charCodeAt(qi)) rowLo[qi++] = j;
  if (qi < m) return 0;
  qi = m - 1;
  for (let j = n - 1; j >= 0 && qi >= 0; j--) if (s.charCodeAt(j) === q.charCodeAt(qi)) rowHi[qi--] = j;
  prepareTable(q);
  if (posBuf.length < m * n) {
    posBuf = new Int32Array(Math.max(m * n, posBuf.length * 2));
    valBuf = new Float64Array(posBuf.length);
  }
  rowLen.fill(0, 0, m);
  const from = rowLo[0]!;
  const to = rowHi[m - 1]!;
  for (let j = from; j <= to; j++) {
    const c = s.charCodeAt(j);
    let bits = c < 128 ? charTable[c]! : 0;
    while (bits !== 0) {
      const i = 31 - Math.clz32(bits & -bits);
      bits &= bits - 1;
      if (j >= rowLo[i]! && j <= rowHi[i]!) posBuf[i * n + rowLen[i]!++] = j;
    }
  }
  const rel = t.rel;
  const ns = t.nameStart;
  // row 0
  for (let k = 0; k < rowLen[0]!; k++) {
    const p = posBuf[k]!;
    valBuf[k] = F_BASE + boundaryBonus(rel, p, ns) + (p >= ns ? F_IN_NAME : 0);
  }
  for (let i = 1; i < m; i++) {
    const prevBase = (i - 1) * n;
    const prevLen = rowLen[i - 1]!;
    const base = i * n;
    for (let k = 0; k < rowLen[i]!; k++) {
      const p = posBuf[base + k]!;
      let best = NEG;
      for (let r = 0; r < prevLen; r++) {
        const pk = posBuf[prevBase + r]!;
        if (pk >= p) break;
        const v = valBuf[prevBase + r]!;
        if (v <= NEG / 2) continue;
        const d = p - pk;
        const cand =
          d === 1 ? v + F_CONSECUTIVE : v - Math.min(F_GAP_OPEN + (d - 2) * F_GAP_EXTEND, F_GAP_MAX);
        if (cand > best) best = cand;
      }
      valBuf[base + k] =
        best > NEG / 2 ? best + F_BASE + boundaryBonus(rel, p, ns) + (p >= ns ? F_IN_NAME : 0) : NEG;
    }
  }
  let raw = NEG;
  const lastBase = (m - 1) * n;
  for (let k = 0; k < rowLen[m - 1]!; k++) if (valBuf[lastBase + k]! > raw) raw = valBuf[lastBase + k]!;
  return qualityOf(raw, m);
}

function qualityOf(raw: number, m: number): number {
  if (raw <= NEG / 2) return 0;
  if (raw <= 0) return 1e-3;
  return Math.min(1, raw / (m * F_PER_CHAR_MAX));
}

function nonAsciiIn(q: string): boolean {
  for (let i = 0; i < q.length; i++) if (q.charCodeAt(i) >= 128) return true;
  return false;
}

/** The same alignment computed densely over every position: the oracle the sparse one is tested against. */
export function fuzzyQualityDense(q: string, t: NameTarget): number {
  const s = t.lower;
  const n = s.length;
  const m = q.length;
  if (m === 0 || m > n) return 0;
  let prev: number[] = [];
  for (let j = 0; j < n; j++) {
    prev[j] =
      s.charCodeAt(j) === q.charCodeAt(0)
        ? F_BASE + boundaryBonus(t.rel, j, t.nameStart) + (j >= t.nameStart ? F_IN_NAME : 0)
        : NEG;
  }
  for (let i = 1; i < m; i++) {
    const cur: number[] = [];
    for (let j = 0; j < n; j++) {
      cur[j] = NEG;
      if (s.charCodeAt(j) !== q.charCodeAt(i)) continue;
      let best = NEG;
      for (let k = 0; k < j; k++) {
        const v = prev[k]!;
        if (v <= NEG / 2) continue;
        const d = j - k;
        const cand =
          d === 1 ? v + F_CONSECUTIVE : v - Math.min(F_GAP_OPEN + (d - 2) * F_GAP_EXTEND, F_GAP_MAX);
        if (cand > best) best = cand;
      }
      if (best > NEG / 2)
        cur[j] = best + F_BASE + boundaryBonus(t.rel, j, t.nameStart) + (j >= t.nameStart ? F_IN_NAME : 0);
    }
    prev = cur;
  }
  let raw = NEG;
  for (let j = 0; j < n; j++) if (prev[j]! > raw) raw = prev[j]!;
  return qualityOf(raw, m);
}

/** Distances from the last directory match into the name, tabulated (beyond this the gap cost is capped). */
const SEED_SPAN = 9;

/**
 * The fuzzy alignment of one query split at the name: the directory part of a path is aligned once per directory
 * (all its entries share it) and each entry then only aligns its name, seeded by the directory's table. Gives exactly
 * {@link fuzzyQuality}'s answer.
 */
export class SplitAligner {
  private readonly m: number;
  private readonly q: string;
  /** per directory key: offset into `tables` (-1 = not computed) */
  private readonly offsets = new Map<number, number>();
  private tables: Float64Array;
  private used = 0;
  private readonly stride: number;
  private nameVals = new Float64Array(32 * 64);
  private namePos = new Int32Array(32 * 64);
  private readonly nameLen = new Int32Array(32);

  constructor(q: string) {
    this.q = q;
    this.m = q.length;
    // per directory: m rows of SEED_SPAN seeds, m consecutive-seeds, one all-in-directory score, m best seeds
    this.stride = this.m * SEED_SPAN + this.m + 1 + this.m;
    this.tables = new Float64Array(this.stride * 64);
  }

  /** Usable for this query (ASCII, at most 32 characters); otherwise call {@link fuzzyQuality}. */
  static supports(q: string): boolean {
    return q.length > 0 && q.length <= 32 && !nonAsciiIn(q);
  }

  /** The offset of `t`'s directory table, built once per directory key. */
  private dirTable(t: NameTarget, dirKey: number): number {
    let off = this.offsets.get(dirKey);
    if (off === undefined) {
      off = this.tableFor(t);
      this.offsets.set(dirKey, off);
    }
    return off;
  }

  /** Quality of `t` (0 = no match); `dirKey` identifies `t`'s directory (same key, same directory string). */
  quality(t: NameTarget, dirKey: number): number {
    const m = this.m;
    const q = this.q;
    const off = this.dirTable(t, dirKey);
    const T = this.tables;
    const s = t.lower;
    const ns = t.nameStart;
    const n = s.length;
    const rel = t.rel;
    // positions of each query char inside the name
    prepareTable(q);
    const span = n - ns;
    if (this.namePos.length < m * span) {
      this.namePos = new Int32Array(m * span * 2);
      this.nameVals = new Float64Array(m * span * 2);
    }
    const pos = this.namePos;
    const val = this.nameVals;
    const len = this.nameLen;
    len.fill(0, 0, m);
    for (let j = ns; j < n; j++) {
      const c = s.charCodeAt(j);
      let bits = c < 128 ? charTable[c]! : 0;
      while (bits !== 0) {
        const i = 31 - Math.clz32(bits & -bits);
        bits &= bits - 1;
        pos[i * span + len[i]!++] = j;
      }
    }
    let best = T[off + m * SEED_SPAN + m]!; // everything matched inside the directory part
    for (let i = 0; i < m; i++) {
      const base = i * span;
      const prevBase = (i - 1) * span;
      for (let k = 0; k < len[i]!; k++) {
        const j = pos[base + k]!;
        let from = i === 0 ? 0 : NEG;
        if (i > 0) {
          const x = j - ns;
          const seed = T[off + (i - 1) * SEED_SPAN + (x < SEED_SPAN ? x : SEED_SPAN - 1)]!;
          if (seed > from) from = seed;
          if (x === 0) {
            const consec = T[off + m * SEED_SPAN + (i - 1)]!;
            if (consec > from) from = consec;
          }
          for (let r = 0; r < len[i - 1]!; r++) {
            const pk = pos[prevBase + r]!;
            if (pk >= j) break;
            const v = val[prevBase + r]!;
            if (v <= NEG / 2) continue;
            const d = j - pk;
            const cand =
              d === 1 ? v + F_CONSECUTIVE : v - Math.min(F_GAP_OPEN + (d - 2) * F_GAP_EXTEND, F_GAP_MAX);
            if (cand > from) from = cand;
          }
        }
        const v = from > NEG / 2 ? from + F_BASE + boundaryBonus(rel, j, ns) + F_IN_NAME : NEG;
        val[base + k] = v;
        if (i === m - 1 && v > best) best = v;
      }
    }
    return qualityOf(best, m);
  }

  /** Aligns the query within `t`'s directory part; returns the table's offset. */
  private tableFor(t: NameTarget): number {
    const m = this.m;
    const q = this.q;
    const stride = this.stride;
    if ((this.used + 1) * stride > this.tables.length) {
      const grown = new Float64Array(this.tables.length * 2);
      grown.set(this.tables);
      this.tables = grown;
    }
    const off = this.used++ * stride;
    const T = this.tables;
    T.fill(NEG, off, off + stride);
    const ns = t.nameStart;
    if (ns === 0) return off;
    const s = t.lower;
    const rel = t.rel;
    // sparse alignment over s[0, ns): rows of (position, value)
    prepareTable(q);
    if (posBuf.length < m * ns) {
      posBuf = new Int32Array(Math.max(m * ns, posBuf.length * 2));
      valBuf = new Float64Array(posBuf.length);
    }
    rowLen.fill(0, 0, m);
    for (let j = 0; j < ns; j++) {
      const c = s.charCodeAt(j);
      let bits = c < 128 ? charTable[c]! : 0;
      while (bits !== 0) {
        const i = 31 - Math.clz32(bits & -bits);
        bits &= bits - 1;
        posBuf[i * ns + rowLen[i]!++] = j;
      }
    }
    for (let i = 0; i < m; i++) {
      const base = i * ns;
      const prevBase = (i - 1) * ns;
      for (let k = 0; k < rowLen[i]!; k++) {
        const p = posBuf[base + k]!;
        let from = i === 0 ? 0 : NEG;
        if (i > 0) {
          for (let r = 0; r < rowLen[i - 1]!; r++) {
            const pk = posBuf[prevBase + r]!;
            if (pk >= p) break;
            const v = valBuf[prevBase + r]!;
            if (v <= NEG / 2) continue;
            const d = p - pk;
            const cand =
              d === 1 ? v + F_CONSECUTIVE : v - Math.min(F_GAP_OPEN + (d - 2) * F_GAP_EXTEND, F_GAP_MAX);
            if (cand > from) from = cand;
          }
        }
        const v = from > NEG / 2 ? from + F_BASE + boundaryBonus(rel, p, ns) : NEG;
        valBuf[base + k] = v;
        if (v <= NEG / 2) continue;
        // seeds for the next query char landing x characters into the name: gap d = ns + x - p
        const row = off + i * SEED_SPAN;
        for (let x = 0; x < SEED_SPAN; x++) {
          const d = ns + x - p;
          if (d < 2) continue; // d === 1 is the consecutive case, below
          const cand = v - Math.min(F_GAP_OPEN + (d - 2) * F_GAP_EXTEND, F_GAP_MAX);
          if (cand > T[row + x]!) T[row + x] = cand;
        }
        if (p === ns - 1) {
          const c = v + F_CONSECUTIVE;
          if (c > T[off + m * SEED_SPAN + i]!) T[off + m * SEED_SPAN + i] = c;
        }
        if (i === m - 1 && v > T[off + m * SEED_SPAN + m]!) T[off + m * SEED_SPAN + m] = v;
      }
    }
    const maxBase = off + m * SEED_SPAN + m + 1;
    for (let i = 0; i < m; i++) {
      let best = T[off + m * SEED_SPAN + i]!;
      for (let x = 0; x < SEED_SPAN; x++)
        if (T[off + i * SEED_SPAN + x]! > best) best = T[off + i * SEED_SPAN + x]!;
      T[maxBase + i] = best;
    }
    return off;
  }

  /**
   * An upper bound of {@link quality} for `t` that does not align the name: the directory's best seeds, the
   * longest suffix of the query the name can hold, and the most any name character can earn. Never below the
   * real quality, so a candidate whose bound cannot enter the results can be skipped.
   */
  upperBound(t: NameTarget, dirKey: number): number {
    const m = this.m;
    const q = this.q;
    const off = this.dirTable(t, dirKey);
    const T = this.tables;
    const s = t.lower;
    const ns = t.nameStart;
    // longest suffix of q that is a subsequence of the name
    let qi = m - 1;
    for (let j = s.length - 1; j >= ns && qi >= 0; j--) if (s.charCodeAt(j) === q.charCodeAt(qi)) qi--;
    const fit = m - 1 - qi;
    let best = T[off + m * SEED_SPAN + m]!;
    const firstInName = F_BASE + F_NAME_START + F_IN_NAME;
    const laterInName = F_BASE + F_CAMEL + F_IN_NAME + F_CONSECUTIVE;
    const maxBase = off + m * SEED_SPAN + m + 1;
    // i = index of the last query character matched in the directory part (-1: none)
    for (let i = Math.max(-1, m - 1 - fit); i <= m - 2; i++) {
      const seed = i < 0 ? 0 : T[maxBase + i]!;
      if (seed <= NEG / 2) continue;
      const raw = seed + firstInName + (m - 2 - i) * laterInName;
      if (raw > best) best = raw;
    }
    return qualityOf(best, m);
  }
}
