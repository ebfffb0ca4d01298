import { parentPort, workerData } from 'node:worker_threads';
import { createSensitiveFence } from '../fence/index.js';
import { buildIndex } from './build.js';
import { IndexFormatError, parseIndexBuffer, readIndexBuffer } from './format.js';
import { checkRecords } from './load.js';

/**
 * The index's work off the caller's thread (a server or MCP process keeps answering meanwhile):
 *
 * - `build`: builds and writes an index. The fence is rebuilt here from its anchors: functions do not cross
 *   a thread boundary.
 * - `load`: reads a persisted index and checks it whole (checksum, structure); then — once the caller sends
 *   `stat` (its watchers are in place by then) — stats every indexed file and hands the buffer over
 *   (transferred, not copied) with the ids that changed. The caller re-parses it without the checksum.
 *   With `stat: false` (a base just built, its changes tracked by the caller) it hands the buffer over as
 *   soon as it is checked.
 */
export type IndexWorkerData =
  | {
      task: 'build';
      root: string;
      dir: string;
      fence: { home: string; extra: string[] };
      blockBytes?: number;
    }
  | { task: 'load'; root: string; dir: string; stat: boolean };

const data = workerData as IndexWorkerData;
const post = (m: unknown, transfer: ArrayBuffer[] = []) => parentPort?.postMessage(m, transfer);

if (data.task === 'build') {
  const fence = createSensitiveFence({ home: data.fence.home, extra: data.fence.extra });
  try {
    const result = buildIndex(
      data.root,
      data.dir,
      (abs) => fence.isSensitiveCanonical(abs),
      (progress) => post({ type: 'progress', progress }),
      Date.now,
      data.blockBytes,
    );
    post({ type: 'done', result });
  } catch (err) {
    post({ type: 'failed', message: (err as Error).message });
  }
} else {
  // Listening before the synchronous work: the caller's `stat` may arrive while it runs.
  const statAllowed = data.stat
    ? new Promise<void>((resolve) => parentPort?.once('message', () => resolve()))
    : Promise.resolve();
  try {
    const buf = readIndexBuffer(data.dir);
    const parsed = parseIndexBuffer(buf, data.root, true);
    await statAllowed;
    const check = data.stat ? checkRecords(data.root, parsed) : null;
    // A file read whole owns its ArrayBuffer; slice when it does not (never for an index this large).
    const owned = buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength;
    const ab = (
      owned ? buf.buffer : buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length)
    ) as ArrayBuffer;
    const transfer = [ab];
    if (check) transfer.push(check.changed.buffer as ArrayBuffer, check.racy.buffer as ArrayBuffer);
    post({ type: 'loaded', buffer: ab, check }, transfer);
  } catch (err) {
    post({ type: err instanceof IndexFormatError ? 'unusable' : 'failed', message: (err as Error).message });
  }
}
