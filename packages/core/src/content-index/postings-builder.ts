import { GRAM_SPACE } from './grams.js';

/**
 * Postings lists built in one pass over the files, without a JavaScript object per gram: each gram's
 * list is a chain of 16-byte cells (12 bytes of varint deltas, then the next cell's number) in large pages.
 * Ids (the index numbers 64 KiB pieces of files, build.ts) arrive in increasing order, so each list is written
 * as deltas as it grows and never sorted.
 *
 * Speed: a build is bound by cache misses, one list per gram being touched at random. A list's running
 * state (tail cell, last id, count, fill) sits in one 16-byte record, so a posting costs three misses (key →
 * slot, the record, the tail cell) rather than six.
 * Memory: about 1.4 bytes per posting plus 24 bytes per distinct gram, a few hundred MB for a Linux tree.
 */
const CELL = 16;
const PAYLOAD = 12;
const PAGE_SHIFT = 20;
const PAGE_CELLS = 1 << PAGE_SHIFT;
/** The running state of one list: 4 uint32s. */
const TAIL = 0;
const LAST = 1;
const COUNT = 2;
const FILL = 3;

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

export class PostingsBuilder {
  /** Gram → slot + 1 (0: never seen). */
  private readonly slotOf = new Uint32Array(GRAM_SPACE);
  private slots = 0;
  private slotKey = new Uint32Array(1 << 16);
  private head = new Uint32Array(1 << 16);
  private state = new Uint32Array(4 << 16);
  private readonly pages: Uint8Array[] = [];
  private cells = 0;
  private bytes = 0;

  /** Distinct grams seen so far. */
  get distinctGrams(): number {
    return this.slots;
  }

  /** Bytes the postings will take on disk so far. */
  get dataBytes(): number {
    return this.bytes;
  }

  /**
   * Appends `id` (greater than every id added before) to the list of each gram. The common case, a delta
   * below 128 into a cell with room, is written inline: it is most of a build's time.
   */
  add(id: number, grams: Uint32Array): void {
    const slotOf = this.slotOf;
    const pages = this.pages;
    for (let i = 0; i < grams.length; i++) {
      const key = grams[i]!;
      let slot = slotOf[key]!;
      if (slot === 0) slot = this.newSlot(key);
      const st = this.state;
      const at = (slot - 1) * 4;
      const delta = st[at + COUNT] === 0 ? id : id - st[at + LAST]!;
      st[at + LAST] = id;
      st[at + COUNT]!++;
      const f = st[at + FILL]!;
      if (delta < 0x80 && f < PAYLOAD) {
        const c = st[at + TAIL]!;
        pages[c >>> PAGE_SHIFT]![(c & (PAGE_CELLS - 1)) * CELL + f] = delta;
        st[at + FILL] = f + 1;
        this.bytes++;
      } else this.writeVarint(at, delta);
    }
  }

  private newSlot(key: number): number {
    if (this.slots === this.slotKey.length) {
      const n = this.slots * 2;
      this.slotKey = grow32(this.slotKey, n);
      this.head = grow32(this.head, n);
      this.state = grow32(this.state, n * 4);
    }
    const s = this.slots++;
    this.slotKey[s] = key;
    const c = this.newCell();
    this.head[s] = c;
    this.state[s * 4 + TAIL] = c;
    this.slotOf[key] = s + 1;
    return s + 1;
  }

  private newCell(): number {
    const c = this.cells++;
    if ((c & (PAGE_CELLS - 1)) === 0) this.pages.push(new Uint8Array(PAGE_CELLS * CELL));
    return c;
  }

  private writeVarint(at: number, value: number): void {
    const st = this.state;
    let v = value;
    for (;;) {
      const byte = v >= 0x80 ? (v & 0x7f) | 0x80 : v;
      let f = st[at + FILL]!;
      let c = st[at + TAIL]!;
      if (f === PAYLOAD) {
        const next = this.newCell();
        const page = this.pages[c >>> PAGE_SHIFT]!;
        const link = (c & (PAGE_CELLS - 1)) * CELL + PAYLOAD;
        page[link] = next & 0xff;
        page[link + 1] = (next >>> 8) & 0xff;
        page[link + 2] = (next >>> 16) & 0xff;
        page[link + 3] = next >>> 24;
        st[at + TAIL] = next;
        c = next;
        f = 0;
      }
      this.pages[c >>> PAGE_SHIFT]![(c & (PAGE_CELLS - 1)) * CELL + f] = byte;
      st[at + FILL] = f + 1;
      this.bytes++;
      if (v < 0x80) return;
      v = Math.floor(v / 128);
    }
  }

