import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SensitiveFence } from '../src/fence/index.js';
import {
  FileIndex,
  type FileIndexOptions,
  FileIndexRegistry,
  type FreshnessClock,
  type NameResult,
  nodeNameFs,
  searchNames,
} from '../src/names/index.js';
import { prepareNameQuery } from '../src/names/query.js';
import { scoreTarget } from '../src/names/score.js';
import { nameTarget } from '../src/names/target.js';
import { compareRanked } from '../src/names/types.js';
import { POPULATE, TempTrees } from './fixtures/temp-trees.js';

// A fake HOME with a credential store: symlinks into it must never surface.
let trees: TempTrees;
let tmp: string;
let home: string;
let fence: SensitiveFence;
const started: FileIndex[] = [];

beforeAll(() => {
  trees = new TempTrees('trawl-names-index-');
  tmp = trees.dir;
  home = trees.home;
  fence = new SensitiveFence({ home, env: {} });
});

afterEach(() => {
  for (const i of started.splice(0)) i.stop();
});

afterAll(() => trees.remove());

const tree = (files: readonly string[], dirs: readonly string[] = []) => trees.tree(files, dirs);

async function open(root: string, options: FileIndexOptions = {}): Promise<FileIndex> {
  const index = new FileIndex(root, { fence, watch: false, pollMs: 0, fullRebuildMs: 0, ...options });
  started.push(index);
  await index.start();
  return index;
}

const names = (rows: NameResult[]) => rows.map((r) => r.name);
const rels = (index: FileIndex) => new Set([...index.entries()].map((e) => e.rel));

const POLL = 1_000;
const SETTLE = 40;

/** The index's timers on a hand: `fire(ms)` runs every live timer of that period once and awaits what it started. */
function handTimers(): { clock: FreshnessClock; fire: (ms: number) => Promise<void> } {
  const timers: { ms: number; fire: () => unknown; periodic: boolean; live: boolean }[] = [];
  const add = (ms: number, fire: () => unknown, periodic: boolean) => {
    const t = { ms, fire, periodic, live: true };
    timers.push(t);
    return () => {
      t.live = false;
    };
  };
  return {
    clock: { after: (ms, fire) => add(ms, fire, false), every: (ms, fire) => add(ms, fire, true) },
    fire: async (ms) => {
      for (const t of [...timers]) {
        if (!t.live || t.ms !== ms) continue;
        if (!t.periodic) t.live = false;
        await t.fire();
      }
    },
  };
}

/** Every directory under `root` last changed long ago, so any change now moves its mtime (whatever the clock tick). */
function longUnchanged(root: string): string {
  const past = new Date(2020, 0, 1);
  const visit = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }))
      if (e.isDirectory()) visit(path.join(dir, e.name));
    fs.utimesSync(dir, past, past);
  };
  visit(root);
  return root;
}

/**
 * Resolves true once `cond` holds, looked at every 20 ms. No clock bounds it but the test's own timeout: a watcher's
 * event may come late on a loaded machine, and how late is not what these tests pin.
 */
async function eventually(cond: () => boolean | Promise<boolean>): Promise<boolean> {
  while (!(await cond())) await new Promise((r) => setTimeout(r, 20));
  return true;
}

