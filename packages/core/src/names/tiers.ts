/**
 * The scale every tier of the name scorer scores on, and the adjustments all of them share: a directory when one
 * was asked for, a dot file below other files (unless the query starts with a dot), the reference's length bonus (shorter names first) and a small depth penalty (shallower paths
 * first among equals). The lexical tiers (lexical.ts) sit above the fuzzy band (fuzzy.ts), always.
 */

import type { NameQuery } from './query.js';
import { underDotDir } from './rules.js';
import type { NameTarget } from './target.js';

// ---- tiers ---------------------------------------------------------------------------------------------------
export const SCORE_EXACT = 100;
export const SCORE_FIRST_STEM = 96;
export const SCORE_COMPACT_EXACT = 92;
export const SCORE_PREFIX = 50;
export const SCORE_COMPACT_PREFIX = 46;
export const SCORE_SUBSTRING = 30;
export const SCORE_FUZZY_MIN = 5;
export const SCORE_FUZZY_MAX = 22;
const WANTS_DIR_BONUS = 3;
const DEPTH_PENALTY_PER_CHAR = 0.03;
const DEPTH_PENALTY_MAX = 2.5;
/**
 * A dot file's tier score (or a file's in a dot directory) is scaled by this unless the query starts with a dot:
 * `@git` means `git.ts` first, `@ci.yml` a `ci.yml` of the project before `.github/workflows/ci.yml`.
 */
const DOT_FILE_FACTOR = 0.5;
const DOT = 46;

/** The highest score a fuzzy match can reach for `q` (a name is at least one character long). */
export function fuzzyCeilingFor(q: NameQuery): number {
  return SCORE_FUZZY_MAX + (q.wantsDir ? WANTS_DIR_BONUS : 0) + 4.9;
}

/** `s` (a tier's score) with the adjustments every tier shares; `nameLen` is the length the length bonus reads. */
export function finishScore(
  q: NameQuery,
  t: NameTarget,
  s: number,
  nameLen = t.rel.length - t.nameStart,
): number {
  if (q.wantsDir && t.isDir) s += WANTS_DIR_BONUS;
  if (
    !t.isDir &&
    (t.rel.charCodeAt(t.nameStart) === DOT || underDotDir(t.rel, t.nameStart)) &&
    q.text.charCodeAt(0) !== DOT &&
    q.name.charCodeAt(0) !== DOT
  )
    s *= DOT_FILE_FACTOR;
  return (
    s + Math.max(0, 5 - 0.1 * nameLen) - Math.min(DEPTH_PENALTY_MAX, DEPTH_PENALTY_PER_CHAR * t.nameStart)
  );
}
