import * as fs from 'node:fs';
import { blockCount } from './blocks.js';
import { FLAG_RACY, FLAG_UNINDEXED, type IndexFileData, writeIndexFile } from './format.js';
import { GRAM, GramCollector } from './grams.js';
import {
  BUILD_PROGRESS_MS,
  INDEX_BLOCK_BYTES,
  MAX_INDEX_TEXT_SHARE,
  MAX_INDEXED_FILE_BYTES,
  MIN_TEXT_FOR_SIZE_BOUND,
  RACY_MTIME_MS,
  UNLISTED_BLOCK_SHARE,
  UNLISTED_MIN_BLOCKS,
} from './limits.js';
import { PostingsBuilder } from './postings-builder.js';
import { scanTree } from './tree.js';

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

/**
 * Builds the index of `root` and writes it to `dir`. Synchronous by design: it runs in a worker thread
 * (index-worker.ts) or in a CLI that has nothing else to do. Each file is stat'ed through the descriptor it
 * is read from, so the recorded size, mtime and inode describe the bytes indexed.
 */
export function buildIndex(
  root: string,
  dir: string,
  exclude: (abs: string) => boolean,
  onProgress?: (p: BuildProgress) => void,
  now: () => number = Date.now,
  blockBytes: number = INDEX_BLOCK_BYTES,
  unlistedMinBlocks: number = UNLISTED_MIN_BLOCKS,
): BuildResult {
  const started = now();
  onProgress?.({ phase: 'walk', files: 0, totalFiles: 0, bytes: 0 });
  const tree = scanTree(root, exclude);
  const paths = tree.files;
  const records = new Float64Array(paths.length * 4);
  const firstBlock = new Uint32Array(paths.length);
  const blocks = new Uint32Array(paths.length);
  let nextBlock = 0;
  const collector = new GramCollector();
  const postings = new PostingsBuilder();
  let buf = Buffer.allocUnsafe(1 << 20);
  let textBytes = 0;
  let lastReport = now();
  for (let id = 0; id < paths.length; id++) {
    const at = id * 4;
    records[at + 3] = FLAG_UNINDEXED;
    firstBlock[id] = nextBlock;
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
      // Read to EOF, not to the stat'ed size: a file that grew while being read is recorded as racy below.
      let len = 0;
      for (;;) {
        if (len === buf.length) {
          if (len >= MAX_INDEXED_FILE_BYTES) break;
          const g = Buffer.allocUnsafe(buf.length * 2);
          buf.copy(g, 0, 0, len);
          buf = g;
        }
        const n = fs.readSync(fd, buf, len, buf.length - len, null);
        if (n === 0) break;
        len += n;
      }
      if (len !== st.size || len > MAX_INDEXED_FILE_BYTES) continue;
      const n = blockCount(len, blockBytes);
      for (let k = 0; k < n; k++) {
        const start = k * blockBytes;
        collector.collect(buf, start, Math.min(len, start + blockBytes + GRAM - 1));
        postings.add(nextBlock + k, collector.list());
      }
      blocks[id] = n;
      textBytes += len;
      records[at + 3] = st.mtimeMs >= now() - RACY_MTIME_MS ? FLAG_RACY : 0;
    } catch {
      // unreadable: stays FLAG_UNINDEXED, so every search reads it (and reports what it finds)
    } finally {
      fs.closeSync(fd);
      nextBlock += blocks[id]! + 1;
    }
    if (onProgress && now() - lastReport >= BUILD_PROGRESS_MS) {
      lastReport = now();
      onProgress({ phase: 'read', files: id + 1, totalFiles: paths.length, bytes: textBytes });
    }
  }
  onProgress?.({ phase: 'write', files: paths.length, totalFiles: paths.length, bytes: textBytes });
  const data: IndexFileData = {
    root,
    builtAt: started,
    textBytes,
    paths,
    records,
    blockBytes,
    firstBlock,
    blocks,
    postings: postings.serialize(
      postings.listLimit(
        maxListed(blocks, unlistedMinBlocks),
        textBytes < MIN_TEXT_FOR_SIZE_BOUND
          ? Number.POSITIVE_INFINITY
          : MAX_INDEX_TEXT_SHARE * textBytes - fixedBytes(paths, postings.distinctGrams),
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

/** The longest list kept (postings-builder.ts UNLISTED): UNLISTED_BLOCK_SHARE of the blocks, at least the minimum. */
function maxListed(blocks: Uint32Array, minBlocks: number): number {
  let total = 0;
  for (let i = 0; i < blocks.length; i++) total += blocks[i]!;
  return Math.max(minBlocks, Math.floor(total * UNLISTED_BLOCK_SHARE));
}

/** What the index holds besides the lists' bytes: per-file records, paths and block table, per-gram table. */
function fixedBytes(paths: readonly string[], grams: number): number {
  let pathBytes = 0;
  for (const p of paths) pathBytes += p.length + 1;
  return paths.length * (32 + 8) + pathBytes + grams * 16 + 4096;
}
