/**
 * How one postings list (ascending block ids) is stored (format 7): each gap minus one (the first: the id
 * itself) as an exp-Golomb code of order k, bits most significant first, the list padded to a byte. k follows
 * from the list's length and the index's number of block ids (`listOrder`), so it is not stored, and a build
 * encodes each list in one pass over its ids, as it merges them.
 *
 * Why not delta varints (formats ≤ 6): a varint spends a whole byte on the gaps of a dense list, and a dense
 * list's gaps are small — files of one package sit next to each other, so a gram's blocks come in clusters. On
 * the npm corpus the same lists took 124 MB as varints and 86 MB as exp-Golomb codes (measured on the build's
 * own lists with k chosen per list, ~90 MB with k from the list's length, /work/notes/issue-14.md, session 4),
 * so under the same size bound (limits.ts) the lists of grams in ~2 500 blocks are kept, where varints kept
 * lists up to 830 blocks: the lists of `createRequire`, `FinalizationRegistry` and `Observable` were the ones
 * cut. Golomb–Rice codes (unary quotient) lose on the long gaps between clusters; exp-Golomb's quotient
 * grows logarithmically.
 *
 * Code of a value v with order k: w = (v >> k) + 1 of n + 1 bits (n = ⌊log₂ w⌋), written as n zero bits then
 * w's n + 1 bits, then v's low k bits.
 */

/** Block ids are below this (2³¹: the codes use 32-bit integer arithmetic). */
export const MAX_LIST_ID = 2 ** 31 - 1;
const MAX_K = 30;

/** Collects bits, most significant first, into a growing byte array. */
export class BitWriter {
  bytes = new Uint8Array(1 << 16);
  length = 0;
  private acc = 0;
  private bits = 0;

  /** Appends the low `n` bits of `value` (n ≤ 24). */
  put(value: number, n: number): void {
    this.acc = (this.acc << n) | (value & ((1 << n) - 1));
    this.bits += n;
    while (this.bits >= 8) {
      this.bits -= 8;
      this.byte((this.acc >>> this.bits) & 0xff);
    }
    this.acc &= (1 << this.bits) - 1;
  }

  /** Appends `n` bits of `value`, any n ≤ 31. */
  putLong(value: number, n: number): void {
    if (n > 24) {
      this.put(value >>> 24, n - 24);
      this.put(value & 0xffffff, 24);
    } else this.put(value, n);
  }

  /** Pads to a byte boundary with zero bits. */
  align(): void {
    if (this.bits > 0) this.put(0, 8 - this.bits);
  }

  byte(b: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = b;
  }

  reset(): void {
    this.length = 0;
    this.acc = 0;
    this.bits = 0;
  }
}

/** ⌊log₂ x⌋ for 1 ≤ x < 2³². */
function log2(x: number): number {
  return 31 - Math.clz32(x);
}

/**
 * The code's order for a list of `count` ids among `idSpace`: a uniform list's mean gap is idSpace / count,
 * and k a few bits below its magnitude fits clustered lists, whose gaps are mostly much smaller (measured on
 * the npm corpus: ORDER_BELOW_MEAN bits below gave the smallest lists).
 */
export function listOrder(count: number, idSpace: number): number {
  if (count <= 0 || idSpace <= count) return 0;
  return Math.max(0, Math.min(MAX_K, log2(Math.floor(idSpace / count)) - ORDER_BELOW_MEAN));
}
const ORDER_BELOW_MEAN = 5;

/** Appends the code of `v` (0 ≤ v ≤ MAX_LIST_ID) of order `k`. */
export function putCode(out: BitWriter, v: number, k: number): void {
  const w = (v >>> k) + 1;
  const n = log2(w);
  // n zeros then w's n + 1 bits are w in 2n + 1 bits; then v's low k bits. Mostly one put.
  const bits = 2 * n + 1 + k;
  if (bits <= 24) out.put(k > 0 ? (w << k) | (v & ((1 << k) - 1)) : w, bits);
  else {
    out.putLong(0, n);
    out.putLong(w, n + 1);
    if (k > 0) out.putLong(v, k);
  }
}

/** Appends the list `ids[0, count)` (ascending, each ≤ MAX_LIST_ID), byte-aligned. */
export function encodeList(ids: Uint32Array, count: number, idSpace: number, out: BitWriter): void {
  const k = listOrder(count, idSpace);
  let prev = -1;
  for (let i = 0; i < count; i++) {
    const id = ids[i]!;
    if (id <= prev || id > MAX_LIST_ID) throw new Error('postings list: ids out of order or too large');
    putCode(out, id - prev - 1, k);
    prev = id;
  }
  out.align();
}

/** 32 bits of `bytes` from bit `pos`; zeros past the end. */
function peek(bytes: Uint8Array, pos: number): number {
  const i = pos >>> 3;
  const s = pos & 7;
  const w =
    ((bytes[i] ?? 0) << 24) | ((bytes[i + 1] ?? 0) << 16) | ((bytes[i + 2] ?? 0) << 8) | (bytes[i + 3] ?? 0);
  return (s === 0 ? w : (w << s) | ((bytes[i + 4] ?? 0) >>> (8 - s))) >>> 0;
}

/** Decodes a list of `count` ids among `idSpace` from `bytes` (exactly one list); throws if malformed. */
export function decodeList(bytes: Uint8Array, count: number, idSpace: number): Uint32Array {
  const out = new Uint32Array(count);
  const k = listOrder(count, idSpace);
  const totalBits = bytes.length * 8;
  let pos = 0;
  let prev = -1;
  for (let i = 0; i < count; i++) {
    const window = peek(bytes, pos);
    const n = Math.clz32(window); // the zeros before w
    if (n > 30) throw new Error('corrupt postings list');
    let w: number;
    let low = 0;
    if (2 * n + 1 + k <= 32) {
      // The whole code is in the window (nearly always): w is its top 2n + 1 bits, then k low bits.
      w = window >>> (31 - 2 * n);
      if (k > 0) low = ((window << (2 * n + 1)) >>> 0) >>> (32 - k);
      pos += 2 * n + 1 + k;
    } else {
      pos += n;
      w = peek(bytes, pos) >>> (31 - n);
      pos += n + 1;
      if (k > 0) low = peek(bytes, pos) >>> (32 - k);
      pos += k;
    }
    const id = prev + 1 + (w - 1) * 2 ** k + low;
    if (pos > totalBits || id >= idSpace) throw new Error('corrupt postings list');
    out[i] = id;
    prev = id;
  }
  // Only the padding may follow, and it fits in the last byte.
  if (totalBits - pos >= 8) throw new Error('corrupt postings list');
  return out;
}
