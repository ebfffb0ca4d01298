import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileGlob } from '../src/glob/glob.js';
import { IgnoreRules, Verdict } from '../src/walk/ignore-rules.js';
import { Walker, type WalkOptions } from '../src/walk/walker.js';
import { asUnprivileged, unprivilegedUnavailable } from './fixtures/unprivileged.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-walk-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function put(rel: string, content = 'x\n') {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), content);
}

function walk(options: Partial<WalkOptions> = {}) {
  const w = new Walker({ roots: [''], cwd: dir, ...options });
  const paths = [...w.entries()].map((e) => e.path);
  return { paths, stats: w.stats };
}

describe('globs (ripgrep semantics)', () => {
  const g = (glob: string, literalSeparator = true) => compileGlob(glob, { literalSeparator });
  it('keeps * and ? inside one path component', () => {
    expect(g('*.ts').test('a.ts')).toBe(true);
    expect(g('*.ts').test('src/a.ts')).toBe(false);
    expect(g('a?c').test('a/c')).toBe(false);
  });
  it('lets ** cross directories only as a whole component', () => {
    expect(g('**/a.ts').test('a.ts')).toBe(true);
    expect(g('**/a.ts').test('x/y/a.ts')).toBe(true);
    expect(g('src/**').test('src/x/y')).toBe(true);
    expect(g('a/**/b').test('a/b')).toBe(true);
    expect(g('a/**/b').test('a/x/y/b')).toBe(true);
  });
  it('supports classes, negated classes, alternation and escapes', () => {
    expect(g('[ab].ts').test('b.ts')).toBe(true);
    expect(g('[!ab].ts').test('b.ts')).toBe(false);
    expect(g('*.{md,ts}').test('x.md')).toBe(true);
    expect(g('\\*.ts').test('*.ts')).toBe(true);
    expect(g('\\*.ts').test('a.ts')).toBe(false);
    expect(g('file-name.ts').test('file-name.ts')).toBe(true);
  });
  it('refuses malformed globs with a reason', () => {
    expect(() => g('[ab')).toThrow(/unclosed character class/);
    expect(() => g('{a,b')).toThrow(/unclosed alternate group/);
  });
});

describe('ignore rules (git semantics)', () => {
  const rules = (text: string) => IgnoreRules.parse(text, '/base')!;
  it('lets the last matching rule win, so a negation re-includes', () => {
    const r = rules('*.log\n!keep.log\n');
    expect(r.match('a.log', 'a.log', false)).toBe(Verdict.Ignore);
    expect(r.match('keep.log', 'keep.log', false)).toBe(Verdict.Whitelist);
  });
  it('anchors a pattern with a slash to the ignore file directory', () => {
    const r = rules('/build\ndocs/*.md\n');
    expect(r.match('build', 'build', true)).toBe(Verdict.Ignore);
    expect(r.match('sub/build', 'build', true)).toBe(Verdict.None);
    expect(r.match('docs/a.md', 'a.md', false)).toBe(Verdict.Ignore);
    expect(r.match('x/docs/a.md', 'a.md', false)).toBe(Verdict.None);
  });
  it('applies a trailing-slash rule to directories only', () => {
    const r = rules('tmp/\n');
    expect(r.match('tmp', 'tmp', true)).toBe(Verdict.Ignore);
    expect(r.match('tmp', 'tmp', false)).toBe(Verdict.None);
  });
  it('reads comments, escapes and trailing spaces as git does', () => {
    const r = rules('# comment\n\\#hash\nspace   \n\\!bang\n');
    expect(r.match('#hash', '#hash', false)).toBe(Verdict.Ignore);
    expect(r.match('space', 'space', false)).toBe(Verdict.Ignore);
    expect(r.match('!bang', '!bang', false)).toBe(Verdict.Ignore);
    expect(r.match('# comment', '# comment', false)).toBe(Verdict.None);
  });
  it('answers literal rules (exact, *suffix, prefix*) and anchored names only for direct children', () => {
    const r = rules('/vmlinux\n/build*\n/*.tmp\n.*\n*.mod.c\nfoo*\n!.gitignore\n');
    expect(r.match('vmlinux', 'vmlinux', false)).toBe(Verdict.Ignore);
    expect(r.match('sub/vmlinux', 'vmlinux', false)).toBe(Verdict.None);
    expect(r.match('build-x', 'build-x', true)).toBe(Verdict.Ignore);
    expect(r.match('a/build-x', 'build-x', true)).toBe(Verdict.None);
    expect(r.match('x.tmp', 'x.tmp', false)).toBe(Verdict.Ignore);
    expect(r.match('a/x.tmp', 'x.tmp', false)).toBe(Verdict.None);
    expect(r.match('a/.cache', '.cache', true)).toBe(Verdict.Ignore);
    expect(r.match('.gitignore', '.gitignore', false)).toBe(Verdict.Whitelist);
    expect(r.match('a/x.mod.c', 'x.mod.c', false)).toBe(Verdict.Ignore);
    expect(r.match('a/x.c', 'x.c', false)).toBe(Verdict.None);
    expect(r.match('a/foobar', 'foobar', false)).toBe(Verdict.Ignore);
  });

  it('matches dir/** inside the directory but not the directory itself', () => {
    const r = rules('out/**\n');
    expect(r.match('out', 'out', true)).toBe(Verdict.None);
    expect(r.match('out/a/b.js', 'b.js', false)).toBe(Verdict.Ignore);
  });
});

