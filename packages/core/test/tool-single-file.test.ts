import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashlineTag, TagCache } from '../src/tool/index.js';
import { type Engine, makeTree, numbered, run, runDefault } from './fixtures/tool/helpers.js';

let dir: string;
beforeAll(() => {
  dir = makeTree({
    'example.txt': 'first line\nmatch line\nlast line',
    'context.txt': 'before\nmatch one\nafter\nmiddle\nmatch two\nafter two',
    'gaps.txt': 'match\n2\n3\n4\n5\nmatch\n7\n8\n9\n10\n',
    'ctx.txt': 'l1\nneedle 2\nneedle 3\nl4\nl5\nl6\nl7\nneedle 8\nl9\nl10\nl11\nl12\nl13\nneedle 14\nl15\n',
    'big.txt': numbered(250, (i) => `needle ${i}`),
    'fifty.txt': numbered(50, (i) => `needle ${i}`),
    'e.txt': 'a\n\nb\n',
    'c.txt': 'Needle\nNEEDLE\nneedle\n',
    'i.ts': '  return 1\nreturn 2\n',
    'nonl.txt': 'x\nneedle last',
    'empty.txt': '',
    'bin.o': Buffer.from('needle\u0000bin\n'),
    'late.dat': Buffer.concat([
      Buffer.from('needle early\n'),
      Buffer.alloc(70_000, 0x61),
      Buffer.from('\n\u0000 needle nul\nneedle after\n'),
    ]),
    'a.ts': 'one\nneedle two\nthree\nfour\nfive\nsix\n',
    // UTF-16 (little and big endian, with their BOMs): every other byte is a NUL, and it is text.
    'u16le.txt': Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('one\nneedle in utf-16\n', 'utf16le'),
    ]),
    'u16be.txt': Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('needle big\n', 'utf16le').swap16()]),
  });
});

