import { describe, expect, it } from 'vitest';
import { encodeGramTable, findGram, forEachGram, gramTableBytes } from '../src/content-index/gram-table.js';
import { GRAM_SPACE } from '../src/content-index/grams.js';
import { UNLISTED } from '../src/content-index/postings-builder.js';

/** A table of `n` random grams (some left out), as a build hands it over: lists contiguous in gram order. */
function randomTable(n: number, seed: number) {
  let s = seed;
  const rand = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
  const set = new Set<number>();
  // Dense runs (whole buckets, the low bits all used) and scattered grams, the first and last gram included.
  for (let g = 0; g < 64; g++) set.add(g);
  set.add(GRAM_SPACE - 1);
  while (set.size < n) set.add(Math.floor(rand() * GRAM_SPACE));
  const keys = Uint32Array.from([...set].sort((a, b) => a - b));
  const counts = new Uint32Array(keys.length);
  const offsets = new Uint32Array(keys.length);
  const lengths = new Uint32Array(keys.length);
  let at = 0;
  for (let i = 0; i < keys.length; i++) {
    offsets[i] = at;
    if (rand() < 0.1) {
      counts[i] = UNLISTED;
      continue;
    }
    // Counts and lengths across varint widths (1 to 3 bytes).
    counts[i] = 1 + Math.floor(rand() ** 4 * 100_000);
    lengths[i] = 1 + Math.ceil(counts[i]! / 8) + Math.floor(rand() * 3 * counts[i]!); // list-codec.ts: ≥ 1 bit an id
    at += lengths[i]!;
  }
  return { keys, counts, offsets, lengths, dataBytes: at };
}

describe('gram table (format 6)', () => {
  it('finds every gram with its count, offset and length, and no gram it does not hold', () => {
    const r = randomTable(20_000, 7);
    const t = encodeGramTable(r.keys, r.counts, r.offsets, r.lengths);
    expect(t.grams).toBe(r.keys.length);
    expect(8 * t.dir.length + t.entries.length).toBeLessThanOrEqual(gramTableBytes(r.counts, r.lengths));
    // About 4 bytes a gram, where the arrays took 16.
    expect(t.entries.length).toBeLessThan(6 * r.keys.length);
    for (let i = 0; i < r.keys.length; i++) {
      const e = findGram(t, r.keys[i]!);
      if (r.counts[i] === UNLISTED)
        expect(e).toEqual({ gram: r.keys[i], count: 0, offset: r.offsets[i], length: 0 });
      else
        expect(e).toEqual({
          gram: r.keys[i],
          count: r.counts[i],
          offset: r.offsets[i],
          length: r.lengths[i],
        });
    }
    const held = new Set(r.keys);
    for (let g = 0; g < GRAM_SPACE; g += 997) if (!held.has(g)) expect(findGram(t, g)).toBeNull();
    expect(findGram(t, GRAM_SPACE)).toBeNull();
    const seen: number[] = [];
    forEachGram(t, r.dataBytes, (e) => seen.push(e.gram));
    expect(seen).toEqual([...r.keys]);
  });

  it('refuses keys out of order and lists that are not contiguous', () => {
    const r = randomTable(100, 3);
    const keys = r.keys.slice();
    [keys[10], keys[11]] = [keys[11]!, keys[10]!];
    expect(() => encodeGramTable(keys, r.counts, r.offsets, r.lengths)).toThrow(/order/);
    const offsets = r.offsets.slice();
    const i = r.counts.findIndex((c, j) => j > 0 && c !== UNLISTED);
    offsets[i]! += 1;
    expect(() => encodeGramTable(r.keys, r.counts, offsets, r.lengths)).toThrow(/contiguous/);
  });

  it('a damaged table is refused by its structural check, never read out of range', () => {
    const r = randomTable(5_000, 11);
    const good = encodeGramTable(r.keys, r.counts, r.offsets, r.lengths);
    expect(() => forEachGram(good, r.dataBytes)).not.toThrow();
    // Lists said to reach past the lists' bytes.
    expect(() => forEachGram(good, r.dataBytes - 1)).toThrow(/directory/);
    const cases: Array<[string, (t: typeof good) => void]> = [
      ['entries cut short', (t) => (t.entries = t.entries.subarray(0, t.entries.length - 1))],
      ['a directory entry moved', (t) => (t.dir[100] = t.dir[100]! + 1)],
      ['a list start moved', (t) => (t.listDir[100] = t.listDir[100]! + 1)],
      ['a gram count off', (t) => (t.grams += 1)],
      ['low bits out of range', (t) => (t.entries[t.dir[1]!] = 0xff)],
      ['an unterminated varint', (t) => t.entries.fill(0xff, t.dir[1]! + 1, t.dir[2]!)],
    ];
    for (const [what, damage] of cases) {
      const t = {
        grams: good.grams,
        dir: good.dir.slice(),
        listDir: good.listDir.slice(),
        entries: good.entries.slice(),
      };
      damage(t);
      expect(() => forEachGram(t, r.dataBytes), what).toThrow();
    }
  });
});
