import { beforeAll, describe, expect, it } from 'vitest';
import { type Engine, makeTree, refusal, run, runDefault } from './fixtures/tool/helpers.js';

let dir: string;
beforeAll(() => {
  dir = makeTree({
    'f.txt':
      'needle 1\nline 2\nline 3\nneedle 4\nline 5\nline 6\nneedle 7\nline 8\nline 9\nneedle 10\nline 11\nline 12\n',
    'src/x.ts': 'needle x\n',
  });
});

const body = (text: string) => text.split('\n').slice(1).join('\n');

describe.each<Engine>(['js', 'rg'])('search tool: line ranges, engine %s', (engine) => {
  it('matches and context stay inside the range', async () => {
    const r = await runDefault(dir, { pattern: 'needle', paths: 'f.txt:4-8' }, { engine });
    expect(r.text).toBe('¶f.txt#FBFD\n*4:needle 4\n 5:line 5\n 6:line 6\n*7:needle 7\n 8:line 8');
  });

  it('a list of ranges', async () => {
    const r = await runDefault(dir, { pattern: 'needle', paths: 'f.txt:1-1,10-12' }, { engine });
    expect(r.text).toBe('¶f.txt#FBFD\n*1:needle 1\n...\n*10:needle 10\n 11:line 11\n 12:line 12');
  });

  it(':N is line N only; N+K, N-, L prefixes', async () => {
    expect(body((await run(dir, { pattern: 'needle', paths: 'f.txt:7' }, { engine })).text)).toBe(
      '*7:needle 7',
    );
    expect(body((await run(dir, { pattern: 'needle', paths: 'f.txt:4+3' }, { engine })).text)).toBe(
      '*4:needle 4',
    );
    expect(body((await run(dir, { pattern: 'needle', paths: 'f.txt:8-' }, { engine })).text)).toBe(
      '*10:needle 10',
    );
    expect(body((await run(dir, { pattern: 'needle', paths: 'f.txt:L4-L7' }, { engine })).text)).toBe(
      '*4:needle 4\n...\n*7:needle 7',
    );
  });

  it('a context line next to a match outside the range is not shown', async () => {
    // Match 1's after-context (2, 3) and match 10's before-context (9) lie in 2-9; only matches 4 and 7 count.
    const r = await runDefault(dir, { pattern: 'needle', paths: 'f.txt:2-9' }, { engine });
    expect(body(r.text)).toBe(
      ' 3:line 3\n*4:needle 4\n 5:line 5\n 6:line 6\n*7:needle 7\n 8:line 8\n 9:line 9',
    );
  });

  it('errors name the entry', async () => {
    const cases: Array<[string, string]> = [
      ['src:1-5', 'Line-range selector requires a single file: src:1-5 is a directory'],
      ['src/*.ts:1-5', 'Line-range selector requires a single file, not a glob: src/*.ts:1-5'],
      ['nope.txt:1-5', 'Path not found for line-range selector: nope.txt:1-5'],
      [
        'f.txt:raw',
        'paths entry "f.txt:raw" — only line-range selectors like ":50-100" are supported (no ":raw"/":conflicts")',
      ],
      [
        'f.txt:conflicts',
        'paths entry "f.txt:conflicts" — only line-range selectors like ":50-100" are supported (no ":raw"/":conflicts")',
      ],
      [
        'f.txt:1-5:raw',
        'paths entry "f.txt:1-5:raw" — only line-range selectors like ":50-100" are supported (no ":raw"/":conflicts")',
      ],
      ['f.txt:0', 'Line selector 0 is invalid; lines are 1-indexed. Use :1.'],
      ['f.txt:8-4', 'Invalid range 8-4: end must be >= start.'],
      ['f.txt:4+0', 'Invalid range 4+0: count must be >= 1.'],
    ];
    for (const [paths, message] of cases)
      expect((await refusal(run(dir, { pattern: 'needle', paths }, { engine }))).message).toBe(message);
  });

  it('a leading space no longer turns a ranged entry into a missing path', async () => {
    const r = await run(dir, { pattern: 'needle', paths: ' f.txt:4-8' }, { engine });
    expect(body(r.text)).toBe('*4:needle 4\n...\n*7:needle 7');
  });

  it('no match inside the range', async () => {
    expect((await run(dir, { pattern: 'needle', paths: 'f.txt:2-3' }, { engine })).text).toBe(
      'No matches found',
    );
  });

  it('a ranged file among several paths is a multi-file search, its range applying to it alone', async () => {
    const r = await run(dir, { pattern: 'needle', paths: ['f.txt:4-5', 'src/x.ts'] }, { engine });
    expect(r.text).toMatch(/^# f\.txt#FBFD\n\*4:needle 4\n\n# src\/\n## x\.ts#[0-9A-F]{4}\n\*1:needle x$/);
    expect(r.details.fileCount).toBe(2);
  });

  it('a range past the per-file cap continues from the next match', async () => {
    const big = makeTree({ 'big.txt': Array.from({ length: 300 }, (_, k) => `needle ${k + 1}`).join('\n') });
    const r = await run(big, { pattern: 'needle', paths: 'big.txt:11-260' }, { engine });
    expect(r.details.matchCount).toBe(200);
    expect(r.text).toContain('more follow: search "big.txt:211-260" for the rest.');
  });
});