describe('FileIndex: build and search', () => {
  it('builds and searches', async () => {
    const index = await open(tree(POPULATE));
    expect(index.ready).toBe(true);
    expect(index.size).toBeGreaterThanOrEqual(3);
    const found = names(await index.search('hello'));
    expect(found).toEqual(expect.arrayContaining(['hello.py', 'hello_world.py', 'hello_util.py']));
    const first = (await index.search('hello'))[0]!;
    expect(first.size).toBeGreaterThan(0);
    expect(first.mtime).toBeGreaterThan(0);
    expect(Object.keys(first).sort()).toEqual(['kind', 'mtime', 'name', 'path', 'size']);
  });

  it('keeps dot files, offered only when asked and below other files unless the query starts with a dot', async () => {
    const index = await open(tree(['src/environment.ts', '.env', 'src/.secret']));
    expect(names(await index.search('secret'))).toEqual([]);
    expect(names(await index.search('env'))).toEqual(['environment.ts']);
    const dot = { dotFiles: true };
    expect(names(await index.search('secret', dot))).toEqual(['.secret']);
    expect(names(await index.search('env', dot))).toEqual(['environment.ts', '.env']);
    expect(names(await index.search('.env', dot))[0]).toBe('.env');
  });

  it('excludes the skip directories', async () => {
    const index = await open(tree(POPULATE));
    const all = [...index.entries()].map((e) => e.rel.split('/').pop());
    expect(all).not.toContain('hello_dep.py');
    expect(all).not.toContain('hello_obj');
    expect(all).not.toContain('node_modules');
    expect(all).not.toContain('.git');
  });

  it('returns nothing for a query that matches nothing', async () => {
    const index = await open(tree(POPULATE));
    expect(await index.search('zzqx')).toEqual([]);
  });

  it('respects the limit', async () => {
    const index = await open(
      tree(Array.from({ length: 20 }, (_, i) => `match_${String(i).padStart(2, '0')}.txt`)),
    );
    expect(await index.search('match', { limit: 5 })).toHaveLength(5);
  });

  it('stop ends the refresh machinery (timers and watchers) and keeps the entries', async () => {
    const index = await open(tree(['a/widget.ts', 'b/c/gadget.ts']), { watch: true, fullRebuildMs: 60_000 });
    expect(index.refreshing).toBe(true);
    expect(index.watchedDirectories).toBeGreaterThan(0);
    index.stop();
    expect(index.refreshing).toBe(false);
    expect(index.watchedDirectories).toBe(0);
    expect(names(await index.search('widget'))).toEqual(['widget.ts']);
  });

  it('reports build progress (entries so far) and a ready phase at the end', async () => {
    const seen: number[] = [];
    const index = await open(tree(Array.from({ length: 50 }, (_, i) => `d${i % 5}/f${i}.txt`)), {
      onProgress: (p) => seen.push(p.entries),
      yieldMs: 0,
    });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[seen.length - 1]).toBe(55);
    expect(index.progress).toMatchObject({ phase: 'ready', entries: 55, builds: 1 });
  });

  it('is truncated at the entry cap, and then not used by searchNames', async () => {
    const root = tree(Array.from({ length: 10 }, (_, i) => `cap_${i}.txt`));
    const index = await open(root, { maxEntries: 3 });
    expect(index.truncated).toBe(true);
    expect(index.size).toBe(3);
    const answer = await searchNames({ query: 'cap', roots: [root], scoped: true, index, fence });
    expect(answer.source).toBe('walk');
    expect(answer.results).toHaveLength(10);
  });

  it('is not truncated under the cap, and serves searchNames', async () => {
    const root = tree(Array.from({ length: 10 }, (_, i) => `cap_${i}.txt`));
    const index = await open(root, { maxEntries: 11 });
    expect(index.truncated).toBe(false);
    const answer = await searchNames({
      query: 'cap',
      roots: [root],
      scoped: true,
      index,
      kinds: 'dirs',
      fence,
    });
    expect(answer).toMatchObject({ source: 'index', root, results: [] });
  });

  it('refuses to start on a root that is not canonical, not a directory, or sensitive, leaving nothing running', async () => {
    const root = tree(['x.txt']);
    const link = trees.fresh('link');
    fs.symlinkSync(root, link);
    for (const bad of [link, path.join(root, 'x.txt'), path.join(home, '.ssh')]) {
      const index = new FileIndex(bad, { fence, pollMs: 10, fullRebuildMs: 10 });
      await expect(index.start()).rejects.toThrow();
      expect(index.refreshing).toBe(false);
      expect(index.ready).toBe(false);
    }
  });
});