describe('Walker', () => {
  it('emits paths in byte order of the whole relative path (a-b.ts < a.ts < a/x.ts)', () => {
    for (const f of ['a/x.ts', 'a.ts', 'a-b.ts', 'B.ts', 'b/c.ts']) put(f);
    expect(walk().paths).toEqual(['B.ts', 'a-b.ts', 'a.ts', 'a/x.ts', 'b/c.ts']);
  });

  it('honours .gitignore only inside a git work tree unless requireGit is off', () => {
    put('.gitignore', 'ignored.txt\n');
    put('ignored.txt');
    put('kept.txt');
    expect(walk().paths).toEqual(['ignored.txt', 'kept.txt']);
    expect(walk({ requireGit: false }).paths).toEqual(['kept.txt']);
    fs.mkdirSync(path.join(dir, '.git'));
    expect(walk().paths).toEqual(['kept.txt']);
  });

  it('honours .ignore everywhere, and .git/info/exclude at the repository root', () => {
    put('.ignore', 'a.txt\n');
    put('.git/info/exclude', 'b.txt\n');
    for (const f of ['a.txt', 'b.txt', 'c.txt']) put(f);
    expect(walk().paths).toEqual(['c.txt']);
  });

  it('lets a deeper ignore file override a shallower one', () => {
    fs.mkdirSync(path.join(dir, '.git'));
    put('.gitignore', '*.log\n');
    put('sub/.gitignore', '!keep.log\n');
    put('sub/keep.log');
    put('sub/drop.log');
    expect(walk().paths).toEqual(['sub/keep.log']);
  });

  it('skips hidden entries unless asked, and a gitignore whitelist beats hidden-ness', () => {
    put('.env');
    put('.github/ci.yml');
    put('a.txt');
    expect(walk().paths).toEqual(['a.txt']);
    expect(walk({ hidden: true }).paths).toEqual(['.env', '.github/ci.yml', 'a.txt']);
    fs.mkdirSync(path.join(dir, '.git'));
    put('.gitignore', '!.github/\n');
    expect(walk().paths).toEqual(['.github/ci.yml', 'a.txt']);
  });

  it('does not follow symlinks below a root, but follows a root that is one', () => {
    put('real/a.txt');
    fs.symlinkSync('real', path.join(dir, 'link'));
    fs.symlinkSync('real/a.txt', path.join(dir, 'file-link.txt'));
    expect(walk().paths).toEqual(['real/a.txt']);
    expect(walk({ roots: ['link'] }).paths).toEqual(['link/a.txt']);
  });

  it('searches a file the caller names even when ignore rules, hidden-ness and globs would drop it', () => {
    fs.mkdirSync(path.join(dir, '.git'));
    put('.gitignore', 'secret.txt\n');
    put('secret.txt');
    const w = new Walker({ roots: ['secret.txt'], cwd: dir, globs: ['!*.txt'] });
    expect([...w.entries()].map((e) => [e.path, e.explicit])).toEqual([['secret.txt', true]]);
  });

  it('applies -g globs with ripgrep precedence: includes select files, excludes prune', () => {
    for (const f of ['a.ts', 'b.js', 'src/c.ts', 'vendor/d.ts']) put(f);
    expect(walk({ globs: ['*.ts'] }).paths).toEqual(['a.ts', 'src/c.ts', 'vendor/d.ts']);
    expect(walk({ globs: ['*.ts', '!vendor'] }).paths).toEqual(['a.ts', 'src/c.ts']);
    expect(walk({ globs: ['src/*.ts'] }).paths).toEqual(['src/c.ts']);
  });

  it('reads a lone /** as every path at any depth, as ripgrep does (not only the top level)', () => {
    for (const f of ['top.ts', 'a/b/deep.ts']) put(f);
    const everything = ['a/b/deep.ts', 'top.ts'];
    expect(walk({ globs: ['/**'] }).paths).toEqual(everything);
    expect(walk({ globs: ['/**'], globMode: 'filter' }).paths).toEqual(everything);
    expect(walk({ globs: ['**'] }).paths).toEqual(everything);
  });

  it('skips listed directory names below a root but not the root itself', () => {
    put('node_modules/x/a.js');
    put('src/a.js');
    expect(walk({ skipDirs: new Set(['node_modules']) }).paths).toEqual(['src/a.js']);
    expect(walk({ roots: ['node_modules'], skipDirs: new Set(['node_modules']) }).paths).toEqual([
      'node_modules/x/a.js',
    ]);
  });

  it('stops at its entry budget, directory budget, deadline and abort signal, and says which', () => {
    for (let i = 0; i < 200; i++) put(`d${i % 10}/f${i}.txt`);
    expect(walk({ maxEntries: 50 }).stats.stoppedBy).toBe('entries');
    expect(walk({ maxDirs: 3 }).stats.stoppedBy).toBe('dirs');
    let t = 0;
    const clock = () => (t += 10);
    expect(walk({ deadline: 35, now: clock }).stats.stoppedBy).toBe('deadline');
    const controller = new AbortController();
    controller.abort();
    const aborted = walk({ signal: controller.signal });
    expect(aborted.stats.stoppedBy).toBe('aborted');
    expect(aborted.paths.length).toBeLessThan(200);
    expect(walk().stats.stoppedBy).toBeUndefined();
  });

  // Skip reason: as root the walk runs as `nobody`, which needs a checkout that user can read.
  it.skipIf(unprivilegedUnavailable() !== null)(
    'reports a missing root and an unreadable directory, and goes on',
    () => {
      put('ok/a.txt');
      put('locked/b.txt');
      fs.chmodSync(path.join(dir, 'locked'), 0o000);
      const w = new Walker({ roots: ['nope', ''], cwd: dir });
      const paths = asUnprivileged(dir, () => [...w.entries()].map((e) => e.path));
      fs.chmodSync(path.join(dir, 'locked'), 0o755);
      expect(paths).toContain('ok/a.txt');
      expect(paths).not.toContain('locked/b.txt');
      expect(w.stats.missingRoots).toEqual(['nope']);
      expect(w.stats.errors.map((e) => e.code)).toContain('EACCES');
    },
  );
});

describe('exclude decides on where an entry is, not how it is spelled', () => {
  it('🔒 gets the canonical path below a root that is a link (and a chain of links), and a file root resolved', () => {
    put('real/keep.txt');
    put('real/store/key');
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'hop'));
    fs.symlinkSync(path.join(dir, 'hop'), path.join(dir, 'link'));
    fs.symlinkSync(path.join(dir, 'real', 'store', 'key'), path.join(dir, 'keylink'));
    const store = path.join(fs.realpathSync(dir), 'real', 'store');
    const asked: string[] = [];
    const exclude = (p: string) => {
      asked.push(p);
      return p === store || p.startsWith(`${store}/`);
    };
    const { paths } = walk({ roots: ['link', 'keylink'], exclude });
    expect(paths).toEqual(['link/keep.txt']);
    expect(asked).toContain(store);
    expect(asked).toContain(path.join(store, 'key'));
    // Positive control: without the predicate, the store is walked through the link.
    expect(walk({ roots: ['link', 'keylink'] }).paths).toEqual([
      'link/keep.txt',
      'link/store/key',
      'keylink',
    ]);
  });
});
