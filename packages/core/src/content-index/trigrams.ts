/**
 * Trigrams: every run of three bytes of a file, ASCII-lowercased, as a 24-bit number (b0 << 16 | b1 << 8 | b2).
 *
 * Lowercasing makes one index serve case-sensitive and `-i` searches: the match layer's required literals
 * (match/literals.ts) are compared as UTF-8 bytes with ASCII folding at most, and already spell out every
 * non-ASCII case variant, so a file that holds a literal holds the literal's lowercased trigrams. Bytes are
 * never decoded: the searcher's prefilter reads raw bytes too, so the index is exact wherever it is.
 */

export const TRIGRAM_SPACE = 1 << 24;

/** ASCII A–Z → a–z; every other byte as is. */
export const LOWER = new Uint8Array(256);
for (let b = 0; b < 256; b++) LOWER[b] = b >= 0x41 && b <= 0x5a ? b + 0x20 : b;

/**
 * Distinct trigrams of one file. `seen` is a bitset over TRIGRAM_SPACE that is all zeros on entry and on
 * return (only the bits set here are cleared), so one 2 MiB bitset serves a whole build.
 */
export class TrigramCollector {
  private readonly seen = new Uint32Array(TRIGRAM_SPACE >>> 5);
  private keys = new Uint32Array(1 << 16);
  count = 0;

  /** Collects the distinct trigrams of `buf[start, end)`; read them as `this.list()`. */
  collect(buf: Uint8Array, start: number, end: number): void {
    const seen = this.seen;
    let keys = this.keys;
    let n = 0;
    if (end - start >= 3) {
      let k = (LOWER[buf[start]!]! << 8) | LOWER[buf[start + 1]!]!;
      for (let i = start + 2; i < end; i++) {
        k = ((k << 8) | LOWER[buf[i]!]!) & 0xffffff;
        const word = k >>> 5;
        const bit = 1 << (k & 31);
        if ((seen[word]! & bit) === 0) {
          seen[word] = seen[word]! | bit;
          if (n === keys.length) {
            const grown = new Uint32Array(keys.length * 2);
            grown.set(keys);
            keys = grown;
            this.keys = keys;
          }
          keys[n++] = k;
        }
      }
    }
    for (let i = 0; i < n; i++) seen[keys[i]! >>> 5] = 0;
    this.count = n;
  }

  /** The trigrams of the last `collect`, in first-seen order (a view, valid until the next call). */
  list(): Uint32Array {
    return this.keys.subarray(0, this.count);
  }
}

/**
 * The trigrams of one literal (UTF-8, lowercased), deduplicated; empty when it is shorter than 3 bytes.
 * `maxBytes` keeps only the literal's first bytes: any part of a literal is in every file that holds it.
 */
export function literalTrigrams(literal: string, maxBytes = Number.POSITIVE_INFINITY): number[] {
  const all = Buffer.from(literal, 'utf8');
  const bytes = all.length > maxBytes ? all.subarray(0, maxBytes) : all;
  const out = new Set<number>();
  for (let i = 2; i < bytes.length; i++) {
    out.add((LOWER[bytes[i - 2]!]! << 16) | (LOWER[bytes[i - 1]!]! << 8) | LOWER[bytes[i]!]!);
  }
  return [...out];
}
