import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { belowRoot, resolvePlain } from '../src/util/resolve-plain.js';
import { rng } from './parity/random.js';

/** Path pieces that exercise every rule: empty, `.` and `..` segments, trailing slashes, dots inside names. */
const PIECES = ['a', 'b', '.', '..', '', '.x', 'x.', '..y', 'y..', '...', 'é', ' '];

function randomPath(next: () => number): string {
  const n = 1 + Math.floor(next() * 4);
  const parts: string[] = [];
  for (let k = 0; k < n; k++) parts.push(PIECES[Math.floor(next() * PIECES.length)]!);
  const p = parts.join('/');
  return next() < 0.5 ? `/${p}` : p;
}

describe('resolvePlain and belowRoot', () => {
  it('resolvePlain equals path.resolve on random paths, plain or not', () => {
    const next = rng(14);
    const bases = ['/', '/r', '/r/s', '/r/./s', '/r//s', '/r/s/', '/r/..', 'rel', '/r/s.'];
    for (let k = 0; k < 4000; k++) {
      const p = randomPath(next);
      const base = bases[k % bases.length]!;
      const cwdRelative = base.startsWith('/') ? base : path.resolve(base);
      expect(resolvePlain(cwdRelative, p), `${cwdRelative} + ${p}`).toBe(path.resolve(cwdRelative, p));
    }
  });

  it('agrees with path.resolve on the paths an engine reports', () => {
    expect(resolvePlain('/w', '/t/linux/arch/x.c')).toBe('/t/linux/arch/x.c');
    expect(resolvePlain('/w', 'src/a.ts')).toBe('/w/src/a.ts');
    expect(resolvePlain('/', 'a')).toBe('/a');
    expect(resolvePlain('/w', './a')).toBe('/w/a');
    expect(resolvePlain('/w', 'a/../b')).toBe('/w/b');
    expect(resolvePlain('/w', '/a//b/')).toBe('/a/b');
  });

  it('belowRoot equals path.join(real, path.relative(root, abs)) and refuses what is outside', () => {
    const next = rng(41);
    const roots: Array<[string, string]> = [
      ['/', '/'],
      ['/r', '/real'],
      ['/r/s', '/'],
      ['/r/s', '/x/y'],
    ];
    for (let k = 0; k < 4000; k++) {
      const [rootAbs, real] = roots[k % roots.length]!;
      const abs = path.resolve(rootAbs, randomPath(next));
      const rel = path.relative(rootAbs, abs);
      const outside = rel === '..' || rel.startsWith('../') || path.isAbsolute(rel);
      const want = outside ? null : rel === '' ? real : path.join(real, rel);
      expect(belowRoot(rootAbs, real, abs), `${rootAbs} → ${real}: ${abs}`).toBe(want);
    }
    expect(belowRoot('/r', '/real', '/r')).toBe('/real');
    expect(belowRoot('/r', '/real', '/rs/a')).toBeNull();
    expect(belowRoot('/r', '/real', '/r/a/b')).toBe('/real/a/b');
  });
});
