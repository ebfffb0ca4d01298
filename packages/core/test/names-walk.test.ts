import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SensitiveFence } from '../src/fence/index.js';
import {
  FileIndex,
  type NameResult,
  type NameSearchFs,
  type NameSearchRequest,
  nodeNameFs,
  searchNames,
  walkNameSearch,
} from '../src/names/index.js';
import { countingNameFs } from './fixtures/name-fs.js';
import { deepNarrowFiles, POPULATE, TempTrees } from './fixtures/temp-trees.js';

let trees: TempTrees;
let home: string;
let fence: SensitiveFence;

beforeAll(() => {
  trees = new TempTrees('trawl-names-walk-');
  home = trees.home;
  fence = new SensitiveFence({ home, env: {} });
});

afterAll(() => trees.remove());

const tree = (files: readonly string[], dirs: readonly string[] = []) => trees.tree(files, dirs);

/** The walk fallback, scoped to `root`, through the same entry point the endpoint uses. */
function find(root: string, query: string, extra: Partial<NameSearchRequest> = {}) {
  return searchNames({ query, roots: [root], scoped: true, fence, ...extra });
}
const names = (rows: NameResult[]) => rows.map((r) => r.name);

describe('walk fallback: the reference endpoint tests', () => {
  it('answers an empty or one-character query with nothing and no root', async () => {
    const root = tree(POPULATE);
    expect(await find(root, '')).toEqual({ results: [], source: 'short-query' });
    expect(await find(root, 'a')).toEqual({ results: [], source: 'short-query' });
    expect(await find(root, '  h ')).toEqual({ results: [], source: 'short-query' });
  });

  it('finds by name and gives each row path, size and mtime (test_basic_match)', async () => {
    const root = tree(POPULATE);
    const answer = await find(root, 'hello');
    expect(answer.source).toBe('walk');
    expect(answer.root).toBe(root);
    expect(names(answer.results)).toEqual(
      expect.arrayContaining(['hello.py', 'hello_world.py', 'hello_util.py']),
    );
    expect(answer.results[0]).toMatchObject({ path: path.join(root, 'hello.py'), kind: 'file' });
    expect(answer.results[0]!.size).toBeGreaterThan(0);
    expect(answer.results[0]!.mtime).toBeGreaterThan(0);
  });

  it('skips dot files unless they are asked for (test_skips_hidden_files)', async () => {
    expect(names((await find(tree(POPULATE), 'secret')).results)).toEqual([]);
  });

  it('with dotDirsLast, walks dot directories after the rest of the root: their files are dot files', async () => {
    const root = tree(['src/ci.yml.ts', '.github/workflows/ci.yml']);
    const dot = { dotFiles: true, walk: { dotDirsLast: true } };
    expect(names((await find(root, 'ci.yml', dot)).results)).toEqual(['ci.yml.ts', 'ci.yml']);
    expect(names((await find(root, 'ci.yml', { walk: { dotDirsLast: true } })).results)).toEqual([
      'ci.yml.ts',
    ]);
    expect(names((await find(root, 'ci.yml', { dotFiles: true })).results)).toEqual(['ci.yml.ts']);
  });

  it('offers dot files when asked, below other files unless the query starts with a dot', async () => {
    const dot = { dotFiles: true };
    expect(names((await find(tree(POPULATE), 'secret', dot)).results)).toEqual(['.secret']);
    const root = tree(['src/environment.ts', '.env']);
    expect(names((await find(root, 'env', dot)).results)).toEqual(['environment.ts', '.env']);
    expect(names((await find(root, '.env', dot)).results)[0]).toBe('.env');
  });

  it('skips the excluded directories (test_skips_excluded_dirs)', async () => {
    const rows = (await find(tree(POPULATE), 'hello')).results;
    expect(rows.some((r) => r.path.includes('node_modules') || r.path.includes('.git'))).toBe(false);
  });

  it('returns 15 rows by default (test_max_results_capped)', async () => {
    const root = tree(Array.from({ length: 20 }, (_, i) => `match_${String(i).padStart(2, '0')}.txt`));
    expect((await find(root, 'match')).results).toHaveLength(15);
  });

  it('honours the limit, clamps it to [1, 60], and treats a non-integer as the default', async () => {
    const root = tree(Array.from({ length: 100 }, (_, i) => `match_${String(i).padStart(3, '0')}.txt`));
    expect((await find(root, 'match', { limit: '30' })).results).toHaveLength(30);
    expect((await find(root, 'match', { limit: '1000' })).results).toHaveLength(60);
    expect((await find(root, 'match', { limit: 'abc' })).results).toHaveLength(15);
    expect((await find(root, 'match', { limit: '0' })).results).toHaveLength(1);
    expect((await find(root, 'match', { limit: '-5' })).results).toHaveLength(1);
  });

  it('orders shorter names first (test_sort_shorter_name_first)', async () => {
    const rows = (await find(tree(['abcdef.py', 'ab.py', 'abc.py']), 'ab')).results;
    expect(names(rows)).toEqual(['ab.py', 'abc.py', 'abcdef.py']);
  });

  it('scopes to the root it was given (test_project_scoping)', async () => {
    const outer = tree(['target_outside.py', 'proj/target.py']);
    const answer = await find(path.join(outer, 'proj'), 'target');
    expect(names(answer.results)).toEqual(['target.py']);
    expect(answer.root).toBe(path.join(outer, 'proj'));
  });

  it('ranks a name match above a path match (test_path_match_ranked_below_name_match)', async () => {
    const rows = (await find(tree(['myfeature/utils.py', 'myfeature.py']), 'myfeature', { kinds: 'files' }))
      .results;
    expect(rows[0]!.name).toBe('myfeature.py');
    expect(names(rows)).toContain('utils.py');
  });

  it('matches characters in order (test_fuzzy_char_order_match), not the absent (test_fuzzy_no_match_excluded)', async () => {
    expect(names((await find(tree(['files.py', 'readme.md']), 'flspy')).results)).toEqual(['files.py']);
    expect((await find(tree(['abc.py']), 'xyz')).results).toEqual([]);
  });

  it('puts the exact name first (test_exact_name_beats_substring) and prefix before infix (test_prefix_beats_infix)', async () => {
    const root = tree(['config.py', 'config_loader.py', 'myconfig.py', 'test_utils.py', 'my_test.py']);
    expect((await find(root, 'config')).results[0]!.name).toBe('config.py');
    expect((await find(root, 'test')).results[0]!.name).toBe('test_utils.py');
  });

  it('rows carry exactly path, name, kind, size and mtime (test_no_score_field_in_response)', async () => {
    const rows = (await find(tree(POPULATE), 'hello')).results;
    for (const r of rows) expect(Object.keys(r).sort()).toEqual(['kind', 'mtime', 'name', 'path', 'size']);
  });

  it('searches HOME when HOME is named explicitly (test_explicit_home_project_still_searched), never its stores', async () => {
    fs.writeFileSync(path.join(home, 'findme_widgets.txt'), 'x');
    const rows = (await find(home, 'widgets')).results;
    expect(names(rows)).toContain('findme_widgets.txt');
    expect(names(rows)).not.toContain('id_widgets');
  });

  it('does not search anything when no root was established (test_fallback_does_not_use_home)', async () => {
    expect(await searchNames({ query: 'findme', roots: [], scoped: false, fence })).toEqual({
      results: [],
      root: '',
      source: 'walk',
    });
  });

  it('skips a sensitive root', async () => {
    expect((await find(path.join(home, '.ssh'), 'widgets')).results).toEqual([]);
  });
});

