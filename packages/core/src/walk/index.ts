/**
 * walk (`@trawl/core/walk`): ripgrep's traversal — the `.gitignore`/`.ignore`/`.rgignore` stack, hidden files,
 * skip directories, globs, symlinks — with budgets (entries, directories), a deadline and an AbortSignal.
 *
 * Module map: walker.ts (the `Walker`: a synchronous, depth-first, no-follow traversal yielding {@link WalkEntry}s in
 * rg's byte order; the caller drives it and can pause between entries), `../glob/glob.ts` (`-g` globs with
 * globset's semantics, compiled to RegExps), ignore-rules.ts (one directory's ignore file, compiled once), `../util/path-order.ts` (rg's byte order).
 *
 * @example
 * ```ts
 * import { Walker } from '@trawl/core/walk';
 * const walker = new Walker({ roots: ['src'], cwd: process.cwd(), maxEntries: 10_000 });
 * for (const entry of walker.entries()) console.log(entry.path); // src/index.ts, …
 * if (walker.stats.stoppedBy) console.log(`stopped by the ${walker.stats.stoppedBy} budget`);
 * ```
 */
export { compileGlob, GlobError, type GlobOptions, globToRegexSource } from '../glob/glob.js';
export { compareUtf8 } from '../util/path-order.js';
export { IgnoreRules, Verdict } from './ignore-rules.js';
export {
  type PrunedEntry,
  type PruneReason,
  type WalkEntry,
  Walker,
  type WalkIssue,
  type WalkOptions,
  type WalkStats,
  type WalkStopReason,
} from './walker.js';
