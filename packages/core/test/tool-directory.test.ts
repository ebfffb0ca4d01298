import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Engine, makeTree, run, runDefault } from './fixtures/tool/helpers.js';
import { asUnprivileged, unprivilegedUnavailable } from './fixtures/unprivileged.js';

let tree: string;
let ai: string;
let lines: string;
let bins: string;
let ignored: string;
let noGit: string;
let mixed: string;
beforeAll(() => {
  tree = makeTree({
    'b.ts': 'needle b\n',
    'A.ts': 'needle A\n',
    'a/x.ts': 'needle ax\n',
    'a/z/q.ts': 'needle azq\n',
    'a/zz.ts': 'needle azz\n',
    'a-b.ts': 'needle a-b\n',
    'a.ts': 'needle a\n',
    '.hidden/h.ts': 'needle hidden\n',
    '.env': 'needle=env\n',
    '.git/config': 'needle git\n',
    'node_modules/p/i.js': 'needle nm\n',
  });
  ai = makeTree({
    'packages/ai/CHANGELOG.md': 'Claude Opus\n',
    'packages/ai/models.json': '{ "name": "Claude Opus" }\n',
    'alpha.txt': 'needle 1\nneedle 2\nneedle 3\n',
    'beta.txt': 'needle 1\nneedle 2\nneedle 3\n',
  });
  lines = makeTree({
    'w.txt': 'a\nneedle  \t\nneedle\r\nz\n',
    'crlf.txt': 'x\r\nneedle crlf\r\ny\r\n',
  });
  bins = makeTree({
    'bin.dat': Buffer.from('needle one\n\u0000\nneedle two\n'),
    'late.dat': Buffer.concat([
      Buffer.from('needle early\n'),
      Buffer.alloc(70_000, 0x61),
      Buffer.from('\n\u0000 needle\nneedle after\n'),
    ]),
    'ok.txt': 'needle ok\n',
  });
  ignored = makeTree({
    '.git/': '',
    '.gitignore': 'ignored.txt\nbuild/\n',
    'ignored.txt': 'needle ignored\n',
    'kept.txt': 'needle kept\n',
    'build/out.js': 'needle build\n',
    'README.md': 'needle readme\n',
    'lib/d.ts': 'needle d\n',
    'lib/sub/e.ts': 'needle e\n',
  });
  noGit = makeTree({
    '.gitignore': 'ignored.txt\n',
    'ignored.txt': 'needle ignored\n',
    'kept.txt': 'needle kept\n',
  });
  mixed = makeTree({
    'file-1.txt': 'needle\nneedle\n',
    'file-2.txt': 'needle\nneedle\n',
    'file-3.txt': 'needle\nneedle\n',
    'dominant.txt': 'needle\nneedle\nneedle\nneedle\n',
  });
});

