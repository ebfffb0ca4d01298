import * as os from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSensitiveFence } from '../src/fence/index.js';
import { RUNAWAY_LINE, RUNAWAY_PATTERN } from './fixtures/runaway.js';
import { type Engine, makeTree, numbered, refusal, run } from './fixtures/tool/helpers.js';

const pad = (i: number) => String(i).padStart(2, '0');
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

let pages: string;
let hot: string;
let horizon: string;
let horizon25: string;
let wide: string;
let long: string;
let manyLong: string;
beforeAll(() => {
  const files: Record<string, string> = {};
  for (let i = 1; i <= 23; i++) files[`f${pad(i)}.txt`] = `needle ${i}\n`;
  pages = makeTree(files);
  hot = makeTree({ 'hot.txt': numbered(50, (i) => `needle ${i}`), 'cool.txt': 'needle cool\n' });
  const h: Record<string, string> = {};
  for (let i = 1; i <= 30; i++) h[`f${pad(i)}.txt`] = numbered(100, (k) => `needle ${i}.${k}`);
  horizon = makeTree(h);
  const h25: Record<string, string> = {};
  for (let i = 1; i <= 25; i++) h25[`g${pad(i)}.txt`] = numbered(90, (k) => `needle ${i}.${k}`);
  horizon25 = makeTree(h25);
  wide = makeTree({ 'big.txt': numbered(150, (i) => `needle ${i} ${'x'.repeat(390)}`) });
  long = makeTree({
    'l512.txt': `needle${'a'.repeat(506)}\n`,
    'l513.txt': `needle${'a'.repeat(507)}\n`,
    'ctx.txt': `needle\n${'c'.repeat(600)}\n`,
    'utf8.txt': `needle${'é'.repeat(300)}\n`,
  });
  const ml: Record<string, string> = {};
  for (let i = 1; i <= 22; i++)
    ml[`m${pad(i)}.txt`] = numbered(20, (k) => `needle ${i}.${k} ${'y'.repeat(600)}`);
  manyLong = makeTree(ml);
});

