/**
 * Issue 11 item 10: the options agents reach for (context, before/after, an output mode, exclusion globs,
 * hidden files, a per-file cap, a total count), each optional with the seed's behaviour when absent, each
 * bounded and refused with a coded error when bad. Item 11's last text defects are here too: no directory
 * heading printed twice, no context line of a match the cap hid.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Engine, makeTree, refusal, run, runDefault } from './fixtures/tool/helpers.js';

let dir: string;
beforeAll(() => {
  const big: string[] = [];
  for (let i = 0; i < 201; i++) big.push(`m${i}`, 'x');
  big.push('y', 'y', 'y');
  dir = makeTree({
    'a.ts': 'one\ntwo\nneedle a\nthree\nfour\nfive\nsix\n',
    'src/b.ts': 'needle b1\nx\nneedle b2\nx\nneedle b3\n',
    'src/b.test.ts': 'needle test\n',
    'src/v3/c.ts': 'needle c\n',
    'src/v3/tests/t.ts': 'needle t\n',
    'src/v3/z.ts': 'needle z\n',
    '.dot/d.ts': 'needle dot\n',
    'big.txt': `${big.join('\n')}\n`,
  });
});

describe.each<Engine>(['js', 'rg'])('search tool: options agents reach for, engine %s', (engine) => {
  it('context sets both sides; before/after override one side; absent keeps the host default', async () => {
    const c1 = await run(dir, { pattern: 'needle a', paths: 'a.ts', context: 1 }, { engine });
    expect(c1.text).toBe('¶a.ts#4B4C\n 2:two\n*3:needle a\n 4:three');
    const b2 = await run(
      dir,
      { pattern: 'needle a', paths: 'a.ts', context: 1, before: 2, after: 0 },
      { engine },
    );
    expect(b2.text).toBe('¶a.ts#4B4C\n 1:one\n 2:two\n*3:needle a');
    const seed = await runDefault(dir, { pattern: 'needle a', paths: 'a.ts' }, { engine });
    expect(seed.text).toBe('¶a.ts#4B4C\n 2:two\n*3:needle a\n 4:three\n 5:four\n 6:five');
    const zero = await runDefault(dir, { pattern: 'needle a', paths: 'a.ts', context: 0 }, { engine });
    expect(zero.text).toBe('¶a.ts#4B4C\n*3:needle a');
  });

  it('output "files" lists names only, one a line, and pages by 100', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'src', output: 'files' }, { engine });
    expect(r.text).toBe('src/b.test.ts\nsrc/b.ts\nsrc/v3/c.ts\nsrc/v3/tests/t.ts\nsrc/v3/z.ts');
    expect(r.details).toMatchObject({ output: 'files', totalFiles: 5, fileMatches: [], truncated: false });
  });

  it('output "count" gives matching lines per file and the total, with ranges honoured', async () => {
    const r = await run(dir, { pattern: 'needle', paths: ['src', 'a.ts'], output: 'count' }, { engine });
    expect(r.text).toBe(
      [
        'src/b.test.ts:1',
        'src/b.ts:3',
        'src/v3/c.ts:1',
        'src/v3/tests/t.ts:1',
        'src/v3/z.ts:1',
        'a.ts:1',
        '',
        '8 matching lines in 6 files.',
      ].join('\n'),
    );
    expect(r.details).toMatchObject({ output: 'count', totalMatches: 8, totalFiles: 6 });
    const ranged = await run(dir, { pattern: 'needle', paths: 'src/b.ts:2-5', output: 'count' }, { engine });
    expect(ranged.text).toBe('src/b.ts:2\n\n2 matching lines in 1 file.');
    // Counts are not capped: 201 matching lines in one file.
    const big = await run(dir, { pattern: '^m', paths: 'big.txt', output: 'count' }, { engine });
    expect(big.text).toBe('big.txt:201\n\n201 matching lines in 1 file.');
  });

  it('count and files pages say where the next page starts, and the count covers all pages', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 105; i++) files[`f${String(i).padStart(3, '0')}.txt`] = 'hit\nhit\n';
    const many = makeTree(files);
    const r = await run(many, { pattern: 'hit', paths: '.', output: 'count' }, { engine });
    const lines = r.text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['f000.txt:2', 'f001.txt:2']);
    expect(lines[99]).toBe('f099.txt:2');
    expect(r.text).toContain(
      '210 matching lines in 105 files (all pages).\n\nShowing files 1-100 of 105. Use skip=100 for the next page',
    );
    const next = await run(many, { pattern: 'hit', paths: '.', output: 'files', skip: 100 }, { engine });
    expect(next.details.files).toEqual(['f100.txt', 'f101.txt', 'f102.txt', 'f103.txt', 'f104.txt']);
  });

  it('exclude takes globs out, as !glob entries in paths do', async () => {
    const r = await run(
      dir,
      { pattern: 'needle', paths: 'src', exclude: ['*.test.ts', 'tests'] },
      { engine },
    );
    expect(r.details.files).toEqual(['src/b.ts', 'src/v3/c.ts', 'src/v3/z.ts']);
    const one = await run(dir, { pattern: 'needle', paths: 'src', exclude: 'src/v3/**' }, { engine });
    expect(one.details.files).toEqual(['src/b.test.ts', 'src/b.ts']);
    // Alone (no paths but '.'), they apply to the working directory.
    const all = await run(dir, { pattern: 'needle', paths: '.', exclude: ['src', 'big.txt'] }, { engine });
    expect(all.details.files).toEqual(['.dot/d.ts', 'a.ts']);
  });

  it('hidden: false leaves dot files out; the empty answer says how to include them', async () => {
    const r = await run(dir, { pattern: 'needle', paths: '.', hidden: false, output: 'files' }, { engine });
    expect(r.text.split('\n')).not.toContain('.dot/d.ts');
    expect((await run(dir, { pattern: 'needle', paths: '.', output: 'files' }, { engine })).text).toContain(
      '.dot/d.ts',
    );
    const none = await run(dir, { pattern: 'needle dot', paths: '.', hidden: false }, { engine });
    expect(none.text).toBe(
      'No matches found\n1 file hidden by ignore rules (.gitignore, .ignore) or hidden: false or skipped directories matches: .dot/d.ts. To search it, pass hidden: true to include dot files.',
    );
  });

  it('perFile caps the matching lines of each file, and says so in the singular too', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'src/b.ts', perFile: 1 }, { engine });
    expect(r.text).toBe(
      '¶src/b.ts#11C2\n*1:needle b1\n\nShowing the first 1 of 3 matching lines of this file; 2 more follow: search "src/b.ts:3-" for the rest.',
    );
    const multi = await run(dir, { pattern: 'needle', paths: ['src/b.ts', 'a.ts'], perFile: 2 }, { engine });
    expect(multi.details.fileMatches).toEqual([
      { path: 'src/b.ts', count: 2 },
      { path: 'a.ts', count: 1 },
    ]);
    expect(multi.text).toContain(
      'Only the first 2 matching lines per file are shown; for the rest, search "src/b.ts:5-" (1 more).',
    );
  });

  it('after the 200-line cap no context line of the hidden match is shown', async () => {
    const r = await runDefault(dir, { pattern: '^m', paths: 'big.txt' }, { engine });
    const lines = r.text.split('\n');
    // The last shown match (line 399) keeps its context up to the hidden match at line 401, no further.
    expect(lines.slice(-4)).toEqual([
      '*399:m199',
      ' 400:x',
      '',
      'Showing the first 200 of 201 matching lines of this file; 1 more follows: search "big.txt:401-" for the rest.',
    ]);
  });

  it('a directory heading is printed once: a parent file after a subdirectory shows its full path', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'src/v3' }, { engine });
    expect(r.text).toBe(
      [
        '# src/v3/',
        '## c.ts#84FB',
        '*1:needle c',
        '',
        '# src/v3/tests/',
        '## t.ts#0F1F',
        '*1:needle t',
        '',
        '# src/v3/z.ts#50F8',
        '*1:needle z',
      ].join('\n'),
    );
    expect(r.details.files).toEqual(['src/v3/c.ts', 'src/v3/tests/t.ts', 'src/v3/z.ts']);
  });
});

describe('search tool: bad option values are refused with a coded error, and nothing runs', () => {
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ context: -1 }, 'invalid_context', 'context must be a whole number from 0 to 10, got -1'],
    [{ context: 11 }, 'invalid_context', 'context must be a whole number from 0 to 10, got 11'],
    [{ before: 1.5 }, 'invalid_context', 'before must be a whole number from 0 to 10, got 1.5'],
    [{ after: 'lots' }, 'invalid_context', 'after must be a whole number from 0 to 10, got "lots"'],
    [{ perFile: 0 }, 'invalid_per_file', 'perFile must be a whole number from 1 to 200, got 0'],
    [{ perFile: 1e9 }, 'invalid_per_file', 'perFile must be a whole number from 1 to 200, got 1000000000'],
    [{ output: 'lines' }, 'invalid_output', 'output must be one of "content", "files", "count", got "lines"'],
    [{ exclude: 3 }, 'invalid_exclude', 'exclude must be a glob or an array of globs'],
    [{ exclude: ['  '] }, 'invalid_exclude', 'exclude globs must not be empty'],
    [{ exclude: Array(65).fill('x') }, 'invalid_exclude', 'exclude takes at most 64 globs'],
  ];
  for (const [extra, code, message] of cases) {
    it(`${JSON.stringify(extra).slice(0, 40)} → ${code}`, async () => {
      expect(await refusal(run(dir, { pattern: 'needle', paths: '.', ...extra }))).toEqual({ code, message });
    });
  }

  it('numeric strings and null are taken as models send them', async () => {
    const r = await run(dir, {
      pattern: 'needle a',
      paths: 'a.ts',
      context: '1',
      perFile: null,
      output: null,
    });
    expect(r.text).toBe('¶a.ts#4B4C\n 2:two\n*3:needle a\n 4:three');
  });

  it('a malformed exclusion glob names the entry', async () => {
    const r = await refusal(run(dir, { pattern: 'needle', paths: '.', exclude: 'a[' }));
    expect(r.code).toBe('invalid_glob');
    expect(r.message).toContain('!a[');
  });
});