// the reference directory tests' fixture
const WIDGETS_FILES = [
  'widgets.py',
  'widgets/button.py',
  'widgets/widgetsinner/leaf.py',
  '.secretcfg/widgetsinside',
];
const WIDGETS_DIRS = ['widgetsempty', '.widgetshidden', 'node_modules/widgetsdep', '.git', '.cache'];

describe('FileIndex: ranking', () => {
  it('ranks exactly as scoring every entry would, despite its shortcuts', async () => {
    // a generated tree: nested directories and names from a small vocabulary, so queries hit every tier
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const words = [
      'net',
      'ipv4',
      'tcp',
      'Input',
      'core',
      'index',
      'mmap',
      'sched',
      'fair',
      'KConfig',
      'e1000',
      'main',
    ];
    const exts = ['.c', '.h', '.ts', '.test.ts', '', '.js'];
    const files: string[] = [];
    for (let i = 0; i < 400; i++) {
      const depth = rnd(4);
      const parts: string[] = [];
      for (let d = 0; d < depth; d++) parts.push(words[rnd(words.length)]!);
      const sep = ['_', '-', '', '.'][rnd(4)]!;
      const name = `${words[rnd(words.length)]}${rnd(3) === 0 ? sep + words[rnd(words.length)] : ''}${exts[rnd(exts.length)]}`;
      files.push([...parts, name].join('/'));
    }
    const unique = [...new Set(files)].filter((f) => !files.some((g) => g.startsWith(`${f}/`)));
    const index = await open(tree(unique));
    const entries = [...index.entries()];
    const queries = [
      'tcp',
      'ipv4/tcp',
      'net tcp',
      'mmapc',
      'kconfig',
      'tcpin',
      'index',
      'core',
      'schedfair',
      'e1000m',
    ];
    for (let i = 0; i < 40; i++) {
      const e = entries[rnd(entries.length)]!.rel.toLowerCase();
      const from = rnd(e.length);
      queries.push(e.slice(from, from + 2 + rnd(8)));
      queries.push(
        [...e]
          .filter(() => rnd(3) === 0)
          .join('')
          .slice(0, 8),
      );
    }
    let compared = 0;
    const check = (query: string) => {
      const q = prepareNameQuery(query);
      if (!q || query.trim().length < 2) return;
      const brute = entries
        .map((e, order) => {
          const t = nameTarget(e.rel, e.kind === 'dir');
          const match = { aliasOnly: false };
          const score = scoreTarget(q, t, match);
          return {
            rel: e.rel,
            order,
            score,
            isDir: t.isDir,
            nameLength: e.rel.length - t.nameStart,
            mtimeMs: 0,
            aliasOnly: match.aliasOnly,
          };
        })
        .filter((x) => x.score > 0)
        .sort((a, b) => compareRanked(a, b) || a.order - b.order)
        .slice(0, 10);
      const ranked = index.rank(query, { limit: 10 });
      expect(
        ranked.map((r) => index.relOf(r.slot)),
        query,
      ).toEqual(brute.map((b) => b.rel));
      expect(
        ranked.map((r) => r.score),
        query,
      ).toEqual(brute.map((b) => b.score));
      compared += brute.length;
    };
    for (const query of queries) check(query);
    // as typed, keystroke by keystroke (the index narrows each search to the previous one's candidates)
    for (const query of queries) for (let n = 2; n <= query.length; n++) check(query.slice(0, n));
    expect(compared).toBeGreaterThan(300);
  });

  it("finds a directory's main file by the directory's name", async () => {
    const index = await open(tree(['lib/router/index.js', 'lib/router/layer.js', 'lib/view.js']));
    expect((await index.search('router'))[0]).toMatchObject({ name: 'index.js', kind: 'file' });
  });
});

