import { GRAM_SPACE } from './grams.js';
import { listOrder } from './list-codec.js';

/**
 * Postings lists built in one pass over the files, without a JavaScript object per gram. Ids (the numbers of
 * 64 KiB pieces of files, build.ts) arrive in increasing order, so each list is written as delta varints as it
 * grows and never sorted.
 *
 * Speed: a build is bound by memory, one list per gram being touched at random. So postings are batched
 * (a few million) and sorted by gram with two cache-sized counting sorts, and each gram's ids of the batch
 * are appended in one go: a list is touched once per batch instead of once per posting, grams in order. A
 * gram's slot (assigned in gram order within a batch, so later batches walk the slots nearly in order) has
 * a 32-byte record: last id, count, newest full cell, and the list's newest 16 bytes inline. When those fill
 * up they go to a new cell at the end of the cell pages, linked back to the previous cell, so no older cell
 * is touched again until the lists are written (`PostingsMerge`).
 * Memory: 32 bytes per distinct gram, 8 MiB of slot numbers, 1.25 bytes per posting byte (16 payload bytes +
 * a 4-byte link per cell), the batch (16 bytes per posting). It is allocated in pages as needed: on the VMs
 * this runs on, the first touch of fresh memory costs several ms per MB, more than a small build's work.
 *
 * A build may run as several parts over consecutive ranges of files (build.ts: one per thread), each numbering
 * its ids from 0; `PostingsMerge` joins each gram's ids of all parts and stores the list in the index's own
 * code (list-codec.ts), so the result is byte for byte the one-part result.
 */
const REC = 8; // uint32s per record
const LAST = 0;
const COUNT = 1;
const CELL_LINK = 2; // newest full cell + 1 (0: none)
const FILL = 3; // inline bytes used
const INLINE = 16; // byte offset of the inline bytes in a record
const INLINE_BYTES = 16;
const CELL_WORDS = 5; // 16 payload bytes, then the previous cell + 1
const REC_SHIFT = 15; // slots per record page: 2^15 (1 MiB)
const CELL_SHIFT = 18; // cells per cell page: 2^18 (5 MiB)
/** Postings batched before they go to their lists (16 bytes each with the sort's scratch: 64 MiB). */
const BATCH_POSTINGS = 1 << 22;
/** A batch is sorted by a gram's high bits, then within each bucket by these low bits. */
const LOW_BITS = 10;

/** `counts` of a gram whose list was left out (in too many blocks to narrow anything): present everywhere. */
export const UNLISTED = 0xffffffff;

export interface SerializedPostings {
  /** Gram keys, ascending. */
  keys: Uint32Array;
  /** Per key: number of ids (or UNLISTED), byte offset into `data`, byte length. */
  counts: Uint32Array;
  offsets: Uint32Array;
  lengths: Uint32Array;
  data: Uint8Array;
}

/** The postings of a build before they are written: `data` comes as chunks, in order (format.ts streams them). */
export interface PostingsToWrite extends Omit<SerializedPostings, 'data'> {
  data: Uint8Array | { length: number; emit(push: (chunk: Uint8Array) => void): void };
}

/**
 * The lists of one part as the builder left them (in shared memory: the merge's helper reads them in place):
 * per slot, in gram order, the gram and the slot's record fields; the cells.
 */
export interface PostingsPart {
  /** Grams seen, ascending, and the slot of each (shared memory, as the pages: a merge's helper reads them). */
  keys: Uint32Array;
  slots: Uint32Array;
  records: Uint32Array[];
  cells: Uint32Array[];
}

export class PostingsBuilder {
  /** Gram → slot + 1 (0: never seen). */
  private readonly slotOf = new Uint32Array(GRAM_SPACE);
  private slots = 0;
  private slotKey = new Uint32Array(1 << 12);
  private readonly records: Uint32Array[] = [];
  private readonly records8: Uint8Array[] = [];
  private readonly cellPages: Uint32Array[] = [];
  private cells = 0;
  /** Postings not yet in their lists: the grams of each block added, and per block its id and end. */
  private batch = new Uint32Array(1 << 14);
  private batchLen = 0;
  private blockIds = new Uint32Array(1 << 8);
  private blockEnds = new Uint32Array(1 << 8);
  private blockCount = 0;
  /** Scratch of `flush`: postings in gram-bucket order, and the bucket counts. */
  private sortedGrams = new Uint32Array(0);
  private sortedIds = new Uint32Array(0);
  private readonly high = new Uint32Array((GRAM_SPACE >>> LOW_BITS) + 1);
  private readonly low = new Uint32Array((1 << LOW_BITS) + 1);
  /** The batch and the sort's scratch at their full size (touched memory: `scratchPages` reuses it). */
  private readonly scratch: ArrayBuffer[] = [];

