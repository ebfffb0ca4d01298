import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockRanges } from '../src/content-index/blocks.js';
import { buildIndex } from '../src/content-index/build.js';
import { readIndexFile } from '../src/content-index/format.js';
import { forEachGram } from '../src/content-index/gram-table.js';
import { PostingsBuilder, PostingsMerge, UNLISTED } from '../src/content-index/postings-builder.js';
import { evaluateBase, evaluateBlocks, gramQuery } from '../src/content-index/query.js';

/**
 * Block postings: a literal's grams must co-occur in one block or two adjacent ones. A file that holds a
 * literal is a candidate wherever the literal sits relative to block boundaries (the exactness half); a file
 * whose blocks hold the literal's pieces only far apart is not (the selectivity half — a per-file index
 * would pick it).
 */

let tmp: string;
beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-cindex-blocks-')));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const B = 8;

async function indexOf(files: Record<string, string>, unlistedMinBlocks?: number) {
  const root = fs.mkdtempSync(path.join(tmp, 'tree-'));
  for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(root, name), body);
  const dir = path.join(root, '..', `${path.basename(root)}-data`);
  await buildIndex(root, dir, () => false, {
    blockBytes: B,
    ...(unlistedMinBlocks !== undefined ? { unlistedMinBlocks } : {}),
  });
  const data = readIndexFile(dir, root);
  const select = (literals: string[]): string[] => {
    const bits = evaluateBase(data, gramQuery({ literals, caseInsensitive: false }));
    return data.paths.filter((_, i) => bits[i] === 1).sort();
  };
  let unlisted = 0;
  forEachGram(data.postings, data.postings.dataBytes, (e) => {
    if (e.count === 0) unlisted++;
  });
  return Object.assign(select, { unlisted, data });
}

