export * from './limits.js';
export {
  type CompletionOutcome,
  type CompletionRequest,
  type CompletionStatus,
  listCompletion,
} from './list.js';
export {
  type CompletionDirent,
  type CompletionDirReader,
  type CompletionStat,
  type DirOpener,
  type OpenDir,
  pathOpener,
  platformDirOpener,
  procFdOpener,
  unavailableOpener,
} from './open-dir.js';
export {
  type FileReadOutcome,
  listProjectDir,
  type ProjectPathRequest,
  type ProjectPathStatus,
  projectRelSegments,
  readProjectFile,
  type TreeOutcome,
} from './project-files.js';
export { type CompletionSegmentsOptions, completionSegments, splitCompletionToken } from './segments.js';