  /**
   * The memory of the batch and the sort, as pages for a merge's stored lists (`encodeLists`' pool), for when
   * the builder is done: on the VMs this runs on, touching fresh memory costs ~5 ms a MB.
   */
  scratchPages(): ArrayBuffer[] {
    return [...this.scratch];
  }

  /**
   * Adds `id` (greater than every id added before) to the list of each gram. Postings are batched and go to
   * their lists gram by gram (`flush`): touching each list once per batch instead of once per posting is
   * what makes a build fast (a list's record is a cache miss; a batch is read in order).
   */
  add(id: number, grams: Uint32Array): void {
    if (this.batchLen + grams.length > this.batch.length) {
      if (this.batch.length >= BATCH_POSTINGS) this.flush();
      if (this.batchLen + grams.length > this.batch.length) {
        const grown = new Uint32Array(Math.max(this.batchLen + grams.length, this.batch.length * 2));
        grown.set(this.batch.subarray(0, this.batchLen));
        this.batch = grown;
      }
    }
    this.batch.set(grams, this.batchLen);
    this.batchLen += grams.length;
    if (this.blockCount === this.blockIds.length) {
      this.blockIds = grow32(this.blockIds, this.blockCount * 2);
      this.blockEnds = grow32(this.blockEnds, this.blockCount * 2);
    }
    this.blockIds[this.blockCount] = id;
    this.blockEnds[this.blockCount++] = this.batchLen;
  }

  /**
   * Puts the batch into the lists: a stable counting sort by the gram's high bits, then within each bucket by
   * its low bits (a bucket fits in cache), so each gram's ids come out together, ascending, grams in order.
   */
  private flush(): void {
    const n = this.batchLen;
    if (n === 0) return;
    const batch = this.batch;
    if (this.sortedGrams.length < n) {
      this.sortedGrams = new Uint32Array(batch.length);
      this.sortedIds = new Uint32Array(batch.length);
      if (batch.length >= BATCH_POSTINGS)
        this.scratch.push(
          batch.buffer as ArrayBuffer,
          this.sortedGrams.buffer as ArrayBuffer,
          this.sortedIds.buffer as ArrayBuffer,
        );
    }
    const grams = this.sortedGrams;
    const ids = this.sortedIds;
    const high = this.high;
    high.fill(0);
    for (let i = 0; i < n; i++) high[(batch[i]! >>> LOW_BITS) + 1]!++;
    for (let k = 1; k < high.length; k++) high[k]! += high[k - 1]!;
    for (let b = 0, i = 0; b < this.blockCount; b++) {
      const id = this.blockIds[b]!;
      for (const end = this.blockEnds[b]!; i < end; i++) {
        const g = batch[i]!;
        const at = high[g >>> LOW_BITS]!++;
        grams[at] = g;
        ids[at] = id;
      }
    }
    // Bucket k is now [high[k - 1], high[k]). The batch's own array receives each bucket's ids by gram.
    const low = this.low;
    const lowMask = (1 << LOW_BITS) - 1;
    for (let k = 0, s = 0; k < high.length - 1; k++) {
      const e = high[k]!;
      if (e === s) continue;
      low.fill(0);
      for (let i = s; i < e; i++) low[(grams[i]! & lowMask) + 1]!++;
      for (let l = 1; l < low.length; l++) low[l]! += low[l - 1]!;
      for (let i = s; i < e; i++) batch[s + low[grams[i]! & lowMask]!++] = ids[i]!;
      for (let l = 0, from = s; l <= lowMask; l++) {
        const to = s + low[l]!;
        if (to > from) this.appendRun((k << LOW_BITS) | l, batch, from, to);
        from = to;
      }
      s = e;
    }
    this.batchLen = 0;
    this.blockCount = 0;
  }

