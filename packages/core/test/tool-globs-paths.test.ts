import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Engine, makeTree, refusal, run } from './fixtures/tool/helpers.js';

let g: string;
let lists: string;
let f12: string;
let outside: string;
let ign: string;
beforeAll(() => {
  g = makeTree({
    '.git/': '',
    'src/a.ts': 'needle src a\n',
    'src/sub/b.ts': 'needle src sub b\n',
    'src/c.md': 'needle src c\n',
    'lib/d.ts': 'needle lib d\n',
    'lib/sub/e.ts': 'needle lib sub e\n',
    'lib/README.md': 'needle lib readme\n',
    'README.md': 'needle readme\n',
    'x.ts': 'needle x\n',
  });
  lists = makeTree({
    'apps/grep.txt': 'shared-needle apps\n',
    'packages/grep.txt': 'shared-needle packages\n',
    'phases/grep.txt': 'shared-needle phases\n',
    'other/grep.txt': 'shared-needle other\n',
    'alpha.txt': 'needle alpha\n',
    'beta.txt': 'needle beta\n',
    'nested/alpha.txt': 'needle nested alpha\n',
    'nested/beta.txt': 'needle nested beta\n',
    'folder with spaces/note.txt': 'needle note\n',
  });
  f12 = makeTree({
    'f.txt':
      'needle 1\nline 2\nline 3\nneedle 4\nline 5\nline 6\nneedle 7\nline 8\nline 9\nneedle 10\nline 11\nline 12\n',
  });
  outside = makeTree({ 'o.txt': 'needle outside\n' }, 'trawl-outside-');
  ign = makeTree({
    '.gitignore': 'gen.ts\nbuild/\n',
    'src/a.ts': 'needle a\n',
    'src/gen.ts': 'needle gen\n',
    'src/build/b.ts': 'needle build\n',
    'gen.ts': 'needle top gen\n',
  });
});

describe.each<Engine>(['js', 'rg'])('search tool: globs, engine %s', (engine) => {
  it('a bare glob matches file names at any depth', async () => {
    const r = await run(g, { pattern: 'needle', paths: '*.ts' }, { engine });
    expect(r.details.files).toEqual(['lib/d.ts', 'lib/sub/e.ts', 'src/a.ts', 'src/sub/b.ts', 'x.ts']);
    expect(r.details.scopePath).toBe('*.ts');
  });

  it('dir/*.ts means direct children, and the scope keeps the glob', async () => {
    const r = await run(g, { pattern: 'needle', paths: 'src/*.ts' }, { engine });
    expect(r.text).toBe('# src/\n## a.ts#EAC2\n*1:needle src a');
    expect(r.details.scopePath).toBe('src/*.ts');
  });

  it('** recurses', async () => {
    const r = await run(g, { pattern: 'needle', paths: 'src/**/*.ts' }, { engine });
    expect(r.details.files).toEqual(['src/a.ts', 'src/sub/b.ts']);
    const all = await run(g, { pattern: 'needle', paths: 'src/**' }, { engine });
    expect(all.details.files).toEqual(['src/a.ts', 'src/c.md', 'src/sub/b.ts']);
  });

  it('several globs follow the same rule as one', async () => {
    const r = await run(g, { pattern: 'needle', paths: ['src/*.ts', 'lib/*.ts'] }, { engine });
    expect(r.details.files).toEqual(['lib/d.ts', 'src/a.ts']);
    expect(r.details.scopePath).toBe('src/*.ts, lib/*.ts');
  });

  it('braces, an unclosed brace, ? and a glob with no match', async () => {
    for (const paths of ['src/*.{ts,md}', 'src/*.{ts,md']) {
      expect((await run(g, { pattern: 'needle', paths }, { engine })).details.files).toEqual([
        'src/a.ts',
        'src/c.md',
      ]);
    }
    expect((await run(g, { pattern: 'needle', paths: 'src/?.ts' }, { engine })).details.files).toEqual([
      'src/a.ts',
    ]);
    expect((await run(g, { pattern: 'needle', paths: 'src/*.rs' }, { engine })).text).toBe(
      'No matches found\nNo file matches src/*.rs.',
    );
    expect((await run(g, { pattern: 'needle', paths: '{src,lib}/*.md' }, { engine })).details.files).toEqual([
      'lib/README.md',
      'src/c.md',
    ]);
    expect((await run(g, { pattern: 'needle', paths: './*.ts' }, { engine })).details.files).toEqual([
      'x.ts',
    ]);
  });

  it('a named file next to a bare glob does not pull in namesakes elsewhere', async () => {
    const r = await run(g, { pattern: 'needle', paths: ['README.md', '*.ts'] }, { engine });
    expect(r.details.files).toEqual([
      'README.md',
      'lib/d.ts',
      'lib/sub/e.ts',
      'src/a.ts',
      'src/sub/b.ts',
      'x.ts',
    ]);
    expect(r.details.files).not.toContain('lib/README.md');
  });

  it('globs narrow a search: ignored files stay ignored (ripgrep -g would let them in)', async () => {
    expect((await run(ign, { pattern: 'needle', paths: '*.ts' }, { engine })).details.files).toEqual([
      'src/a.ts',
    ]);
    expect((await run(ign, { pattern: 'needle', paths: 'src/**' }, { engine })).details.files).toEqual([
      'src/a.ts',
    ]);
    const off = await run(ign, { pattern: 'needle', paths: '*.ts', gitignore: false }, { engine });
    expect(off.details.files).toEqual(['gen.ts', 'src/a.ts', 'src/build/b.ts', 'src/gen.ts']);
  });

  it('a glob in an absolute directory outside cwd', async () => {
    const r = await run(g, { pattern: 'needle', paths: path.join(outside, '*.txt') }, { engine });
    expect(r.text).toBe(`# ${outside}/\n## o.txt#CAFD\n*1:needle outside`);
  });

  it('an existing file whose name looks like a glob is a file (fixes upstream #11977)', async () => {
    const d = makeTree({ 'app/[id].tsx': 'needle id\n', 'app/i.tsx': 'needle i\n' });
    expect((await run(d, { pattern: 'needle', paths: 'app/[id].tsx' }, { engine })).text).toMatch(
      /^¶app\/\[id\]\.tsx#[0-9A-F]{4}\n\*1:needle id$/,
    );
    expect((await run(d, { pattern: 'needle', paths: 'app/[id].tsx:1' }, { engine })).details.files).toEqual([
      'app/[id].tsx',
    ]);
  });
});

