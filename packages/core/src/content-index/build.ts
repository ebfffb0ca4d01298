import * as fs from 'node:fs';
import * as os from 'node:os';
import { Worker } from 'node:worker_threads';
import { startsWithUtf16Bom } from '../search/searcher.js';
import { coreScriptUrl } from '../util/package-files.js';
import { blockCount } from './blocks.js';
import { FLAG_NUL, FLAG_RACY, FLAG_UNINDEXED, type IndexFileToWrite, writeIndexFile } from './format.js';
import { gramTableBytes } from './gram-table.js';
import { GRAM, GramCollector } from './grams.js';
import type { IndexWorkerData } from './index-worker.js';
import {
  BUILD_FILE_COST_BYTES,
  BUILD_PARALLEL_MIN_FILES,
  BUILD_PROGRESS_MS,
  BUILD_WORKERS,
  INDEX_BLOCK_BYTES,
  MAX_INDEX_TEXT_SHARE,
  MAX_INDEXED_FILE_BYTES,
  MIN_TEXT_FOR_SIZE_BOUND,
  RACY_MTIME_MS,
  UNLISTED_BLOCK_SHARE,
  UNLISTED_MIN_BLOCKS,
} from './limits.js';
import {
  type EncodedLists,
  encodeLists,
  grow32,
  mergedKeys,
  PostingsBuilder,
  PostingsMerge,
  type PostingsPart,
} from './postings-builder.js';
import { scanTree } from './tree.js';

/** Progress of an index build, reported as it walks, reads and writes (for a progress line). */
export interface BuildProgress {
  phase: 'walk' | 'read' | 'write';
  files: number;
  totalFiles: number;
  bytes: number;
}

export interface BuildResult {
  files: number;
  /** Bytes of text indexed. */
  textBytes: number;
  /** Size of the index file. */
  indexBytes: number;
  truncated: boolean;
  elapsedMs: number;
}

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

export interface BuildOptions {
  onProgress?: (p: BuildProgress) => void;
  now?: () => number;
  blockBytes?: number;
  unlistedMinBlocks?: number;
  /** Threads reading and indexing files (default: BUILD_WORKERS, at most the machine's cores). */
  workers?: number;
  /** A tree with fewer files is built on one thread (a worker's start costs more than it saves). */
  parallelMinFiles?: number;
}

/**
 * Builds the index of `root` and writes it to `dir`. It runs in a worker thread (index-worker.ts) or in a CLI
 * that has nothing else to do, and shares the files with one more thread per extra worker: each reads a
 * consecutive range of files (split by size) into its own postings, and the parts are appended in order
 * (PostingsMerge), so the index is the one a single thread writes, byte for byte. Each file is stat'ed
 * through the descriptor it is read from, so the recorded size, mtime and inode describe the bytes indexed.
 */
