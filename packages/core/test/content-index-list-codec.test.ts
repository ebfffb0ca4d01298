import { describe, expect, it } from 'vitest';
import { BitWriter, decodeList, encodeList, MAX_LIST_ID } from '../src/content-index/list-codec.js';

function rng(seed: number) {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}

/** The index's number of block ids, for these lists: the code's order depends on it. */
const SPACE = MAX_LIST_ID + 1;

function encoded(ids: number[], idSpace = SPACE): Uint8Array {
  const w = new BitWriter();
  encodeList(Uint32Array.from(ids), ids.length, idSpace, w);
  return w.bytes.slice(0, w.length);
}

/** Lists as a build makes them: sparse, dense, clustered (a package's files side by side), extremes. */
function lists(): number[][] {
  const rand = rng(5);
  const out: number[][] = [[0], [1], [MAX_LIST_ID], [0, MAX_LIST_ID], [0, 1, 2, 3], [2 ** 24, 2 ** 24 + 1]];
  for (let t = 0; t < 200; t++) {
    const ids: number[] = [];
    const kind = t % 4;
    let id = Math.floor(rand() * 1000);
    const n = 1 + Math.floor(rand() ** 2 * 3000);
    for (let i = 0; i < n && id <= MAX_LIST_ID; i++) {
      ids.push(id);
      if (kind === 0) id += 1 + Math.floor(rand() * 100_000);
      else if (kind === 1) id += 1 + Math.floor(rand() * 3);
      else if (kind === 2) id += rand() < 0.9 ? 2 : 1 + Math.floor(rand() * 50_000);
      else id += 1 + Math.floor(2 ** (rand() * 30));
    }
    out.push(ids);
  }
  return out;
}

describe('postings list code (format 7)', () => {
  it('decodes what it encodes, for sparse, dense and clustered lists', () => {
    for (const ids of lists()) {
      expect([...decodeList(encoded(ids), ids.length, SPACE)]).toEqual(ids);
      // A small id space (an order of 0 for most lists), as small as the list allows.
      const tight = ids[ids.length - 1]! + 1;
      if (tight < 2 ** 24) expect([...decodeList(encoded(ids, tight), ids.length, tight)]).toEqual(ids);
    }
  });

  it('takes fewer bytes than delta varints on clustered lists', () => {
    // Every other id (single-block files side by side), with a jump between clusters now and then.
    const rand = rng(9);
    const ids: number[] = [];
    for (let id = 0; ids.length < 5000; ) {
      ids.push(id);
      id += rand() < 0.95 ? 2 : 200 + Math.floor(rand() * 5000);
    }
    const space = ids[ids.length - 1]! + 1;
    expect(encoded(ids, space).length).toBeLessThan(0.5 * ids.length); // varints: ≥ 1 byte per id
  });

  it('refuses ids out of order and damaged lists', () => {
    expect(() => encoded([5, 5])).toThrow(/order/);
    expect(() => encoded([7, 3])).toThrow(/order/);
    expect(() => encoded([MAX_LIST_ID + 1])).toThrow();
    const ids = [3, 10, 11, 400, 100_000];
    const good = encoded(ids, 200_000);
    expect([...decodeList(good, ids.length, 200_000)]).toEqual(ids);
    expect(() => decodeList(good.subarray(0, good.length - 1), ids.length, 200_000)).toThrow(/corrupt/);
    expect(() => decodeList(Uint8Array.from([...good, 0]), ids.length, 200_000)).toThrow(/corrupt/);
    // An id past the index's block ids.
    expect(() => decodeList(good, ids.length, 100_000)).toThrow(/corrupt/);
    expect(() => decodeList(new Uint8Array(0), 1, 200_000)).toThrow(/corrupt/);
    // All-zero codes: a prefix with no end.
    expect(() => decodeList(new Uint8Array(9), 1, 200_000)).toThrow(/corrupt/);
  });
});