  /** Appends `ids[from, to)` (ascending, above the list's last id) to the list of `key`. */
  private appendRun(key: number, ids: Uint32Array, from: number, to: number): void {
    let slot = this.slotOf[key]!;
    if (slot === 0) slot = this.newSlot(key);
    const s = slot - 1;
    const rec = this.records[s >>> REC_SHIFT]!;
    const rec8 = this.records8[s >>> REC_SHIFT]!;
    const at = (s & ((1 << REC_SHIFT) - 1)) * REC;
    let count = rec[at + COUNT]!;
    let last = rec[at + LAST]!;
    let f = rec[at + FILL]!;
    for (let i = from; i < to; i++) {
      const id = ids[i]!;
      const delta = count === 0 ? id : id - last;
      last = id;
      count++;
      if (delta < 0x80 && f < INLINE_BYTES) rec8[at * 4 + INLINE + f++] = delta;
      else {
        rec[at + FILL] = f;
        this.writeVarint(s, delta);
        f = rec[at + FILL]!;
      }
    }
    rec[at + COUNT] = count;
    rec[at + LAST] = last;
    rec[at + FILL] = f;
  }

  private newSlot(key: number): number {
    const s = this.slots++;
    if (s === this.slotKey.length) this.slotKey = grow32(this.slotKey, s * 2);
    if ((s & ((1 << REC_SHIFT) - 1)) === 0) {
      // Shared memory: a second thread reads the pages while the lists are encoded (build.ts).
      const page = new Uint32Array(new SharedArrayBuffer(4 * (REC << REC_SHIFT)));
      this.records.push(page);
      this.records8.push(new Uint8Array(page.buffer));
    }
    this.slotKey[s] = key;
    this.slotOf[key] = s + 1;
    return s + 1;
  }

  private writeVarint(s: number, value: number): void {
    const rec = this.records[s >>> REC_SHIFT]!;
    const rec8 = this.records8[s >>> REC_SHIFT]!;
    const at = (s & ((1 << REC_SHIFT) - 1)) * REC;
    let v = value;
    for (;;) {
      let f = rec[at + FILL]!;
      if (f === INLINE_BYTES) {
        this.spill(rec, at);
        f = 0;
      }
      rec8[at * 4 + INLINE + f] = v >= 0x80 ? (v & 0x7f) | 0x80 : v;
      rec[at + FILL] = f + 1;
      if (v < 0x80) return;
      v = Math.floor(v / 128);
    }
  }

  /** Moves a record's full inline bytes to a new cell, linked back to the record's previous cell. */
  private spill(rec: Uint32Array, at: number): void {
    const c = this.cells++;
    if ((c & ((1 << CELL_SHIFT) - 1)) === 0)
      this.cellPages.push(new Uint32Array(new SharedArrayBuffer(4 * (CELL_WORDS << CELL_SHIFT))));
    const page = this.cellPages[c >>> CELL_SHIFT]!;
    const o = (c & ((1 << CELL_SHIFT) - 1)) * CELL_WORDS;
    page[o] = rec[at + 4]!;
    page[o + 1] = rec[at + 5]!;
    page[o + 2] = rec[at + 6]!;
    page[o + 3] = rec[at + 7]!;
    page[o + 4] = rec[at + CELL_LINK]!;
    rec[at + CELL_LINK] = c + 1;
    rec[at + FILL] = 0;
  }

  /** The lists as they are, slots in gram order. The builder must not be used afterwards. */
  finish(): PostingsPart {
    this.flush();
    this.batch = new Uint32Array(0);
    this.sortedGrams = new Uint32Array(0);
    this.sortedIds = new Uint32Array(0);
    const n = this.slots;
    // Keys are distinct GRAM_BITS-bit numbers: sort them with their slot in the low bits.
    const order = new Float64Array(n);
    for (let s = 0; s < n; s++) order[s] = this.slotKey[s]! * 2 ** 24 + s;
    order.sort();
    const keys = new Uint32Array(new SharedArrayBuffer(4 * n));
    const slots = new Uint32Array(new SharedArrayBuffer(4 * n));
    for (let i = 0; i < n; i++) {
      slots[i] = order[i]! % 2 ** 24;
      keys[i] = this.slotKey[slots[i]!]!;
    }
    return { keys, slots, records: this.records, cells: this.cellPages };
  }
}

/** A copy of `a` with room for `n` entries. */
export function grow32(a: Uint32Array<ArrayBuffer>, n: number): Uint32Array<ArrayBuffer> {
  const g = new Uint32Array(n);
  g.set(a);
  return g;
}

