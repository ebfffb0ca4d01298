import { TRIGRAM_SPACE } from './trigrams.js';

/**
 * Postings lists built in one pass over the files, without a JavaScript object per trigram: each trigram's
 * list is a chain of 16-byte blocks (12 bytes of varint deltas, then the next block's number) in large pages.
 * File ids arrive in increasing order, so each list is written as deltas as it grows and never sorted.
 * Memory: about 1.4 bytes per posting plus 17 bytes per distinct trigram, a few hundred MB for a Linux tree.
 */
const BLOCK = 16;
const PAYLOAD = 12;
const PAGE_BLOCKS = 1 << 20;

export interface SerializedPostings {
  /** Trigram keys, ascending. */
  keys: Uint32Array;
  /** Per key: number of files, byte offset into `data`, byte length. */
  counts: Uint32Array;
  offsets: Uint32Array;
  lengths: Uint32Array;
  data: Uint8Array;
}

export class PostingsBuilder {
  /** Trigram → slot + 1 (0: never seen). */
  private readonly slotOf = new Uint32Array(TRIGRAM_SPACE);
  private slots = 0;
  private slotKey = new Uint32Array(1 << 16);
  private head = new Uint32Array(1 << 16);
  private tail = new Uint32Array(1 << 16);
  private fill = new Uint8Array(1 << 16);
  private last = new Uint32Array(1 << 16);
  private count = new Uint32Array(1 << 16);
  private readonly pages: Uint8Array[] = [];
  private blocks = 0;
  private bytes = 0;

  /** Bytes the postings will take on disk so far. */
  get dataBytes(): number {
    return this.bytes;
  }

  /** Appends `file` (greater than every id added before) to the list of each trigram. */
  add(file: number, trigrams: Uint32Array): void {
    for (let i = 0; i < trigrams.length; i++) {
      const key = trigrams[i]!;
      let slot = this.slotOf[key]!;
      if (slot === 0) slot = this.newSlot(key);
      const s = slot - 1;
      const delta = this.count[s] === 0 ? file : file - this.last[s]!;
      this.last[s] = file;
      this.count[s]!++;
      this.writeVarint(s, delta);
    }
  }

  private newSlot(key: number): number {
    if (this.slots === this.slotKey.length) {
      const n = this.slots * 2;
      this.slotKey = grow32(this.slotKey, n);
      this.head = grow32(this.head, n);
      this.tail = grow32(this.tail, n);
      this.last = grow32(this.last, n);
      this.count = grow32(this.count, n);
      const f = new Uint8Array(n);
      f.set(this.fill);
      this.fill = f;
    }
    const s = this.slots++;
    this.slotKey[s] = key;
    const b = this.newBlock();
    this.head[s] = b;
    this.tail[s] = b;
    this.fill[s] = 0;
    this.slotOf[key] = s + 1;
    return s + 1;
  }

  private newBlock(): number {
    const b = this.blocks++;
    if ((b & (PAGE_BLOCKS - 1)) === 0) this.pages.push(new Uint8Array(PAGE_BLOCKS * BLOCK));
    return b;
  }

  private writeVarint(s: number, value: number): void {
    let v = value;
    for (;;) {
      const byte = v >= 0x80 ? (v & 0x7f) | 0x80 : v;
      let f = this.fill[s]!;
      let b = this.tail[s]!;
      if (f === PAYLOAD) {
        const next = this.newBlock();
        const page = this.pages[b >>> 20]!;
        const at = (b & (PAGE_BLOCKS - 1)) * BLOCK + PAYLOAD;
        page[at] = next & 0xff;
        page[at + 1] = (next >>> 8) & 0xff;
        page[at + 2] = (next >>> 16) & 0xff;
        page[at + 3] = next >>> 24;
        this.tail[s] = next;
        b = next;
        f = 0;
      }
      this.pages[b >>> 20]![(b & (PAGE_BLOCKS - 1)) * BLOCK + f] = byte;
      this.fill[s] = f + 1;
      this.bytes++;
      if (v < 0x80) return;
      v = Math.floor(v / 128);
    }
  }

  /** The lists, keyed and contiguous, in trigram order. */
  serialize(): SerializedPostings {
    const n = this.slots;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => this.slotKey[a]! - this.slotKey[b]!);
    if (this.bytes > 0xffffffff) throw new Error('content index postings exceed 4 GiB');
    const data = new Uint8Array(this.bytes);
    const keys = new Uint32Array(n);
    const counts = new Uint32Array(n);
    const offsets = new Uint32Array(n);
    const lengths = new Uint32Array(n);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const s = order[i]!;
      keys[i] = this.slotKey[s]!;
      counts[i] = this.count[s]!;
      offsets[i] = at;
      let b = this.head[s]!;
      for (;;) {
        const page = this.pages[b >>> 20]!;
        const base = (b & (PAGE_BLOCKS - 1)) * BLOCK;
        if (b === this.tail[s]) {
          const f = this.fill[s]!;
          data.set(page.subarray(base, base + f), at);
          at += f;
          break;
        }
        data.set(page.subarray(base, base + PAYLOAD), at);
        at += PAYLOAD;
        b =
          page[base + PAYLOAD]! |
          (page[base + PAYLOAD + 1]! << 8) |
          (page[base + PAYLOAD + 2]! << 16) |
          (page[base + PAYLOAD + 3]! * 0x1000000);
      }
      lengths[i] = at - offsets[i]!;
    }
    return { keys, counts, offsets, lengths, data };
  }
}

function grow32(a: Uint32Array<ArrayBuffer>, n: number): Uint32Array<ArrayBuffer> {
  const g = new Uint32Array(n);
  g.set(a);
  return g;
}

/** Decodes one list (delta varints) into file ids. */
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
