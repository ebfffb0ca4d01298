import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NameResult } from '@trawl/core/names';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingNameFs } from '../../core/test/fixtures/name-fs.js';
import { deepNarrowFiles, POPULATE, TempTrees } from '../../core/test/fixtures/temp-trees.js';
import type { IndexHost, IndexProvider } from '../src/http/index-host.js';
import { PoolBusyError } from '../src/http/pool.js';
import {
  type Answer,
  names,
  startTestServer,
  type TestServer,
  type TestServerOptions,
  withTestServer,
} from './http-helpers.js';
import { judgedRoot } from './roots.js';

// Fake HOME and data dir under a temp dir: the real ~/.ssh and ~/.local/share are never touched.
let trees: TempTrees;
let tmp: string;
let home: string;
let dataDir: string;

beforeAll(() => {
  trees = new TempTrees('trawl-http-fs-', ['id_widgets', 'id_hello']);
  tmp = trees.dir;
  home = trees.home;
  dataDir = path.join(tmp, 'data');
});

afterAll(() => trees.remove());

const tree = (files: readonly string[], dirs: readonly string[] = []) => trees.tree(files, dirs);

/** The reference directory tests' fixture. */
function widgets(): string {
  const root = tree(
    ['widgets.py', 'widgets/button.py', 'widgets/widgetsinner/leaf.py', '.git/x', '.cache/y'],
    ['widgetsempty', '.widgetshidden', 'node_modules/widgetsdep', '.secretcfg/widgetsinside'],
  );
  return root;
}