/** The merged keys of consecutive parts: the union of their keys (each ascending), ascending. */
export function mergedKeys(parts: readonly PostingsPart[]): Uint32Array {
  if (parts.length === 1) return parts[0]!.keys.slice();
  const seen = new Uint8Array(GRAM_SPACE);
  let n = 0;
  for (const p of parts) {
    for (const k of p.keys) {
      if (seen[k] === 0) n++;
      seen[k] = 1;
    }
  }
  const keys = new Uint32Array(new SharedArrayBuffer(4 * n)); // read by the merge's helper too
  for (let g = 0, i = 0; g < GRAM_SPACE; g++) if (seen[g] === 1) keys[i++] = g;
  return keys;
}

/** Stored lists of the keys [from, to) of a merge: per key its count and bytes, and the bytes in pages. */
export interface EncodedLists {
  from: number;
  to: number;
  counts: Uint32Array;
  lengths: Float64Array;
  pages: Uint8Array[];
}

/** Per part, its index of each merged key (or -1): both key lists are ascending. */
function partIndexes(parts: readonly PostingsPart[], keys: Uint32Array): Int32Array[] {
  return parts.map((part) => {
    const at = new Int32Array(keys.length).fill(-1);
    const pk = part.keys;
    for (let i = 0, j = 0; i < pk.length; i++) {
      while (keys[j] !== pk[i]) j++;
      at[j] = i;
    }
    return at;
  });
}

/**
 * Merges and encodes the lists of `keys[from, to)` (list-codec.ts): part p's ids shifted by `idOffsets[p]`.
 * Reads the parts only, so two threads can each take a range of keys (build.ts); the parts' pages are then
 * shared memory.
 */
