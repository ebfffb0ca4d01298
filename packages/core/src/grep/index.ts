/**
 * Content grep (`grepFiles`): which files under one root contain a query — one row per file, Office documents
 * included — with the /api/file-grep contract, for the HTTP endpoint, `trawl grep` and MCP `grep_files`.
 *
 * - `grep.ts`      — the request, one deadline over both passes, the payload.
 * - `text-pass.ts` — the engine (rg or js) with the contract's flags; rg's failure falls back to js.
 * - `doc-pass.ts`  — a second walk with the same rules, documents read once from a no-follow descriptor.
 * - `rows.ts`      — the chokepoint every row goes through: redaction, then the cuts, then match ranges.
 * - `query.ts`     — which queries are searches at all.
 * - `reasons.ts`   — why an answer is partial, by name.
 * - `format.ts`    — the answer as text (CLI, MCP), truncation said in words.
 *
 * ```ts
 * const q = grepQuery(' needle ');           // 'needle' (null → answer emptyGrepPayload())
 * const { payload } = await grepFiles({ root: '/srv/repo', query: q!, fence: createSensitiveFence() });
 * ```
 */

export { formatGrepText, grepNotes } from './format.js';
export {
  DEFAULT_GREP_LIMITS,
  emptyGrepPayload,
  GREP_MAX_GLOB_CHARS,
  GREP_MAX_GLOBS,
  type GrepDetail,
  type GrepLimits,
  type GrepPayload,
  type GrepRequest,
  type GrepWalkRules,
  grepFiles,
  grepGlobs,
  rgExclusions,
} from './grep.js';
export * from './limits.js';
export { grepQuery } from './query.js';
export { GREP_PARTIAL_REASONS, type GrepPartialReason } from './reasons.js';
export type { GrepRow } from './rows.js';