describe.each<Engine>(['js', 'rg'])('search tool: caps and pagination, engine %s', (engine) => {
  it('20 files a page, the pagination line, then the last page', async () => {
    const r = await run(pages, { pattern: 'needle', paths: '.' }, { engine });
    expect(r.text.startsWith('# f01.txt#1D46\n*1:needle 1\n\n# f02.txt#')).toBe(true);
    expect(r.text).toContain('# f20.txt#D574\n*1:needle 20');
    expect(r.text).not.toContain('f21');
    expect(
      r.text.endsWith(
        '\n\nShowing files 1-20 of 23. Use skip=20 for the next page, or narrow paths/pattern.',
      ),
    ).toBe(true);
    expect(r.details).toMatchObject({
      fileLimitReached: 20,
      truncated: true,
      totalFiles: 23,
      nextSkip: 20,
      fileCount: 20,
    });
    const last = await run(pages, { pattern: 'needle', paths: '.', skip: 20 }, { engine });
    expect(last.details.files).toEqual(['f21.txt', 'f22.txt', 'f23.txt']);
    // The last page is sized too: the agent knows it has seen all 23.
    expect(last.text).toMatch(/\n\nShowing files 21-23 of 23: the last page\.$/);
    expect(last.details.nextSkip).toBeUndefined();
  });

  it('a skip past the end says so instead of "No matches found"', async () => {
    const r = await run(pages, { pattern: 'needle', paths: '.', skip: 50 }, { engine });
    expect(r.text).toBe('No more results: 23 files matched; skip=50 is past the end.');
    expect(r.details.totalFiles).toBe(23);
  });

  it('the per-file cap of 20 is said, with the range that continues', async () => {
    const r = await run(hot, { pattern: 'needle', paths: '.' }, { engine });
    expect(r.text.startsWith('# cool.txt#0EFC\n*1:needle cool\n\n# hot.txt#3D78\n*1:needle 1\n')).toBe(true);
    expect(r.text).toContain(
      '*20:needle 20\n\nOnly the first 20 matching lines per file are shown; for the rest, search "hot.txt:21-" (30 more).',
    );
    expect(r.details.perFileLimitReached).toBe(20);
    expect(r.details.perFileLimited).toEqual([{ path: 'hot.txt', nextLine: 21, totalMatches: 50 }]);
    expect(r.details.fileMatches).toContainEqual({ path: 'hot.txt', count: 20 });
  });

  it('the total stays exact past the old 2000-match horizon, and the next page exists', async () => {
    const r = await run(horizon, { pattern: 'needle', paths: '.' }, { engine });
    expect(r.details.files).toHaveLength(20);
    expect(r.details.fileMatches.every((f) => f.count === 20)).toBe(true);
    expect(r.text).toContain('Showing files 1-20 of 30. Use skip=20 for the next page');
    const next = await run(horizon, { pattern: 'needle', paths: '.', skip: 20 }, { engine });
    expect(next.details.files).toEqual(Array.from({ length: 10 }, (_, k) => `f${pad(21 + k)}.txt`));
    expect(next.details.fileMatches.every((f) => f.count === 20)).toBe(true);
  });

  it('25 files of 90 matches are counted as 25', async () => {
    const r = await run(horizon25, { pattern: 'needle', paths: '.' }, { engine });
    expect(r.text).toContain('Showing files 1-20 of 25.');
    const next = await run(horizon25, { pattern: 'needle', paths: '.', skip: 20 }, { engine });
    expect(next.details.files).toEqual(['g21.txt', 'g22.txt', 'g23.txt', 'g24.txt', 'g25.txt']);
  });

  it('the 50 KiB cap cuts at a line, says where, and keeps the note inside the cap', async () => {
    const r = await run(wide, { pattern: 'needle', paths: 'big.txt' }, { engine });
    expect(bytes(r.text)).toBeLessThanOrEqual(50 * 1024);
    const lines = r.text.split('\n');
    const lastShown = lines.filter((l) => /^\*\d+:/.test(l)).at(-1)!;
    const n = Number(/^\*(\d+):/.exec(lastShown)![1]);
    expect(n).toBeGreaterThan(100);
    expect(n).toBeLessThan(150);
    expect(
      r.text.endsWith(
        `Output cut at 50 KiB inside big.txt after line ${n}: search "big.txt:${n + 1}-" for the rest of it.`,
      ),
    ).toBe(true);
    expect(r.details).toMatchObject({ byteLimitReached: true, truncated: true, matchCount: 150 });
    const rest = await run(wide, { pattern: 'needle', paths: `big.txt:${n + 1}-` }, { engine });
    expect(rest.text.split('\n')[1]).toMatch(new RegExp(`^\\*${n + 1}:needle ${n + 1} `));
  });

  it('a 512-byte line is whole; a 513-byte line is cut to 509 bytes + "..." and the text says so in bytes', async () => {
    const whole = await run(long, { pattern: 'needle', paths: 'l512.txt' }, { engine });
    expect(whole.text.split('\n')[1]).toBe(`*1:needle${'a'.repeat(506)}`);
    expect(whole.details.linesTruncated).toBeUndefined();
    const cut = await run(long, { pattern: 'needle', paths: 'l513.txt' }, { engine });
    expect(cut.text.split('\n')[1]).toBe(`*1:needle${'a'.repeat(503)}...`);
    expect(cut.text.endsWith('\n\n1 line longer than 512 bytes was cut (shown ending in "...").')).toBe(true);
    expect(cut.details.linesTruncated).toBe(true);
  });

  it('a cut never splits a UTF-8 character', async () => {
    const r = await run(long, { pattern: 'needle', paths: 'utf8.txt' }, { engine });
    const shown = r.text.split('\n')[1]!.slice(3);
    expect(shown.endsWith('...')).toBe(true);
    expect(bytes(shown)).toBeLessThanOrEqual(512);
    expect(shown).not.toContain('\ufffd');
  });

  it('a cut context line is said too', async () => {
    const r = await run(long, { pattern: 'needle', paths: 'ctx.txt' }, { engine, contextAfter: 1 });
    expect(r.text.split('\n')[2]).toBe(` 2:${'c'.repeat(509)}...`);
    expect(r.text).toContain('1 line longer than 512 bytes was cut');
    expect(r.details.truncated).toBe(true);
  });

  it('with the byte cap, page and notes survive, and skip continues at the first file not shown in full', async () => {
    const r = await run(manyLong, { pattern: 'needle', paths: '.' }, { engine });
    expect(bytes(r.text)).toBeLessThanOrEqual(50 * 1024);
    const m =
      /Output cut at 50 KiB: showing files 1-(\d+) of 22\. Use skip=(\d+) to continue, or narrow paths\/pattern\./.exec(
        r.text,
      );
    expect(m).not.toBeNull();
    const lastFull = Number(m![1]);
    const skip = Number(m![2]);
    expect(r.text).toMatch(/lines longer than 512 bytes were cut/);
    expect(r.details.nextSkip).toBe(skip);
    expect(r.details.byteLimitReached).toBe(true);
    const next = await run(manyLong, { pattern: 'needle', paths: '.', skip }, { engine });
    expect(next.details.files[0]).toBe(`m${pad(skip + 1)}.txt`);
    // What was shown of the cut file is either nothing (skip re-shows it) or a part with its own continuation.
    expect(skip === lastFull || r.text.includes('for the rest of it')).toBe(true);
  });

  it('a deadline already spent says the search did not finish, never "No matches found"', async () => {
    const r = await run(pages, { pattern: 'needle', paths: '.' }, { engine, deadlineMs: 0 });
    expect(r.text).toBe('No matches found before the 0 s deadline: the search did not finish.');
    expect(r.details).toMatchObject({ outcome: 'timeout', totalFilesExact: false, truncated: true });
  });

  it('an already aborted signal rejects with its reason', async () => {
    const ac = new AbortController();
    ac.abort(new Error('stop now'));
    const r = await refusal(run(pages, { pattern: 'needle', paths: '.' }, { engine, signal: ac.signal }));
    expect(r.message).toBe('stop now');
  });
});