export function encodeLists(
  parts: readonly PostingsPart[],
  idOffsets: readonly number[],
  idSpace: number,
  keys: Uint32Array,
  from: number,
  to: number,
  pool: readonly ArrayBuffer[] = [],
): EncodedLists {
  const at = partIndexes(parts, keys);
  // Pages come from the pool's buffers (a builder's scratch, already touched) before fresh memory.
  const reused: Uint8Array[] = [];
  for (const b of pool)
    for (let o = 0; o + STORE_PAGE <= b.byteLength; o += STORE_PAGE)
      reused.push(new Uint8Array(b, o, STORE_PAGE));
  const counts = new Uint32Array(to - from);
  const lengths = new Float64Array(to - from);
  const pages: Uint8Array[] = [];
  let stored = 0;
  // Byte views of the pages, made once.
  const cells8 = parts.map((part) =>
    part.cells.map((c) => new Uint8Array(c.buffer, c.byteOffset, c.byteLength)),
  );
  const records8 = parts.map((part) =>
    part.records.map((c) => new Uint8Array(c.buffer, c.byteOffset, c.byteLength)),
  );
  let chain = new Uint32Array(1024);
  let out = new Uint8Array(1 << 16);
  for (let j = from; j < to; j++) {
    let count = 0;
    for (let p = 0; p < parts.length; p++) {
      const i = at[p]![j]!;
      if (i < 0) continue;
      const part = parts[p]!;
      const s = part.slots[i]!;
      count += part.records[s >>> REC_SHIFT]![(s & ((1 << REC_SHIFT) - 1)) * REC + COUNT]!;
    }
    const k = listOrder(count, idSpace);
    const lowMask = (1 << k) - 1;
    // A code is at most 63 bits (2n + 1 + k with n ≤ 31 − k): room for the whole list, so the loop never checks.
    if (out.length < count * 8 + 8) out = new Uint8Array(count * 8 + 8);
    // The list's codes (list-codec.ts putCode, same bits) written here with the bit buffer in locals: `acc`
    // holds `bits` (< 8 between codes) not yet written. This loop is a build's hottest after the gram loop.
    let pos = 0;
    let acc = 0;
    let bits = 0;
    // Each part's delta varints (the first: the part's own id), decoded as they are read — cells oldest
    // first (follow the links back, read forward), then the inline tail — and coded at once.
    let prev = -1;
    for (let p = 0; p < parts.length; p++) {
      const i = at[p]![j]!;
      if (i < 0) continue;
      const part = parts[p]!;
      const s = part.slots[i]!;
      const rec = part.records[s >>> REC_SHIFT]!;
      const r = (s & ((1 << REC_SHIFT) - 1)) * REC;
      let m = 0;
      for (let link = rec[r + CELL_LINK]!; link !== 0; ) {
        if (m === chain.length) chain = grow32(chain, m * 2);
        const c = link - 1;
        chain[m++] = c;
        link = part.cells[c >>> CELL_SHIFT]![(c & ((1 << CELL_SHIFT) - 1)) * CELL_WORDS + 4]!;
      }
      let id = 0;
      let first = true;
      let v = 0;
      let shift = 0;
      // Segment x < m: the cell chain[m - 1 - x]; segment m: the inline tail.
      for (let x = 0; x <= m; x++) {
        let bytes: Uint8Array;
        let b: number;
        let end: number;
        if (x < m) {
          const c = chain[m - 1 - x]!;
          bytes = cells8[p]![c >>> CELL_SHIFT]!;
          b = (c & ((1 << CELL_SHIFT) - 1)) * CELL_WORDS * 4;
          end = b + INLINE_BYTES;
        } else {
          bytes = records8[p]![s >>> REC_SHIFT]!;
          b = r * 4 + INLINE;
          end = b + rec[r + FILL]!;
        }
        for (; b < end; b++) {
          const byte = bytes[b]!;
          // Deltas are below 2³¹ (ids are): shifts do.
          v |= (byte & 0x7f) << shift;
          if (byte >= 0x80) {
            shift += 7;
            continue;
          }
          id = first ? v + idOffsets[p]! : id + v;
          first = false;
          v = 0;
          shift = 0;
          const gap = id - prev - 1;
          prev = id;
          const w = (gap >>> k) + 1;
          const n = 31 - Math.clz32(w);
          const len = 2 * n + 1 + k;
          if (len <= 24) {
            // n zeros then w's n + 1 bits are w in 2n + 1 bits; then the gap's low k bits.
            acc = (acc << len) | (w << k) | (gap & lowMask);
            bits += len;
            while (bits >= 8) {
              bits -= 8;
              out[pos++] = acc >>> bits;
            }
            acc &= (1 << bits) - 1;
            continue;
          }
          // A long code (a large gap): its three fields, each in pieces of at most 24 bits, top bits first.
          for (let field = 0; field < 3; field++) {
            const value = field === 0 ? 0 : field === 1 ? w : gap;
            let left = field === 0 ? n : field === 1 ? n + 1 : k;
            while (left > 0) {
              const t = Math.min(left, 24);
              left -= t;
              acc = (acc << t) | ((value >>> left) & ((1 << t) - 1));
              bits += t;
              while (bits >= 8) {
                bits -= 8;
                out[pos++] = acc >>> bits;
              }
              acc &= (1 << bits) - 1;
            }
          }
        }
      }
    }
    if (prev >= idSpace) throw new Error('content index: a block id past the id space');
    if (bits > 0) out[pos++] = acc << (8 - bits); // padded to a byte
    counts[j - from] = count;
    lengths[j - from] = pos;
    for (let done = 0; done < pos; ) {
      const page = Math.floor(stored / STORE_PAGE);
      if (page === pages.length) pages.push(reused.pop() ?? new Uint8Array(STORE_PAGE));
      const o = stored % STORE_PAGE;
      const len = Math.min(pos - done, STORE_PAGE - o);
      pages[page]!.set(out.subarray(done, done + len), o);
      done += len;
      stored += len;
    }
  }
  return { from, to, counts, lengths, pages };
}

/**
 * The lists of consecutive parts as one index's lists, in their stored form (list-codec.ts): part p's ids are
 * shifted by `idOffsets[p]` and appended to the earlier parts' ids, and each whole list is encoded once
 * (its length decides what the size bound keeps). A list depends only on its ids, so the result is byte for
 * byte the one-part result, however the keys were shared out among threads (`encoded`: the ranges, in order,
 * covering every key; by default this thread encodes them all).
 */
export class PostingsMerge {
  /** Grams seen in any part, ascending; per gram its ids in all parts and its stored list's bytes. */
  readonly keys: Uint32Array;
  readonly counts: Uint32Array;
  readonly lengths: Float64Array;
  private readonly ranges: EncodedLists[];

