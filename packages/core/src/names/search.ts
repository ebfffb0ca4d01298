import type { SensitiveFence } from '../fence/index.js';
import type { FileIndex } from './file-index.js';
import { NAME_DEFAULT_LIMIT, NAME_LIMIT_CEILING, NAME_LIMIT_FLOOR, NAME_MIN_QUERY_CHARS } from './limits.js';
import { clampNameLimit, type NameResult, type NameSearchFs, parseNameKinds } from './types.js';
import { type NameWalkOptions, walkNameSearch } from './walk.js';

/** A name search: the query, the roots, the kinds wanted, a limit, and an index to use when ready. */
export interface NameSearchRequest {
  /** As typed: trimmed here; shorter than 2 characters answers nothing. */
  query: string;
  /** Search roots; the caller has already refused sensitive or missing scoped roots. */
  roots: readonly string[];
  /** The caller named the root (project/workspace). */
  scoped: boolean;
  /** Raw caller value: non-integers fall back to 15, then clamped to [1, 60]. */
  limit?: unknown;
  /** Raw caller value: anything but `all|files|dirs` is `all`. */
  kinds?: unknown;
  /** Offer dot files too (the workbench's picker; default false). */
  dotFiles?: boolean;
  /** The index of the single scoped root, if any: used only when it is that root's, ready and not truncated. */
  index?: FileIndex | undefined;
  fs?: NameSearchFs;
  fence?: SensitiveFence;
  /** Walk fallback knobs (clock, budgets, signal). */
  walk?: Partial<
    Omit<NameWalkOptions, 'query' | 'roots' | 'scoped' | 'limit' | 'kinds' | 'fs' | 'fence' | 'dotFiles'>
  >;
}

/** The rows of a name search, where they came from (index or walk), and whether it was cut. */
export interface NameSearchResponse {
  results: NameResult[];
  /** The sole scoped root, `''` for an unscoped search; absent when the query was too short. */
  root?: string;
  /** Which path answered. */
  source: 'short-query' | 'index' | 'walk';
  /**
   * The walk did not score every entry under its roots: its deadline, a scan budget or the directories ceiling
   * stopped it (never set by the index path).
   */
  partial?: boolean;
}

/**
 * A caller's raw page size as name search reads it: anything but an integer is NAME_LIMITS.defaultLimit (15), then
 * clamped to [1, NAME_LIMITS.maxLimit] (60).
 */
export function normaliseNameLimit(raw: unknown): number {
  return clampNameLimit(raw ?? NAME_DEFAULT_LIMIT, NAME_DEFAULT_LIMIT, NAME_LIMIT_FLOOR, NAME_LIMIT_CEILING);
}

/**
 * Name search with the semantics of `/api/file-search` below its HTTP layer: the index fast path when exactly one
 * scoped root has a ready, untruncated index, else the budgeted walk over every root.
 */
export async function searchNames(req: NameSearchRequest): Promise<NameSearchResponse> {
  const q = req.query.trim();
  if (q.length < NAME_MIN_QUERY_CHARS) return { results: [], source: 'short-query' };
  const limit = normaliseNameLimit(req.limit);
  const kinds = parseNameKinds(req.kinds);
  const root = req.scoped ? (req.roots[0] ?? '') : '';
  const index = req.index;
  if (req.scoped && req.roots.length === 1 && index?.ready && !index.truncated && index.root === root) {
    return {
      results: await index.search(q, { limit, kinds, dotFiles: req.dotFiles === true }),
      root,
      source: 'index',
    };
  }
  const walked = await walkNameSearch({
    ...req.walk,
    query: q,
    roots: req.roots,
    scoped: req.scoped,
    limit,
    kinds,
    dotFiles: req.dotFiles === true,
    ...(req.fs ? { fs: req.fs } : {}),
    ...(req.fence ? { fence: req.fence } : {}),
  });
  const partial =
    walked.stoppedBy === 'deadline' || walked.stoppedBy === 'aborted' || walked.unscored === true;
  return { results: walked.results, root, source: 'walk', ...(partial ? { partial } : {}) };
}