const WIDGETS_FILES = ['widgets.py', 'widgets/button.py', 'widgets/widgetsinner/leaf.py'];
const WIDGETS_DIRS = ['widgetsempty', '.widgetshidden', 'node_modules/widgetsdep', '.git', '.cache'];

describe('walk fallback: directories and budgets', () => {
  it('returns directories (test_walk_fallback_returns_dirs)', async () => {
    const rows = (await find(tree(WIDGETS_FILES, WIDGETS_DIRS), 'widgets', { limit: 60 })).results;
    expect(rows.find((r) => r.name === 'widgets')).toMatchObject({ kind: 'dir', size: 0 });
    expect(rows.find((r) => r.name === 'widgetsempty')?.kind).toBe('dir');
  });

  it('filters by kind, and an unknown kind is all', async () => {
    const root = tree(WIDGETS_FILES, WIDGETS_DIRS);
    const dirs = (await find(root, 'widgets', { kinds: 'dirs', limit: 60 })).results;
    const files = (await find(root, 'widgets', { kinds: 'files', limit: 60 })).results;
    const unknown = (await find(root, 'widgets', { kinds: 'folders', limit: 60 })).results;
    expect(dirs.length).toBeGreaterThan(0);
    expect(dirs.every((r) => r.kind === 'dir')).toBe(true);
    expect(files.every((r) => r.kind === 'file')).toBe(true);
    expect(new Set(unknown.map((r) => r.kind))).toEqual(new Set(['file', 'dir']));
  });

  it('offers dot directories but not skip directories, and never the dot skip directories', async () => {
    const rows = (await find(tree(WIDGETS_FILES, WIDGETS_DIRS), 'widgets', { limit: 60 })).results;
    expect(names(rows)).toContain('.widgetshidden');
    expect(names(rows)).not.toContain('widgetsdep');
    const git = (await find(tree(WIDGETS_FILES, WIDGETS_DIRS), 'git', { limit: 60 })).results;
    expect(names(git)).not.toContain('.git');
  });

  it('does not starve files when many directories match (test_many_matching_dirs_do_not_starve_files)', async () => {
    const dirs = Array.from({ length: 400 }, (_, i) => `widgets_${i}`);
    const rows = (await find(tree(['zz/widgets.py'], dirs), 'widgets')).results;
    expect(names(rows)).toContain('widgets.py');
  });

  it('budgets files and directories independently (test_files_and_dirs_have_independent_scan_budgets)', async () => {
    const files = Array.from({ length: 200 }, (_, i) => `nomatch_${i}.txt`);
    const root = tree(files, ['widgets_dir']);
    const rows = (await find(root, 'widgets', { walk: { maxScan: 100 } })).results;
    expect(names(rows)).toContain('widgets_dir');
  });

  it('stops at the directories-entered ceiling on a deep narrow tree (test_walk_stops_at_overall_scan_ceiling)', async () => {
    const root = tree(deepNarrowFiles());
    const { fs: counting, reads } = countingNameFs();
    const out = await walkNameSearch({
      query: 'zzqx',
      roots: [root],
      scoped: true,
      fence,
      fs: counting,
      maxDirsVisited: 10,
      maxScan: 10_000,
    });
    expect(out.stoppedBy).toBe('dirs-visited');
    expect(reads()).toBeLessThanOrEqual(10);
    expect(out.dirsVisited).toBe(10);
  });

  it('stops a slow store at the wall-clock budget', async () => {
    const root = tree(['a/widgets_1.txt', 'b/widgets_2.txt', 'c/widgets_3.txt', 'd/e/widgets_4.txt']);
    let clock = 0;
    const { fs: slow, reads } = countingNameFs(() => {
      clock += 1;
    });
    const answer = await find(root, 'widgets', { fs: slow, walk: { now: () => clock, timeBudgetMs: 1.5 } });
    expect(reads()).toBeLessThanOrEqual(2);
    expect(answer.results.length).toBeLessThan(4);
    expect(answer.partial).toBe(true);
  });

  it('walks the whole tree of a fast store and says nothing about truncation', async () => {
    const root = tree(['a/widgets_1.txt', 'b/widgets_2.txt', 'c/widgets_3.txt', 'd/e/widgets_4.txt']);
    const answer = await find(root, 'widgets', { walk: { now: () => 0, timeBudgetMs: 1.5 } });
    expect(answer.results).toHaveLength(4);
    expect(answer).not.toHaveProperty('partial');
    expect(answer).not.toHaveProperty('truncated');
  });

  // Fails without the fix: a scan budget that skipped entries left `partial` unset.
  it('says partial when a scan budget left entries unscored, not when candidates filled up 🔒', async () => {
    const big = tree([...Array.from({ length: 300 }, (_, i) => `big/entry_${i}.txt`), 'src/sub/util.ts']);
    const capped = await find(big, 'util', { kinds: 'files', walk: { maxScan: 100 } });
    expect(names(capped.results)).not.toContain('util.ts');
    expect(capped.partial).toBe(true);
    const whole = await find(big, 'util', { kinds: 'files', walk: { maxScan: 1000 } });
    expect(names(whole.results)).toContain('util.ts');
    expect(whole).not.toHaveProperty('partial');
    const many = tree(Array.from({ length: 300 }, (_, i) => `util_${i}.txt`));
    const full = await find(many, 'util', { kinds: 'files', walk: { maxScan: 100_000, maxCandidates: 20 } });
    expect(full.results.length).toBeGreaterThan(0);
    expect(full).not.toHaveProperty('partial');
  });

  it('says partial when the directories ceiling stopped a walk with more to enter', async () => {
    const answer = await find(tree(deepNarrowFiles()), 'zzqx', { walk: { maxDirsVisited: 10 } });
    expect(answer.partial).toBe(true);
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const out = await walkNameSearch({
      query: 'widgets',
      roots: [tree(WIDGETS_FILES)],
      scoped: true,
      fence,
      signal: ac.signal,
    });
    expect(out.stoppedBy).toBe('aborted');
    expect(out.results).toEqual([]);
  });

  it('shares budgets across roots', async () => {
    const a = tree(['a1/x.txt', 'a2/y.txt']);
    const b = tree(['widgets_b.txt']);
    const out = await walkNameSearch({
      query: 'widgets',
      roots: [a, b],
      scoped: false,
      fence,
      maxDirsVisited: 2,
    });
    expect(out.dirsVisited).toBe(2);
    expect(out.results).toEqual([]);
  });
});

