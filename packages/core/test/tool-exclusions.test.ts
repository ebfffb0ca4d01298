/**
 * Exclusion globs in `paths` (`!**\/*.test.ts`) take out what they match wherever they stand among the entries;
 * only a path named as an entry of its own is searched whatever the exclusions say (ripgrep never filters the
 * paths it is given).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Engine, makeTree, refusal, run } from './fixtures/tool/helpers.js';

let dir: string;
beforeAll(() => {
  dir = makeTree({
    'src/a.ts': 'needle a\n',
    'src/a.test.ts': 'needle a test\n',
    'src/gen/g.ts': 'needle generated\n',
    'lib/b.ts': 'needle b\n',
    'lib/b.test.ts': 'needle b test\n',
    'top.test.ts': 'needle top\n',
  });
});

const files = async (engine: Engine, paths: string[]) =>
  (await run(dir, { pattern: 'needle', paths }, { engine })).details.files;

describe.each<Engine>(['js', 'rg'])('search tool: exclusion globs in paths, engine %s', (engine) => {
  it('beside a directory, an exclusion takes out what it matches (it was ignored)', async () => {
    expect(await files(engine, ['src', '!**/*.test.ts'])).toEqual(['src/a.ts', 'src/gen/g.ts']);
    expect(await files(engine, ['src', '!*.test.ts'])).toEqual(['src/a.ts', 'src/gen/g.ts']);
  });

  it('alone, exclusions apply to the working directory (it found nothing)', async () => {
    expect(await files(engine, ['!**/*.test.ts'])).toEqual(['lib/b.ts', 'src/a.ts', 'src/gen/g.ts']);
  });

  it('with a glob, and anchored at the working directory when it holds a /', async () => {
    expect(await files(engine, ['**/*.ts', '!**/*.test.ts', '!src/gen'])).toEqual(['lib/b.ts', 'src/a.ts']);
    expect(await files(engine, ['.', '!src/gen/**', '!lib'])).toEqual([
      'src/a.test.ts',
      'src/a.ts',
      'top.test.ts',
    ]);
  });

  it('an exclusion before a directory applies to it as one after it does (it was ignored)', async () => {
    const expected = ['src/a.ts', 'src/gen/g.ts'];
    expect(await files(engine, ['!**/*.test.ts', 'src'])).toEqual(expected);
    expect(await files(engine, ['src', '!**/*.test.ts'])).toEqual(expected);
    expect(await files(engine, ['!src/gen/**', 'src', '!*.test.ts'])).toEqual(['src/a.ts']);
  });

  it('a file named as an entry is searched whatever the exclusions say, in either order', async () => {
    expect(await files(engine, ['!**/*.test.ts', 'src/a.test.ts'])).toEqual(['src/a.test.ts']);
    expect(await files(engine, ['src/a.test.ts', '!**/*.test.ts'])).toEqual(['src/a.test.ts']);
    // lib's walk leaves lib/b.test.ts out; the entry naming it brings it back (once, in path order).
    expect(await files(engine, ['lib', '!*.test.ts', 'lib/b.test.ts'])).toEqual([
      'lib/b.test.ts',
      'lib/b.ts',
    ]);
    expect(await files(engine, ['lib/b.test.ts', 'lib', '!*.test.ts'])).toEqual([
      'lib/b.test.ts',
      'lib/b.ts',
    ]);
  });

  it('a malformed exclusion is refused, naming the entry', async () => {
    const r = await refusal(run(dir, { pattern: 'needle', paths: ['src', '!src/[a'] }, { engine }));
    expect(r.code).toBe('invalid_glob');
    expect(r.message).toMatch(/^Invalid glob pattern in paths entry "!src\/\[a"/);
  });
});
