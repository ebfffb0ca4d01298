/**
 * The public surface of `@trawl/core/engine`: content search over paths on either engine. The layer and its modules
 * are described in `index.ts`, the barrel the rest of the engine imports from; only what is named here is the
 * package's API.
 */
export {
  type EngineChoice,
  EngineUnavailableError,
  type FileStats,
  keepSearchWorkersWarm,
  type LineRecord,
  listFiles,
  PatternError,
  rgFlags,
  type SearchEvent,
  type SearchOutcome,
  type SearchRequest,
  type SearchSummary,
  type Submatch,
  search,
  searchBatches,
} from './index.js';