describe('GET /api/file-search through the worker pools', () => {
  let s: TestServer;
  let proj: string;
  const search = (params: Record<string, string>) => s.get('/api/file-search', params);

  beforeAll(async () => {
    proj = tree(POPULATE);
    s = await startTestServer({ projects: [proj], home, dataDir });
  });
  afterAll(() => s.close());

  it('test_empty_query_returns_empty', async () => {
    const a = await search({ q: '' });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ results: [] });
  });

  it('test_short_query_returns_empty (no root key), audited as short_query', async () => {
    const a = await search({ q: 'a', project: proj });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ results: [] });
    expect(s.audit.last('file_search')).toMatchObject({ outcome: 'allowed', resources: 'short_query' });
  });

  it('test_basic_match', async () => {
    const a = await search({ q: 'hello', project: proj });
    expect(a.status).toBe(200);
    expect(names(a)).toEqual(expect.arrayContaining(['hello.py', 'hello_world.py', 'hello_util.py']));
    const first = a.body.results![0]!;
    expect(first).toMatchObject({ path: path.join(proj, 'hello.py'), kind: 'file' });
    expect(first['size']).toBeGreaterThan(0);
    expect(first['mtime']).toBeGreaterThan(0);
    expect(a.body.root).toBe(proj);
  });

  it('says which characters of each row matched: offsets into its path, read from the root', async () => {
    const a = await search({ q: 'hello', project: proj });
    for (const r of a.body.results!) {
      const p = r['path'] as string;
      const marked = (r['positions'] as number[]).map((i) => p[i]).join('');
      expect(marked.toLowerCase()).toBe('hello');
      // inside the name, never in the project's own path
      expect(Math.min(...(r['positions'] as number[]))).toBeGreaterThanOrEqual(
        p.length - (r['name'] as string).length,
      );
    }
  });

  it('offers a dot file (what the Files rail lists and attaches)', async () => {
    const a = await search({ q: 'secret', project: proj });
    expect(names(a)).toContain('.secret');
  });

  it('test_skips_excluded_dirs', async () => {
    const a = await search({ q: 'hello', project: proj });
    expect(a.body.results!.some((r) => /node_modules|\.git/.test(String(r['path'])))).toBe(false);
  });

  it('test_max_results_capped', async () => {
    const root = tree(Array.from({ length: 20 }, (_, i) => `match_${String(i).padStart(2, '0')}.txt`));
    expect((await search({ q: 'match', project: root })).body.results).toHaveLength(15);
  });

  it('test_limit_param_honoured', async () => {
    const root = tree(Array.from({ length: 40 }, (_, i) => `match_${String(i).padStart(2, '0')}.txt`));
    expect((await search({ q: 'match', project: root, limit: '30' })).body.results).toHaveLength(30);
  });

  it('test_limit_clamped_at_server_ceiling 🔒', async () => {
    const root = tree(Array.from({ length: 100 }, (_, i) => `match_${String(i).padStart(3, '0')}.txt`));
    expect((await search({ q: 'match', project: root, limit: '1000' })).body.results).toHaveLength(60);
  });

  it('test_limit_non_integer_falls_back_to_default', async () => {
    const root = tree(Array.from({ length: 40 }, (_, i) => `match_${String(i).padStart(2, '0')}.txt`));
    for (const limit of ['abc', '2.5', '', '1e3']) {
      expect((await search({ q: 'match', project: root, limit })).body.results).toHaveLength(15);
    }
  });

  it('test_limit_negative_or_zero_clamped_to_floor', async () => {
    const root = tree(Array.from({ length: 40 }, (_, i) => `match_${String(i).padStart(2, '0')}.txt`));
    expect((await search({ q: 'match', project: root, limit: '0' })).body.results).toHaveLength(1);
    expect((await search({ q: 'match', project: root, limit: '-5' })).body.results).toHaveLength(1);
  });

  it('test_sort_shorter_name_first', async () => {
    const root = tree(['abcdef.py', 'ab.py', 'abc.py']);
    expect(names(await search({ q: 'ab', project: root }))).toEqual(['ab.py', 'abc.py', 'abcdef.py']);
  });

  it('test_project_scoping', async () => {
    const outer = tree(['target_outside.py', 'proj/target.py']);
    const a = await search({ q: 'target', project: path.join(outer, 'proj') });
    expect(names(a)).toEqual(['target.py']);
    expect(a.body.root).toBe(path.join(outer, 'proj'));
  });

  it('test_project_sensitive_path_rejected 🔒', async () => {
    const a = await search({ q: 'id_widgets', project: path.join(home, '.ssh') });
    expect(a.status).toBe(403);
    expect(a.body).toEqual({ error: 'Access denied', code: 'access_denied' });
    expect(s.audit.last('file_search')).toMatchObject({ outcome: 'denied', error: 'sensitive path' });
  });

  it('checks sensitivity before existence: a missing path in a store is 403, not 404 🔒', async () => {
    const a = await search({ q: 'creds', project: path.join(home, '.aws', 'nope') });
    expect(a.status).toBe(403);
    expect(a.body.code).toBe('access_denied');
  });

  it('refuses a ~-spelled sensitive project too 🔒', async () => {
    const a = await search({ q: 'id_widgets', project: '~/.ssh' });
    expect(a.status).toBe(403);
  });

  it('test_path_match_ranked_below_name_match', async () => {
    const root = tree(['myfeature/utils.py', 'myfeature.py']);
    const a = await search({ q: 'myfeature', project: root, kinds: 'files' });
    expect(a.body.results![0]!['name']).toBe('myfeature.py');
    expect(names(a)).toContain('utils.py');
  });

  it('test_project_not_found_returns_404', async () => {
    const a = await search({ q: 'hello', project: path.join(tmp, 'missing-dir') });
    expect(a.status).toBe(404);
    expect(a.body).toEqual({ results: [], error: 'Project directory not found', code: 'project_not_found' });
    expect(s.audit.last('file_search')).toMatchObject({ outcome: 'allowed', error: 'not a directory' });
  });

  it('a file, a relative path or a NUL as project is a 404, never a 500', async () => {
    for (const project of [path.join(proj, 'hello.py'), 'relative/dir', `${proj}\0x`, '.', '~nobody/x']) {
      const a = await search({ q: 'hello', project });
      expect(a.status).toBe(404);
      expect(a.body.code).toBe('project_not_found');
    }
  });

  it('test_fuzzy_char_order_match', async () => {
    const root = tree(['files.py', 'readme.md']);
    expect(names(await search({ q: 'flspy', project: root }))).toEqual(['files.py']);
  });

  it('test_exact_name_beats_substring', async () => {
    const root = tree(['config.py', 'config_loader.py', 'myconfig.py']);
    expect(names(await search({ q: 'config', project: root }))[0]).toBe('config.py');
  });

  it('test_prefix_beats_infix', async () => {
    const root = tree(['test_utils.py', 'my_test.py']);
    expect(names(await search({ q: 'test', project: root }))[0]).toBe('test_utils.py');
  });

  it('test_no_score_field_in_response: rows carry exactly path, name, kind, size, mtime (and positions)', async () => {
    const a = await search({ q: 'hello', project: proj });
    for (const r of a.body.results!)
      expect(Object.keys(r).sort()).toEqual(['kind', 'mtime', 'name', 'path', 'positions', 'size']);
  });

  it('test_fuzzy_no_match_excluded', async () => {
    const root = tree(['abc.py']);
    expect((await search({ q: 'xyz', project: root })).body.results).toEqual([]);
  });

  it('an unscoped search covers the known projects and answers an empty root', async () => {
    const a = await search({ q: 'hello_world' });
    expect(names(a)).toContain('hello_world.py');
    expect(a.body.root).toBe('');
  });

  it('audits an allowed walk with the query, kinds, roots and result count', async () => {
    await search({ q: 'Hello', project: proj, kinds: 'files' });
    expect(s.audit.last('file_search')).toMatchObject({
      outcome: 'allowed',
      resources: expect.stringMatching(/^q=Hello kinds=files roots=1 results=\d+$/),
    });
  });

  it('answers an over-long query with nothing (bounded work)', async () => {
    const a = await search({ q: 'a'.repeat(5000), project: proj });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ results: [], root: '' });
  });
});

