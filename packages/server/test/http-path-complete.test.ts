import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DirOpener } from '@trawl/core/complete';
import { SensitiveFence } from '@trawl/core/fence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The base opener, wrapped to race the server (a seam of core's, not its public API).
import { procFdOpener } from '../../core/src/complete/open-dir.js';
import { TempTrees } from '../../core/test/fixtures/temp-trees.js';
import { RECENT_PROJECTS_RECHECK_MS } from '../src/http/limits.js';
import { PoolBusyError } from '../src/http/pool.js';
import { names, startTestServer, type TestServer, withTestServer } from './http-helpers.js';

// Fake HOME and data dir under a temp dir: the real ~/.ssh is never touched.
let trees: TempTrees;
let tmp: string;
let home: string;
let dataDir: string;
const linux = process.platform === 'linux';

beforeAll(() => {
  trees = new TempTrees('trawl-http-pc-', ['id_rsa']);
  tmp = trees.dir;
  home = trees.home;
  dataDir = path.join(tmp, 'data');
  fs.mkdirSync(path.join(tmp, 'outside'));
  fs.writeFileSync(path.join(tmp, 'outside', 'secrets.txt'), 'secret');
});

afterAll(() => trees.remove());

const project = () => trees.completionProject();

const complete = (s: TestServer, p: string, params: Record<string, string> = {}) =>
  s.get('/api/path-complete', { path: p, ...params });