describe('FileIndex: directories', () => {
  it('includes directory entries with size 0', async () => {
    const index = await open(tree(WIDGETS_FILES, WIDGETS_DIRS));
    const rows = await index.search('widgets', { limit: 60 });
    const dir = rows.find((r) => r.name === 'widgets')!;
    expect(dir).toMatchObject({ kind: 'dir', size: 0 });
    expect(dir.mtime).toBeGreaterThan(0);
    expect(rows.find((r) => r.name === 'widgets.py')?.kind).toBe('file');
  });

  it('includes an empty directory', async () => {
    const index = await open(tree(WIDGETS_FILES, WIDGETS_DIRS));
    expect(names(await index.search('widgetsempty'))).toContain('widgetsempty');
  });

  it('filters by kind', async () => {
    const index = await open(tree(WIDGETS_FILES, WIDGETS_DIRS));
    const dirs = await index.search('widgets', { kinds: 'dirs', limit: 60 });
    const files = await index.search('widgets', { kinds: 'files', limit: 60 });
    expect(dirs.length).toBeGreaterThan(0);
    expect(dirs.every((r) => r.kind === 'dir')).toBe(true);
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((r) => r.kind === 'file')).toBe(true);
  });

  it('offers dot directories but not skip directories', async () => {
    const index = await open(tree(WIDGETS_FILES, WIDGETS_DIRS));
    const found = names(await index.search('widgets', { limit: 60 }));
    expect(found).toContain('.widgetshidden');
    expect(found).not.toContain('widgetsdep');
    expect(found).not.toContain('node_modules');
  });

  it('never offers the dot skip directories', async () => {
    const index = await open(tree(WIDGETS_FILES, WIDGETS_DIRS));
    const all = rels(index);
    expect(all.has('.git')).toBe(false);
    expect(all.has('.cache')).toBe(false);
  });

  it('with dotDirsLast, enters dot directories after the rest: their files are dot files, and never crowd the project out', async () => {
    const root = tree([
      'src/ci.yml.ts',
      '.github/workflows/ci.yml',
      '.yarn/cache/a.zip',
      '.yarn/cache/b.zip',
    ]);
    const index = await open(root, { dotDirsLast: true });
    const dot = { dotFiles: true };
    // offered as a dot file: only when asked, and below the project's own match
    expect(names(await index.search('ci.yml'))).toEqual(['ci.yml.ts']);
    expect(names(await index.search('ci.yml', dot))).toEqual(['ci.yml.ts', 'ci.yml']);
    expect((await index.search('.github/workflows/ci', dot))[0]?.path).toBe(
      path.join(root, '.github/workflows/ci.yml'),
    );
    // Ten entries fit: the project's own (src, its file, the two dot folders) all do; the dot folders fill only the
    // room up to 90% of the cap, and the index is not truncated by them.
    const small = await open(root, { dotDirsLast: true, maxEntries: 7 });
    expect(small.truncated).toBe(false);
    const all = rels(small);
    for (const r of ['src', 'src/ci.yml.ts', '.github', '.yarn']) expect(all.has(r), r).toBe(true);
    expect(all.size).toBeLessThanOrEqual(6);
    // without it (trawl find), dot directories are still not entered
    expect(rels(await open(root)).has('.github/workflows')).toBe(false);
  });

  it('does not descend into dot directories', async () => {
    const index = await open(tree(WIDGETS_FILES, WIDGETS_DIRS));
    expect(rels(index).has('.secretcfg')).toBe(true);
    expect(names(await index.search('widgetsinside'))).toEqual([]);
  });

  it('puts files before directories on an equal score', async () => {
    const index = await open(tree(['alpha.x'], ['alpha']));
    const rows = await index.search('alpha', { scorer: () => 10 });
    expect(rows.map((r) => `${r.kind}:${r.name}`)).toEqual(['file:alpha.x', 'dir:alpha']);
  });
});