describe('walk fallback: the fence on symlinked candidates', () => {
  it('never returns a file symlink into a sensitive store (test_walk_fallback_file_symlink_resolved_before_sensitive_check)', async () => {
    const root = tree(['widgets.py']);
    fs.symlinkSync(path.join(home, '.ssh', 'id_widgets'), path.join(root, 'widgetkey'));
    expect(names((await find(root, 'widget', { limit: 60 })).results)).toEqual(['widgets.py']);
  });

  it('never returns a directory symlink into a sensitive store', async () => {
    const root = tree(['widgets.py']);
    fs.symlinkSync(path.join(home, '.ssh'), path.join(root, 'widgetsdir'));
    const rows = (await find(root, 'widget', { limit: 60 })).results;
    expect(names(rows)).toEqual(['widgets.py']);
  });

  it('refuses a real directory whose canonical path is sensitive, and does not enter it', async () => {
    const root = tree(['widgets/button_widgets.py', 'other_widgets.py']);
    const fenced = new SensitiveFence({ home, env: {}, extra: [path.join(root, 'widgets')] });
    const rows = (await find(root, 'widgets', { fence: fenced, limit: 60 })).results;
    expect(names(rows)).toEqual(['other_widgets.py']);
  });

  it('returns a non-sensitive symlink target outside the root under its link path, and does not enter a linked directory', async () => {
    const outside = tree(['notes.txt', 'shelf/book.txt']);
    const root = tree(['here.txt']);
    fs.symlinkSync(path.join(outside, 'notes.txt'), path.join(root, 'linked_notes.txt'));
    fs.symlinkSync(path.join(outside, 'shelf'), path.join(root, 'linked_shelf'));
    expect((await find(root, 'linked_notes')).results[0]).toMatchObject({
      path: path.join(root, 'linked_notes.txt'),
      kind: 'file',
    });
    expect((await find(root, 'linked_shelf')).results[0]).toMatchObject({ kind: 'dir', size: 0 });
    expect((await find(root, 'book')).results).toEqual([]);
  });
});

