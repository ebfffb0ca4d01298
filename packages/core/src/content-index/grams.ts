/**
 * Grams: every run of four bytes of a file, ASCII-lowercased, hashed to a GRAM_BITS-bit number.
 *
 * Four bytes, not three: a trigram index answers "does this block hold every trigram of `pm_resume`", and in
 * a kernel tree's 64 KiB blocks of driver code `pm_`, `m_r`, `_re`, `res`, … nearly always co-occur, so a
 * common identifier selected 15× more files than hold it. Quadgrams co-occur far less by chance (measured on
 * the Linux tree: `sched_clock_register` 873 → 109 candidate files for 77 true ones, bench/RESULTS.md), for
 * 1.6× the postings. Hashing folds the 2³² possible quadgrams into 2²¹ lists: a collision only adds
 * candidates, and it keeps the builder's tables and the key table small.
 *
 * Lowercasing makes one index serve case-sensitive and `-i` searches: the match layer's required literals
 * (match/literals.ts) are compared as UTF-8 bytes with ASCII folding at most, and already spell out every
 * non-ASCII case variant, so a file that holds a literal holds the literal's lowercased grams. Bytes are
 * never decoded: the searcher's prefilter reads raw bytes too, so the index is exact wherever it is.
 */

/** Bytes per gram: a literal shorter than this cannot use the index. */
export const GRAM = 4;
export const GRAM_BITS = 21;
export const GRAM_SPACE = 1 << GRAM_BITS;

/** ASCII A–Z → a–z; every other byte as is. */
export const LOWER = new Uint8Array(256);
for (let b = 0; b < 256; b++) LOWER[b] = b >= 0x41 && b <= 0x5a ? b + 0x20 : b;

/** The gram of four lowercased bytes packed big-endian into `k` (Fibonacci hashing: the high bits mix best). */
function hash(k: number): number {
  return Math.imul(k, 0x9e3779b1) >>> (32 - GRAM_BITS);
}

/**
 * Distinct grams of one block. `seen` is a bitset over GRAM_SPACE that is all zeros on entry and on return
 * (only the bits set here are cleared), so one 256 KiB bitset serves a whole build.
 */
export class GramCollector {
  private readonly seen = new Uint32Array(GRAM_SPACE >>> 5);
  private keys = new Uint32Array(1 << 16);
  count = 0;

  /**
   * Collects the distinct grams of `buf[start, end)`; read them as `this.list()`. Returns the number of
   * newlines in `buf[start, lineEnd)` (lineEnd ≤ end: a block's own bytes, without the bytes read past it),
   * counted on the way (the query side numbers lines of a block without reading what precedes it).
   */
  collect(buf: Uint8Array, start: number, end: number, lineEnd = end): number {
    const seen = this.seen;
    let keys = this.keys;
    let n = 0;
    let newlines = 0;
    for (let i = start; i < Math.min(start + GRAM - 1, end); i++) if (buf[i] === 10) newlines++;
    if (end - start >= GRAM) {
      let k = (LOWER[buf[start]!]! << 16) | (LOWER[buf[start + 1]!]! << 8) | LOWER[buf[start + 2]!]!;
      for (let i = start + 3; i < end; i++) {
        const b = buf[i]!;
        if (b === 10) newlines++;
        k = (k << 8) | LOWER[b]!;
        const g = hash(k);
        const word = g >>> 5;
        const bit = 1 << (g & 31);
        if ((seen[word]! & bit) === 0) {
          seen[word] = seen[word]! | bit;
          if (n === keys.length) {
            const grown = new Uint32Array(keys.length * 2);
            grown.set(keys);
            keys = grown;
            this.keys = keys;
          }
          keys[n++] = g;
        }
      }
    }
    for (let i = 0; i < n; i++) seen[keys[i]! >>> 5] = 0;
    this.count = n;
    // Every byte of [start, end) was counted; the bytes past the block's own are not its lines.
    for (let i = Math.max(lineEnd, start); i < end; i++) if (buf[i] === 10) newlines--;
    return newlines;
  }

  /** The grams of the last `collect`, in first-seen order (a view, valid until the next call). */
  list(): Uint32Array {
    return this.keys.subarray(0, this.count);
  }
}

/**
 * The grams of one literal (UTF-8, lowercased), deduplicated; empty when it is shorter than GRAM bytes.
 * `maxBytes` keeps only the literal's first bytes: any part of a literal is in every file that holds it.
 */
export function literalGrams(literal: string, maxBytes = Number.POSITIVE_INFINITY): number[] {
  return [...new Set(literalGramSequence(literal, maxBytes))];
}

/** The grams of one literal in order, one per starting byte (a repeated gram repeats): `literalGrams`' sequence. */
export function literalGramSequence(literal: string, maxBytes = Number.POSITIVE_INFINITY): number[] {
  const all = Buffer.from(literal, 'utf8');
  const bytes = all.length > maxBytes ? all.subarray(0, maxBytes) : all;
  const out: number[] = [];
  for (let i = GRAM - 1; i < bytes.length; i++) {
    out.push(
      hash(
        (LOWER[bytes[i - 3]!]! << 24) |
          (LOWER[bytes[i - 2]!]! << 16) |
          (LOWER[bytes[i - 1]!]! << 8) |
          LOWER[bytes[i]!]!,
      ),
    );
  }
  return out;
}
