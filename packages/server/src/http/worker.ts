// A pool worker (probe or transfer): answers task messages with the shared task handlers.
import { parentPort, workerData } from 'node:worker_threads';
import { closeDocumentStores } from '@trawl/core/content-index';
import { closeSharedPdfPool } from '@trawl/core/docs';
import type { EndMessage, TaskMessage, TaskReply } from './pool.js';
import { createTaskContext, type FenceConfig, lowerThreadPriority, runTaskMessage } from './tasks.js';

const port = parentPort;
if (!port) throw new Error('worker.js runs as a worker thread');
const config = workerData as FenceConfig;
lowerThreadPriority(config.nice ?? 0);
const context = createTaskContext(config);

port.on('message', (msg: TaskMessage | EndMessage) => {
  if ('end' in msg) {
    // The PDF extractor children this thread started are killed and reaped here, by this thread's loop; the
    // document text its greps extracted is written first.
    void Promise.allSettled([closeDocumentStores(), closeSharedPdfPool()]).finally(() => process.exit(0));
    return;
  }
  runTaskMessage(context, msg.task, msg.payload).then(
    (value) => port.postMessage({ id: msg.id, ok: true, value } satisfies TaskReply),
    (err: unknown) =>
      port.postMessage({
        id: msg.id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      } satisfies TaskReply),
  );
});
