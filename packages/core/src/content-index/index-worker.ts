import { parentPort, workerData } from 'node:worker_threads';
import { createSensitiveFence } from '../fence/index.js';
import { buildIndex, buildPart } from './build.js';
import { IndexFormatError, parseIndexHead, readIndexHead } from './format.js';
import { checkRecords } from './load.js';
import { encodeLists, type PostingsPart } from './postings-builder.js';

/**
 * The index's work off the caller's thread (a server or MCP process keeps answering meanwhile):
 *
 * - `build`: builds and writes an index. The fence is rebuilt here from its anchors: functions do not cross
 *   a thread boundary.
 * - `part`: reads and indexes one range of a build's files for the thread running the build (build.ts), and
 *   transfers its lists back.
 * - `encode`: encodes a range of the merged lists of a build's parts (their pages are shared memory) while
 *   the build's thread encodes the rest.
 * - `load`: opens a persisted index, reads its tables and checks it whole (checksum, structure); then — once
 *   the caller sends `stat` (its watchers are in place by then) — stats every indexed file and hands the
 *   tables over (transferred, not copied) with the ids that changed. It reads through the caller's open
 *   file, which the caller keeps (it reads lists from it), and re-parses the tables without the checksum.
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
  | {
      /** One range of a build's files (build.ts), for the thread running `build`; progress in shared memory. */
      task: 'part';
      root: string;
      paths: string[];
      blockBytes: number;
      progress: SharedArrayBuffer;
      slot: number;
    }
  | {
      /** The lists of keys[from, to) of a build's parts, encoded for the thread merging them (build.ts). */
      task: 'encode';
      parts: PostingsPart[];
      idOffsets: number[];
      idSpace: number;
      keys: Uint32Array;
      from: number;
      to: number;
      /** Touched memory for the stored lists (encodeLists' pool): the scratch of every part but the first. */
      pool: ArrayBuffer[];
    }
  | {
      /** `fd`: the index file, opened by the loading thread (which owns it: lists are read from it later). */
      task: 'load';
      root: string;
      fd: number;
      stat: boolean;
    };

const data = workerData as IndexWorkerData;
const post = (m: unknown, transfer: ArrayBuffer[] = []) => parentPort?.postMessage(m, transfer);

if (data.task === 'build') {
  const fence = createSensitiveFence({ home: data.fence.home, extra: data.fence.extra });
  try {
    const result = await buildIndex(data.root, data.dir, (abs) => fence.isSensitiveCanonical(abs), {
      onProgress: (progress) => post({ type: 'progress', progress }),
      ...(data.blockBytes !== undefined ? { blockBytes: data.blockBytes } : {}),
    });
    post({ type: 'done', result });
  } catch (err) {
    post({ type: 'failed', message: (err as Error).message });
  }
} else if (data.task === 'part') {
  try {
    const part = buildPart(
      data.root,
      data.paths,
      data.blockBytes,
      Date.now,
      new Float64Array(data.progress),
      data.slot,
    );
    // Transferred, not copied; the postings are shared memory (sent as they are).
    const buffers = [part.records, part.blocks, part.newlines].map((a) => a.buffer as ArrayBuffer);
    post({ type: 'done', result: part }, [...buffers, ...part.scratch]);
  } catch (err) {
    post({ type: 'failed', message: (err as Error).message });
  }
} else if (data.task === 'encode') {
  try {
    const r = encodeLists(data.parts, data.idOffsets, data.idSpace, data.keys, data.from, data.to, data.pool);
    // Several pages may share a buffer (a pool's): each buffer is transferred once.
    const pages = new Set(r.pages.map((page) => page.buffer as ArrayBuffer));
    post({ type: 'done', result: r }, [
      r.counts.buffer as ArrayBuffer,
      r.lengths.buffer as ArrayBuffer,
      ...pages,
    ]);
  } catch (err) {
    post({ type: 'failed', message: (err as Error).message });
  }
} else {
  // Listening before the synchronous work: the caller's `stat` may arrive while it runs.
  const statAllowed = data.stat
    ? new Promise<void>((resolve) => parentPort?.once('message', () => resolve()))
    : Promise.resolve();
  try {
    const head = readIndexHead(data.fd);
    const parsed = parseIndexHead(head, data.root, true);
    await statAllowed;
    const check = data.stat ? checkRecords(data.root, parsed) : null;
    const buf = head.head;
    // A buffer this large owns its ArrayBuffer; slice when it does not (a tiny index from the pool).
    const owned = buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength;
    const ab = (
      owned ? buf.buffer : buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length)
    ) as ArrayBuffer;
    const transfer = [ab];
    if (check) transfer.push(check.changed.buffer as ArrayBuffer, check.racy.buffer as ArrayBuffer);
    post({ type: 'loaded', buffer: ab, fileBytes: head.fileBytes, mtimeMs: head.mtimeMs, check }, transfer);
  } catch (err) {
    post({ type: err instanceof IndexFormatError ? 'unusable' : 'failed', message: (err as Error).message });
  }
}