describe('FileIndex: the fence on symlinked and sensitive candidates', () => {
  it('never offers a file symlink whose target is sensitive', async () => {
    const root = tree(['widgets.py']);
    fs.symlinkSync(path.join(home, '.ssh', 'id_widgets'), path.join(root, 'widgetkey'));
    const index = await open(root);
    expect(names(await index.search('widget', { limit: 60 }))).toEqual(['widgets.py']);
    expect(rels(index).has('widgetkey')).toBe(false);
  });

  it('never offers a directory symlink whose target is sensitive, nor anything under it', async () => {
    const root = tree(['widgets.py']);
    fs.symlinkSync(path.join(home, '.ssh'), path.join(root, 'widgetsdir'));
    const index = await open(root);
    expect(names(await index.search('widget', { limit: 60 }))).toEqual(['widgets.py']);
    expect([...rels(index)].some((r) => r.startsWith('widgetsdir'))).toBe(false);
  });

  it('refuses a real directory whose canonical path is sensitive, and the link to it', async () => {
    const root = tree(['widgets/button.py', 'other.py']);
    fs.symlinkSync(path.join(root, 'widgets'), path.join(root, 'widgetslink'));
    const fenced = new SensitiveFence({ home, env: {}, extra: [path.join(root, 'widgets')] });
    const index = await open(root, { fence: fenced });
    const all = rels(index);
    expect(all.has('widgets')).toBe(false);
    expect(all.has('widgetslink')).toBe(false);
    expect(all.has('widgets/button.py')).toBe(false);
    expect(all.has('other.py')).toBe(true);
  });

  it('keeps a symlink whose target is outside the root but not sensitive, under its link path', async () => {
    const outside = tree(['notes.txt', 'shelf/book.txt']);
    const root = tree(['here.txt']);
    fs.symlinkSync(path.join(outside, 'notes.txt'), path.join(root, 'linked_notes.txt'));
    fs.symlinkSync(path.join(outside, 'shelf'), path.join(root, 'linked_shelf'));
    const index = await open(root);
    const [file] = await index.search('linked_notes');
    expect(file).toMatchObject({ path: path.join(root, 'linked_notes.txt'), kind: 'file' });
    const [dir] = await index.search('linked_shelf');
    expect(dir).toMatchObject({ path: path.join(root, 'linked_shelf'), kind: 'dir', size: 0 });
    // a directory link is offered, never entered
    expect(await index.search('book')).toEqual([]);
  });

  it('re-checks a symlinked result at search time: retargeted into a sensitive store, it is not returned', async () => {
    const outside = tree(['notes.txt']);
    const root = tree(['here.txt']);
    const link = path.join(root, 'moving_link');
    fs.symlinkSync(path.join(outside, 'notes.txt'), link);
    const index = await open(root); // no watcher: the index cannot notice the swap
    expect(names(await index.search('moving_link'))).toEqual(['moving_link']);
    fs.unlinkSync(link);
    fs.symlinkSync(path.join(home, '.ssh', 'id_widgets'), link);
    expect(await index.search('moving_link')).toEqual([]);
  });
});

