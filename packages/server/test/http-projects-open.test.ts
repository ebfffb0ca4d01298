import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CanonicalRoot } from '@trawl/core/fence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexHost } from '../src/http/index-host.js';
import { RECENT_PROJECTS_FILE } from '../src/http/projects.js';
import { type TestServer, withTestServer } from './http-helpers.js';
import { judgedRoot } from './roots.js';

let tmp: string;
let home: string;
let served: string;
let n = 0;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-http-open-')));
  home = path.join(tmp, 'home');
  served = path.join(tmp, 'served');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.mkdirSync(path.join(home, 'src', 'app'), { recursive: true });
  fs.writeFileSync(path.join(home, 'src', 'app', 'main.ts'), 'x');
  fs.symlinkSync(path.join(home, 'src', 'app'), path.join(home, 'app-link'));
  fs.symlinkSync(path.join(home, '.ssh'), path.join(home, 'keys'));
  fs.mkdirSync(served);
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const open = (s: TestServer, body: unknown) =>
  s.request('/api/projects/open', {
    method: 'POST',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const recent = (dataDir: string): unknown =>
  JSON.parse(fs.readFileSync(path.join(dataDir, RECENT_PROJECTS_FILE), 'utf8'));

describe('POST /api/projects/open: the opened project gets a name index', () => {
  it('name searches of a project opened at runtime answer from its index once it is built', async () => {
    const dataDir = path.join(tmp, `data${n++}`);
    const app = path.join(home, 'src', 'app');
    await withTestServer({ projects: [served], home, dataDir, indexes: undefined }, async (s) => {
      const host = s.server.context.indexes as IndexHost;
      expect(host.status(app)).toBeUndefined();
      expect((await open(s, { project: '~/app-link' })).status).toBe(200);
      expect(await host.whenSettled(app)).toMatchObject({ ready: true, truncated: false });
      const a = await s.get('/api/file-search', { q: 'main', project: app });
      expect((a.body.results as Array<{ path: string }>).map((r) => r.path)).toEqual([
        path.join(app, 'main.ts'),
      ]);
      expect(s.audit.last('file_search')!.resources).toMatch(/indexed=true/);
    });
  });

  it('keeps at most the cap of runtime indexes: the least recently opened is released, a kept one never', async () => {
    const dirs = ['one', 'two', 'three', 'kept'].map((d) => {
      const p = path.join(tmp, `rt-${d}`);
      fs.mkdirSync(p, { recursive: true });
      fs.writeFileSync(path.join(p, `${d}.txt`), d);
      return judgedRoot(p);
    });
    const [one, two, three, kept] = (await Promise.all(dirs)) as [
      CanonicalRoot,
      CanonicalRoot,
      CanonicalRoot,
      CanonicalRoot,
    ];
    const host = new IndexHost({ fence: { home, env: {}, extra: [] }, runtimeProjects: 2 });
    try {
      host.keep(kept);
      for (const d of [one, two, one, three, kept]) host.openProject(d);
      for (const d of [one, three, kept]) expect(await host.whenSettled(d)).toMatchObject({ ready: true });
      expect(host.status(two)).toBeUndefined();
      expect(await host.search(two, 'two', 10, 'all')).toBeUndefined();
      const hit = await host.search(three, 'three', 10, 'all');
      expect(hit?.results.map((r) => r.name)).toEqual(['three.txt']);
    } finally {
      await host.close();
    }
  });
});

describe('POST /api/projects/open', () => {
  it('resolves ~/… to its canonical directory, records it first, and the next server offers it', async () => {
    const dataDir = path.join(tmp, `data${n++}`);
    const app = path.join(home, 'src', 'app');
    await withTestServer({ projects: [served], home, dataDir }, async (s) => {
      const a = await open(s, { project: '~/app-link' });
      expect(a.status).toBe(200);
      expect(a.body['project']).toEqual({ path: app, name: 'app', source: 'recent' });
      expect(recent(dataDir)).toEqual([app]);
      // Known at once: the Files rail can list it.
      const tree = await s.get('/api/tree', { project: app, path: '' });
      expect(tree.status).toBe(200);
      const served1 = await open(s, { project: served });
      expect(served1.body['project']).toMatchObject({ path: served, source: 'serve' });
      expect(recent(dataDir)).toEqual([served, app]);
      // Opening again moves it to the front without a duplicate.
      await open(s, { project: app });
      expect(recent(dataDir)).toEqual([app, served]);
      expect(s.audit.last('project_open')).toMatchObject({ outcome: 'allowed', resources: app });
    });
    expect(fs.readdirSync(dataDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    await withTestServer({ projects: [served], home, dataDir }, async (s) => {
      const p = await s.get('/api/projects');
      expect(p.body['projects']).toEqual([
        { path: served, name: 'served', source: 'serve' },
        { path: app, name: 'app', source: 'recent' },
      ]);
    });
  });

  it('refuses sensitive locations (also through a link) and non-directories, and records nothing 🔒', async () => {
    const dataDir = path.join(tmp, `data${n++}`);
    await withTestServer({ projects: [served], home, dataDir }, async (s) => {
      const cases: Array<[unknown, number, string]> = [
        [{ project: '~/.ssh' }, 403, 'sensitive_path'],
        [{ project: path.join(home, '.ssh', 'missing') }, 403, 'sensitive_path'],
        [{ project: '~/keys' }, 403, 'sensitive_path'],
        [{ project: dataDir }, 403, 'sensitive_path'],
        [{ project: path.join(home, 'src', 'app', 'main.ts') }, 404, 'not_a_directory'],
        [{ project: path.join(tmp, 'missing') }, 404, 'not_a_directory'],
        [{ project: 'relative/dir' }, 404, 'not_a_directory'],
        [{ project: '' }, 400, 'invalid_request'],
        [{ project: 'x'.repeat(5000) }, 400, 'invalid_request'],
        [{}, 400, 'invalid_request'],
        ['nope', 400, 'invalid_json'],
      ];
      for (const [body, status, code] of cases) {
        const a = await open(s, body);
        expect([a.status, a.body.code], JSON.stringify(body).slice(0, 80)).toEqual([status, code]);
      }
      expect(fs.existsSync(path.join(dataDir, RECENT_PROJECTS_FILE))).toBe(false);
      expect((await s.get('/api/projects')).body['projects']).toHaveLength(1);
    });
  });

  it('keeps at most 50 entries, dropping the oldest, and keeps entries it did not write', async () => {
    const dataDir = path.join(tmp, `data${n++}`);
    fs.mkdirSync(dataDir, { recursive: true });
    const old = Array.from({ length: 50 }, (_, i) => `/old/project${i}`);
    fs.writeFileSync(path.join(dataDir, RECENT_PROJECTS_FILE), JSON.stringify(old));
    await withTestServer({ projects: [served], home, dataDir }, async (s) => {
      const a = await open(s, { project: '~/src/app' });
      expect(a.status).toBe(200);
      expect(recent(dataDir)).toEqual([path.join(home, 'src', 'app'), ...old.slice(0, 49)]);
    });
  });
});
