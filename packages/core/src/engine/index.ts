/**
 * engine (`@trawl/core/engine`): content search over files and directories, on either engine behind one
 * contract — `js` (ours: walk + literal prefilter + searcher in warm worker threads) or `rg` (a vetted ripgrep
 * binary) — producing the `rg --json`-shaped {@link SearchEvent} stream. `auto` picks rg when one is vetted.
 *
 * Module map: search.ts (`search`, `searchBatches`: the request, the engine choice, the walk options passed
 * through), files.ts (`listFiles`: ripgrep's --files), rg-flags.ts (`rgFlags`: what ripgrep's flags mean beyond a
 * request's fields, for a ripgrep-compatible command line), js/ (the js engine: worker pool, batching, reorder
 * window, partial answers; `searchContent` for bytes the caller holds), rg/ (resolving and running ripgrep,
 * translating its JSON), run.ts (what both engines share).
 *
 * @example
 * ```ts
 * import { search } from '@trawl/core/engine';
 * for await (const event of search({ pattern: 'TODO', paths: ['src'], deadlineMs: 5_000 })) {
 *   if (event.type === 'match') console.log(`${event.path}:${event.lineNumber}: ${event.text}`);
 *   if (event.type === 'summary') console.log(event.summary.outcome); // 'complete' | 'timeout' | …
 * }
 * ```
 */
export { PatternError } from '../match/index.js';
export type {
  EngineName,
  FileStats,
  LineRecord,
  SearchEvent,
  SearchOutcome,
  SearchSummary,
  SkipReason,
  Submatch,
} from '../search/events.js';
export { type FileListing, listFiles } from './files.js';
export { searchContent } from './js/content-search.js';
export { keepSearchWorkersWarm, searchWorkerStats } from './js/worker-pool.js';
export { type RgResolution, type RgSource, resolveRipgrep, type VettedRg } from './rg/resolve-rg.js';
export { rgFlags } from './rg-flags.js';
export type { SpawnRg } from './run.js';
export {
  type EngineChoice,
  EngineUnavailableError,
  type SearchRequest,
  search,
  searchBatches,
  walkOf,
} from './search.js';
