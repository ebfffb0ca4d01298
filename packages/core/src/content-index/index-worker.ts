import { parentPort, workerData } from 'node:worker_threads';
import { createSensitiveFence } from '../fence/index.js';
import { buildIndex } from './build.js';

/**
 * Builds an index off the caller's thread (a server or MCP process keeps answering meanwhile). The fence is
 * rebuilt here from its anchors: functions do not cross a thread boundary.
 */
export interface IndexWorkerData {
  root: string;
  dir: string;
  fence: { home: string; extra: string[] };
}

const data = workerData as IndexWorkerData;
const fence = createSensitiveFence({ home: data.fence.home, extra: data.fence.extra });
try {
  const result = buildIndex(
    data.root,
    data.dir,
    (abs) => fence.isSensitiveCanonical(abs),
    (progress) => parentPort?.postMessage({ type: 'progress', progress }),
  );
  parentPort?.postMessage({ type: 'done', result });
} catch (err) {
  parentPort?.postMessage({ type: 'failed', message: (err as Error).message });
}
