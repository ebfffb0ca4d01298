/**
 * The public surface of `@trawl/core/search`: the searcher over one file's bytes. The layer and its modules are
 * described in `index.ts`, the barrel the rest of the engine imports from; only what is named here is the package's
 * API.
 */
export {
  type FileResult,
  type FileStats,
  type LineMatcher,
  type LineRecord,
  Prefilter,
  type SearchEvent,
  type SearcherConfig,
  type SearchOutcome,
  type SearchSummary,
  type Submatch,
  searchBuffer,
} from './index.js';