describe('FileIndex: freshness', () => {
  it('never returns a deleted file, even when nothing told the index', async () => {
    const root = tree(['gone_soon.txt', 'stays.txt']);
    const index = await open(root);
    fs.unlinkSync(path.join(root, 'gone_soon.txt'));
    expect(await index.search('gone_soon')).toEqual([]);
    expect(rels(index).has('gone_soon.txt')).toBe(false);
  });

  it('shows a created file, a deleted one and a rename, through directory watchers', async () => {
    const root = tree(['seed/keep.txt']);
    const index = await open(root, { watch: true });
    expect(index.watchedDirectories).toBe(2);
    fs.writeFileSync(path.join(root, 'seed', 'fresh_file.txt'), 'x');
    expect(await eventually(() => rels(index).has('seed/fresh_file.txt'))).toBe(true);
    expect(names(await index.search('fresh_file'))).toEqual(['fresh_file.txt']);

    fs.renameSync(path.join(root, 'seed', 'fresh_file.txt'), path.join(root, 'renamed_file.txt'));
    expect(
      await eventually(() => rels(index).has('renamed_file.txt') && !rels(index).has('seed/fresh_file.txt')),
    ).toBe(true);

    fs.unlinkSync(path.join(root, 'renamed_file.txt'));
    expect(await eventually(() => !rels(index).has('renamed_file.txt'))).toBe(true);
  });

  it('indexes a new directory tree and forgets a removed one', async () => {
    const root = tree(['base.txt']);
    const index = await open(root, { watch: true });
    fs.mkdirSync(path.join(root, 'newdir', 'deeper'), { recursive: true });
    fs.writeFileSync(path.join(root, 'newdir', 'deeper', 'inner_file.txt'), 'x');
    expect(await eventually(() => rels(index).has('newdir/deeper/inner_file.txt'))).toBe(true);
    // the new directory is watched too
    fs.writeFileSync(path.join(root, 'newdir', 'later_file.txt'), 'x');
    expect(await eventually(() => rels(index).has('newdir/later_file.txt'))).toBe(true);
    fs.rmSync(path.join(root, 'newdir'), { recursive: true });
    expect(await eventually(() => ![...rels(index)].some((r) => r.startsWith('newdir')))).toBe(true);
    expect(rels(index).has('base.txt')).toBe(true);
  });

  it('keeps fresh by directory mtimes where it does not watch: a poll, then the settle window', async () => {
    const root = longUnchanged(tree(['sub/one.txt']));
    const hand = handTimers();
    const index = await open(root, { watch: false, pollMs: POLL, settleMs: SETTLE, clock: hand.clock });
    expect(index.watchedDirectories).toBe(0);
    fs.writeFileSync(path.join(root, 'sub', 'polled_file.txt'), 'x');
    await hand.fire(POLL);
    expect(rels(index).has('sub/polled_file.txt')).toBe(false); // seen, waiting for the settle window
    await hand.fire(SETTLE);
    expect(rels(index).has('sub/polled_file.txt')).toBe(true);
    fs.unlinkSync(path.join(root, 'sub', 'one.txt'));
    await hand.fire(POLL);
    await hand.fire(SETTLE);
    expect(rels(index).has('sub/one.txt')).toBe(false);
  });

  it('falls back to polling a directory whose watcher cannot be set up', async () => {
    const root = longUnchanged(tree(['sub/one.txt']));
    const failing = {
      ...nodeNameFs,
      watch: () => {
        throw Object.assign(new Error('no watches left'), { code: 'ENOSPC' });
      },
    };
    const hand = handTimers();
    const index = await open(root, {
      watch: true,
      pollMs: POLL,
      settleMs: SETTLE,
      fs: failing,
      clock: hand.clock,
    });
    expect(index.watchedDirectories).toBe(0);
    fs.writeFileSync(path.join(root, 'sub', 'polled_file.txt'), 'x');
    await hand.fire(POLL);
    await hand.fire(SETTLE);
    expect(rels(index).has('sub/polled_file.txt')).toBe(true);
  });

  it('rebuilds in full on refresh, correcting anything missed', async () => {
    const root = tree(['first.txt']);
    const index = await open(root);
    fs.writeFileSync(path.join(root, 'unseen.txt'), 'x');
    expect(rels(index).has('unseen.txt')).toBe(false);
    await index.refresh();
    expect(rels(index).has('unseen.txt')).toBe(true);
    expect(index.progress.builds).toBe(2);
  });
});

