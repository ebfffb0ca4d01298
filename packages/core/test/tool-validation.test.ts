import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { searchTool } from '../src/index.js';
import { makeTree, refusal, run } from './fixtures/tool/helpers.js';

let dir: string;
beforeAll(() => {
  dir = makeTree({
    'a.ts': 'alpha\nneedle\n',
    'b.ts': 'needle b\n',
    'a,b.txt': 'needle comma\n',
    'src/x.ts': 'needle x\n',
  });
});

describe('search tool: validation', () => {
  it('refuses an empty or all-space pattern', async () => {
    for (const pattern of ['', '   ', '\t\n']) {
      expect(await refusal(run(dir, { pattern, paths: 'a.ts' }))).toEqual({
        code: 'empty_pattern',
        message: 'Pattern must not be empty',
      });
    }
  });

  it('refuses negative, NaN and infinite skip with the reference text', async () => {
    for (const skip of [-1, -0.5, Number.NaN, Number.POSITIVE_INFINITY, 'two']) {
      expect(await refusal(run(dir, { pattern: 'needle', paths: '.', skip }))).toEqual({
        code: 'invalid_skip',
        message: 'Skip must be a non-negative number',
      });
    }
  });

  it('refuses an absurdly large skip instead of walking to it', async () => {
    const r = await refusal(run(dir, { pattern: 'needle', paths: '.', skip: 1e15 }));
    expect(r).toEqual({ code: 'invalid_skip', message: 'Skip must be at most 1000000' });
  });

  it('floors a fractional skip, and takes a numeric string or null as models send them', async () => {
    const a = await run(dir, { pattern: 'needle', paths: '.', skip: 0.9 });
    expect(a.details.skip).toBe(0);
    expect(a.text.startsWith('# a,b.txt#8400\n*1:needle comma')).toBe(true);
    expect((await run(dir, { pattern: 'needle', paths: '.', skip: '2' })).details.skip).toBe(2);
    expect((await run(dir, { pattern: 'needle', paths: '.', skip: null })).details.skip).toBe(0);
  });

  it('refuses empty path entries', async () => {
    for (const paths of ['', '  ', ['a.ts', '  '], ['""']]) {
      expect(await refusal(run(dir, { pattern: 'needle', paths }))).toEqual({
        code: 'empty_path',
        message: '`paths` must contain non-empty paths or globs',
      });
    }
  });

  it('refuses comma-joined array entries with the reference text', async () => {
    expect(await refusal(run(dir, { pattern: 'needle', paths: ['a.ts,b.ts'] }))).toEqual({
      code: 'comma_joined_paths',
      message: 'paths is an array — pass ["a", "b"] not ["a,b"]',
    });
  });

  it('a comma-joined string is told the array to pass, not "paths is an array"', async () => {
    expect(await refusal(run(dir, { pattern: 'needle', paths: 'src,tests' }))).toEqual({
      code: 'comma_joined_paths',
      message: 'paths "src,tests" joins several paths with commas: pass them as an array, ["src", "tests"]',
    });
    // Braces are a glob's alternation, not a list of paths.
    expect((await refusal(run(dir, { pattern: 'x', paths: 'src/*.{ts,md}, b.ts' }))).message).toBe(
      'paths "src/*.{ts,md}, b.ts" joins several paths with commas: pass them as an array, ["src/*.{ts,md}", "b.ts"]',
    );
  });

  it('a file whose name holds a comma is searched when it exists', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'a,b.txt' });
    expect(r.text).toBe('¶a,b.txt#8400\n*1:needle comma');
    const g = await run(dir, { pattern: 'needle', paths: 'a?b.txt' });
    expect(g.text).toBe('# a,b.txt#8400\n*1:needle comma');
  });

  it('strips quotes and surrounding spaces from entries', async () => {
    for (const paths of ['"a.ts"', '  a.ts  ']) {
      const r = await run(dir, { pattern: 'needle', paths });
      expect(r.text).toBe('¶a.ts#8468\n*2:needle');
      expect(r.details.scopePath).toBe('a.ts');
    }
    const d = await run(dir, { pattern: 'needle', paths: '"src"' });
    expect(d.details.scopePath).toBe('src');
  });

  it('a missing path (or a glob under a missing directory) is "Path not found"', async () => {
    expect(await refusal(run(dir, { pattern: 'x', paths: 'nope.ts' }))).toEqual({
      code: 'path_not_found',
      message: 'Path not found: nope.ts',
    });
    expect((await refusal(run(dir, { pattern: 'x', paths: 'nope/*.ts' }))).message).toBe(
      'Path not found: nope',
    );
    expect((await refusal(run(dir, { pattern: 'x', paths: ['x/', 'y.ts'] }))).message).toBe(
      'Path not found: x/, y.ts',
    );
  });

  it('refuses missing or empty paths and wrongly typed fields in one line', async () => {
    const missing = await refusal(run(dir, { pattern: 'x' }));
    expect(missing.code).toBe('invalid_arguments');
    expect(missing.message).toMatch(/^Invalid arguments for search: paths: /);
    const empty = await refusal(run(dir, { pattern: 'x', paths: [] }));
    expect(empty.message).toMatch(/paths: .*>=1/);
    const typed = await refusal(run(dir, { pattern: 5, paths: 'a.ts' }));
    expect(typed.message).toMatch(/pattern: .*expected string/);
    const mixed = await refusal(run(dir, { pattern: 'x', paths: ['a.ts', 3] }));
    expect(mixed.message).toMatch(/paths/);
    for (const r of [missing, empty, typed, mixed]) expect(r.message).not.toContain('\n');
    expect((await refusal(searchTool(null, { cwd: dir }))).code).toBe('invalid_arguments');
  });

  it('drops unknown keys, as the reference does', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'a.ts', color: 'always' });
    expect(r.text).toBe('¶a.ts#8468\n*2:needle');
  });

  it('an invalid regex is one line starting "Invalid regex:"', async () => {
    const r = await refusal(run(dir, { pattern: 'a[', paths: [dir] }));
    expect(r.code).toBe('invalid_regex');
    expect(r.message).toMatch(/^Invalid regex: /);
    expect(r.message).not.toContain('\n');
  });

  it('refuses an unknown URL scheme instead of guessing a path (reference: "Path not found: https:/…")', async () => {
    const r = await refusal(run(dir, { pattern: 'x', paths: 'https://example.com/x' }));
    expect(r).toEqual({
      code: 'unknown_scheme',
      message:
        'Unknown URL scheme "https://" in paths entry "https://example.com/x" (searchable schemes: docs://)',
    });
  });

  it('refuses an invalid glob with the entry and the reason', async () => {
    const r = await refusal(run(dir, { pattern: 'x', paths: 'src/[a.ts' }));
    expect(r).toEqual({
      code: 'invalid_glob',
      message: `Invalid glob pattern in paths entry "src/[a.ts": unclosed character class; missing ']'`,
    });
  });

  it('refuses a ranged directory and a ranged glob', async () => {
    expect((await refusal(run(dir, { pattern: 'x', paths: 'src:1-5' }))).message).toBe(
      'Line-range selector requires a single file: src:1-5 is a directory',
    );
    expect((await refusal(run(dir, { pattern: 'x', paths: 'src/*.ts:1-5' }))).message).toBe(
      'Line-range selector requires a single file, not a glob: src/*.ts:1-5',
    );
  });

  it('reports the first bad entry when several are bad', async () => {
    const r = await refusal(run(dir, { pattern: 'x', paths: ['a.ts:0', 'src:1-5'] }));
    expect(r.message).toBe('Line selector 0 is invalid; lines are 1-indexed. Use :1.');
  });

  it('never leaks the absolute working directory into errors for relative entries', async () => {
    const r = await refusal(run(dir, { pattern: 'x', paths: 'nope/deeper/file.ts' }));
    expect(r.message).not.toContain(dir);
    expect(path.isAbsolute(r.message.replace('Path not found: ', ''))).toBe(false);
  });
});
