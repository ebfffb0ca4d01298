// @trawl/core: the engine. Each layer is usable alone and knows nothing of the layers above it.

export { searchWorkerStats } from './engine/js/worker-pool.js';
export { type RgResolution, resolveRipgrep, type VettedRg } from './engine/rg/resolve-rg.js';
export {
  type EngineChoice,
  EngineUnavailableError,
  type SearchRequest,
  search,
  searchBatches,
} from './engine/search.js';
export * from './fence/index.js';
export { compileGlob, GlobError, globToRegexSource } from './glob/glob.js';
export * from './match/index.js';
export * from './names/index.js';
export type * from './search/events.js';
export {
  type FileResult,
  type LineMatcher,
  Prefilter,
  type SearcherConfig,
  type SearchMode,
  searchBuffer,
} from './search/searcher.js';
export { compareUtf8 } from './util/path-order.js';
export { IgnoreRules, Verdict } from './walk/ignore-rules.js';
export { type WalkEntry, Walker, type WalkOptions, type WalkStats } from './walk/walker.js';
export const version = '0.1.0';
export * from './complete/index.js';
export * from './redact/index.js';
export * from './tool/index.js';