export async function buildIndex(
  root: string,
  dir: string,
  exclude: (abs: string) => boolean,
  options: BuildOptions = {},
): Promise<BuildResult> {
  const { onProgress, now = Date.now, blockBytes = INDEX_BLOCK_BYTES } = options;
  const started = now();
  onProgress?.({ phase: 'walk', files: 0, totalFiles: 0, bytes: 0 });
  const tree = scanTree(root, exclude);
  const paths = tree.files;
  const workers = Math.max(1, Math.min(options.workers ?? BUILD_WORKERS, os.availableParallelism()));
  const split =
    workers > 1 && paths.length >= (options.parallelMinFiles ?? BUILD_PARALLEL_MIN_FILES)
      ? splitBySize(root, paths, workers)
      : [0, paths.length];
  // The other ranges go to helper threads; this thread reads the first. Progress comes back through shared
  // counters (files, bytes per range): this thread is busy, not listening for messages.
  const shared = new Float64Array(new SharedArrayBuffer(8 * 2 * (split.length - 1)));
  const helpers = split.slice(1, -1).map((from, i) =>
    runHelper<PartResult>({
      task: 'part',
      root,
      paths: paths.slice(from, split[i + 2]),
      blockBytes,
      progress: shared.buffer as SharedArrayBuffer,
      slot: i + 1,
    }),
  );
  let lastReport = now();
  const report = () => {
    let files = 0;
    let bytes = 0;
    for (let s = 0; s < shared.length; s += 2) {
      files += shared[s]!;
      bytes += shared[s + 1]!;
    }
    onProgress?.({ phase: 'read', files, totalFiles: paths.length, bytes });
  };
  let parts: PartResult[];
  try {
    const first = buildPart(root, paths.slice(0, split[1]), blockBytes, now, shared, 0, () => {
      if (onProgress && now() - lastReport >= BUILD_PROGRESS_MS) {
        lastReport = now();
        report();
      }
    });
    const ticker = onProgress ? setInterval(() => report(), BUILD_PROGRESS_MS) : null;
    try {
      parts = [first, ...(await Promise.all(helpers.map((h) => h.result)))];
    } finally {
      if (ticker) clearInterval(ticker);
    }
  } finally {
    for (const h of helpers) void h.worker.terminate();
  }
  const records = new Float64Array(paths.length * 4);
  const firstBlock = new Uint32Array(paths.length);
  const blocks = new Uint32Array(paths.length);
  const idOffsets: number[] = [];
  let nextBlock = 0;
  let textBytes = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    const from = split[p]!;
    records.set(part.records, from * 4);
    blocks.set(part.blocks, from);
    idOffsets.push(nextBlock);
    for (let id = from; id < split[p + 1]!; id++) {
      firstBlock[id] = nextBlock;
      nextBlock += blocks[id]! + 1;
    }
    textBytes += part.textBytes;
  }
  const newlines = new Uint32Array(nextBlock);
  for (let p = 0; p < parts.length; p++) newlines.set(parts[p]!.newlines, idOffsets[p]!);
  onProgress?.({ phase: 'write', files: paths.length, totalFiles: paths.length, bytes: textBytes });
  const merged = await mergeParts(
    parts.map((p) => p.postings),
    idOffsets,
    nextBlock,
    parts.map((p) => p.scratch),
  );
  parts.length = 0; // the parts' lists are held by the merge; the rest can go
  const data: IndexFileToWrite = {
    root,
    builtAt: started,
    textBytes,
    paths,
    records,
    blockBytes,
    firstBlock,
    blocks,
    newlines,
    postings: merged.serialize(
      merged.listLimit(
        maxListed(blocks, options.unlistedMinBlocks ?? UNLISTED_MIN_BLOCKS),
        textBytes < MIN_TEXT_FOR_SIZE_BOUND
          ? Number.POSITIVE_INFINITY
          : MAX_INDEX_TEXT_SHARE * textBytes -
              fixedBytes(paths, nextBlock) -
              gramTableBytes(merged.counts, merged.lengths),
      ),
    ),
  };
  const indexBytes = writeIndexFile(dir, data);
  return {
    files: paths.length,
    textBytes,
    indexBytes,
    truncated: tree.truncated,
    elapsedMs: now() - started,
  };
}

/** One range of files read and indexed, ids (blocks) numbered from 0. */
export interface PartResult {
  /** size, mtimeMs, ino, flags per file (format.ts). */
  records: Float64Array;
  /** Blocks per file. */
  blocks: Uint32Array;
  /** Newlines per block id (format.ts), ids of this part. */
  newlines: Uint32Array;
  textBytes: number;
  postings: PostingsPart;
  /** The builder's scratch memory, for the merge's pages (PostingsBuilder.scratchPages). */
  scratch: ArrayBuffer[];
}

/**
 * Reads and indexes `paths` (a range of the tree's files). Progress goes to `progress[2·slot]` (files) and
 * `progress[2·slot + 1]` (bytes), shared with the thread that reports it.
 */
