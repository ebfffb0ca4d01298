/**
 * The public surface of `@trawl/core/grep`: content grep with the /api/file-grep contract. The layer and its modules
 * are described in `index.ts`, the barrel the rest of the engine imports from; only what is named here is the
 * package's API.
 */
export {
  emptyGrepPayload,
  formatGrepText,
  GREP_LIMITS,
  type GrepDetail,
  type GrepPartialReason,
  type GrepPayload,
  type GrepRequest,
  type GrepRow,
  type GrepWalkRules,
  grepFiles,
  grepNotes,
  grepQuery,
} from './index.js';
