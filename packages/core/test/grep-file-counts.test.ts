import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { countMatchingLines, type FileCountOptions } from '../src/grep/file-counts.js';
import { grepEngines, write } from './fixtures/grep-trees.js';
import { TempTrees } from './fixtures/temp-trees.js';

const trees = new TempTrees('trawl-grep-counts-');
afterAll(() => trees.remove());

function options(root: string, files: string[], extra: Partial<FileCountOptions> = {}): FileCountOptions {
  return {
    request: { pattern: 'needle', paths: [''], cwd: root, hidden: true, fixedStrings: true, maxCount: 1 },
    files,
    engine: 'js',
    deadline: Date.now() + 120_000,
    now: Date.now,
    sensitive: () => false,
    root,
    ...extra,
  };
}

describe.each(grepEngines())('counting matching lines of chosen files on the %s engine', (engine) => {
  it('counts every matching line of exactly the files named, whatever glob characters their names hold', async () => {
    const root = trees.fresh('c');
    fs.mkdirSync(root, { recursive: true });
    write(root, {
      'a[1].txt': 'needle\nneedle needle\nnone\nneedle\n',
      'a1.txt': 'needle\n',
      'sub/{x,y}.txt': 'needle\nneedle\n',
      'sub/x.txt': 'needle\n',
    });
    const counts = await countMatchingLines(options(root, ['a[1].txt', 'sub/{x,y}.txt'], { engine }));
    expect([...counts].sort()).toEqual([
      ['a[1].txt', 3],
      ['sub/{x,y}.txt', 2],
    ]);
  });

  it('counts nothing once the deadline has passed, and leaves out what the fence refuses', async () => {
    const root = trees.fresh('c');
    fs.mkdirSync(root, { recursive: true });
    write(root, { 'a.txt': 'needle\n', 'b.txt': 'needle\n' });
    const spent = await countMatchingLines(options(root, ['a.txt'], { engine, deadline: Date.now() - 1 }));
    expect(spent.size).toBe(0);
    const fenced = await countMatchingLines(
      options(root, ['a.txt', 'b.txt'], { engine, sensitive: (abs) => abs.endsWith('b.txt') }),
    );
    expect([...fenced]).toEqual([['a.txt', 1]]);
  });
});