describe.each<Engine>(['js', 'rg'])('search tool: a single file, engine %s', (engine) => {
  it('plain mode names the file, then ` N|` / `*N|` lines', async () => {
    const r = await runDefault(
      dir,
      { pattern: 'match', paths: [path.join(dir, 'example.txt')] },
      { format: 'plain', engine },
    );
    expect(r.text).toBe('# example.txt\n 1|first line\n*2|match line\n 3|last line');
  });

  it('the default hashline output of the reference tool’s documented example', async () => {
    const r = await runDefault(dir, { pattern: 'needle', paths: 'a.ts' }, { engine });
    expect(r.text).toBe('¶a.ts#7ABB\n 1:one\n*2:needle two\n 3:three\n 4:four\n 5:five');
    expect(r.details).toMatchObject({
      scopePath: 'a.ts',
      matchCount: 1,
      fileCount: 1,
      files: ['a.ts'],
      truncated: false,
      totalFiles: 1,
    });
  });

  it('configured context 1/1, hashline and plain', async () => {
    const opts = { engine, contextBefore: 1, contextAfter: 1 };
    const plain = await runDefault(
      dir,
      { pattern: 'match', paths: 'context.txt' },
      { ...opts, format: 'plain' },
    );
    expect(plain.text).toBe(
      '# context.txt\n 1|before\n*2|match one\n 3|after\n 4|middle\n*5|match two\n 6|after two',
    );
    const hl = await runDefault(dir, { pattern: 'match', paths: 'context.txt' }, opts);
    expect(hl.text).toBe(
      '¶context.txt#CBA4\n 1:before\n*2:match one\n 3:after\n 4:middle\n*5:match two\n 6:after two',
    );
  });

  it('a gap line between separate blocks', async () => {
    const r = await run(dir, { pattern: 'match', paths: 'gaps.txt' }, { engine, format: 'plain' });
    expect(r.text).toBe('# gaps.txt\n*1|match\n...\n*6|match');
  });

  it('merged context, no repeated lines, unpadded numbers', async () => {
    const r = await runDefault(dir, { pattern: 'needle', paths: 'ctx.txt' }, { engine });
    expect(r.text).toBe(
      [
        '¶ctx.txt#D12F',
        ' 1:l1',
        '*2:needle 2',
        '*3:needle 3',
        ' 4:l4',
        ' 5:l5',
        ' 6:l6',
        ' 7:l7',
        '*8:needle 8',
        ' 9:l9',
        ' 10:l10',
        ' 11:l11',
        '...',
        ' 13:l13',
        '*14:needle 14',
        ' 15:l15',
      ].join('\n'),
    );
  });

  it('200 of 250 matches are shown and the text says how to see the rest', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'big.txt' }, { engine });
    const lines = r.text.split('\n');
    expect(lines[1]).toBe('*1:needle 1');
    expect(lines[200]).toBe('*200:needle 200');
    expect(r.text).not.toContain('*201:');
    expect(r.text).toContain(
      'Showing the first 200 of 250 matching lines of this file; 50 more follow: search "big.txt:201-" for the rest.',
    );
    expect(r.details).toMatchObject({ matchCount: 200, perFileLimitReached: 200, truncated: true });
    const rest = await run(dir, { pattern: 'needle', paths: 'big.txt:201-' }, { engine });
    expect(rest.details.matchCount).toBe(50);
    expect(rest.text.split('\n')[1]).toBe('*201:needle 201');
  });

  it('a single file may exceed the multi-file cap of 20', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'fifty.txt' }, { engine });
    expect(r.details.matchCount).toBe(50);
    expect(r.details.perFileLimitReached).toBeUndefined();
    expect(r.details.fileLimitReached).toBeUndefined();
    expect(r.details.truncated).toBe(false);
  });

  it('skip is ignored for a single file', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'fifty.txt', skip: 5 });
    expect(r.details.matchCount).toBe(50);
    expect(r.details.skip).toBe(0);
  });

  it('an empty-line pattern shows an empty match line', async () => {
    const r = await run(dir, { pattern: '^$', paths: 'e.txt' }, { engine });
    expect(r.text).toBe('¶e.txt#306D\n*2:');
  });

  it('case-insensitive', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'c.txt', i: true }, { engine });
    expect(r.text.split('\n').slice(1)).toEqual(['*1:Needle', '*2:NEEDLE', '*3:needle']);
  });

  it('the pattern is not trimmed — leading spaces are part of it', async () => {
    const r = await run(dir, { pattern: '  return', paths: 'i.ts' }, { engine });
    expect(r.text.split('\n').slice(1)).toEqual(['*1:  return 1']);
  });

  it('a last line without a newline', async () => {
    const r = await runDefault(dir, { pattern: 'needle', paths: 'nonl.txt' }, { engine });
    expect(r.text).toBe('¶nonl.txt#3900\n 1:x\n*2:needle last');
  });

  it('an empty file has no matches', async () => {
    expect((await run(dir, { pattern: 'needle', paths: 'empty.txt' }, { engine })).text).toBe(
      'No matches found',
    );
  });

  it('a FIFO named directly is not opened (no hang) and the text says why', async () => {
    const fifo = path.join(dir, 'p.fifo');
    if (!fs.existsSync(fifo)) spawnSync('mkfifo', [fifo]);
    const r = await run(dir, { pattern: 'needle', paths: 'p.fifo' }, { engine });
    expect(r.text).toBe('Nothing was searched.\nNot searched: p.fifo (a FIFO)');
    expect(r.details.notSearched).toEqual([{ path: 'p.fifo', reason: 'a FIFO' }]);
  });

  it('a binary file named directly is said to be binary, not "No matches found"', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'bin.o' }, { engine });
    expect(r.text).toBe('Nothing was searched.\nNot searched: bin.o (binary file)');
  });

  it('a UTF-16 file named directly is searched as text, as a directory search does', async () => {
    const le = await run(dir, { pattern: 'needle', paths: 'u16le.txt' }, { engine });
    expect(le.text).toMatch(/^¶u16le\.txt#[0-9A-F]{4}\n(.*\n)?\*2:needle in utf-16$/);
    expect(le.details.matchCount).toBe(1);
    const be = await run(dir, { pattern: 'needle', paths: 'u16be.txt:1-1' }, { engine });
    expect(be.details.matchCount).toBe(1);
    const walked = await run(dir, { pattern: 'needle in utf', paths: '.' }, { engine });
    expect(walked.details.files).toEqual(['u16le.txt']);
  });

  it('a named file with a NUL after 64 KiB: matches before it are shown and the cut is said', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'late.dat' }, { engine });
    expect(r.text.split('\n')[0]).toMatch(/^¶late\.dat#[0-9A-F]{4}$/);
    expect(r.text.split('\n')[1]).toBe('*1:needle early');
    expect(r.text).not.toContain('needle after');
    expect(r.text).toContain('late.dat: binary data from byte 70014 on was not searched.');
    expect(r.details.matchCount).toBe(1);
  });

  it('a file over the size cap named directly is said, not silently empty', async () => {
    const big = path.join(dir, 'huge.log');
    const fd = fs.openSync(big, 'w');
    fs.writeSync(fd, 'needle at the start\n');
    fs.ftruncateSync(fd, 64 * 1024 * 1024 + 10);
    fs.closeSync(fd);
    const r = await run(dir, { pattern: 'needle', paths: 'huge.log' }, { engine });
    expect(r.text).toBe('Nothing was searched.\nNot searched: huge.log (larger than 64 MiB)');
    fs.rmSync(big);
  });

  it('a tag always reflects the content shown, even for a same-size edit right after a search', async () => {
    const d = makeTree({ 't.txt': 'alpha\nneedle\n' });
    expect((await run(d, { pattern: 'needle', paths: 't.txt' }, { engine })).text).toBe(
      '¶t.txt#8468\n*2:needle',
    );
    fs.writeFileSync(path.join(d, 't.txt'), 'alphb\nneedle\n');
    const after = await run(d, { pattern: 'needle', paths: 't.txt' }, { engine });
    expect(after.text).toBe(`¶t.txt#${hashlineTag('alphb\nneedle\n')}\n*2:needle`);
    expect(hashlineTag('alphb\nneedle\n')).not.toBe('8468');
  });

  it('a remembered tag is dropped when the file changes, even with the same size and mtime', async () => {
    const d = makeTree({ 'old.txt': 'alpha\nneedle\n' });
    const file = path.join(d, 'old.txt');
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(file, hourAgo, hourAgo);
    // A clock an hour ahead makes the file look long unchanged, so its tag is remembered.
    const tagCache = new TagCache(() => Date.now() + 3_600_000);
    expect((await run(d, { pattern: 'needle', paths: 'old.txt' }, { engine, tagCache })).text).toBe(
      '¶old.txt#8468\n*2:needle',
    );
    fs.writeFileSync(file, 'alphb\nneedle\n');
    expect(tagCache.size).toBe(1);
    fs.utimesSync(file, hourAgo, hourAgo); // same size, same mtime: only the inode change time differs
    expect((await run(d, { pattern: 'needle', paths: 'old.txt' }, { engine, tagCache })).text).toBe(
      `¶old.txt#${hashlineTag('alphb\nneedle\n')}\n*2:needle`,
    );
  });
});
