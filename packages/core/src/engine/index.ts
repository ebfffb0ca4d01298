// The content-search engine alone (`@trawl/core/engine`): what `trawl rg` needs, without the rest of core.
export { PatternError } from '../match/index.js';
export type * from '../search/events.js';
export { searchWorkerStats } from './js/worker-pool.js';
export { type RgResolution, resolveRipgrep, type VettedRg } from './rg/resolve-rg.js';
export {
  type EngineChoice,
  EngineUnavailableError,
  type SearchRequest,
  search,
  searchBatches,
} from './search.js';