describe.each<Engine>(['js', 'rg'])('search tool: several paths, engine %s', (engine) => {
  it('a file named with and without a range is searched whole', async () => {
    const r = await run(f12, { pattern: 'needle', paths: ['f.txt', 'f.txt:10-12'] }, { engine });
    expect(r.text).toBe('¶f.txt#FBFD\n*1:needle 1\n...\n*4:needle 4\n...\n*7:needle 7\n...\n*10:needle 10');
    const two = await run(f12, { pattern: 'needle', paths: ['f.txt:1-2', 'f.txt:10-12'] }, { engine });
    expect(two.text).toBe('¶f.txt#FBFD\n*1:needle 1\n...\n*10:needle 10');
  });

  it('directory lists, headings with bodies, scope spelled as given', async () => {
    const r = await run(
      lists,
      { pattern: 'shared-needle', paths: ['apps/', 'packages/', 'phases/'] },
      { engine },
    );
    for (const d of ['apps', 'packages', 'phases'])
      expect(r.text).toMatch(
        new RegExp(`^# ${d}/\\n## grep\\.txt#[0-9A-F]{4}\\n\\*1:shared-needle ${d}$`, 'm'),
      );
    expect(r.text).not.toContain('# other');
    expect(r.details).toMatchObject({ fileCount: 3, scopePath: 'apps/, packages/, phases/' });
    const bare = await run(
      lists,
      { pattern: 'shared-needle', paths: ['apps', 'packages', 'phases'] },
      { engine },
    );
    expect(bare.details.scopePath).toBe('apps, packages, phases');
    const lines = r.text.split('\n');
    lines.forEach((l, k) => {
      if (l.startsWith('#')) expect(lines[k + 1] ?? '').toMatch(/^(## |\*)/);
    });
  });

  it('explicit files stay exact', async () => {
    const r = await run(lists, { pattern: 'needle', paths: ['alpha.txt', 'beta.txt'] }, { engine });
    expect(r.text).toMatch(
      /^# alpha\.txt#[0-9A-F]{4}\n\*1:needle alpha\n\n# beta\.txt#[0-9A-F]{4}\n\*1:needle beta$/,
    );
    expect(r.details.scopePath).toBe('alpha.txt, beta.txt');
  });

  it('files in input order, not sorted', async () => {
    const r = await run(g, { pattern: 'needle', paths: ['src/sub/b.ts', 'lib/d.ts'] }, { engine });
    expect(r.text).toBe(
      '# src/sub/\n## b.ts#EBF0\n*1:needle src sub b\n\n# lib/\n## d.ts#F783\n*1:needle lib d',
    );
  });

  it('missing entries are skipped with a note unless all are missing', async () => {
    const r = await run(g, { pattern: 'needle', paths: ['src/', 'tests/'] }, { engine });
    expect(r.details.files).toEqual(['src/a.ts', 'src/c.md', 'src/sub/b.ts']);
    expect(r.text.endsWith('\n\nSkipped missing paths: tests/')).toBe(true);
    expect(r.details.missingPaths).toEqual(['tests/']);
    expect(
      (await refusal(run(g, { pattern: 'needle', paths: ['does-not-exist/', 'also-missing/'] }, { engine })))
        .message,
    ).toBe('Path not found: does-not-exist/, also-missing/');
    expect((await run(g, { pattern: 'zzz', paths: ['src', 'nope'] }, { engine })).text).toBe(
      'No matches found\nSkipped missing paths: nope',
    );
  });

  // Skip reason: the case needs a second top-level directory that exists (/dev/shm, on every Linux).
  it.skipIf(!fs.existsSync('/dev/shm'))(
    'targets whose only common ancestor is / are walked one by one',
    async () => {
      const a = makeTree({ 'alpha.txt': 'needle alpha\n' });
      const b = fs.mkdtempSync('/dev/shm/trawl-tool-');
      try {
        fs.writeFileSync(path.join(b, 'beta.txt'), 'needle beta\n');
        const cwd = makeTree({});
        const r = await run(cwd, { pattern: 'needle', paths: [a, b] }, { engine });
        const tagged = r.text.replace(/#[0-9A-F]{4}$/gm, '#TAG');
        expect(tagged).toBe(
          `# ${a}/\n## alpha.txt#TAG\n*1:needle alpha\n\n# ${b}/\n## beta.txt#TAG\n*1:needle beta`,
        );
        expect(r.details).toMatchObject({ fileCount: 2, matchCount: 2, searchPath: '/' });
        const globs = await run(
          cwd,
          { pattern: 'needle', paths: [path.join(a, '*.txt'), path.join(b, '*.txt')] },
          { engine },
        );
        expect(globs.details.files).toEqual([path.join(a, 'alpha.txt'), path.join(b, 'beta.txt')]);
      } finally {
        fs.rmSync(b, { recursive: true, force: true });
      }
    },
  );

  it('outside cwd paths are absolute; "/" means the working directory', async () => {
    const d = await run(g, { pattern: 'needle', paths: outside }, { engine });
    expect(d.text).toBe(`# ${outside}/\n## o.txt#CAFD\n*1:needle outside`);
    expect(d.details.scopePath).toBe(outside);
    const f = await run(g, { pattern: 'needle', paths: path.join(outside, 'o.txt') }, { engine });
    expect(f.text).toBe(`¶${outside}/o.txt#CAFD\n*1:needle outside`);
    const root = await run(g, { pattern: 'needle', paths: '/' }, { engine });
    expect(root.details.scopePath).toBe('.');
    expect(root.details.totalFiles).toBe(8);
  });

  it('a directory with spaces; an absolute in-cwd path is shown relative', async () => {
    const r = await run(lists, { pattern: 'needle', paths: 'folder with spaces/' }, { engine });
    expect(r.text).toMatch(/^# folder with spaces\/\n## note\.txt#[0-9A-F]{4}\n\*1:needle note$/);
    expect(r.details.fileCount).toBe(1);
    const abs = await run(lists, { pattern: 'needle', paths: [path.join(lists, 'nested')] }, { engine });
    expect(abs.text).not.toContain(lists);
    expect(abs.details.scopePath).toBe('nested');
    expect(abs.details.files).toEqual(['nested/alpha.txt', 'nested/beta.txt']);
  });

  it('~ is the home directory', async () => {
    const home = makeTree({ 'notes/todo.txt': 'needle home\n' });
    const r = await run(g, { pattern: 'needle', paths: '~/notes' }, { engine, homeDir: home });
    expect(r.text).toMatch(new RegExp(`^# ${home}/notes/\\n## todo\\.txt#[0-9A-F]{4}\\n\\*1:needle home$`));
    expect(os.homedir()).not.toBe(home);
  });
});