describe('FileIndexRegistry', () => {
  const quiet: FileIndexOptions = { fence, watch: false, pollMs: 0, fullRebuildMs: 0 };

  it('acquire creates and starts an index', async () => {
    const registry = new FileIndexRegistry({ indexOptions: quiet });
    const root = tree(['a.txt']);
    const index = await registry.acquire(root);
    expect(index.ready).toBe(true);
    expect(registry.get(root)).toBe(index);
    registry.stopAll();
  });

  it('shares one index per canonical root, whatever the spelling', async () => {
    const registry = new FileIndexRegistry({ indexOptions: quiet });
    const root = tree(['a.txt']);
    const link = trees.fresh('alias');
    fs.symlinkSync(root, link);
    const a = await registry.acquire(root);
    const b = await registry.acquire(link);
    expect(b).toBe(a);
    expect(registry.refCount(root)).toBe(2);
    registry.stopAll();
  });

  it('stops the index at refcount zero and keeps it while references remain', async () => {
    const registry = new FileIndexRegistry({ indexOptions: { ...quiet, pollMs: 50 } });
    const root = tree(['a.txt']);
    const index = await registry.acquire(root);
    await registry.acquire(root);
    await registry.release(root);
    expect(registry.get(root)).toBe(index);
    expect(index.refreshing).toBe(true);
    await registry.release(root);
    expect(registry.get(root)).toBeUndefined();
    expect(index.refreshing).toBe(false);
  });

  it('stopAll stops and forgets everything', async () => {
    const registry = new FileIndexRegistry({ indexOptions: { ...quiet, pollMs: 50 } });
    const a = await registry.acquire(tree(['a.txt']));
    const b = await registry.acquire(tree(['b.txt']));
    registry.stopAll();
    expect(registry.roots()).toEqual([]);
    expect(a.refreshing || b.refreshing).toBe(false);
  });

  it('a failed start propagates and leaves nothing registered', async () => {
    const root = tree(['a.txt']);
    let calls = 0;
    const registry = new FileIndexRegistry({
      createIndex: (r) => {
        calls++;
        const broken = { ...nodeNameFs, readdirSync: () => [], stat: () => Promise.reject(new Error('EIO')) };
        return new FileIndex(r, { ...quiet, fs: calls === 1 ? broken : nodeNameFs });
      },
    });
    await expect(registry.acquire(root)).rejects.toThrow('EIO');
    expect(registry.get(root)).toBeUndefined();
    expect(registry.refCount(root)).toBe(0);
    expect((await registry.acquire(root)).ready).toBe(true);
    expect(calls).toBe(2);
    registry.stopAll();
  });

  it('releasing a root never acquired is a no-op', async () => {
    const registry = new FileIndexRegistry({ indexOptions: quiet });
    const root = tree(['a.txt']);
    await registry.acquire(root);
    await registry.release(tree(['other.txt']));
    await registry.release(path.join(tmp, 'does-not-exist'));
    expect(registry.refCount(root)).toBe(1);
    registry.stopAll();
  });

  it('concurrent acquires of one root build it once', async () => {
    const root = tree(Array.from({ length: 200 }, (_, i) => `d${i % 10}/f${i}.txt`));
    let built = 0;
    const registry = new FileIndexRegistry({
      createIndex: (r) => {
        built++;
        return new FileIndex(r, quiet);
      },
    });
    const all = await Promise.all([registry.acquire(root), registry.acquire(root), registry.acquire(root)]);
    expect(built).toBe(1);
    expect(new Set(all).size).toBe(1);
    expect(registry.refCount(root)).toBe(3);
    registry.stopAll();
  });

  it('a release right after an acquire is not lost when the two path resolutions finish in the other order', async () => {
    const root = tree(['a.txt']);
    // Each realpath call answers only when released; the second is released first.
    const calls: Array<() => void> = [];
    const registry = new FileIndexRegistry({
      indexOptions: { ...quiet, pollMs: 50 },
      realpath: (p) => new Promise<string>((resolve) => calls.push(() => resolve(fs.realpathSync(p)))),
    });
    const pending = registry.acquire(root);
    const released = registry.release(root);
    // The release's resolution answers (and the release completes) before the acquire's.
    calls.at(-1)!();
    await released;
    for (const answer of calls.slice(0, -1)) answer();
    const index = await pending;
    expect(index.refreshing).toBe(false);
    expect(registry.get(root)).toBeUndefined();
  });

  it('an index released while still building is stopped and not registered', async () => {
    const registry = new FileIndexRegistry({ indexOptions: { ...quiet, pollMs: 50 } });
    const root = tree(['a.txt']);
    const pending = registry.acquire(root);
    await registry.release(root);
    const index = await pending;
    expect(index.refreshing).toBe(false);
    expect(registry.get(root)).toBeUndefined();
  });
});
