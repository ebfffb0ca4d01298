/**
 * The gram table: for each gram the index knows, its number of ids and where its list lies — in about 4 bytes
 * a gram, where four uint32 arrays (key, count, offset, length) took 16. On the npm corpus (1.87 M grams) the
 * arrays were 30 MB of a 78 MB index, and the size bound (limits.ts MAX_INDEX_TEXT_SHARE) took those bytes
 * from the lists: every gram of `createRequire`, `useSyncExternalStore`, … lost its list and 12 of 16 selective
 * queries scanned. The bytes saved here go to lists.
 *
 * Layout: grams are bucketed by their high DIR_BITS bits. `dir[b]` is where bucket b's entries start in
 * `entries` and `listDir[b]` where its lists start in the lists' bytes (both with one extra slot at the end:
 * the totals). An entry is the gram's low bits (one byte), its count as a varint (0: left out, postings-builder
 * UNLISTED) and, when listed, its list's byte length as a varint. Lists are contiguous in gram order, so a list
 * starts where its bucket's lists start plus the lengths before it: a lookup reads one bucket (~30 entries).
 */
import { GRAM_BITS } from './grams.js';
import { UNLISTED, varintLength, writeVarint } from './postings-builder.js';

/** Bits of a gram kept in its entry (one byte)… */
const LOW_BITS = 5;
/** …and the bits that choose its bucket. */
const DIR_BITS = GRAM_BITS - LOW_BITS;
const LOW_MASK = (1 << LOW_BITS) - 1;
const BUCKETS = 1 << DIR_BITS;

export interface GramTable {
  /** Grams in the table. */
  grams: number;
  /** Per bucket, and once more at the end: where its entries start in `entries`. */
  dir: Uint32Array;
  /** Per bucket, and once more at the end: where its lists start in the lists' bytes. */
  listDir: Uint32Array;
  entries: Uint8Array;
}

/** A gram's entry: count 0 when its list was left out. */
export interface GramEntry {
  gram: number;
  count: number;
  offset: number;
  length: number;
}

/**
 * The table of the lists a build writes: `keys` ascending, per key its count (or UNLISTED), offset and length;
 * the lists must be contiguous in key order (PostingsMerge.serialize writes them so).
 */
export function encodeGramTable(
  keys: Uint32Array,
  counts: Uint32Array,
  offsets: Uint32Array,
  lengths: Uint32Array,
): GramTable {
  const dir = new Uint32Array(BUCKETS + 1);
  const listDir = new Uint32Array(BUCKETS + 1);
  let size = 0;
  for (let i = 0; i < keys.length; i++)
    size += 1 + (counts[i] === UNLISTED ? 1 : varintLength(counts[i]!) + varintLength(lengths[i]!));
  const entries = new Uint8Array(size);
  let at = 0;
  let listAt = 0;
  let bucket = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const b = key >>> LOW_BITS;
    if (b >= BUCKETS || (i > 0 && key <= keys[i - 1]!)) throw new Error('gram table: keys out of order');
    if (counts[i] !== UNLISTED && offsets[i] !== listAt) throw new Error('gram table: lists not contiguous');
    while (bucket <= b) {
      dir[bucket] = at;
      listDir[bucket++] = listAt;
    }
    entries[at++] = key & LOW_MASK;
    if (counts[i] === UNLISTED) entries[at++] = 0;
    else {
      at = writeVarint(entries, at, counts[i]!);
      at = writeVarint(entries, at, lengths[i]!);
      listAt += lengths[i]!;
    }
  }
  while (bucket <= BUCKETS) {
    dir[bucket] = at;
    listDir[bucket++] = listAt;
  }
  return { grams: keys.length, dir, listDir, entries };
}

/** Bytes of the table for these lists, at most (every list kept: a left-out one takes less). */
export function gramTableBytes(counts: Uint32Array, lengths: ArrayLike<number>): number {
  let size = 8 * (BUCKETS + 1);
  for (let i = 0; i < counts.length; i++) size += 1 + varintLength(counts[i]!) + varintLength(lengths[i]!);
  return size;
}

/** Reads one varint of `e` at `pos.at`, advancing it (undefined past the end). */
function varint(e: Uint8Array, pos: { at: number }, end: number): number | undefined {
  let v = 0;
  let mul = 1;
  while (pos.at < end) {
    const byte = e[pos.at++]!;
    v += (byte & 0x7f) * mul;
    if (byte < 0x80) return v;
    mul *= 128;
    if (mul > 2 ** 35) return undefined;
  }
  return undefined;
}

/** The entry of `gram`, or null when the table does not hold it. */
export function findGram(t: GramTable, gram: number): GramEntry | null {
  const b = gram >>> LOW_BITS;
  if (b >= BUCKETS) return null;
  const low = gram & LOW_MASK;
  const e = t.entries;
  const end = t.dir[b + 1]!;
  const pos = { at: t.dir[b]! };
  let offset = t.listDir[b]!;
  while (pos.at < end) {
    const k = e[pos.at++]!;
    const count = varint(e, pos, end)!;
    const length = count === 0 ? 0 : varint(e, pos, end)!;
    if (k === low) return { gram, count, offset, length };
    if (k > low) return null;
    offset += length;
  }
  return null;
}

/**
 * Calls `fn` with every entry in gram order, after checking the table's structure against the lists'
 * `dataBytes`; throws an Error saying what is wrong (the caller refuses the index). Runs at every start-up
 * (1.4–1.9 M entries): varints are read inline.
 */
export function forEachGram(t: GramTable, dataBytes: number, fn?: (entry: GramEntry) => void): void {
  const { dir, listDir, entries: e } = t;
  if (dir.length !== BUCKETS + 1 || listDir.length !== BUCKETS + 1) throw new Error('bad gram directory');
  if (dir[0] !== 0 || dir[BUCKETS] !== e.length || listDir[0] !== 0 || listDir[BUCKETS]! > dataBytes)
    throw new Error('bad gram directory');
  let grams = 0;
  let at = 0;
  for (let b = 0; b < BUCKETS; b++) {
    const end = dir[b + 1]!;
    if (dir[b] !== at || end < at) throw new Error('bad gram directory');
    let offset = listDir[b]!;
    let prev = -1;
    while (at < end) {
      const k = e[at++]!;
      // Two varints: the count, then (when listed) the length; -1 where one runs past the bucket.
      let count = 0;
      let length = 0;
      for (let field = 0; field < 2; field++) {
        let v = 0;
        let mul = 1;
        for (;;) {
          if (at >= end || mul > 2 ** 35) {
            v = -1;
            break;
          }
          const byte = e[at++]!;
          v += (byte & 0x7f) * mul;
          if (byte < 0x80) break;
          mul *= 128;
        }
        if (field === 0) count = v;
        else length = v;
        if (count <= 0) break; // left out (no length) or malformed
      }
      // A listed gram's list holds at least a bit per id (list-codec.ts).
      if (
        k > LOW_MASK ||
        k <= prev ||
        count < 0 ||
        length < 0 ||
        (count > 0 && length < Math.ceil(count / 8))
      )
        throw new Error('bad gram entry');
      prev = k;
      fn?.({ gram: (b << LOW_BITS) | k, count, offset, length });
      offset += length;
      grams++;
    }
    if (offset !== listDir[b + 1]) throw new Error('bad gram directory');
  }
  if (grams !== t.grams) throw new Error('bad gram count');
}