describe('GET /api/file-search: roots and scope', () => {
  it('test_fallback_does_not_use_home 🔒: a known project that IS home is not an implicit root', async () => {
    const h = tree(['findme.txt', 'proj/other.txt']);
    await withTestServer({ projects: [h], home: h, dataDir, inline: true }, async (s) => {
      const a = await s.get('/api/file-search', { q: 'findme' });
      expect(a.status).toBe(200);
      expect(names(a)).not.toContain('findme.txt');
      expect(a.body.root).toBe('');
    });
  });

  it('test_explicit_home_project_still_searched (and its stores stay out)', async () => {
    const h = tree(['findme.txt', '.ssh/findme_key']);
    await withTestServer({ projects: [h], home: h, dataDir, inline: true }, async (s) => {
      const a = await s.get('/api/file-search', { q: 'findme', project: h });
      expect(names(a)).toEqual(['findme.txt']);
      expect(a.body.root).toBe(h);
    });
  });

  it('TRAWL_PROJECT_DIR is the first implicit root, used as spelled', async () => {
    const envRoot = tree(['envonly_target.txt']);
    const proj = tree(['projonly_target.txt']);
    await withTestServer(
      {
        projects: [proj],
        home,
        dataDir,
        inline: true,
        env: { TRAWL_PROJECT_DIR: envRoot },
      },
      async (s) => {
        const a = await s.get('/api/file-search', { q: 'target' });
        expect(names(a).sort()).toEqual(['envonly_target.txt', 'projonly_target.txt']);
      },
    );
  });

  it('test_workspace_scoping: ?workspace= names a known project; others are not searched', async () => {
    const outer = tree(['target_outside.py', 'ws/target.py', 'other/target_other.py']);
    await withTestServer(
      {
        projects: [path.join(outer, 'ws'), path.join(outer, 'other')],
        home,
        dataDir,
        inline: true,
      },
      async (s) => {
        const a = await s.get('/api/file-search', { q: 'target', workspace: 'ws' });
        expect(names(a)).toEqual(['target.py']);
        expect(a.body.root).toBe(path.join(outer, 'ws'));
        // An unknown workspace establishes no scope: the implicit roots (both known projects) answer.
        const b = await s.get('/api/file-search', { q: 'target', workspace: 'nope' });
        expect(names(b).sort()).toEqual(['target.py', 'target_other.py']);
        expect(b.body.root).toBe('');
      },
    );
  });

  it('drops a sensitive implicit root (audited), without a 403 🔒', async () => {
    await withTestServer(
      {
        projects: [path.join(home, '.ssh')],
        home,
        dataDir,
        inline: true,
      },
      async (s) => {
        const a = await s.get('/api/file-search', { q: 'id_widgets' });
        expect(a.status).toBe(200);
        expect(a.body).toEqual({ results: [], root: '' });
        expect(
          s.audit
            .of('file_search')
            .some((e) => e.outcome === 'denied' && e.resources === path.join(home, '.ssh')),
        ).toBe(true);
      },
    );
  });
  it('judges an implicit root before its existence: a missing one in a store is dropped as sensitive 🔒', async () => {
    const missing = path.join(home, '.aws', 'no-such-dir');
    expect(fs.existsSync(missing)).toBe(false);
    await withTestServer({ projects: [missing], home, dataDir, inline: true }, async (s) => {
      const a = await s.get('/api/file-search', { q: 'id_widgets' });
      expect(a.body).toEqual({ results: [], root: '' });
      expect(s.audit.of('file_search')).toContainEqual(
        expect.objectContaining({ outcome: 'denied', resources: missing }),
      );
    });
  });
});