  /** `idSpace`: the index's number of block ids (every id is below it; list-codec.ts `listOrder`). */
  constructor(
    parts: readonly PostingsPart[],
    idOffsets: readonly number[],
    idSpace: number,
    encoded?: { keys: Uint32Array; ranges: EncodedLists[] },
  ) {
    this.keys = encoded?.keys ?? mergedKeys(parts);
    const n = this.keys.length;
    this.ranges = encoded?.ranges ?? [encodeLists(parts, idOffsets, idSpace, this.keys, 0, n)];
    this.counts = new Uint32Array(n);
    this.lengths = new Float64Array(n);
    let next = 0;
    for (const r of this.ranges) {
      if (r.from !== next) throw new Error('postings merge: key ranges do not follow each other');
      this.counts.set(r.counts, r.from);
      this.lengths.set(r.lengths, r.from);
      next = r.to;
    }
    if (next !== n) throw new Error('postings merge: key ranges do not cover the keys');
  }

  /**
   * The longest list to keep so that the lists kept take at most `maxBytes`: the longest lists go first (they
   * narrow a query least). At most `maxListed` in any case.
   */
  listLimit(maxListed: number, maxBytes: number): number {
    const { counts, lengths } = this;
    const n = counts.length;
    let kept = 0;
    for (let j = 0; j < n; j++) if (counts[j]! <= maxListed) kept += lengths[j]!;
    if (kept <= maxBytes) return maxListed;
    // Longest first: count (high) and gram index (low) packed, descending.
    const bySize = new Float64Array(n);
    for (let j = 0; j < n; j++) bySize[j] = counts[j]! * 2 ** 24 + j;
    bySize.sort().reverse();
    let limit = maxListed;
    for (let i = 0; i < n && kept > maxBytes; i++) {
      const j = bySize[i]! % 2 ** 24;
      const count = counts[j]!;
      if (count > maxListed) continue; // left out already
      kept -= lengths[j]!;
      limit = count - 1;
    }
    return limit; // lists as long as the last one dropped go too: fewer bytes still
  }

  /**
   * The lists, keyed and contiguous, in gram order; lists longer than `maxListed` are left out (UNLISTED).
   * The bytes are produced as they are written (`data.emit`), in chunks: never all in memory twice.
   */
  serialize(maxListed = Number.POSITIVE_INFINITY): PostingsToWrite {
    const { keys, counts, lengths } = this;
    const n = keys.length;
    const outCounts = new Uint32Array(n);
    const offsets = new Uint32Array(n);
    const outLengths = new Uint32Array(n);
    let total = 0;
    for (let j = 0; j < n; j++) {
      offsets[j] = total;
      if (counts[j]! > maxListed) {
        outCounts[j] = UNLISTED;
        continue; // length stays 0
      }
      outCounts[j] = counts[j]!;
      outLengths[j] = lengths[j]!;
      total += lengths[j]!;
    }
    if (total > 0xffffffff) throw new Error('content index postings exceed 4 GiB');
    const emit = (push: (chunk: Uint8Array) => void) => {
      // Runs of kept lists are contiguous in a range's pages: push each run page by page.
      for (const range of this.ranges) {
        let runStart = 0;
        let runEnd = 0;
        let at = 0; // where key j's list starts in the range's pages
        const flush = () => {
          for (let from = runStart; from < runEnd; ) {
            const o = from % STORE_PAGE;
            const len = Math.min(runEnd - from, STORE_PAGE - o);
            push(range.pages[Math.floor(from / STORE_PAGE)]!.subarray(o, o + len));
            from += len;
          }
        };
        for (let j = range.from; j < range.to; j++) {
          const len = lengths[j]!;
          if (outCounts[j] !== UNLISTED) {
            if (at !== runEnd) {
              flush();
              runStart = at;
            }
            runEnd = at + len;
          }
          at += len;
        }
        flush();
      }
    };
    return { keys, counts: outCounts, offsets, lengths: outLengths, data: { length: total, emit } };
  }
}

/** Bytes per page of stored lists. */
const STORE_PAGE = 1 << 22;

/** Bytes of `v` as a varint. */
export function varintLength(v: number): number {
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/** Writes `value` as a varint at `data[at]`; returns the position after it. */
export function writeVarint(data: Uint8Array, at: number, value: number): number {
  let v = value;
  while (v >= 0x80) {
    data[at++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  data[at++] = v;
  return at;
}

/** Collects a streamed list of bytes (tests, small indexes). */
export function bytesOf(data: PostingsToWrite['data']): Uint8Array {
  if (data instanceof Uint8Array) return data;
  const out = new Uint8Array(data.length);
  let at = 0;
  data.emit((chunk) => {
    out.set(chunk, at);
    at += chunk.length;
  });
  return out;
}