describe('search tool: deadline and abort reach the js engine', () => {
  let slow: string;
  beforeAll(() => {
    const files: Record<string, string> = {};
    // 40 quick files: the js engine hands out files in batches, and a batch stuck on the evil file is lost.
    for (let i = 1; i <= 40; i++) files[`f${pad(i)}.txt`] = 'a!\n'; // matches RUNAWAY_PATTERN at once
    // Runaway backtracking: the worker is stuck inside one exec call.
    files['zz-evil.txt'] = `${RUNAWAY_LINE}\n`;
    slow = makeTree(files);
  });

  it('a deadline hit while counting gives "at least N" and the partial-results note', async () => {
    const r = await run(slow, { pattern: RUNAWAY_PATTERN, paths: '.' }, { engine: 'js', deadlineMs: 1500 });
    expect(r.details.outcome).toBe('timeout');
    expect(r.details.totalFilesExact).toBe(false);
    expect(r.details.files).toHaveLength(20);
    expect(r.details.totalFiles).toBeGreaterThanOrEqual(20);
    expect(r.details.totalFiles).toBeLessThan(41);
    expect(r.text).toContain(
      `Showing files 1-20 of at least ${r.details.totalFiles}. Use skip=20 for the next page`,
    );
    expect(r.text).toContain('Search stopped at the 1.5 s deadline: results are partial.');
  });

  it('an abort during the search stops the engine and rejects', async () => {
    const ac = new AbortController();
    // Aborted when the engine's walk reaches the evil file (the walk asks the fence about every entry, on
    // this thread): the search is under way then, and it cannot finish on its own.
    const fence = createSensitiveFence({ home: os.homedir(), env: process.env });
    const judge = fence.isSensitiveCanonical.bind(fence);
    fence.isSensitiveCanonical = (p) => {
      if (p.endsWith(`${path.sep}zz-evil.txt`)) queueMicrotask(() => ac.abort(new Error('user cancelled')));
      return judge(p);
    };
    const r = await refusal(
      run(slow, { pattern: RUNAWAY_PATTERN, paths: '.' }, { engine: 'js', signal: ac.signal, fence }),
    );
    expect(r.message).toBe('user cancelled');
  });
});
