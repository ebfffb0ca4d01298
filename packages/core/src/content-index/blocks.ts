/**
 * Files are indexed in blocks: block k of a file holds the grams (grams.ts) that start in its bytes
 * [k·B, (k+1)·B), reading GRAM − 1 bytes past the end so that every gram of the file is in exactly one block.
 * A literal's grams must then co-occur in one block or in two adjacent ones (query.ts), which a common
 * identifier scattered through a large file rarely manages, while a whole-file set would always hold them.
 *
 * Ids: each file's blocks are numbered consecutively from `firstBlock[file]`, and one unused id separates a
 * file from the next, so "block k or block k+1" never pairs blocks of two different files.
 */

/** Blocks of a file of `length` bytes (at least one, so that every file has an id). */
export function blockCount(length: number, blockBytes: number): number {
  return Math.max(1, Math.ceil(length / blockBytes));
}

/** The file that owns block id `block`, or -1 for a separator id. `firstBlock` has one entry per file, ascending. */
export function fileOfBlock(firstBlock: Uint32Array, blocks: Uint32Array, block: number): number {
  let lo = 0;
  let hi = firstBlock.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (firstBlock[mid]! <= block) lo = mid;
    else hi = mid - 1;
  }
  if (firstBlock.length === 0 || firstBlock[lo]! > block) return -1;
  return block < firstBlock[lo]! + blocks[lo]! ? lo : -1;
}

/**
 * The byte ranges of file `file` (of `size` bytes) covered by its blocks among `ks` (ascending block ids, as
 * query.ts `evaluateBlocks` gives them): [start, end) pairs, adjacent blocks joined. Every literal occurrence
 * that put a block in `ks` starts inside one of these ranges.
 */
export function blockRanges(
  firstBlock: Uint32Array,
  blocks: Uint32Array,
  ks: Uint32Array,
  file: number,
  blockBytes: number,
  size: number,
): number[] {
  const first = firstBlock[file]!;
  const last = first + blocks[file]!; // exclusive
  const out: number[] = [];
  for (let j = lowerBound(ks, first); j < ks.length && ks[j]! < last; j++) {
    const start = (ks[j]! - first) * blockBytes;
    const end = Math.min(size, start + blockBytes);
    if (start >= end) continue;
    if (out.length > 0 && out[out.length - 1] === start) out[out.length - 1] = end;
    else out.push(start, end);
  }
  return out;
}

/** The first index of `sorted` holding a value ≥ `key`. */
export function lowerBound(sorted: Uint32Array, key: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