describe('GET /api/file-search: directories, kinds and budgets', () => {
  let s: TestServer;
  let root: string;
  const search = (params: Record<string, string>) => s.get('/api/file-search', { project: root, ...params });
  const kindsOf = (a: Answer) => new Set((a.body.results ?? []).map((r) => r['kind']));

  beforeAll(async () => {
    root = widgets();
    s = await startTestServer({ projects: [root], home, dataDir, inline: true });
  });
  afterAll(() => s.close());

  it('test_walk_fallback_returns_dirs', async () => {
    const a = await search({ q: 'widgets' });
    const dir = a.body.results!.find((r) => r['name'] === 'widgets')!;
    expect(dir).toMatchObject({ kind: 'dir', size: 0 });
    expect(dir['mtime']).toBeGreaterThan(0);
    expect(names(a)).toContain('widgets.py');
  });

  it('test_walk_fallback_kinds_dirs_only', async () => {
    expect(kindsOf(await search({ q: 'widgets', kinds: 'dirs' }))).toEqual(new Set(['dir']));
  });

  it('test_walk_fallback_kinds_files_only', async () => {
    expect(kindsOf(await search({ q: 'widgets', kinds: 'files' }))).toEqual(new Set(['file']));
  });

  it('test_unknown_kinds_value_falls_back_to_all', async () => {
    expect(kindsOf(await search({ q: 'widgets', kinds: 'everything' }))).toEqual(new Set(['file', 'dir']));
  });

  it('test_walk_fallback_offers_dot_dirs_but_not_skip_dirs', async () => {
    const n = names(await search({ q: 'widgets', limit: '60' }));
    expect(n).toContain('.widgetshidden');
    expect(n).not.toContain('widgetsdep');
    expect(n).not.toContain('node_modules');
  });

  it('test_walk_fallback_dot_skip_dirs_are_not_offered 🔒', async () => {
    expect(names(await search({ q: 'git', limit: '60' }))).not.toContain('.git');
    expect(names(await search({ q: 'cache', limit: '60' }))).not.toContain('.cache');
  });

  it('enters other dot directories after the rest: the workbench offers what the Files tree lists there', async () => {
    // Names only, and ones /api/tree already lists and /api/file-grep already searches (dot directories included);
    // MCP find_files and trawl find keep the seed's rule (core names-index 'does not descend into dot directories').
    expect(names(await search({ q: 'widgetsinside', limit: '60' }))).toContain('widgetsinside');
  });

  it('test_walk_fallback_file_symlink_resolved_before_sensitive_check 🔒', async () => {
    const r = tree(['widgets.py']);
    fs.symlinkSync(path.join(home, '.ssh', 'id_widgets'), path.join(r, 'widgetslink'));
    fs.symlinkSync(path.join(home, '.ssh'), path.join(r, 'widgetsdirlink'));
    const n = names(await s.get('/api/file-search', { q: 'widgets', project: r }));
    expect(n).toEqual(['widgets.py']);
  });

  it('test_many_matching_dirs_do_not_starve_files', async () => {
    const r = tree(
      ['widgets.py'],
      Array.from({ length: 400 }, (_, i) => `widgets_d${i}`),
    );
    const n = names(await s.get('/api/file-search', { q: 'widgets', project: r, limit: '60' }));
    expect(n).toContain('widgets.py');
  });
});

