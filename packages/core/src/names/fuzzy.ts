/**
 * The fuzzy tier of the name scorer: an optimal alignment of the query as a subsequence of the whole relative
 * path. Matched characters earn more at the start of the name, of a path segment, of a word (`_ - . space`), of a
 * camelCase hump or a digit run, inside the name, and next to the previous match; gaps cost. The alignment is
 * computed sparsely (over the positions each query character occurs at), once per directory for the directory part
 * ({@link SplitAligner}), and checked against a dense oracle ({@link fuzzyQualityDense}).
 */

import type { NameQuery } from './query.js';
import { isDigit, isLowerAscii, isSeparator, isUpperAscii, type NameTarget, SLASH } from './target.js';
import { finishScore, SCORE_FUZZY_MAX, SCORE_FUZZY_MIN } from './tiers.js';

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

/** The fuzzy tier only: 0 when `q` is not a subsequence of the path. */
export function fuzzyScoreTarget(q: NameQuery, t: NameTarget): number {
  if ((q.mask & ~t.pathMask) !== 0) return 0;
  return fuzzyScoreOf(q, t, fuzzyQuality(q.text, t));
}

/** The fuzzy tier's score for an alignment `quality` already computed (0 stays 0). */
export function fuzzyScoreOf(q: NameQuery, t: NameTarget, quality: number): number {
  if (quality <= 0) return 0;
  return finishScore(q, t, SCORE_FUZZY_MIN + (SCORE_FUZZY_MAX - SCORE_FUZZY_MIN) * quality);
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
      const best = bestPredecessor(posBuf, valBuf, prevBase, prevLen, p, NEG);
      valBuf[base + k] =
        best > NEG / 2 ? best + F_BASE + boundaryBonus(rel, p, ns) + (p >= ns ? F_IN_NAME : 0) : NEG;
    }
  }
  let raw = NEG;
  const lastBase = (m - 1) * n;
  for (let k = 0; k < rowLen[m - 1]!; k++) if (valBuf[lastBase + k]! > raw) raw = valBuf[lastBase + k]!;
  return qualityOf(raw, m);
}

/** The score after a query character at distance `d` past one scored `v`: adjacent earns, a gap costs. */
function transition(v: number, d: number): number {
  return d === 1 ? v + F_CONSECUTIVE : v - gapCost(d);
}

/** What a gap of `d` positions (d ≥ 2) costs. */
function gapCost(d: number): number {
  return Math.min(F_GAP_OPEN + (d - 2) * F_GAP_EXTEND, F_GAP_MAX);
}

/**
 * The best score a query character at `p` can reach from the previous row (ascending positions `pos[base, base +
 * len)` scored `val`), or `floor` when no position before `p` is reachable.
 */
function bestPredecessor(
  pos: Int32Array,
  val: Float64Array,
  base: number,
  len: number,
  p: number,
  floor: number,
): number {
  let best = floor;
  for (let r = 0; r < len; r++) {
    const pk = pos[base + r]!;
    if (pk >= p) break;
    const v = val[base + r]!;
    if (v <= NEG / 2) continue;
    const cand = transition(v, p - pk);
    if (cand > best) best = cand;
  }
  return best;
}

/**
 * Rows of positions, one per query character (row i at `pos[i * stride]`, `len[i]` long, ascending): every
 * j in [from, to) where `s` holds that character (`prepareTable` set for the query).
 */
