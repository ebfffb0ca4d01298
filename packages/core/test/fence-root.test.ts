import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandHome, resolveUserRoot, SensitiveFence } from '../src/fence/index.js';
import { TempTrees } from './fixtures/temp-trees.js';

/** 🔒 The one root policy every surface resolves a typed root with (DESIGN "One root policy"). */
let t: TempTrees;
let fence: SensitiveFence;
let project: string;
beforeAll(() => {
  t = new TempTrees('trawl-fence-root-');
  fence = new SensitiveFence({ home: t.home, env: {} });
  project = t.tree(['src/a.ts', 'readme.md']);
  fs.symlinkSync(project, path.join(t.dir, 'projlink'));
  fs.symlinkSync(path.join(t.home, '.ssh'), path.join(t.dir, 'sshlink'));
  fs.symlinkSync(path.join(t.dir, 'sshlink'), path.join(t.dir, 'chain'));
  fs.symlinkSync(path.join(t.dir, 'loop-b'), path.join(t.dir, 'loop-a'));
  fs.symlinkSync(path.join(t.dir, 'loop-a'), path.join(t.dir, 'loop-b'));
});
afterAll(() => t.remove());

const resolve = (typed: unknown, cwd?: string) =>
  resolveUserRoot(typed, { fence, home: t.home, ...(cwd ? { cwd } : {}) });

describe('resolveUserRoot', () => {
  it('answers the canonical directory and the absolute spelling', async () => {
    expect(await resolve(project)).toEqual({ ok: true, root: project, lexical: project });
    const viaLink = path.join(t.dir, 'projlink');
    expect(await resolve(viaLink)).toEqual({ ok: true, root: project, lexical: viaLink });
    expect(await resolve('projlink/', t.dir)).toEqual({ ok: true, root: project, lexical: viaLink });
  });

  it('expands ~ and allows HOME itself (walks exclude the stores inside it)', async () => {
    expect(await resolve('~')).toMatchObject({ ok: true, root: t.home });
    expect(await resolve('~/.ssh/..')).toMatchObject({ ok: true, root: t.home });
  });

  it.each([
    ['the store', () => path.join(t.home, '.ssh')],
    ['the store with ~', () => '~/.ssh'],
    ['the store with a trailing slash', () => '~/.ssh/'],
    ['the store spelled with ..', () => path.join(t.home, 'x', '..', '.ssh')],
    ['the store in another case', () => '~/.SSH'],
    ['a missing path inside the store', () => '~/.ssh/nothing-here'],
    ['a link to the store', () => path.join(t.dir, 'sshlink')],
    ['a chain of links to the store', () => path.join(t.dir, 'chain')],
    ['a directory through a chain into the store', () => path.join(t.dir, 'chain', 'deeper')],
    ['a link loop (cannot be resolved: fail closed)', () => path.join(t.dir, 'loop-a')],
  ])('🔒 refuses %s as sensitive_path, existing or not', async (_what, typed) => {
    expect(await resolve(typed())).toMatchObject({ ok: false, code: 'sensitive_path' });
  });

  it('🔒 judges the canonical answer again (a link swapped between the check and the resolution)', async () => {
    const swapped = await resolveUserRoot(project, {
      fence,
      home: t.home,
      fs: {
        realpath: async () => path.join(t.home, '.ssh'),
        stat: async () => ({ isDirectory: () => true }),
      },
    });
    expect(swapped).toMatchObject({ ok: false, code: 'sensitive_path' });
  });

  it.each([
    ['nothing', ''],
    ['blanks', '   '],
    ['not a string', 42],
    ['a NUL', `${'/tmp'}\0x`],
    ['a newline', '/tmp\nx'],
    ['an escape', '/tmp/\u001b[31m'],
    ['a C1 control', '/tmp/\u0085'],
    ['a relative path without a base', 'src'],
  ])('refuses %s as invalid_path', async (_what, typed) => {
    expect(await resolve(typed)).toMatchObject({ ok: false, code: 'invalid_path' });
  });

  it('refuses a file and a missing directory as not_a_directory', async () => {
    expect(await resolve(path.join(project, 'readme.md'))).toMatchObject({
      ok: false,
      code: 'not_a_directory',
      message: 'not a directory',
    });
    expect(await resolve(path.join(project, 'missing'))).toMatchObject({
      ok: false,
      code: 'not_a_directory',
      message: 'no such directory',
    });
  });
});

describe('expandHome', () => {
  it('expands ~ and ~/ only', () => {
    expect(expandHome('~', '/h')).toBe('/h');
    expect(expandHome('~/a/b', '/h')).toBe('/h/a/b');
    expect(expandHome('~user/a', '/h')).toBe('~user/a');
    expect(expandHome('a/~/b', '/h')).toBe('a/~/b');
    expect(expandHome('/abs', '/h')).toBe('/abs');
  });
});
