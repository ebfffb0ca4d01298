import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWebDist, WORKBENCH_CSP } from '../src/http/static.js';
import { startTestServer, type TestServer, withTestServer } from './http-helpers.js';

let tmp: string;
let home: string;
let proj: string;
let dist: string;
let s: TestServer;

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-http-web-')));
  home = path.join(tmp, 'home');
  proj = path.join(tmp, 'proj');
  dist = path.join(tmp, 'dist');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(proj, { recursive: true });
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><script type="module" src="/assets/app-1a2b.js"></script>',
  );
  fs.writeFileSync(path.join(dist, 'assets', 'app-1a2b.js'), 'console.log("workbench")');
  fs.writeFileSync(path.join(dist, 'assets', 'app-1a2b.css'), 'body{}');
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(tmp, 'secret.txt'), 'outside the build');
  fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(dist, 'assets', 'planted.js'));
  s = await startTestServer({
    projects: [proj],
    home,
    dataDir: path.join(tmp, 'data'),
    inline: true,
    webDist: dist,
  });
});

afterAll(async () => {
  await s.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function rawGet(route: string, host: string): Promise<number> {
  const url = new URL(s.origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: route, headers: { host }, setHost: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the workbench is served without a token (static files carry no data) 🔒', () => {
  it('/ is index.html with the CSP (no unsafe-inline) and is revalidated, never cached as immutable', async () => {
    const a = await s.request('/');
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/text\/html/);
    expect(a.text).toContain('/assets/app-1a2b.js');
    expect(a.headers.get('content-security-policy')).toBe(WORKBENCH_CSP);
    expect(WORKBENCH_CSP).not.toMatch(/unsafe/);
    expect(a.headers.get('cache-control')).toBe('no-cache');
    expect(a.headers.get('set-cookie')).toBeNull();
  });

  it('hashed assets are immutable with their type; the favicon too', async () => {
    const js = await s.request('/assets/app-1a2b.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    const css = await s.request('/assets/app-1a2b.css');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    const icon = await s.request('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('never serves outside the build: traversal, dot names and links in the build are refused', async () => {
    for (const r of [
      '/assets/../index.html',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e%2fsecret.txt',
      '/assets/.hidden',
      '/assets/sub/x.js',
      '/assets/planted.js',
      '/assets/missing.js',
    ]) {
      const a = await s.request(r);
      // fetch normalises `/assets/../index.html` to `/index.html`, which is no static path: 401.
      expect([401, 404], r).toContain(a.status);
      expect(a.text).not.toContain('outside the build');
    }
  });

  it('still checks Host on static files (DNS rebinding must not reach the page either)', async () => {
    expect(await rawGet('/', `127.0.0.1:${s.server.port}`)).toBe(200);
    expect(await rawGet('/', `evil.example:${s.server.port}`)).toBe(403);
    expect(await rawGet('/assets/app-1a2b.js', 'evil.example')).toBe(403);
  });

  it('a POST to / is not let through without a token', async () => {
    const a = await s.request('/', { method: 'POST' });
    expect(a.status).toBe(401);
  });

  it('without a build, / is a short page that says to run npm run build (with the CSP)', async () => {
    await withTestServer(
      { projects: [proj], home, dataDir: path.join(tmp, 'data2'), inline: true },
      async (t) => {
        const a = await t.request('/');
        expect(a.status).toBe(200);
        expect(a.text).toMatch(/npm run build/);
        expect(a.headers.get('content-security-policy')).toBe(WORKBENCH_CSP);
        expect((await t.request('/assets/app-1a2b.js')).status).toBe(404);
      },
    );
  });

  it('finds the build through the @trawl/web package', () => {
    const d = resolveWebDist();
    expect(d).toBe(path.resolve(import.meta.dirname, '..', '..', 'web', 'dist'));
  });
});