function bucketPositions(
  s: string,
  from: number,
  to: number,
  pos: Int32Array,
  len: Int32Array,
  stride: number,
): void {
  for (let j = from; j < to; j++) {
    const c = s.charCodeAt(j);
    let bits = c < 128 ? charTable[c]! : 0;
    while (bits !== 0) {
      const i = 31 - Math.clz32(bits & -bits);
      bits &= bits - 1;
      pos[i * stride + len[i]!++] = j;
    }
  }
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

/**
 * Where the best alignment of `q` (lowercased) falls in `t.rel`: the matched offsets, ascending, or null when `q` is
 * not a subsequence of the path. The same gains and gap costs as {@link fuzzyQuality}, kept with back-pointers; a
 * gap's cost stops growing after {@link F_GAP_MAX}, so each row keeps a running best and the work is
 * O(query × path). For the rows a search returns (a surface highlights them), never while ranking.
 */
export function fuzzyPositions(q: string, t: NameTarget): number[] | null {
  const s = t.lower;
  const n = s.length;
  const m = q.length;
  if (m === 0 || m > n) return null;
  const gain = (j: number) =>
    F_BASE + boundaryBonus(t.rel, j, t.nameStart) + (j >= t.nameStart ? F_IN_NAME : 0);
  // the smallest gap whose cost is the cap: every farther predecessor costs the same
  let far = 2;
  while (gapCost(far) < F_GAP_MAX) far++;
  const back: Int32Array[] = [];
  let prev = new Float64Array(n).fill(NEG);
  for (let j = 0; j < n; j++) if (s.charCodeAt(j) === q.charCodeAt(0)) prev[j] = gain(j);
  back.push(new Int32Array(n).fill(-1));
  for (let i = 1; i < m; i++) {
    const cur = new Float64Array(n).fill(NEG);
    const from = new Int32Array(n).fill(-1);
    const c = q.charCodeAt(i);
    let farBest = NEG;
    let farArg = -1;
    for (let j = 0; j < n; j++) {
      const k0 = j - far;
      if (k0 >= 0 && prev[k0]! > farBest) {
        farBest = prev[k0]!;
        farArg = k0;
      }
      if (s.charCodeAt(j) !== c) continue;
      let best = farArg >= 0 && farBest > NEG / 2 ? farBest - F_GAP_MAX : NEG;
      let arg = best > NEG / 2 ? farArg : -1;
      for (let d = 1; d < far && j - d >= 0; d++) {
        const v = prev[j - d]!;
        if (v <= NEG / 2) continue;
        const cand = transition(v, d);
        if (cand > best) {
          best = cand;
          arg = j - d;
        }
      }
      if (arg >= 0) {
        cur[j] = best + gain(j);
        from[j] = arg;
      }
    }
    prev = cur;
    back.push(from);
  }
  let end = -1;
  for (let j = 0; j < n; j++) if (prev[j]! > NEG / 2 && (end < 0 || prev[j]! >= prev[end]!)) end = j;
  if (end < 0) return null;
  const out: number[] = new Array(m);
  for (let i = m - 1, j = end; i >= 0; i--) {
    out[i] = j;
    j = back[i]![j]!;
  }
  return out;
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
        const cand = transition(v, j - k);
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
  /** per directory key: offset into `tables`, plus one (0 = not computed); an array, as it is read per candidate */
  private offsets: Int32Array;
  private tables: Float64Array;
  private used = 0;
  private readonly stride: number;
  private nameVals = new Float64Array(32 * 64);
  private namePos = new Int32Array(32 * 64);
  private readonly nameLen = new Int32Array(32);

  /** @param dirKeys how many directory keys to expect (more are taken as they come) */
  constructor(q: string, dirKeys = 0) {
    this.offsets = new Int32Array(dirKeys);
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
    if (dirKey >= this.offsets.length) {
      const grown = new Int32Array(Math.max(dirKey + 1, this.offsets.length * 2));
      grown.set(this.offsets);
      this.offsets = grown;
    }
    const known = this.offsets[dirKey]!;
    if (known > 0) return known - 1;
    const off = this.tableFor(t);
    this.offsets[dirKey] = off + 1;
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
    bucketPositions(s, ns, n, pos, len, span);
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
          from = bestPredecessor(pos, val, prevBase, len[i - 1]!, j, from);
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
    bucketPositions(s, 0, ns, posBuf, rowLen, ns);
    for (let i = 0; i < m; i++) {
      const base = i * ns;
      const prevBase = (i - 1) * ns;
      for (let k = 0; k < rowLen[i]!; k++) {
        const p = posBuf[base + k]!;
        let from = i === 0 ? 0 : NEG;
        if (i > 0) from = bestPredecessor(posBuf, valBuf, prevBase, rowLen[i - 1]!, p, from);
        const v = from > NEG / 2 ? from + F_BASE + boundaryBonus(rel, p, ns) : NEG;
        valBuf[base + k] = v;
        if (v <= NEG / 2) continue;
        // seeds for the next query char landing x characters into the name: gap d = ns + x - p
        const row = off + i * SEED_SPAN;
        for (let x = 0; x < SEED_SPAN; x++) {
          const d = ns + x - p;
          if (d < 2) continue; // d === 1 is the consecutive case, below
          const cand = v - gapCost(d);
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