describe('GET /api/file-search: walk budgets through the endpoint (seams) 🔒', () => {
  const withWalk = (ctx: TestServerOptions['inline'], fn: (s: TestServer) => Promise<void>) =>
    withTestServer({ projects: [], home, dataDir, inline: ctx ?? true }, fn);

  it('test_files_and_dirs_have_independent_scan_budgets', async () => {
    const r = tree(
      Array.from({ length: 200 }, (_, i) => `nomatch_${i}.txt`),
      ['widgets_dir'],
    );
    await withWalk({ walk: { maxScan: 100 } }, async (s) => {
      expect(names(await s.get('/api/file-search', { q: 'widgets', project: r }))).toContain('widgets_dir');
    });
  });

  it('test_walk_stops_at_overall_scan_ceiling: a deep narrow tree ends at the directories-entered ceiling', async () => {
    const r = tree(deepNarrowFiles());
    const { fs: counting, reads } = countingNameFs();
    await withWalk({ nameFs: counting, walk: { maxDirsVisited: 10, maxScan: 10_000 } }, async (s) => {
      const a = await s.get('/api/file-search', { q: 'zzqx', project: r });
      expect(a.status).toBe(200);
      expect(reads()).toBeLessThanOrEqual(12);
      expect(reads()).toBeGreaterThan(0);
    });
  });

  it('test_a_slow_store_stops_the_walk_at_the_wall_clock_budget (and the audit line says partial)', async () => {
    const r = tree([
      'a/widgets_1.txt',
      'b/widgets_2.txt',
      'c/widgets_3.txt',
      'd/e/widgets_4.txt',
      'widgets_5.txt',
      'widgets_6.txt',
    ]);
    let clock = 0;
    const { fs: slow, reads } = countingNameFs(() => {
      clock += 1;
    });
    await withWalk({ nameFs: slow, walk: { now: () => clock, timeBudgetMs: 1.5 } }, async (s) => {
      const a = await s.get('/api/file-search', { q: 'widgets', project: r });
      expect(reads()).toBeLessThanOrEqual(2);
      expect(a.body.results!.length).toBeLessThan(6);
      expect(a.body.truncated).toBe(true);
      expect(s.audit.last('file_search')!.resources).toMatch(/partial=true$/);
    });
  });

  // Fails without the fix: the walk scored 100 files of `big/`, skipped the rest (src/sub/util.ts among them),
  // and answered `[]` with no `truncated` and no `partial=true` in the audit line.
  it('a walk stopped by its scan budget says so: "truncated": true and partial=true 🔒', async () => {
    const r = tree([...Array.from({ length: 300 }, (_, i) => `big/entry_${i}.txt`), 'src/sub/util.ts']);
    await withWalk({ walk: { maxScan: 100 } }, async (s) => {
      const a = await s.get('/api/file-search', { q: 'util', project: r, kinds: 'files' });
      expect(a.status).toBe(200);
      expect(names(a)).not.toContain('util.ts');
      expect(a.body.truncated).toBe(true);
      expect(s.audit.last('file_search')!.resources).toMatch(/ partial=true$/);
    });
  });

  it('a walk that ran out of candidate room, not of budget, is not truncated', async () => {
    const r = tree(Array.from({ length: 300 }, (_, i) => `util_${i}.txt`));
    await withWalk({ walk: { maxScan: 100_000, maxCandidates: 20 } }, async (s) => {
      const a = await s.get('/api/file-search', { q: 'util', project: r, kinds: 'files' });
      expect(a.body.results!.length).toBeGreaterThan(0);
      expect(a.body).not.toHaveProperty('truncated');
      expect(s.audit.last('file_search')!.resources).not.toMatch(/partial/);
    });
  });

  it('test_a_fast_store_walks_the_whole_tree', async () => {
    const r = tree([
      'a/widgets_1.txt',
      'b/widgets_2.txt',
      'c/widgets_3.txt',
      'd/e/widgets_4.txt',
      'widgets_5.txt',
      'widgets_6.txt',
    ]);
    await withWalk({ walk: { now: () => 0, timeBudgetMs: 1.5 } }, async (s) => {
      const a = await s.get('/api/file-search', { q: 'widgets', project: r });
      expect(a.body.results).toHaveLength(6);
      expect(a.body).not.toHaveProperty('truncated');
      expect(s.audit.last('file_search')!.resources).not.toMatch(/partial/);
    });
  });
});