describe('GET /api/path-complete through the worker pools', () => {
  let s: TestServer;
  let proj: string;

  beforeAll(async () => {
    proj = project();
    fs.symlinkSync('//attacker/share/secrets', path.join(proj, 'share'));
    fs.symlinkSync(path.join(tmp, 'outside'), path.join(proj, 'link'));
    fs.symlinkSync(path.join(proj, 'src'), path.join(proj, 'inner'));
    fs.mkdirSync(path.join(proj, 'many'));
    for (let i = 0; i < 60; i++)
      fs.writeFileSync(path.join(proj, 'many', `f${String(i).padStart(2, '0')}`), '');
    s = await startTestServer({ projects: [proj], home, dataDir });
  });
  afterAll(() => s.close());

  it('test_missing_path_is_400 (not audited)', async () => {
    s.audit.clear();
    const a = await s.get('/api/path-complete', { dir: './' });
    expect(a.status).toBe(400);
    expect(a.body).toEqual({ error: 'path required', code: 'path_required' });
    expect(s.audit.of('path_complete')).toEqual([]);
  });

  it('test_unknown_project_is_403 🔒', async () => {
    const other = project();
    const a = await complete(s, other, { dir: './' });
    expect(a.status).toBe(403);
    expect(a.body).toEqual({ error: 'Unknown project directory', code: 'unknown_project_dir' });
    expect(s.audit.last('path_complete')).toMatchObject({
      outcome: 'denied',
      resources: other,
      error: 'not a known project directory',
    });
  });

  it('matches the allow-list lexically: a trailing slash or a `..` that normalises to it still matches', async () => {
    expect((await complete(s, `${proj}/`, { dir: './' })).status).toBe(200);
    expect((await complete(s, `${proj}/src/..`, { dir: './' })).status).toBe(200);
  });

  it('a symlink spelling of a known project is not the known project (nothing is resolved) 🔒', async () => {
    const alias = trees.fresh('alias');
    fs.symlinkSync(proj, alias);
    expect((await complete(s, alias, { dir: './' })).status).toBe(403);
  });

  it('test_lists_the_project_root_for_a_bare_dot_slash', async () => {
    const a = await complete(s, proj, { dir: './' });
    expect(a.status).toBe(200);
    expect(names(a)).toEqual(['many', 'src', 'readme.md']);
    expect(a.body.results![0]!['kind']).toBe('dir');
    expect(a.body.root).toBe(fs.realpathSync(proj));
    expect(a.body).not.toHaveProperty('outside');
  });

  it('test_lists_a_subdirectory', async () => {
    expect(names(await complete(s, proj, { dir: './src/' }))).toEqual(['appdata', 'app.ts']);
  });

  it('test_prefix_narrows_case_insensitively', async () => {
    expect(names(await complete(s, proj, { dir: './', q: 'READ' }))).toEqual(['readme.md']);
  });

  it('test_dot_entries_are_hidden_until_the_dot_is_typed', async () => {
    expect(names(await complete(s, proj, { dir: './' }))).not.toContain('.env');
    expect(names(await complete(s, proj, { dir: './', q: '.' }))).toEqual(['.env']);
  });

  it('test_a_parent_run_that_escapes_the_project_returns_no_results 🔒', async () => {
    const a = await complete(s, proj, { dir: '../outside/' });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ results: [], root: '', outside: true });
    expect(s.audit.last('path_complete')).toMatchObject({ outcome: 'denied', error: 'outside project root' });
  });

  it('test_a_parent_run_inside_the_project_still_resolves', async () => {
    expect(names(await complete(s, proj, { dir: './src/../' }))).toEqual(['many', 'src', 'readme.md']);
  });

  it('test_a_leading_parent_run_that_comes_back_inside_lists_entries', async () => {
    expect(names(await complete(s, proj, { dir: `../${path.basename(proj)}/src/` }))).toEqual([
      'appdata',
      'app.ts',
    ]);
  });

  it('test_an_absolute_dir_is_not_honoured 🔒', async () => {
    for (const dir of [
      path.join(tmp, 'outside'),
      `${path.join(tmp, 'outside')}/`,
      '//attacker/share/',
      '\\\\attacker\\share\\',
      'C:\\',
    ]) {
      const a = await complete(s, proj, { dir });
      expect(a.status).toBe(200);
      expect(a.body.results).toEqual([]);
      expect(a.body.outside).toBe(true);
    }
  });

  it('test_a_link_is_never_offered_because_it_can_never_be_entered 🔒', async () => {
    const n = names(await complete(s, proj, { dir: './' }));
    for (const link of ['share', 'link', 'inner']) expect(n).not.toContain(link);
  });

  it('test_a_symlink_out_of_the_project_is_refused 🔒 (audited as denied)', async () => {
    const a = await complete(s, proj, { dir: './link/' });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ results: [], root: fs.realpathSync(proj) });
    expect(s.audit.last('path_complete')).toMatchObject({
      outcome: 'denied',
      error: 'not a real directory at the completion target',
      resources: expect.stringContaining('at=link: symlink'),
    });
  });

  it('test_a_missing_directory_is_audited_as_an_empty_answer', async () => {
    await complete(s, proj, { dir: './nope/' });
    expect(s.audit.last('path_complete')).toMatchObject({ outcome: 'allowed', error: 'no such directory' });
  });

  it('test_a_missing_directory_is_an_empty_listing (no outside key)', async () => {
    const a = await complete(s, proj, { dir: './nope/' });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ results: [], root: fs.realpathSync(proj) });
  });

  it('test_a_nul_byte_in_the_token_is_an_empty_listing_not_a_500', async () => {
    for (const params of [{ dir: './\0' }, { dir: './', q: 'a\0' }] as Record<string, string>[]) {
      const a = await complete(s, proj, params);
      expect(a.status).toBe(200);
      expect(a.body).toEqual({ results: [], root: '' });
    }
  });

  it('test_the_result_set_is_capped', async () => {
    expect((await complete(s, proj, { dir: './many/' })).body.results).toHaveLength(50);
  });

  it('audits an allowed listing with root, dir, q and count', async () => {
    await complete(s, proj, { dir: './src/', q: 'ap' });
    expect(s.audit.last('path_complete')).toMatchObject({
      outcome: 'allowed',
      resources: `${fs.realpathSync(proj)} dir=./src/ q=ap results=2`,
    });
  });

  it('answers odd input with a listing or an empty one, never a 500', async () => {
    for (const params of [
      { dir: '%' },
      { dir: '%E0%A4%A' },
      { dir: 'x'.repeat(5000) },
      { dir: './', q: 'q'.repeat(2000) },
      { dir: '../'.repeat(500) },
      { dir: `${'a/'.repeat(1500)}` },
      { dir: './src/app.ts/' },
      { dir: '~/' },
      { dir: '.. /' },
    ] as Record<string, string>[]) {
      const a = await complete(s, proj, params);
      expect(a.status).toBe(200);
      expect(Array.isArray(a.body.results)).toBe(true);
    }
  });
});