describe.each<Engine>(['js', 'rg'])('search tool: directories, engine %s', (engine) => {
  it('path byte order, grouped by directory runs, no heading printed twice; details.files in display order; dotfiles in, .git and node_modules out', async () => {
    const r = await run(tree, { pattern: 'needle', paths: '.' }, { engine });
    expect(r.text).toBe(
      [
        '# .env#B805',
        '*1:needle=env',
        '',
        '# .hidden/',
        '## h.ts#A96B',
        '*1:needle hidden',
        '',
        '# A.ts#1144',
        '*1:needle A',
        '',
        '# a-b.ts#8EF6',
        '*1:needle a-b',
        '',
        '# a.ts#46AC',
        '*1:needle a',
        '',
        '# a/',
        '## x.ts#CE40',
        '*1:needle ax',
        '',
        '# a/z/',
        '## q.ts#B43A',
        '*1:needle azq',
        '',
        // a/ was headed above a/z/: its later file shows its full path, no repeated `# a/` (issue 11 item 11)
        '# a/zz.ts#7B29',
        '*1:needle azz',
        '',
        '# b.ts#C7E3',
        '*1:needle b',
      ].join('\n'),
    );
    expect(r.details.files).toEqual([
      '.env',
      '.hidden/h.ts',
      'A.ts',
      'a-b.ts',
      'a.ts',
      'a/x.ts',
      'a/z/q.ts',
      'a/zz.ts',
      'b.ts',
    ]);
    expect(r.details.totalFiles).toBe(9);
  });

  it('.git and node_modules are searched when named, or when a glob names node_modules', async () => {
    expect((await run(tree, { pattern: 'needle', paths: '.git' }, { engine })).text).toBe(
      '# .git/\n## config#AA49\n*1:needle git',
    );
    expect((await run(tree, { pattern: 'needle', paths: 'node_modules' }, { engine })).text).toBe(
      '# node_modules/p/\n## i.js#F9E0\n*1:needle nm',
    );
    const g = await run(tree, { pattern: 'needle', paths: '**/node_modules/**/*.js' }, { engine });
    expect(g.text).toBe('# node_modules/p/\n## i.js#F9E0\n*1:needle nm');
    expect(g.details.scopePath).toBe('**/node_modules/**/*.js');
  });

  it('gitignore:false still skips .git and node_modules', async () => {
    const r = await run(tree, { pattern: 'needle', paths: '.', gitignore: false }, { engine });
    expect(r.text).not.toMatch(/needle (git|nm)/);
    expect(r.details.totalFiles).toBe(9);
  });

  it('files under directory headings', async () => {
    const r = await run(ai, { pattern: 'Claude Opus', paths: [ai] }, { engine });
    expect(r.text).toBe(
      '# packages/ai/\n## CHANGELOG.md#802E\n*1:Claude Opus\n## models.json#F4F8\n*1:{ "name": "Claude Opus" }',
    );
  });

  it('one heading per file with its match count', async () => {
    const r = await run(ai, { pattern: 'needle', paths: '.' }, { engine });
    expect(r.text.match(/^# alpha\.txt/gm)).toHaveLength(1);
    expect(r.text.match(/^# beta\.txt/gm)).toHaveLength(1);
    expect(r.details.fileMatches).toEqual([
      { path: 'alpha.txt', count: 3 },
      { path: 'beta.txt', count: 3 },
    ]);
  });

  it('several files, counts, no "# ." heading', async () => {
    const r = await run(mixed, { pattern: 'needle', paths: '.' }, { engine });
    for (const f of ['dominant.txt', 'file-1.txt', 'file-2.txt', 'file-3.txt'])
      expect(r.text).toMatch(new RegExp(`^# ${f}#[0-9A-F]{4}$`, 'm'));
    expect(r.text).not.toMatch(/^# \.\//m);
    expect(r.details).toMatchObject({ fileCount: 4, matchCount: 10, totalFiles: 4 });
  });

  it('trailing whitespace and CR are dropped from shown lines', async () => {
    const r = await run(lines, { pattern: 'needle', paths: ['crlf.txt', 'w.txt'] }, { engine });
    expect(r.text).toBe('# crlf.txt#D3E5\n*2:needle crlf\n\n# w.txt#EE5E\n*2:needle\n*3:needle');
  });

  it('walked binary files — a NUL early skips the file, a late NUL ends its search', async () => {
    const r = await run(bins, { pattern: 'needle', paths: '.' }, { engine });
    expect(r.text).toMatch(/^# late\.dat#[0-9A-F]{4}\n\*1:needle early\n\n# ok\.txt#7912\n\*1:needle ok$/);
    expect(r.details.notSearched).toBeUndefined();
  });

  it('.gitignore is respected by default and not with gitignore:false', async () => {
    const r = await run(ignored, { pattern: 'needle', paths: '.' }, { engine });
    expect(r.details.files).toEqual(['README.md', 'kept.txt', 'lib/d.ts', 'lib/sub/e.ts']);
    const all = await run(ignored, { pattern: 'needle', paths: '.', gitignore: false }, { engine });
    expect(all.details.files).toEqual([
      'README.md',
      'build/out.js',
      'ignored.txt',
      'kept.txt',
      'lib/d.ts',
      'lib/sub/e.ts',
    ]);
  });

  it('.gitignore applies without a .git directory', async () => {
    const r = await run(noGit, { pattern: 'needle', paths: '.' }, { engine });
    expect(r.details.files).toEqual(['kept.txt']);
  });

  it('a named ignored file is searched, alone or next to a directory', async () => {
    expect((await run(ignored, { pattern: 'needle', paths: 'ignored.txt' }, { engine })).text).toBe(
      '¶ignored.txt#CEFC\n*1:needle ignored',
    );
    const withDir = await run(ignored, { pattern: 'needle', paths: ['ignored.txt', 'lib'] }, { engine });
    expect(withDir.details.files).toEqual(['ignored.txt', 'lib/d.ts', 'lib/sub/e.ts']);
    const two = await run(ignored, { pattern: 'needle', paths: ['ignored.txt', 'README.md'] }, { engine });
    expect(two.details.files).toEqual(['ignored.txt', 'README.md']);
    const inIgnoredDir = await run(ignored, { pattern: 'needle', paths: ['build/out.js', '.'] }, { engine });
    expect(inIgnoredDir.details.files).toEqual([
      'build/out.js',
      'README.md',
      'kept.txt',
      'lib/d.ts',
      'lib/sub/e.ts',
    ]);
  });

  it('a directory and a file inside it: the file is searched once', async () => {
    const r = await run(
      ignored,
      { pattern: 'needle', paths: ['lib', 'lib/d.ts', path.join(ignored, 'lib', 'd.ts')] },
      { engine },
    );
    expect(r.details.files).toEqual(['lib/d.ts', 'lib/sub/e.ts']);
    expect(r.details.totalFiles).toBe(2);
  });

  it('a directory given twice, or nested in another, is searched once', async () => {
    const r = await run(ignored, { pattern: 'needle', paths: ['lib', 'lib/', 'lib/sub'] }, { engine });
    expect(r.details.files).toEqual(['lib/d.ts', 'lib/sub/e.ts']);
  });

  it('default context in a directory result (the reference tool’s documented example)', async () => {
    const d = makeTree({ 'a.ts': 'one\nneedle two\nthree\nfour\nfive\nsix\n', 'src/b.ts': 'needle b\n' });
    const r = await runDefault(d, { pattern: 'needle', paths: '.' }, { engine });
    expect(r.text).toBe(
      '# a.ts#7ABB\n 1:one\n*2:needle two\n 3:three\n 4:four\n 5:five\n\n# src/\n## b.ts#C7E3\n*1:needle b',
    );
  });

  // Skip reason: as root the search runs as `nobody`, which needs a checkout that user can read.
  it.skipIf(unprivilegedUnavailable() !== null)(
    'an unreadable file met in a walk is reported, the rest is searched',
    async () => {
      const d = makeTree({ 'a.txt': 'needle a\n', 'secret.txt': 'needle secret\n' });
      fs.chmodSync(path.join(d, 'secret.txt'), 0);
      const r = await asUnprivileged(d, () => run(d, { pattern: 'needle', paths: '.' }, { engine }));
      expect(r.details.files).toEqual(['a.txt']);
      expect(r.text).toMatch(/Could not read: secret\.txt/);
    },
  );
});