describe('content index blocks', () => {
  it('finds a literal at every offset across block boundaries, short and longer than a block', async () => {
    const files: Record<string, string> = {};
    for (const lit of ['pm_resume', 'abcd', 'kvmalloc_array_of_many_bytes']) {
      for (let at = 0; at < 3 * B; at++)
        files[`${lit}-${at}`] = `${'.'.repeat(at)}${lit}${'.'.repeat(2 * B)}`;
    }
    const select = await indexOf(files);
    for (const lit of ['pm_resume', 'abcd', 'kvmalloc_array_of_many_bytes']) {
      const expected = Object.keys(files).filter((f) => files[f]!.includes(lit.toLowerCase()));
      expect(select([lit])).toEqual(expected.sort());
      // Case-folded grams: the upper-case spelling selects the same files.
      expect(select([lit.toUpperCase()])).toEqual(expected.sort());
    }
  });

  it('gives windows that hold the start of every occurrence, and not the blocks without one', async () => {
    // Files of many blocks with the literal at chosen offsets (across boundaries too): each occurrence's first
    // byte must lie in a window of its file (the searcher reads around windows only); a block far from any
    // occurrence must not be in one.
    const files: Record<string, string> = {};
    const offsets: Record<string, number[]> = {};
    for (const lit of ['pm_resume', 'abcd', 'kvmalloc_array_of_many_bytes']) {
      for (let at = 0; at < 2 * B; at++) {
        const name = `${lit}-${at}`;
        const spots = [at, 6 * B + at, 6 * B + at + lit.length + 1];
        let body = '.'.repeat(12 * B);
        for (const p of spots) body = body.slice(0, p) + lit + body.slice(p + lit.length);
        files[name] = body;
        offsets[name] = spots;
      }
    }
    const { data } = await indexOf(files);
    for (const lit of ['pm_resume', 'abcd', 'kvmalloc_array_of_many_bytes']) {
      const { blocks: ks } = evaluateBlocks(
        data,
        gramQuery({ literals: [lit.toUpperCase()], caseInsensitive: false }),
      );
      expect(ks).not.toBeNull();
      for (const [id, name] of data.paths.entries()) {
        const size = files[name]!.length;
        const ranges = blockRanges(data.firstBlock, data.blocks, ks!, id, B, size);
        const inWindow = (p: number) =>
          ranges.some((_, i) => i % 2 === 0 && ranges[i]! <= p && p < ranges[i + 1]!);
        if (!name.startsWith(`${lit}-`)) continue;
        for (const p of offsets[name]!) expect(inWindow(p), `${name} @${p}`).toBe(true);
        // No occurrence starts in the last block.
        expect(inWindow(size - 1), `${name} tail`).toBe(false);
        expect(ranges.length % 2).toBe(0);
      }
    }
  });

  it('gives only the block an occurrence starts in, not the one before it', async () => {
    // With grams merely in block k or k + 1, a literal wholly inside block 3 would also keep block 2; an
    // occurrence's first gram is in its own block, and its grams move to the next block only once, in order.
    const files: Record<string, string> = {};
    for (let at = 3 * B; at < 4 * B; at++) {
      const body = `${'.'.repeat(at)}abcdef${'.'.repeat(8 * B)}`;
      files[`at-${at}`] = body.slice(0, 8 * B);
    }
    const { data } = await indexOf(files);
    const { blocks: ks } = evaluateBlocks(data, gramQuery({ literals: ['abcdef'], caseInsensitive: false }));
    for (const [id, name] of data.paths.entries())
      expect(blockRanges(data.firstBlock, data.blocks, ks!, id, B, 8 * B), name).toEqual([3 * B, 4 * B]);
  });

  it('does not pick a file whose blocks hold the literal only in pieces far apart', async () => {
    const select = await indexOf({
      scattered: `pm_re${'.'.repeat(4 * B)}sume${'.'.repeat(4 * B)}pm_resum`,
      whole: `${'.'.repeat(5 * B - 3)}pm_resume`,
      other: 'pm_resume'.split('').join('.'),
    });
    expect(select(['pm_resume'])).toEqual(['whole']);
    expect(select(['pm_resume', 'other'])).toEqual(['whole']);
    expect(select(['nothing here'])).toEqual([]);
  });

  it('stays exact when the commonest grams have no list (present everywhere)', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++)
      files[`f${i}`] = `return value;${i % 3 === 0 ? 'pm_resume' : 'pm_suspend'} ${'return '.repeat(i % 5)}`;
    const select = await indexOf(files, 0);
    expect(select.unlisted).toBeGreaterThan(0);
    for (const lit of ['pm_resume', 'return', 'return value;pm_resume', 'pm_suspend']) {
      const truth = Object.keys(files).filter((f) => files[f]!.includes(lit));
      const picked = select([lit]);
      for (const f of truth) expect(picked, lit).toContain(f);
    }
    // Grams in every file narrow nothing; the rarer ones still do.
    expect(select(['pm_resume']).length).toBeLessThan(40);
  });

  it('never pairs the last block of a file with the first block of the next', async () => {
    // "pm_re" ends file a, "sume" starts file b: adjacent ids would be, but a separator id lies between.
    const select = await indexOf({ a: `${'.'.repeat(B)}pm_res`, b: `ume${'.'.repeat(B)}` });
    expect(select(['pm_resume'])).toEqual([]);
  });
});

describe('postings size bound', () => {
  it('leaves out the longest lists until the rest fit the byte budget', () => {
    const p = new PostingsBuilder();
    // Gram 1 in every id, gram 2 in every other, gram 3 in every tenth: 1000, 500, 100 postings.
    for (let id = 0; id < 1000; id++) {
      const grams = [1];
      if (id % 2 === 0) grams.push(2);
      if (id % 10 === 0) grams.push(3);
      p.add(id, Uint32Array.from(grams));
    }
    const m = new PostingsMerge([p.finish()], [0], 1000);
    const [one, two, three] = [...m.lengths];
    expect(m.listLimit(Number.POSITIVE_INFINITY, 1e9)).toBe(Number.POSITIVE_INFINITY);
    const keepTwo = m.listLimit(Number.POSITIVE_INFINITY, two! + three!);
    expect(keepTwo).toBeLessThan(1000);
    expect(keepTwo).toBeGreaterThanOrEqual(500);
    const keepOne = m.listLimit(Number.POSITIVE_INFINITY, three!);
    expect(keepOne).toBeLessThan(500);
    expect(keepOne).toBeGreaterThanOrEqual(100);
    expect(one! + two! + three!).toBeGreaterThan(three!);
    const s = m.serialize(keepOne);
    expect([...s.counts]).toEqual([UNLISTED, UNLISTED, 100]);
    expect(s.data.length).toBe(three);
  });
});