describe('GET /api/path-complete: seams: tripwires and races 🔒', () => {
  const withServer = async (
    proj: string,
    inline: Parameters<typeof startTestServer>[0]['inline'],
    fn: (s: TestServer) => Promise<void>,
  ) => {
    await withTestServer({ projects: [proj], home, dataDir, inline: inline ?? true }, async (s) => {
      await fn(s);
    });
  };

  it('test_no_caller_influenced_path_is_ever_resolved: the resolver only ever sees the server-held project', async () => {
    const proj = project();
    fs.symlinkSync('//attacker/share/secrets', path.join(proj, 'share'));
    const handed: string[] = [];
    const violations: string[] = [];
    const tripwire = (arg: string) => {
      handed.push(arg);
      if (arg.includes('attacker') || arg !== proj) {
        violations.push(arg);
        throw new Error(`tripwire: ${arg}`);
      }
      return fs.realpathSync(arg);
    };
    await withServer(proj, { completionRealpath: tripwire }, async (s) => {
      for (const dir of ['./', './src/', '../', '//attacker/share/', './share/']) {
        expect((await complete(s, proj, { dir })).status).toBe(200);
      }
      expect(names(await complete(s, proj, { dir: './src/' }))).toEqual(['appdata', 'app.ts']);
      // The caller's own spelling of the project is compared, never resolved.
      expect((await complete(s, `${proj}/./`, { dir: './' })).status).toBe(200);
    });
    expect(violations).toEqual([]);
    expect(new Set(handed)).toEqual(new Set([proj]));
  });

  it('test_the_sensitive_fence_never_resolves_what_it_is_handed', async () => {
    const proj = project();
    const fence = new SensitiveFence({ home, env: {} });
    const calls: string[] = [];
    Object.assign(fence, {
      isSensitive: async (p: string) => {
        calls.push(p);
        throw new Error('tripwire: resolving fence');
      },
      verdict: async (p: string) => {
        calls.push(p);
        throw new Error('tripwire: resolving fence');
      },
    });
    await withServer(proj, { fence }, async (s) => {
      const a = await complete(s, proj, { dir: './' });
      expect(a.status).toBe(200);
      expect(names(a)).toEqual(['src', 'readme.md']);
    });
    expect(calls).toEqual([]);
  });

  it.runIf(linux)(
    'test_a_directory_swapped_for_a_link_mid_walk_is_refused (and audited as denied)',
    async () => {
      const proj = project();
      const base = procFdOpener();
      const opener: DirOpener = {
        ...base,
        openRoot(root) {
          const d = base.openRoot(root);
          fs.renameSync(path.join(proj, 'src'), path.join(proj, 'src.moved'));
          fs.symlinkSync(path.join(tmp, 'outside'), path.join(proj, 'src'));
          return d;
        },
      };
      await withServer(proj, { opener }, async (s) => {
        const a = await complete(s, proj, { dir: './src/' });
        expect(a.status).toBe(200);
        expect(a.body.results).toEqual([]);
        expect(s.audit.last('path_complete')).toMatchObject({
          outcome: 'denied',
          error: expect.stringContaining('not a real directory'),
        });
      });
    },
  );

  it.runIf(linux)('test_the_fence_judges_the_descriptor_not_the_typed_name', async () => {
    const proj = project();
    fs.mkdirSync(path.join(proj, 'SSH~1'));
    fs.writeFileSync(path.join(proj, 'SSH~1', 'id_rsa'), 'key');
    const base = procFdOpener();
    const opener: DirOpener = {
      ...base,
      witness: (d) => {
        const w = base.witness(d);
        return w?.endsWith('SSH~1') ? path.join(proj, '.ssh') : w;
      },
    };
    const fence = new SensitiveFence({ home, env: {}, extra: [path.join(proj, '.ssh')] });
    await withServer(proj, { opener, fence }, async (s) => {
      const a = await complete(s, proj, { dir: './SSH~1/' });
      expect(a.status).toBe(403);
      expect(a.body).toEqual({ error: 'Access denied', code: 'access_denied' });
    });
  });

  it('test_an_unreadable_descriptor_name_fails_closed', async () => {
    const proj = project();
    const base = procFdOpener();
    const opener: DirOpener = { ...base, witness: () => null };
    await withServer(proj, { opener }, async (s) => {
      const a = await complete(s, proj, { dir: './src/' });
      expect(a.status).toBe(200);
      expect(a.body.results).toEqual([]);
      expect(s.audit.last('path_complete')).toMatchObject({
        outcome: 'denied',
        error: 'not a real directory at the completion target',
      });
    });
  });

  it('test_a_witness_outside_the_root_is_refused', async () => {
    const proj = project();
    const opener: DirOpener = { ...procFdOpener(), witness: () => path.join(tmp, 'outside') };
    await withServer(proj, { opener }, async (s) => {
      const a = await complete(s, proj, { dir: './src/' });
      expect(a.body).toEqual({ results: [], root: '', outside: true });
    });
  });

  it('test_a_sensitive_project_root_is_403', async () => {
    const proj = project();
    const fence = new SensitiveFence({ home, env: {}, extra: [proj] });
    await withServer(proj, { fence }, async (s) => {
      const a = await complete(s, proj, { dir: './' });
      expect(a.status).toBe(403);
      expect(a.body.code).toBe('access_denied');
      expect(s.audit.last('path_complete')).toMatchObject({ outcome: 'denied', error: 'sensitive path' });
    });
  });

  it('test_a_sensitive_entry_is_not_offered', async () => {
    const proj = project();
    const fence = new SensitiveFence({
      home,
      env: {},
      extra: [path.join(fs.realpathSync(proj), 'readme.md')],
    });
    await withServer(proj, { fence }, async (s) => {
      expect(names(await complete(s, proj, { dir: './' }))).toEqual(['src']);
    });
  });

  it('HOME as a known project never lists its credential stores (the server fence)', async () => {
    await withServer(home, true, async (s) => {
      expect(names(await complete(s, home, { dir: './', q: '.' }))).not.toContain('.ssh');
      expect((await complete(s, home, { dir: './.ssh/' })).status).toBe(403);
    });
  });

  it("trawl's own data directory is never listed", async () => {
    const proj = project();
    const inside = path.join(proj, 'trawl-data');
    await withTestServer({ projects: [proj], home, dataDir: inside, inline: true }, async (s) => {
      fs.mkdirSync(inside, { recursive: true });
      expect(names(await complete(s, proj, { dir: './' }))).not.toContain('trawl-data');
      expect((await complete(s, proj, { dir: './trawl-data/' })).status).toBe(403);
    });
  });

  it('a saturated transfer pool is a coded 503 (audited as a failure)', async () => {
    const proj = project();
    const busy = { run: () => Promise.reject(new PoolBusyError('transfer')) };
    await withTestServer(
      {
        projects: [proj],
        home,
        dataDir,
        inline: true,
        runners: { transfer: busy },
      },
      async (s) => {
        const a = await complete(s, proj, { dir: './' });
        expect(a.status).toBe(503);
        expect(a.body.code).toBe('path_probe_busy');
        expect(s.audit.last('path_complete')).toMatchObject({ outcome: 'failure', error: 'path_probe_busy' });
      },
    );
  });
});

