/**
 * The lexical tiers of the name scorer: the name (or its stem) equal to the query, a prefix, a substring, each
 * also read ignoring separators, plus the directory segments of a `/` query matched in order; a directory's main
 * file also scores as that directory. See score.ts for the tiers' values.
 */

import type { NameQuery } from './query.js';
import {
  firstCompactChar,
  isDigit,
  isLowerAscii,
  isMainFileName,
  isSeparator,
  isUpperAscii,
  type NameTarget,
  SLASH,
} from './target.js';
import {
  finishScore,
  SCORE_COMPACT_EXACT,
  SCORE_COMPACT_PREFIX,
  SCORE_EXACT,
  SCORE_FIRST_STEM,
  SCORE_PREFIX,
  SCORE_SUBSTRING,
} from './tiers.js';

const PREFIX_WORD_END_BONUS = 4;
const SUBSTRING_WORD_START_BONUS = 8;
const SUBSTRING_WORD_END_BONUS = 2;
const DIR_SEGMENTS_WEIGHT = 10;

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

/**
 * False only when {@link lexicalScoreTarget} is certainly 0 for the candidate whose lowercase path is `lower` and whose
 * name starts at `nameStart`; read without preparing its target, so an index that has not prepared its entries yet
 * (the first search after a build) prepares none for a miss. Every lexical tier needs some reading's name inside the
 * candidate's name, or its separator-free name starting the candidate's; a directory's main file also scores as
 * its directory, so it always may.
 */
export function lexicalMayMatch(q: NameQuery, lower: string, nameStart: number): boolean {
  if (isMainFileName(lower, nameStart, lower.indexOf('.', nameStart))) return true;
  const first = firstCompactChar(lower, nameStart);
  if (readingMayMatch(q, lower, nameStart, first)) return true;
  for (const v of q.variants) if (readingMayMatch(v, lower, nameStart, first)) return true;
  return false;
}

function readingMayMatch(r: NameQuery, lower: string, nameStart: number, firstCompact: number): boolean {
  if (lower.indexOf(r.name, nameStart) >= 0) return true;
  return r.nameCompact.length >= 2 && r.nameCompact.charCodeAt(0) === firstCompact;
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
  return finishScore(q, t, best, exact ? Math.min(bestReading.name.length, nameLen) : nameLen);
}

/** One reading of the query (as typed, or a variant): its name tier plus the directory segments' bonus. */
function lexicalReading(q: NameQuery, t: NameTarget): number {
  if ((q.nameMask & ~t.nameMask) !== 0) return 0;
  const tier = lexicalNameScore(q.name, q.nameCompact, t);
  if (tier === 0) return 0;
  let s = tier;
  if (q.dirSegments.length > 0) {
    const dq = dirSegmentsQuality(q, t);
    if (dq < 0) return 0;
    s += DIR_SEGMENTS_WEIGHT * dq;
  }
  return s;
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
  // the compact name is built (and kept) only for a name whose first character could start `qc`
  if (firstCompactChar(t.lower, t.nameStart) !== qc.charCodeAt(0)) return 0;
  const cn = t.compactName;
  if (!cn.startsWith(qc)) return 0;
  if (qc.length === cn.length || qc.length === t.compactLastStem || qc.length === t.compactFirstStem) {
    return SCORE_COMPACT_EXACT;
  }
  return SCORE_COMPACT_PREFIX;
}

/** A word starts at `i` of `rel`: the path's start, after a separator, a camelCase hump or a digit run. */
export function startsWord(rel: string, i: number): boolean {
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
 * Computed once per directory and reading (the reading keeps it, see {@link NameQuery.dirQuality}).
 */
function dirSegmentsQuality(q: NameQuery, t: NameTarget): number {
  if (t.dirKey < 0) return dirSegmentsQualityOf(q.dirSegments, t);
  let v = q.dirQuality.get(t.dirKey);
  if (v === undefined) {
    v = dirSegmentsQualityOf(q.dirSegments, t);
    q.dirQuality.set(t.dirKey, v);
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
