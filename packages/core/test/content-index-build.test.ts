import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../src/content-index/build.js';
import { FLAG_NUL, FLAG_UNINDEXED, INDEX_FILE, readIndexFile } from '../src/content-index/format.js';
import { BitWriter, decodeList, encodeList } from '../src/content-index/list-codec.js';
import {
  bytesOf,
  encodeLists,
  mergedKeys,
  PostingsBuilder,
  PostingsMerge,
} from '../src/content-index/postings-builder.js';

/**
 * The build's parts: postings built over consecutive ranges of ids, each numbered from 0, then merged, must be
 * the postings one builder writes over all of them — and a build on two threads must write the very index one
 * thread writes.
 */

let tmp: string;
beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-cindex-build-')));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A deterministic pseudo-random stream (no seedable Math.random). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The merge of parts built over `ids` cut at `cuts` (indexes into ids), each numbering its ids from its first. */
function mergeOfParts(ids: number[], gramsOf: Uint32Array[], cuts: number[], idSpace: number): PostingsMerge {
  const bounds = [0, ...cuts, ids.length];
  const parts = [];
  const offsets = [];
  for (let p = 0; p + 1 < bounds.length; p++) {
    const from = bounds[p]!;
    const b = new PostingsBuilder();
    // A part numbers its ids from its first one (build.ts: from the first block of its first file).
    offsets.push(ids[from]!);
    for (let i = from; i < bounds[p + 1]!; i++) b.add(ids[i]! - ids[from]!, gramsOf[i]!);
    parts.push(b.finish());
  }
  return new PostingsMerge(parts, offsets, idSpace);
}

describe('postings parts', () => {
  it('merged parts equal one builder over every id, byte for byte', () => {
    const rand = rng(7);
    // Ids with gaps of every varint length (1 to 3 bytes), grams from a small set so lists are long and
    // spill many cells, plus rare grams present in one part only.
    const ids: number[] = [];
    for (let id = 0; ids.length < 3000; ) {
      ids.push(id);
      const r = rand();
      id += r < 0.7 ? 1 + Math.floor(rand() * 3) : r < 0.95 ? 130 + Math.floor(rand() * 500) : 20_000;
    }
    const gramsOf = ids.map(() => {
      const set = new Set<number>();
      for (let k = 0; k < 1 + Math.floor(rand() * 12); k++) set.add(Math.floor(rand() * 40) * 977);
      if (rand() < 0.01) set.add(2_000_000 + Math.floor(rand() * 1000));
      return Uint32Array.from(set);
    });
    const whole = new PostingsBuilder();
    for (const [i, id] of ids.entries()) whole.add(id, gramsOf[i]!);
    const idSpace = ids[ids.length - 1]! + 1;
    const expected = new PostingsMerge([whole.finish()], [0], idSpace).serialize();
    const expectedData = bytesOf(expected.data);

    for (const cuts of [[1500], [1, 2999], [700, 1400, 2100]]) {
      const merged = mergeOfParts(ids, gramsOf, cuts, idSpace).serialize();
      expect([...merged.keys], `cuts ${cuts}`).toEqual([...expected.keys]);
      expect([...merged.counts]).toEqual([...expected.counts]);
      expect([...merged.lengths]).toEqual([...expected.lengths]);
      expect(Buffer.from(bytesOf(merged.data)).equals(Buffer.from(expectedData))).toBe(true);
    }
    // …and the lists say what was added.
    const at = [...expected.keys].indexOf(977);
    const list = decodeList(
      expectedData.subarray(expected.offsets[at]!, expected.offsets[at]! + expected.lengths[at]!),
      expected.counts[at]!,
      idSpace,
    );
    expect([...list]).toEqual(ids.filter((_, i) => gramsOf[i]!.includes(977)));
  });
});

describe('the merge codes lists itself', () => {
  it('writes every list exactly as list-codec.ts encodeList does', () => {
    // postings-builder.ts encodeLists has its own copy of the code (the build's hot loop); every code length
    // is here: dense runs (order 0) broken by gaps of up to 2²² and one near 2³⁰ (long codes, 5-byte varints),
    // sparse lists of large order, a one-id list — over one part and over three.
    const rand = rng(5);
    const ids: number[] = [];
    for (let id = 3; ids.length < 4000; ) {
      ids.push(id);
      const r = rand();
      id += r < 0.9 ? 1 : r < 0.99 ? 2 + Math.floor(rand() * 5000) : 1 + Math.floor(rand() * 2 ** 22);
    }
    ids.push(2 ** 30);
    const gramsOf = ids.map((_, i) => {
      const g = [1];
      if (rand() < 0.2) g.push(2);
      if (rand() < 0.01) g.push(3);
      if (i === 1234) g.push(4);
      return Uint32Array.from(g);
    });
    const idSpace = ids[ids.length - 1]! + 1;
    for (const cuts of [[], [1000, 3999]]) {
      const merged = mergeOfParts(ids, gramsOf, cuts, idSpace).serialize();
      const data = bytesOf(merged.data);
      expect([...merged.keys]).toEqual([1, 2, 3, 4]);
      for (const [j, gram] of [...merged.keys].entries()) {
        const list = ids.filter((_, i) => gramsOf[i]!.includes(gram));
        const reference = new BitWriter();
        encodeList(Uint32Array.from(list), list.length, idSpace, reference);
        const got = data.subarray(merged.offsets[j]!, merged.offsets[j]! + merged.lengths[j]!);
        expect(merged.counts[j], `gram ${gram}`).toBe(list.length);
        expect(
          Buffer.from(got).equals(Buffer.from(reference.bytes.subarray(0, reference.length))),
          `gram ${gram}`,
        ).toBe(true);
      }
    }
  });
});

