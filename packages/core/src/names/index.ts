/**
 * names (`@trawl/core/names`): find files and folders by name — a fuzzy scorer tuned for paths, a live
 * {@link FileIndex} of one root (watched, polled, rebuilt; never serves a deleted file), a registry of indexes, and
 * a budgeted walk for roots without an index. `searchNames` is `/api/file-search` without its HTTP layer.
 *
 * Module map: search.ts (`searchNames`: index fast path or walk), file-index.ts + store.ts (the index and its
 * packed entries), freshness.ts (watchers, polling, the settle window, full rebuilds; a clock seam),
 * positions.ts (which characters a returned row matched, for highlighting), registry.ts (one index per root), walk.ts (the walk fallback), score.ts (the scorer; its header explains the
 * tiers) over target.ts, query.ts, tiers.ts, lexical.ts and fuzzy.ts, rules.ts (which entries are admitted, one
 * rule for the walk and the index), types.ts (results, the filesystem seam).
 *
 * @example
 * ```ts
 * import { FileIndex, searchNames } from '@trawl/core/names';
 * const index = new FileIndex('/home/me/linux', { watch: false });
 * await index.start();
 * console.log(await index.search('mmapc', { limit: 5 })); // [{ path: '/home/me/linux/mm/mmap.c', kind: 'file', … }, …]
 * const { results } = await searchNames({ query: 'slub', roots: ['/home/me/linux'], scoped: true, index });
 * index.stop();
 * ```
 */
export { FileIndex, type FileIndexOptions, type FileIndexProgress } from './file-index.js';
export type { FreshnessClock } from './freshness.js';
export {
  NAME_DEFAULT_LIMIT,
  NAME_LIMIT_CEILING,
  NAME_LIMIT_FLOOR,
  NAME_LIMITS,
  NAME_MIN_QUERY_CHARS,
} from './limits.js';
export { matchPositions } from './positions.js';
export { FileIndexRegistry, type FileIndexRegistryOptions } from './registry.js';
export { NAME_SKIP_DIRS } from './rules.js';
export { fuzzyScore } from './score.js';
export {
  type NameSearchRequest,
  type NameSearchResponse,
  normaliseNameLimit,
  searchNames,
} from './search.js';
export {
  type NameDirent,
  type NameKind,
  type NameKinds,
  type NameResult,
  type NameScorer,
  type NameSearchFs,
  type NameSearchOptions,
  type NameStat,
  type NameWatcher,
  nodeNameFs,
  parseNameKinds,
} from './types.js';
export { type NameWalkOptions, type NameWalkResult, walkNameSearch } from './walk.js';
