/**
 * The public surface of `@trawl/core/match`: ripgrep's pattern dialect compiled for JavaScript. The layer and its
 * modules are described in `index.ts`, the barrel the rest of the engine imports from; only what is named here is
 * the package's API.
 */
export {
  type CompiledPattern,
  compilePattern,
  PatternError,
  type PatternOptions,
} from './index.js';