describe('macOS consent folders', () => {
  const homeTree = () =>
    tree([
      'Documents/widgets_doc.txt',
      'Library/Caches/widgets_cache.txt',
      'Library/CloudStorage/widgets_cloud.txt',
      'code/widgets_code.txt',
    ]);

  it('are pruned from an unscoped walk rooted at HOME on macOS', async () => {
    const h = homeTree();
    const out = await walkNameSearch({
      query: 'widgets',
      roots: [h],
      scoped: false,
      fence,
      home: h,
      platform: 'darwin',
    });
    expect(names(out.results).sort()).toEqual(['widgets_cloud.txt', 'widgets_code.txt']);
  });

  it('are walked when the root was named explicitly, or on other platforms', async () => {
    const h = homeTree();
    const scoped = await walkNameSearch({
      query: 'widgets',
      roots: [h],
      scoped: true,
      fence,
      home: h,
      platform: 'darwin',
    });
    expect(scoped.results).toHaveLength(4);
    const linux = await walkNameSearch({
      query: 'widgets',
      roots: [h],
      scoped: false,
      fence,
      home: h,
      platform: 'linux',
    });
    expect(linux.results).toHaveLength(4);
  });

  it('are pruned by an index rooted at HOME on macOS', async () => {
    const h = homeTree();
    const index = new FileIndex(h, {
      fence,
      home: h,
      platform: 'darwin',
      watch: false,
      pollMs: 0,
      fullRebuildMs: 0,
    });
    await index.start();
    expect(names(await index.search('widgets')).sort()).toEqual(['widgets_cloud.txt', 'widgets_code.txt']);
    index.stop();
  });
});