describe('GET /api/file-search: the index fast path', () => {
  it('test_index_fast_path_forwards_kinds: a ready, untruncated index of the one scoped root answers', async () => {
    const root = widgets();
    const calls: Array<{ root: string; q: string; limit: number; kinds: string }> = [];
    const row: NameResult = {
      path: path.join(root, 'widgets'),
      name: 'widgets',
      kind: 'dir',
      size: 0,
      mtime: 1,
    };
    const fake: IndexProvider = {
      status: () => ({ ready: true, truncated: false, entries: 7 }),
      search: async (r, q, limit, kinds) => {
        calls.push({ root: r, q, limit, kinds });
        return { results: [row], entries: 7 };
      },
    };
    await withTestServer({ projects: [root], home, dataDir, inline: true, indexes: fake }, async (s) => {
      const a = await s.get('/api/file-search', { q: 'widgets', project: root, kinds: 'dirs', limit: '30' });
      const at = row.path.length - row.name.length;
      expect(a.body).toEqual({
        results: [{ ...row, positions: [0, 1, 2, 3, 4, 5, 6].map((i) => at + i) }],
        root,
      });
      expect(calls).toEqual([{ root, q: 'widgets', limit: 30, kinds: 'dirs' }]);
      expect(s.audit.last('file_search')!.resources).toBe(
        'q=widgets kinds=dirs indexed=true entries=7 results=1',
      );
    });
  });

  it('walks when the index cannot serve (not ready, truncated, gone)', async () => {
    const root = widgets();
    const fake: IndexProvider = { status: () => undefined, search: async () => undefined };
    await withTestServer({ projects: [root], home, dataDir, inline: true, indexes: fake }, async (s) => {
      const a = await s.get('/api/file-search', { q: 'widgets', project: root });
      expect(names(a)).toContain('widgets.py');
      expect(s.audit.last('file_search')!.resources).toMatch(/roots=1/);
    });
  });

  it('an explicitly scoped root whose index prunes consent folders (macOS HOME) is walked instead', async () => {
    const root = widgets();
    let asked = 0;
    const fake: IndexProvider = {
      status: () => ({ ready: true, truncated: false, entries: 7 }),
      search: async () => {
        asked++;
        return { results: [], entries: 7 };
      },
    };
    await withTestServer({ projects: [root], home, dataDir, inline: true, indexes: fake }, async (s) => {
      (s.server.context.walkOnlyRoots as Set<string>).add(root);
      const a = await s.get('/api/file-search', { q: 'widgets', project: root });
      expect(names(a)).toContain('widgets.py');
      expect(asked).toBe(0);
    });
  });

  it('the real index host builds the known project off the event loop and then serves it', async () => {
    const root = widgets();
    await withTestServer({ projects: [root], home, dataDir, indexes: undefined }, async (s) => {
      const host = s.server.context.indexes as IndexHost;
      expect(await host.whenSettled(root)).toMatchObject({ ready: true, truncated: false });
      const a = await s.get('/api/file-search', { q: 'widgets', project: root, kinds: 'dirs' });
      expect(names(a)).toEqual(expect.arrayContaining(['widgets', 'widgetsempty', '.widgetshidden']));
      expect(new Set(a.body.results!.map((r) => r['kind']))).toEqual(new Set(['dir']));
      expect(s.audit.last('file_search')!.resources).toMatch(/indexed=true/);
    });
  });
});

describe('GET /api/file-search: projects the caller judged', () => {
  it('indexes a project at the root the caller judged it to, without judging its spelling again', async () => {
    const root = widgets();
    const spelling = `${root}-link`;
    fs.symlinkSync(root, spelling);
    const judged = await judgedRoot(spelling);
    // Judged again, the spelling would now name nothing and the project would be left unindexed.
    fs.rmSync(spelling);
    await withTestServer(
      { projects: [{ lexical: spelling, root: judged }], home, dataDir, indexes: undefined },
      async (s) => {
        const host = s.server.context.indexes as IndexHost;
        expect(await host.whenSettled(judged)).toMatchObject({ ready: true });
      },
    );
  });
});

describe('GET /api/file-search: a saturated pool', () => {
  it('answers a coded 503 path_probe_busy, audited as a failure', async () => {
    const proj = tree(['hello.py']);
    const busy = { run: () => Promise.reject(new PoolBusyError('probe')) };
    await withTestServer(
      {
        projects: [proj],
        home,
        dataDir,
        inline: true,
        runners: { probe: busy },
      },
      async (s) => {
        const a = await s.get('/api/file-search', { q: 'hello', project: proj });
        expect(a.status).toBe(503);
        expect(a.body).toEqual({
          error: 'file system probe capacity exhausted; retry shortly',
          code: 'path_probe_busy',
        });
        expect(s.audit.last('file_search')).toMatchObject({ outcome: 'failure', error: 'path_probe_busy' });
        await withTestServer(
          {
            projects: [proj],
            home,
            dataDir,
            inline: true,
            runners: { transfer: busy },
          },
          async (t) => {
            const b = await t.get('/api/file-search', { q: 'hello', project: proj });
            expect(b.status).toBe(503);
            expect(b.body.code).toBe('path_probe_busy');
          },
        );
      },
    );
  });
});
