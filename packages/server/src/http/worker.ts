// A pool worker (probe or transfer): answers task messages with the shared task handlers.
import { parentPort, workerData } from 'node:worker_threads';
import type { TaskMessage, TaskReply } from './pool.js';
import { createTaskContext, type FenceConfig, lowerThreadPriority, runTask } from './tasks.js';

const port = parentPort;
if (!port) throw new Error('worker.js runs as a worker thread');
const config = workerData as FenceConfig;
lowerThreadPriority(config.nice ?? 0);
const context = createTaskContext(config);

port.on('message', (msg: TaskMessage) => {
  runTask(context, msg.task, msg.payload).then(
    (value) => port.postMessage({ id: msg.id, ok: true, value } satisfies TaskReply),
    (err: unknown) =>
      port.postMessage({
        id: msg.id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      } satisfies TaskReply),
  );
});