describe('one admission rule for the walk and the index', () => {
  /** The real filesystem with every path it stat'd (that is where a link is resolved) recorded. */
  function statRecording(): { fs: NameSearchFs; statted: string[] } {
    const statted: string[] = [];
    return {
      statted,
      fs: {
        ...nodeNameFs,
        stat: (p) => {
          statted.push(p);
          return nodeNameFs.stat(p);
        },
        statSync: (p) => {
          statted.push(p);
          return nodeNameFs.statSync(p);
        },
      },
    };
  }

  /** The names the walk and the index offer for `query` under `root`, with the paths each stat'd. */
  async function both(root: string, query: string, platform = process.platform) {
    const w = statRecording();
    const walked = await walkNameSearch({
      query,
      roots: [root],
      scoped: false,
      fence,
      home: root,
      platform,
      fs: w.fs,
    });
    const x = statRecording();
    const index = new FileIndex(root, {
      fence,
      home: root,
      platform,
      watch: false,
      pollMs: 0,
      fullRebuildMs: 0,
      fs: x.fs,
    });
    await index.start();
    const indexed = await index.search(query);
    index.stop();
    return {
      walk: names(walked.results).sort(),
      index: names(indexed).sort(),
      statted: [...w.statted, ...x.statted],
    };
  }

  // Before one rule: the index pruned links only at the root, so it offered Library/Mail; the walk resolved the
  // link first (a stat where a consent folder stands) and pruned it after.
  it('prunes a link standing where a consent folder is by its name, before resolving it, in both', async () => {
    const h = tree(['code/widgets_code.txt'], ['Library']);
    const outside = tree(['inside.txt'], ['Mail', 'Mail-linked']);
    fs.symlinkSync(path.join(outside, 'Mail'), path.join(h, 'Library', 'Mail'));
    fs.mkdirSync(path.join(h, 'Library', 'CloudStorage'));
    // the control: the same kind of link where nothing is pruned is resolved and offered
    fs.symlinkSync(path.join(outside, 'Mail-linked'), path.join(h, 'code', 'Mail-linked'));
    const got = await both(h, 'mail', 'darwin');
    expect(got.walk).toEqual(['Mail-linked']);
    expect(got.index).toEqual(['Mail-linked']);
    expect(got.statted.filter((p) => p.endsWith('/Library/Mail'))).toEqual([]);
    expect(got.statted.some((p) => p.endsWith('/code/Mail-linked'))).toBe(true);
  });

  // Before one rule: the walk offered a link to a FIFO as a file; the index offered only regular files.
  it.runIf(process.platform !== 'win32')(
    'offers a link to a regular file, never one to a FIFO, in both',
    async () => {
      const root = tree(['widgets.txt']);
      const outside = tree(['note.txt']);
      execFileSync('mkfifo', [path.join(outside, 'pipe')]);
      fs.symlinkSync(path.join(outside, 'pipe'), path.join(root, 'widgets_pipe'));
      fs.symlinkSync(path.join(outside, 'note.txt'), path.join(root, 'widgets_note'));
      const got = await both(root, 'widgets');
      expect(got.walk).toEqual(['widgets.txt', 'widgets_note']);
      expect(got.index).toEqual(['widgets.txt', 'widgets_note']);
    },
  );
});
