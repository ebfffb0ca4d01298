import type { MessagePort } from 'node:worker_threads';
import { type ContentIndex, ContentIndexRegistry, openIndex } from '@trawl/core/content-index';
import { closeSharedPdfPool } from '@trawl/core/docs';
import type { GrepHostData, GrepHostReply, GrepHostRequest, HostedIndexStatus } from './grep-host.js';
import { createTaskContext, type GrepPayloadTask, lowerThreadPriority, runTask } from './tasks.js';

/** How often every index's status is sent to the event loop's mirror (besides each change of state). */
const STATUS_EVERY_MS = 1_000;

/** Seams of the host's thread, for tests that run their own host script (grep-host.ts `script`). */
export interface GrepHostSeams {
  /** Runs before each grep starts on the host (a test holds greps here to fill the host). */
  beforeGrep?: (task: GrepPayloadTask) => Promise<void>;
}

/**
 * The grep host's thread (grep-host.ts is its event-loop side): opens the content index of each root, answers
 * greps through them with the server's shared grep task (tasks.ts `grep`: both passes, one budget counted from the
 * request's arrival), reports statuses. A root whose index is not ready is `unusable`: the loop scans it instead.
 */
export function serveGrepHost(port: MessagePort, data: GrepHostData, seams: GrepHostSeams = {}): void {
  lowerThreadPriority(data.fence.nice ?? 0);
  const context = createTaskContext(data.fence);
  const registry = new ContentIndexRegistry();
  // The budget (`--grep-deadline`) stays in the context's limits; the index is added beside it.
  context.grep = { ...context.grep, index: registry };
  const opened: ContentIndex[] = [];
  const report = () =>
    port.postMessage({ type: 'status', statuses: opened.map(hostedStatus) } satisfies GrepHostReply);
  for (const root of data.roots) {
    let index: ContentIndex;
    try {
      index = registry.add(
        openIndex(root, {
          dataDir: data.dataDir,
          fence: context.fence,
          // The end of the extraction is told at once (health shows it); progress rides the periodic report.
          onDocumentProgress: (p) => {
            if (p.state === 'done') report();
          },
        }),
      );
    } catch {
      continue; // no index of this root: its greps scan
    }
    opened.push(index);
    void index.whenReady().then(report);
  }
  report();
  const timer = setInterval(report, STATUS_EVERY_MS);
  timer.unref();

  port.on('message', (msg: GrepHostRequest) => {
    if (msg.type === 'end') {
      clearInterval(timer);
      // The PDF extractor children this thread started are killed and reaped by this thread's loop.
      void Promise.allSettled([registry.close(), closeSharedPdfPool()]).finally(() => process.exit(0));
      return;
    }
    const { id, task } = msg;
    if (registry.covering([task.root])?.status().state !== 'ready') {
      port.postMessage({ type: 'result', id, unusable: 'no ready index' } satisfies GrepHostReply);
      return;
    }
    (seams.beforeGrep ? seams.beforeGrep(task) : Promise.resolve())
      .then(() => runTask(context, 'grep', task))
      .then(
        (result) => port.postMessage({ type: 'result', id, result } as GrepHostReply),
        (err: unknown) =>
          port.postMessage({
            type: 'result',
            id,
            error: err instanceof Error ? err.message : String(err),
          } satisfies GrepHostReply),
      );
  });
}

/** An index's status with its document store's counters once the background extraction has made the store. */
function hostedStatus(index: ContentIndex): HostedIndexStatus {
  const status = index.status();
  // documentsFor makes the store on first use: asked only once the extraction runs, so a report never loads it early.
  const store =
    status.documents && status.documents.state !== 'waiting' ? index.documentsFor(status.root) : undefined;
  return store ? { ...status, documentStore: store.stats() } : status;
}
