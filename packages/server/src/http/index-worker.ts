// The index host: owns the FileIndexes of the known projects on its own thread, so index builds, watcher updates
// and index searches never run on the event loop (decision 3 of docs/architecture.md).
import { parentPort, workerData } from 'node:worker_threads';
import { FileIndexRegistry, searchNames } from '@trawl/core/names';
import { IndexAnswers } from './index-answers.js';
import type { IndexHostReply, IndexHostRequest } from './index-host.js';
import { createTaskContext, type FenceConfig, lowerThreadPriority } from './tasks.js';

const port = parentPort;
if (!port) throw new Error('index-worker.js runs as a worker thread');
const config = workerData as FenceConfig;
lowerThreadPriority(config.nice ?? 0);
const context = createTaskContext(config);
const registry = new FileIndexRegistry({
  // The workbench's index: dot directories entered last (their files offered as dot files, below the rest).
  indexOptions: { fence: context.fence, home: context.home, platform: context.platform, dotDirsLast: true },
});
const failed = new Map<string, string>();
const answers = new IndexAnswers();
/** How often every index's state is sent to the event loop's mirror. */
const STATUS_EVERY_MS = 1_000;

function status(root: string): IndexHostReply {
  const index = registry.get(root);
  const error = failed.get(root);
  return {
    type: 'status',
    root,
    ready: index?.ready ?? false,
    truncated: index?.truncated ?? false,
    entries: index?.size ?? index?.progress.entries ?? 0,
    ...(error ? { error } : {}),
  };
}

setInterval(() => {
  for (const root of registry.roots()) port.postMessage(status(root));
}, STATUS_EVERY_MS).unref();

port.on('message', (msg: IndexHostRequest) => {
  if (msg.type === 'acquire') {
    registry.acquire(msg.root).then(
      () => port.postMessage(status(msg.root)),
      (err: unknown) => {
        failed.set(msg.root, err instanceof Error ? err.message : String(err));
        port.postMessage(status(msg.root));
      },
    );
    return;
  }
  if (msg.type === 'release') {
    failed.delete(msg.root);
    void registry.release(msg.root);
    return;
  }
  const index = registry.get(msg.root);
  if (!index?.ready || index.truncated) {
    port.postMessage({ type: 'result', id: msg.id, unusable: true } satisfies IndexHostReply);
    return;
  }
  answers
    .get(msg, index.generation, () =>
      searchNames({
        query: msg.query,
        roots: [msg.root],
        scoped: true,
        limit: msg.limit,
        kinds: msg.kinds,
        dotFiles: true, // the workbench's picker offers them (below other files)
        index,
        fence: context.fence,
      }).then((answer) =>
        answer.source === 'index' ? { results: answer.results, entries: index.size } : undefined,
      ),
    )
    .then(
      (answer) =>
        port.postMessage(
          answer
            ? ({ type: 'result', id: msg.id, ...answer } satisfies IndexHostReply)
            : ({ type: 'result', id: msg.id, unusable: true } satisfies IndexHostReply),
        ),
      (err: unknown) =>
        port.postMessage({
          type: 'result',
          id: msg.id,
          error: err instanceof Error ? err.message : String(err),
        } satisfies IndexHostReply),
    );
});