describe('GET /api/path-complete: recent projects', () => {
  it('entries of recent-projects.json in the data dir are known projects; a malformed file is ignored', async () => {
    const dd = trees.fresh('data');
    fs.mkdirSync(dd, { recursive: true });
    const recent = project();
    const proj = project();
    fs.writeFileSync(path.join(dd, 'recent-projects.json'), JSON.stringify([recent, 42, 'relative/x', null]));
    let clock = 0;
    const now = () => clock;
    await withTestServer({ projects: [proj], home, dataDir: dd, inline: true, now }, async (s) => {
      expect((await complete(s, recent, { dir: './' })).status).toBe(200);
      expect((await complete(s, 'relative/x', { dir: './' })).status).toBe(403);
      const projects = (await s.get('/api/projects')).body['projects'] as Array<{
        path: string;
        source: string;
      }>;
      expect(projects.map((p) => [p.path, p.source])).toEqual([
        [proj, 'serve'],
        [recent, 'recent'],
      ]);
      fs.writeFileSync(path.join(dd, 'recent-projects.json'), '{not json');
      // Within the re-read interval the list read before still answers; past it, the malformed file is read.
      expect((await complete(s, recent, { dir: './' })).status).toBe(200);
      clock += RECENT_PROJECTS_RECHECK_MS;
      expect((await complete(s, recent, { dir: './' })).status).toBe(403);
    });
  });
});