describe('the merge stores its lists in a pool', () => {
  it("writes the same bytes into reused memory (a builder's scratch, full of old postings) as into fresh", () => {
    const rand = rng(3);
    const parts = [0, 1].map((p) => {
      const b = new PostingsBuilder();
      for (let id = 0; id < 60_000; id += 3) {
        const grams = new Set<number>();
        for (let k = 0; k < 80; k++) grams.add(Math.floor(rand() * (p ? 5000 : 3000)) * 131);
        b.add(id, Uint32Array.from(grams));
      }
      return b.finish();
    });
    const offsets = [0, 60_001];
    const idSpace = 120_002;
    const keys = mergedKeys(parts);
    // Old contents everywhere: whatever is emitted must have been written by the merge. One buffer of three
    // 4 MiB pages, the lists filling more than one.
    const pool = [new ArrayBuffer(12 << 20)];
    new Uint8Array(pool[0]!).fill(0xa5);
    const pooled = new PostingsMerge(parts, offsets, idSpace, {
      keys,
      ranges: [encodeLists(parts, offsets, idSpace, keys, 0, keys.length, pool)],
    }).serialize();
    const fresh = new PostingsMerge(parts, offsets, idSpace).serialize();
    const data = bytesOf(pooled.data);
    expect(data.length).toBeGreaterThan(4 << 20); // the lists span pages
    expect([...pooled.lengths]).toEqual([...fresh.lengths]);
    expect(Buffer.from(data).equals(Buffer.from(bytesOf(fresh.data)))).toBe(true);
  });
});

describe('a build on two threads', () => {
  it('writes the index one thread writes, byte for byte', async () => {
    const root = path.join(tmp, 'tree');
    const rand = rng(11);
    const words = ['sched_clock', 'pm_resume', 'kvmalloc', 'copy_from_user', 'zq', 'é', '\u0000', 'Kelvin'];
    const old = new Date('2020-01-01T00:00:00Z'); // not racily clean, whatever the thread's clock
    for (let i = 0; i < 120; i++) {
      const dir = path.join(root, `d${i % 7}`, `e${i % 3}`);
      fs.mkdirSync(dir, { recursive: true });
      // Small files, and some spanning many blocks, so that the cut lands where it may.
      const n = i % 17 === 0 ? 4000 : Math.floor(rand() * 60);
      let body = '';
      for (let k = 0; k < n; k++)
        body += `${words[Math.floor(rand() * words.length)]}_${Math.floor(rand() * 1e6)} `;
      const file = path.join(dir, `f${i}.c`);
      fs.writeFileSync(file, body);
      fs.utimesSync(file, old, old);
    }
    const now = () => 1_700_000_000_000;
    const one = path.join(tmp, 'one');
    const two = path.join(tmp, 'two');
    const r1 = await buildIndex(root, one, () => false, { now, blockBytes: 256, workers: 1 });
    const r2 = await buildIndex(root, two, () => false, {
      now,
      blockBytes: 256,
      workers: 2,
      parallelMinFiles: 0,
    });
    expect(r2.files).toBe(120);
    expect(r2.textBytes).toBe(r1.textBytes);
    const a = fs.readFileSync(path.join(one, INDEX_FILE));
    const b = fs.readFileSync(path.join(two, INDEX_FILE));
    expect(b.length).toBe(a.length);
    expect(b.equals(a)).toBe(true);
    expect(readIndexFile(two, root).postings.grams).toBeGreaterThan(1000);
  });
});

describe('what the build records for the query side', () => {
  it('counts the newlines of each block and flags files holding a NUL byte', async () => {
    const root = path.join(tmp, 'lines');
    fs.mkdirSync(root, { recursive: true });
    const B = 16;
    const rand = rng(3);
    const files: Record<string, string> = {
      empty: '',
      'one-line': 'no newline at all',
      nul: 'a\nb\u0000c\n',
    };
    for (let i = 0; i < 30; i++) {
      let body = '';
      const n = Math.floor(rand() * 5 * B);
      for (let k = 0; k < n; k++) body += rand() < 0.3 ? '\n' : 'x';
      files[`f${i}`] = body;
    }
    // Newlines right at block edges and in the bytes a block's grams read past its end.
    files.edges = `${'x'.repeat(B - 1)}\n\n\n\n${'y'.repeat(B - 2)}\n\n`;
    for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(root, name), body);
    const dir = path.join(tmp, 'lines-data');
    await buildIndex(root, dir, () => false, { blockBytes: B });
    const d = readIndexFile(dir, root);
    let ids = 0;
    for (let id = 0; id < d.paths.length; id++) {
      const body = Buffer.from(files[d.paths[id]!]!, 'utf8');
      const flags = d.records[id * 4 + 3]!;
      expect(flags & FLAG_UNINDEXED).toBe(0);
      expect((flags & FLAG_NUL) !== 0, d.paths[id]).toBe(d.paths[id] === 'nul');
      for (let k = 0; k < d.blocks[id]!; k++) {
        const own = body.subarray(k * B, (k + 1) * B);
        expect(d.newlines[d.firstBlock[id]! + k], `${d.paths[id]} block ${k}`).toBe(
          own.filter((b) => b === 10).length,
        );
      }
      // The separator after the file's blocks.
      expect(d.newlines[d.firstBlock[id]! + d.blocks[id]!]).toBe(0);
      ids = d.firstBlock[id]! + d.blocks[id]! + 1;
    }
    expect(d.newlines.length).toBe(ids);
  });
});
