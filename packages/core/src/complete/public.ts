/**
 * The public surface of `@trawl/core/complete`: `./` completion and project files. The layer and its modules are
 * described in `index.ts`, the barrel the rest of the engine imports from; only what is named here is the package's
 * API.
 */
export {
  type CompletionOutcome,
  type CompletionRequest,
  type CompletionStatus,
  type DirOpener,
  type DocumentReadOutcome,
  type FileReadOutcome,
  listCompletion,
  listProjectDir,
  PATH_COMPLETE_LIMITS,
  type ProjectPathRequest,
  type ProjectPathStatus,
  readProjectDocument,
  readProjectFile,
  splitCompletionToken,
  type TreeOutcome,
} from './index.js';
