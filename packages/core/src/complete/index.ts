/**
 * complete (`@trawl/core/complete`): one directory level for a `./` token typed in a composer — lexical
 * containment of the typed prefix, then a no-follow, descriptor-based walk (`/proc/self/fd` on Linux) so a link
 * swapped in mid-listing cannot lead outside the project. `/api/path-complete` without its HTTP layer.
 *
 * Module map: segments.ts (splitting the token), open-dir.ts (the directory openers, per platform), list.ts
 * (`listCompletion`), limits.ts.
 *
 * @example
 * ```ts
 * import { listCompletion, splitCompletionToken } from '@trawl/core/complete';
 * import { createSensitiveFence } from '@trawl/core/fence';
 * const { dir, q } = splitCompletionToken('./src/ind');
 * const outcome = listCompletion({ project: '/home/me/app', dir, q, fence: createSensitiveFence() });
 * if (outcome.status === 'ok') console.log(outcome.rows.map((r) => r.name)); // [ 'index.ts' ]
 * ```
 */
export {
  PATH_COMPLETE_LIMITS,
  PATH_COMPLETE_MAX_DIR_CHARS,
  PATH_COMPLETE_MAX_ENTRIES,
  PATH_COMPLETE_MAX_Q_CHARS,
  PATH_COMPLETE_MAX_SCAN,
} from './limits.js';
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
  DOCUMENT_VIEW_BUDGET_MS,
  type DocumentReadOutcome,
  readProjectDocument,
} from './project-documents.js';
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
