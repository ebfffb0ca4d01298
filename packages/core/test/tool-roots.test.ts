/**
 * Issue 11 item 8: a search confined to roots (what `trawl mcp` passes) reads nothing outside them — not by
 * `../`, not by an absolute path, not through a link inside a root — and does not say whether a path out
 * there exists. Before, `search` read /etc/passwd through `../../../etc/passwd` while list_dir refused `../`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTree, refusal, run } from './fixtures/tool/helpers.js';

let base: string;
let proj: string;
let other: string;
beforeAll(() => {
  base = makeTree({
    'proj/a.txt': 'needle a\n',
    'proj/sub/c.txt': 'needle c\n',
    'outside/secret.txt': 'needle secret\n',
    'other/b.txt': 'needle b\n',
  });
  proj = path.join(base, 'proj');
  other = path.join(base, 'other');
  fs.symlinkSync(path.join(base, 'outside/secret.txt'), path.join(proj, 'link-out.txt'));
  fs.symlinkSync(path.join(base, 'outside'), path.join(proj, 'dir-out'));
});

const refused = async (paths: string | string[], roots = [proj]) =>
  refusal(run(proj, { pattern: 'needle', paths }, { roots }));

describe('search tool confined to roots', () => {
  it('refuses ../, absolute paths and links that lead out, and never says whether they exist', async () => {
    for (const p of [
      '../outside/secret.txt',
      '../../../../../../etc/passwd',
      '/etc/passwd',
      'link-out.txt',
      'dir-out',
      'dir-out/*.txt',
      '../outside/missing.txt',
      ['a.txt', '../outside'],
    ]) {
      const r = await refused(p);
      expect(r.code, String(p)).toBe('path_outside_roots');
      expect(r.message).toMatch(/^Path outside the allowed roots: .* \(roots: /);
    }
  });

  it('reads what is inside, and inside a second root', async () => {
    const r = await run(proj, { pattern: 'needle', paths: ['.', other] }, { roots: [proj, other] });
    expect(r.details.files).toEqual(['a.txt', 'sub/c.txt', path.join(other, 'b.txt')]);
    // A walk does not follow the links inside the root that lead out.
    expect(r.text).not.toContain('secret');
  });

  it('without roots (the library default) nothing is confined', async () => {
    const r = await run(proj, { pattern: 'needle', paths: '../outside/secret.txt' });
    expect(r.details.files).toEqual([path.join(base, 'outside/secret.txt')]);
  });
});