export function buildPart(
  root: string,
  paths: readonly string[],
  blockBytes: number,
  now: () => number,
  progress: Float64Array,
  slot: number,
  onFile?: () => void,
): PartResult {
  const records = new Float64Array(paths.length * 4);
  const blocks = new Uint32Array(paths.length);
  let newlines = new Uint32Array(1 << 12);
  let nextBlock = 0;
  const collector = new GramCollector();
  const postings = new PostingsBuilder();
  let buf = Buffer.allocUnsafe(1 << 20);
  let textBytes = 0;
  for (let id = 0; id < paths.length; id++) {
    const at = id * 4;
    records[at + 3] = FLAG_UNINDEXED;
    blocks[id] = 1;
    let fd: number;
    try {
      fd = fs.openSync(`${root}/${paths[id]}`, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch {
      nextBlock += 2;
      continue;
    }
    try {
      const st = fs.fstatSync(fd);
      records[at] = st.size;
      records[at + 1] = st.mtimeMs;
      records[at + 2] = st.ino;
      if (!st.isFile() || st.size > MAX_INDEXED_FILE_BYTES) continue;
      if (buf.length < st.size + 1) buf = Buffer.allocUnsafe(Math.max(st.size + 1, buf.length * 2));
      // Read to EOF, not to the stat'ed size: a file that grew while being read is not indexed (below). A read
      // of a regular file that returns less than asked for has met the end: no second read to learn it.
      let len = 0;
      for (;;) {
        if (len === buf.length) {
          if (len >= MAX_INDEXED_FILE_BYTES) break;
          const g = Buffer.allocUnsafe(buf.length * 2);
          buf.copy(g, 0, 0, len);
          buf = g;
        }
        const want = buf.length - len;
        const n = fs.readSync(fd, buf, len, want, null);
        len += n;
        if (n < want) break;
      }
      if (len !== st.size || len > MAX_INDEXED_FILE_BYTES) continue;
      const n = blockCount(len, blockBytes);
      if (newlines.length < nextBlock + n + 1) newlines = grow32(newlines, 2 * (nextBlock + n + 1));
      for (let k = 0; k < n; k++) {
        const start = k * blockBytes;
        const own = Math.min(len, start + blockBytes);
        newlines[nextBlock + k] = collector.collect(buf, start, Math.min(len, own + GRAM - 1), own);
        postings.add(nextBlock + k, collector.list());
      }
      blocks[id] = n;
      textBytes += len;
      records[at + 3] =
        (st.mtimeMs >= now() - RACY_MTIME_MS ? FLAG_RACY : 0) |
        (buf.subarray(0, len).indexOf(0) >= 0 ? FLAG_NUL : 0) |
        // The searcher decodes UTF-16 text: its literals are not in these bytes, so the file is always searched.
        (startsWithUtf16Bom(buf, len) ? FLAG_UNINDEXED : 0);
    } catch {
      // unreadable: stays FLAG_UNINDEXED, so every search reads it (and reports what it finds)
    } finally {
      fs.closeSync(fd);
      nextBlock += blocks[id]! + 1;
    }
    progress[slot * 2] = id + 1;
    progress[slot * 2 + 1] = textBytes;
    onFile?.();
  }
  // Ids past the part's last block (its last separator) were never written: zeros, as the table wants.
  if (newlines.length < nextBlock) newlines = grow32(newlines, nextBlock);
  const part = postings.finish();
  return {
    records,
    blocks,
    newlines: newlines.slice(0, nextBlock),
    textBytes,
    postings: part,
    scratch: postings.scratchPages(),
  };
}

/**
 * Where to cut `paths` into `n` consecutive ranges of about equal work: bytes to read plus a per-file cost
 * (open, stat, close). Sizes from lstat; a file that cannot be stat'ed counts as empty.
 */
function splitBySize(root: string, paths: readonly string[], n: number): number[] {
  const weight = new Float64Array(paths.length);
  let total = 0;
  for (let i = 0; i < paths.length; i++) {
    let size = 0;
    try {
      size = fs.lstatSync(`${root}/${paths[i]}`, { throwIfNoEntry: false })?.size ?? 0;
    } catch {
      size = 0;
    }
    weight[i] = Math.min(size, MAX_INDEXED_FILE_BYTES) + BUILD_FILE_COST_BYTES;
    total += weight[i]!;
  }
  const cuts = [0];
  let sum = 0;
  for (let i = 0; i < paths.length && cuts.length < n; i++) {
    sum += weight[i]!;
    if (sum >= (total * cuts.length) / n) cuts.push(i + 1);
  }
  while (cuts.length < n) cuts.push(paths.length);
  cuts.push(paths.length);
  return cuts;
}

/**
 * The parts' lists merged and encoded: with several parts (a build on several threads) a helper thread encodes
 * the upper half of the keys while this one encodes the lower half (every list is decoded and re-coded:
 * ~20 ns a posting, seconds on a Linux-sized tree). Each list depends on its ids only: the same bytes. The
 * stored lists go to the parts' scratch memory first (`pools`, per part: the first part's for this thread,
 * the others' for the helper).
 */
async function mergeParts(
  parts: PostingsPart[],
  idOffsets: number[],
  idSpace: number,
  pools: ArrayBuffer[][],
): Promise<PostingsMerge> {
  const keys = mergedKeys(parts);
  if (parts.length < 2) {
    const all = encodeLists(parts, idOffsets, idSpace, keys, 0, keys.length, pools[0]);
    return new PostingsMerge(parts, idOffsets, idSpace, { keys, ranges: [all] });
  }
  const mid = keys.length >>> 1;
  const helperPool = pools.slice(1).flat();
  const upper = runHelper<EncodedLists>(
    { task: 'encode', parts, idOffsets, idSpace, keys, from: mid, to: keys.length, pool: helperPool },
    helperPool,
  );
  try {
    const lower = encodeLists(parts, idOffsets, idSpace, keys, 0, mid, pools[0]);
    return new PostingsMerge(parts, idOffsets, idSpace, { keys, ranges: [lower, await upper.result] });
  } finally {
    void upper.worker.terminate();
  }
}

/**
 * A helper thread of a build (index-worker.ts): task `part` builds one part, `encode` encodes a range of the
 * merged lists; its answer is transferred back.
 */
function runHelper<T>(
  data: Extract<IndexWorkerData, { task: 'part' | 'encode' }>,
  transferList: ArrayBuffer[] = [],
): {
  worker: Worker;
  result: Promise<T>;
} {
  const worker = new Worker(workerScriptUrl(), { workerData: data, transferList });
  const result = new Promise<T>((resolve, reject) => {
    worker.on('message', (m: { type: string; result?: T; message?: string }) => {
      if (m.type === 'done' && m.result !== undefined) resolve(m.result);
      else if (m.type === 'failed') reject(new Error(`index build failed: ${m.message}`));
    });
    worker.on('error', reject);
    worker.on('exit', () => reject(new Error('index build helper stopped')));
  });
  result.catch(() => {});
  return { worker, result };
}

/** The compiled worker script (util/package-files.ts: dist/'s, or a bundle's own). */
export function workerScriptUrl(): URL {
  return coreScriptUrl('content-index/index-worker.js');
}

/** The longest list kept (postings-builder.ts UNLISTED): UNLISTED_BLOCK_SHARE of the blocks, at least the minimum. */
function maxListed(blocks: Uint32Array, minBlocks: number): number {
  let total = 0;
  for (let i = 0; i < blocks.length; i++) total += blocks[i]!;
  return Math.max(minBlocks, Math.floor(total * UNLISTED_BLOCK_SHARE));
}

/**
 * What the index holds besides the lists and the gram table: per-file records, paths and block table,
 * per-block-id newline counts.
 */
function fixedBytes(paths: readonly string[], blockIds: number): number {
  let pathBytes = 0;
  for (const p of paths) pathBytes += p.length + 1;
  return paths.length * (32 + 8) + pathBytes + blockIds * 4 + 4096;
}
