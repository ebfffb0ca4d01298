// @trawl/core: the engine. Each layer is usable alone and knows nothing of the layers above it.
export { compileGlob, GlobError, globToRegexSource } from './glob/glob.js';
export { EngineUnavailableError, type EngineChoice, type SearchRequest, search } from './engine/search.js';
export { resolveRipgrep, type RgResolution, type VettedRg } from './engine/rg/resolve-rg.js';
export * from './match/index.js';
export type * from './search/events.js';
export {
  type FileResult,
  type LineMatcher,
  Prefilter,
  type SearcherConfig,
  type SearchMode,
  searchBuffer,
} from './search/searcher.js';
export { IgnoreRules, Verdict } from './walk/ignore-rules.js';
export { type WalkEntry, type WalkOptions, type WalkStats, Walker } from './walk/walker.js';
export { compareUtf8 } from './util/path-order.js';
export * from './names/index.js';
export * from './fence/index.js';
export const version = '0.1.0';