  /**
   * The longest list to keep so that the lists kept take at most `maxBytes`: the longest lists go first (they
   * narrow a query least). At most `maxListed` in any case.
   */
  listLimit(maxListed: number, maxBytes: number): number {
    const n = this.slots;
    const st = this.state;
    // Bytes of each list: full cells plus the tail's fill.
    const bytesOf = new Float64Array(n);
    for (let s = 0; s < n; s++) {
      let cells = 1;
      const tail = st[s * 4 + TAIL]!;
      for (let c = this.head[s]!; c !== tail; cells++) {
        const page = this.pages[c >>> PAGE_SHIFT]!;
        const link = (c & (PAGE_CELLS - 1)) * CELL + PAYLOAD;
        c = page[link]! | (page[link + 1]! << 8) | (page[link + 2]! << 16) | (page[link + 3]! * 0x1000000);
      }
      bytesOf[s] = (cells - 1) * PAYLOAD + st[s * 4 + FILL]!;
    }
    let kept = 0;
    for (let s = 0; s < n; s++) if (st[s * 4 + COUNT]! <= maxListed) kept += bytesOf[s]!;
    if (kept <= maxBytes) return maxListed;
    // Longest first: count (high) and slot (low) packed, descending.
    const bySize = new Float64Array(n);
    for (let s = 0; s < n; s++) bySize[s] = st[s * 4 + COUNT]! * 2 ** 24 + s;
    bySize.sort().reverse();
    let limit = maxListed;
    for (let i = 0; i < n && kept > maxBytes; i++) {
      const s = bySize[i]! % 2 ** 24;
      const count = st[s * 4 + COUNT]!;
      if (count > maxListed) continue; // left out already
      kept -= bytesOf[s]!;
      limit = count - 1;
    }
    return limit; // lists as long as the last one dropped go too: fewer bytes still
  }

  /** The lists, keyed and contiguous, in gram order; lists longer than `maxListed` are left out (UNLISTED). */
  serialize(maxListed = Number.POSITIVE_INFINITY): SerializedPostings {
    const n = this.slots;
    // Slots in key order: keys are distinct GRAM_BITS-bit numbers, so sort them with their slot in the low bits.
    const order = new Float64Array(n);
    for (let s = 0; s < n; s++) order[s] = this.slotKey[s]! * 2 ** 24 + s;
    order.sort();
    if (this.bytes > 0xffffffff) throw new Error('content index postings exceed 4 GiB');
    const data = new Uint8Array(this.bytes);
    const keys = new Uint32Array(n);
    const counts = new Uint32Array(n);
    const offsets = new Uint32Array(n);
    const lengths = new Uint32Array(n);
    const st = this.state;
    let out = 0;
    for (let i = 0; i < n; i++) {
      const s = order[i]! % 2 ** 24;
      keys[i] = this.slotKey[s]!;
      counts[i] = st[s * 4 + COUNT]!;
      offsets[i] = out;
      if (counts[i]! > maxListed) {
        counts[i] = UNLISTED;
        continue; // lengths[i] stays 0
      }
      const tail = st[s * 4 + TAIL]!;
      let c = this.head[s]!;
      for (;;) {
        const page = this.pages[c >>> PAGE_SHIFT]!;
        const base = (c & (PAGE_CELLS - 1)) * CELL;
        const len = c === tail ? st[s * 4 + FILL]! : PAYLOAD;
        for (let k = 0; k < len; k++) data[out++] = page[base + k]!;
        if (c === tail) break;
        c =
          page[base + PAYLOAD]! |
          (page[base + PAYLOAD + 1]! << 8) |
          (page[base + PAYLOAD + 2]! << 16) |
          (page[base + PAYLOAD + 3]! * 0x1000000);
      }
      lengths[i] = out - offsets[i]!;
    }
    return { keys, counts, offsets, lengths, data: data.subarray(0, out) };
  }
}

function grow32(a: Uint32Array<ArrayBuffer>, n: number): Uint32Array<ArrayBuffer> {
  const g = new Uint32Array(n);
  g.set(a);
  return g;
}

/** Decodes one list (delta varints) into ids. */
export function decodePostings(data: Uint8Array, offset: number, length: number, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let at = offset;
  const end = offset + length;
  let prev = 0;
  let i = 0;
  while (at < end && i < count) {
    let v = 0;
    let mul = 1;
    for (;;) {
      const byte = data[at++]!;
      v += (byte & 0x7f) * mul;
      if (byte < 0x80) break;
      mul *= 128;
    }
    prev = i === 0 ? v : prev + v;
    out[i++] = prev;
  }
  if (i !== count || at !== end) throw new Error('corrupt postings list');
  return out;
}
