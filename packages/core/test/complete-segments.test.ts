import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionSegments, splitCompletionToken } from '../src/complete/index.js';
import { rng } from './parity/random.js';

const posix = { windows: false };
const win = { windows: true };

describe('completionSegments: the lexical resolver decides containment without the filesystem 🔒', () => {
  const root = '/srv/proj';
  it.each([
    ['./', []],
    ['./src/', ['src']],
    ['./src/../', []],
    ['./a/b/', ['a', 'b']],
    ['.\\src\\', ['src']],
    ['../proj/src/', ['src']],
    ['../../srv/proj/src/', ['src']],
    ['', []],
    ['src', ['src']],
    ['~/', ['~']],
  ])('%j names %j under the root', (dir, want) => {
    expect(completionSegments(root, dir as string, posix)).toEqual(want);
  });

  it.each([
    '../',
    '../../src/',
    '../sibling/',
    '/etc/',
    '//attacker/share/',
    '\\\\attacker\\share\\',
    '..\\..\\etc\\',
    './a\\..\\..\\..\\etc/',
    '\\etc\\',
    'C:\\Windows\\',
    'C:x',
    'c:/',
    '\\\\?\\C:\\proj\\',
  ])('%j names nothing under the root', (dir) => {
    expect(completionSegments(root, dir, posix)).toBeNull();
  });

  it('refuses a parent run past the filesystem root', () => {
    expect(completionSegments('/', '../', posix)).toBeNull();
    expect(completionSegments('/', './', posix)).toEqual([]);
    expect(completionSegments('/srv/proj', '../../../srv/proj/', posix)).toBeNull();
  });

  it('compares the root case-sensitively when a run re-enters it', () => {
    expect(completionSegments(root, '../PROJ/src/', posix)).toBeNull();
  });

  it('refuses a NUL anywhere', () => {
    expect(completionSegments(root, './a\0b/', posix)).toBeNull();
  });
});

describe('completionSegments: Windows padded names 🔒', () => {
  const root = '/srv/proj';
  it.each(['.. /', './.. /', './src /', './src./', './a:stream/', './.../'])(
    'with Windows rules, %j is refused',
    (dir) => {
      expect(completionSegments(root, dir, win)).toBeNull();
    },
  );
  it.each([
    ['./...ok/', ['...ok']],
    ['../proj/src/', ['src']],
    ['./src/../', []],
    ['./a/b/../', ['a']],
  ])('with Windows rules, %j still names %j', (dir, want) => {
    expect(completionSegments(root, dir as string, win)).toEqual(want);
  });
  it('without Windows rules, padded names are ordinary names', () => {
    expect(completionSegments(root, './src /', posix)).toEqual(['src ']);
    expect(completionSegments(root, './.. /', posix)).toEqual(['.. ']);
  });
});

const PIECES = ['.', '..', '..', 'a', 'b', 'src', 'proj', 'srv', '~', 'x ', 'y.', '...', 'C:', 'c:x', ' '];
const SEPS = ['/', '\\', '//', '\\\\', '/\\'];

function genToken(r: () => number): string {
  const n = Math.floor(r() * 7);
  let s = r() < 0.15 ? SEPS[Math.floor(r() * SEPS.length)]! : '';
  for (let i = 0; i < n; i++) {
    s += PIECES[Math.floor(r() * PIECES.length)]!;
    if (i < n - 1 || r() < 0.6) s += SEPS[Math.floor(r() * SEPS.length)]!;
  }
  return s;
}

/**
 * An independent oracle built on `path.posix.normalize`: prefix enough sentinel directories that a `..` run can
 * never be clamped at `/`; if normalisation eats into the sentinels, the run went above the filesystem root.
 */
function oracle(root: string, dir: string): string[] | null {
  if (/^[\\/]/.test(dir) || /^[A-Za-z]:/.test(dir)) return null;
  const slashed = dir.replace(/\\/g, '/');
  const k = (slashed.match(/\.\./g)?.length ?? 0) + 1;
  const sentinels = Array.from({ length: k }, (_, i) => `@s${i}`);
  const rootParts = root.split('/').filter(Boolean);
  const joined = path.posix.normalize([...sentinels, ...rootParts].join('/') + '/' + slashed);
  const parts = joined.split('/').filter((p) => p !== '' && p !== '.');
  for (let i = 0; i < k; i++) if (parts[i] !== sentinels[i]) return null;
  const rest = parts.slice(k);
  for (let i = 0; i < rootParts.length; i++) if (rest[i] !== rootParts[i]) return null;
  return rest.slice(rootParts.length);
}

describe('completionSegments: property test over generated tokens', () => {
  const roots = ['/srv/proj', '/', '/a', '/srv/proj/a/b'];
  it('agrees with a path.posix oracle, and never yields a separator, "." or ".." component', () => {
    const r = rng(20261130);
    let nonNull = 0;
    for (let i = 0; i < 20_000; i++) {
      const root = roots[i % roots.length]!;
      const dir = genToken(r);
      const got = completionSegments(root, dir, posix);
      const want = oracle(root, dir);
      if (JSON.stringify(got) !== JSON.stringify(want))
        expect({ root, dir, got }).toEqual({ root, dir, got: want });
      if (got) {
        nonNull++;
        const bad = got.filter((seg) => seg === '' || seg === '.' || seg === '..' || /[\\/\0]/.test(seg));
        if (bad.length > 0) expect({ dir, bad }).toEqual({ dir, bad: [] });
        // Lexically, root + segments is the normalised join: nothing outside the root.
        const full = path.posix.join(root, ...got);
        if (!(full === root || full.startsWith(root === '/' ? '/' : `${root}/`)))
          expect({ dir, full }).toBe(root);
      }
    }
    // The generator exercises both answers (a generator that only produced refusals would prove nothing).
    expect(nonNull).toBeGreaterThan(2_000);
    expect(nonNull).toBeLessThan(18_000);
  });

  it('with Windows rules, never accepts more than without, and refuses every padded or stream name', () => {
    const r = rng(7);
    for (let i = 0; i < 20_000; i++) {
      const dir = genToken(r);
      const w = completionSegments('/srv/proj', dir, win);
      const p = completionSegments('/srv/proj', dir, posix);
      if (w !== null) {
        if (JSON.stringify(w) !== JSON.stringify(p)) expect({ dir, w }).toEqual({ dir, w: p });
        const bad = w.filter((seg) => /[. ]$|:/.test(seg));
        if (bad.length > 0) expect({ dir, bad }).toEqual({ dir, bad: [] });
      }
      const padded = dir
        .split(/[\\/]+/)
        .some((c) => c !== '' && c !== '.' && c !== '..' && (/[. ]$/.test(c) || c.includes(':')));
      if (padded && w !== null) expect({ dir, w }).toEqual({ dir, w: null });
    }
  });
});

describe('splitCompletionToken', () => {
  it.each([
    ['./src/ap', { dir: './src/', q: 'ap' }],
    ['./', { dir: './', q: '' }],
    ['.\\a\\b', { dir: '.\\a\\', q: 'b' }],
    ['readme', { dir: '', q: 'readme' }],
    ['../proj/', { dir: '../proj/', q: '' }],
  ])('%j → %j', (token, want) => {
    expect(splitCompletionToken(token)).toEqual(want);
  });
});
