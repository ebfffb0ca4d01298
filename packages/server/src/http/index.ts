export {
  accessControl,
  allowedHosts,
  LOOPBACK_NAMES,
  newAccessToken,
  tokenMatches,
  validateAccessToken,
} from './access.js';
export { createApp } from './app.js';
export { PROBE_BUSY_BODY, type ServerContext } from './context.js';
export { defaultDataDir } from './data-dir.js';
export { IndexHost, type IndexProvider, type IndexStatus } from './index-host.js';
export * from './limits.js';
export { PoolBusyError, PoolTimeoutError, TaskFailedError, type TaskRunner, WorkerPool } from './pool.js';
export { KnownProjects, RECENT_PROJECTS_FILE } from './projects.js';
export { type RunningServer, type ServeOptions, startServer } from './server.js';
export { isStaticPath, PLACEHOLDER_PAGE, resolveWebDist, WORKBENCH_CSP } from './static.js';
export {
  createTaskContext,
  type FenceConfig,
  InlineRunner,
  runTask,
  type ServerTaskRunner,
  type ServerTasks,
  type TaskContext,
} from './tasks.js';
