/**
 * The public surface of `@trawl/core/walk`: traversal with ripgrep's ignore rules. The layer and its modules are
 * described in `index.ts`, the barrel the rest of the engine imports from; only what is named here is the package's
 * API.
 */
export {
  type PrunedEntry,
  type PruneReason,
  type WalkEntry,
  Walker,
  type WalkOptions,
  type WalkStats,
} from './index.js';
