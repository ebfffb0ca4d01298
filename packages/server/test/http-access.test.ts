import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedHosts, tokenMatches, validateAccessToken } from '../src/http/access.js';
import { startTestServer, type TestServer } from './http-helpers.js';

// Fake HOME and data dir under a temp dir.
let tmp: string;
let home: string;
let proj: string;
let s: TestServer;

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-http-access-')));
  home = path.join(tmp, 'home');
  proj = path.join(tmp, 'proj');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(path.join(proj, 'src'), { recursive: true });
  fs.writeFileSync(path.join(proj, 'hello.py'), 'x');
  s = await startTestServer({
    projects: [proj],
    home,
    dataDir: path.join(tmp, 'data'),
    inline: true,
    allowHosts: ['trawl.example'],
  });
});

afterAll(async () => {
  await s.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A raw request, so the test controls every header (fetch forbids setting Host). */
function raw(
  route: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(s.origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: route, method, headers, setHost: false },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          data += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const host = () => `127.0.0.1:${s.server.port}`;
const bearer = () => ({ authorization: `Bearer ${s.token}` });

describe('access control: the token (decision 5 of docs/architecture.md) 🔒', () => {
  it('refuses an API call without the token: 401 unauthorized, audited', async () => {
    s.audit.clear();
    const a = await s.request('/api/projects');
    expect(a.status).toBe(401);
    expect(a.body.code).toBe('unauthorized');
    expect(typeof a.body.error).toBe('string');
    expect(s.audit.last('access_control')).toMatchObject({
      outcome: 'denied',
      error: 'unauthorized',
      resources: 'GET /api/projects',
    });
  });

  it('refuses a wrong token, of any length', async () => {
    for (const t of ['x', `${s.token}x`, s.token.slice(1), 'a'.repeat(5000)]) {
      const a = await s.request('/api/projects', { headers: { authorization: `Bearer ${t}` } });
      expect(a.status).toBe(401);
    }
  });

  it('accepts Authorization: Bearer', async () => {
    const a = await s.get('/api/projects');
    expect(a.status).toBe(200);
    expect(a.body['projects']).toEqual([{ path: proj, name: 'proj', source: 'serve' }]);
  });

  it('sets no cookie and accepts none: a cookie for 127.0.0.1 would reach every other local server', async () => {
    // Fails with the old landing page, which answered /?token= with Set-Cookie and took the cookie as the token.
    const landing = await s.request(`/?token=${s.token}`);
    expect(landing.status).toBe(200);
    expect(landing.headers.get('set-cookie')).toBeNull();
    for (const name of [`trawl_token_${s.server.port}`, 'trawl_token', 'token']) {
      const api = await s.request('/api/projects', { headers: { cookie: `${name}=${s.token}` } });
      expect(api.status).toBe(401);
      expect(api.headers.get('set-cookie')).toBeNull();
    }
    const ok = await s.get('/api/projects');
    expect(ok.headers.get('set-cookie')).toBeNull();
  });

  it('the token in a query string is not accepted by the API (nor anywhere else: the workbench reads it from the URL fragment)', async () => {
    const a = await s.request(`/api/projects?token=${s.token}`);
    expect(a.status).toBe(401);
  });

  it('a refusal is audited without the token or the query string', async () => {
    s.audit.clear();
    await s.request(`/api/file-search?token=${s.token}&q=${s.token}`);
    expect(JSON.stringify(s.audit.events)).not.toContain(s.token);
    // What reaches the log file is redacted in any letter case: serve-hardening.test.ts.
  });
});

describe('access control: Host and Origin 🔒', () => {
  it('refuses a foreign Host (DNS rebinding): 403 bad_host, even with the token', async () => {
    for (const h of [
      'evil.com',
      `evil.com:${s.server.port}`,
      '127.0.0.1',
      `127.0.0.1:${s.server.port + 1}`,
      `localhost.evil:${s.server.port}`,
    ]) {
      const a = await raw('/api/projects', { host: h, ...bearer() });
      expect(a.status).toBe(403);
      expect(JSON.parse(a.body)).toEqual({ error: 'host not allowed', code: 'bad_host' });
    }
  });

  it('refuses a request with no Host (Node answers 400 before routing; never 200)', async () => {
    const a = await raw('/api/projects', { ...bearer() });
    expect([400, 403]).toContain(a.status);
  });

  it('refuses an HTTP/1.0 request without Host (which Node lets through) with 403 bad_host', async () => {
    const url = new URL(s.origin);
    const reply = await new Promise<string>((resolve, reject) => {
      const sock = net.connect(Number(url.port), url.hostname, () => {
        sock.write(`GET /api/projects HTTP/1.0\r\nAuthorization: Bearer ${s.token}\r\n\r\n`);
      });
      let data = '';
      sock.setEncoding('utf8');
      sock.on('data', (c: string) => {
        data += c;
      });
      sock.on('end', () => resolve(data));
      sock.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.\d 403/);
    expect(reply).toContain('"code":"bad_host"');
  });

  it('accepts each loopback name with the port, and an operator-allowed name', async () => {
    for (const h of [
      host(),
      `localhost:${s.server.port}`,
      `LOCALHOST:${s.server.port}`,
      `[::1]:${s.server.port}`,
      `trawl.example:${s.server.port}`,
    ]) {
      const a = await raw('/api/projects', { host: h, ...bearer() });
      expect(a.status).toBe(200);
    }
  });

  it('checks Host before the token', async () => {
    const a = await raw('/api/projects', { host: 'evil.com' });
    expect(a.status).toBe(403);
  });

  it('refuses a POST from another origin: 403 bad_origin', async () => {
    for (const origin of [
      'http://evil.com',
      'null',
      `http://127.0.0.1:${s.server.port + 1}`,
      `https://127.0.0.1:${s.server.port}`,
      'garbage',
    ]) {
      const a = await raw('/api/file-search', { host: host(), origin, ...bearer() }, 'POST', '{}');
      expect(a.status).toBe(403);
      expect(JSON.parse(a.body).code).toBe('bad_origin');
    }
  });

  it('lets a same-origin POST through to routing (405 here: no POST route yet)', async () => {
    const a = await raw('/api/file-search', { host: host(), origin: s.origin, ...bearer() }, 'POST', '{}');
    expect(a.status).toBe(405);
    expect(JSON.parse(a.body).code).toBe('method_not_allowed');
  });

  it('/api/health needs nothing and reveals nothing', async () => {
    const a = await raw('/api/health', { host: 'evil.com' });
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({ status: 'ok' });
  });

  it('/api/health says more only to a request that would pass the Host and token checks', async () => {
    const tries: Array<Record<string, string>> = [
      { host: host() },
      { host: host(), authorization: 'Bearer wrong-token-of-some-length' },
      { host: 'evil.com', ...bearer() },
    ];
    for (const headers of tries) {
      const a = await raw('/api/health', headers);
      expect(a.status).toBe(200);
      expect(JSON.parse(a.body)).toEqual({ status: 'ok' });
    }
    const a = await raw('/api/health', { host: host(), ...bearer() });
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body)).toMatchObject({ status: 'ok', indexes: expect.any(Array) });
  });
});

describe('answers are JSON and coded', () => {
  it('an unknown route is a JSON 404', async () => {
    const a = await s.get('/api/nope');
    expect(a.status).toBe(404);
    expect(a.body).toEqual({ error: 'not found', code: 'not_found' });
  });

  it('a wrong method on a route is a JSON 405 with Allow', async () => {
    const a = await s.get('/api/path-complete', {}, { method: 'DELETE' });
    expect(a.status).toBe(405);
    expect(a.headers.get('allow')).toBe('GET, HEAD');
  });

  it('a body over the limit is 413 payload_too_large', async () => {
    const a = await raw(
      '/api/file-search',
      { host: host(), ...bearer(), 'content-type': 'application/json', 'content-length': String(70_000) },
      'POST',
      'x'.repeat(70_000),
    );
    expect(a.status).toBe(413);
    expect(JSON.parse(a.body).code).toBe('payload_too_large');
  });

  it('sends no-store, nosniff, no-referrer and DENY framing on every answer', async () => {
    const a = await s.get('/api/projects');
    expect(a.headers.get('cache-control')).toBe('no-store');
    expect(a.headers.get('x-content-type-options')).toBe('nosniff');
    expect(a.headers.get('referrer-policy')).toBe('no-referrer');
    expect(a.headers.get('x-frame-options')).toBe('DENY');
  });

  it('no caller input produces a 500: a fuzz of parameters over the GET endpoints', async () => {
    const values = [
      '',
      '%',
      '%00',
      '\0',
      'a'.repeat(9000),
      '../../../../etc',
      '~',
      '~root',
      '//x/y',
      'C:\\x',
      '\u202e',
      '😀',
      '[]',
      '{}',
      '-1',
      '1e309',
    ];
    const keys = ['q', 'project', 'workspace', 'kinds', 'limit', 'path', 'dir'];
    for (const route of ['/api/file-search', '/api/path-complete', '/api/tree', '/api/file']) {
      for (const key of keys) {
        for (const v of values) {
          const base: Record<string, string> =
            route === '/api/tree' || route === '/api/file' ? { project: proj, path: 'src' } : { path: proj };
          const params: Record<string, string> = { q: 'hello', ...base, [key]: v };
          const a = await s.get(route, params);
          expect(a.status, `${route} ${key}=${JSON.stringify(v).slice(0, 40)}`).toBeLessThan(500);
          expect(a.headers.get('content-type')).toMatch(/application\/json/);
        }
      }
    }
  });
});

describe('no caller body produces a 500 either 🔒', () => {
  it('a fuzz of JSON bodies over the POST and PATCH endpoints', async () => {
    const created = await s.request('/api/conversations', {
      method: 'POST',
      headers: { ...bearer(), 'content-type': 'application/json' },
      body: '{}',
    });
    const id = (created.body['conversation'] as { id: string }).id;
    const bodies = [
      '',
      'null',
      '[]',
      '"x"',
      '{"title": null}',
      '{"project": {"a": 1}}',
      '{"text": 1, "wire": []}',
      '{"text": "x", "wire": "x", "meta": []}',
      '{"text": "x", "wire": "x", "meta": {"files": "x"}}',
      '{"text": "x", "wire": "x", "meta": {"files": [null]}}',
      `{"project": "${'a'.repeat(9000)}"}`,
      '{"project": "\u0000"}',
      '{"__proto__": {"x": 1}}',
      '\u0000',
    ];
    const routes: Array<[string, string]> = [
      ['POST', '/api/conversations'],
      ['PATCH', `/api/conversations/${id}`],
      ['POST', `/api/conversations/${id}/messages`],
      ['POST', `/api/conversations/${id}/messages/x/stop`],
      ['POST', '/api/projects/open'],
    ];
    for (const [method, route] of routes) {
      for (const body of bodies) {
        const a = await s.request(route, {
          method,
          headers: { ...bearer(), 'content-type': 'application/json' },
          body,
        });
        expect(a.status, `${method} ${route} ${body.slice(0, 40)}`).toBeLessThan(500);
        expect(a.headers.get('content-type')).toMatch(/application\/json/);
      }
    }
  });
});

describe('token helpers', () => {
  it('compares tokens in constant time over digests', () => {
    expect(tokenMatches('abcdefghijklmnopqrstuvwxyz', 'abcdefghijklmnopqrstuvwxyz')).toBe(true);
    expect(tokenMatches('abcdefghijklmnopqrstuvwxyZ', 'abcdefghijklmnopqrstuvwxyz')).toBe(false);
    expect(tokenMatches(undefined, 'abcdefghijklmnop')).toBe(false);
    expect(tokenMatches('', 'abcdefghijklmnop')).toBe(false);
  });

  it('refuses short or odd operator tokens', () => {
    expect(validateAccessToken('short')).toMatch(/at least 16/);
    expect(validateAccessToken('has space in it 123')).toMatch(/only/);
    expect(validateAccessToken('abcdefghijklmnop')).toBeUndefined();
  });

  it('allows each loopback name with the port, bare only on port 80', () => {
    expect(allowedHosts(7777)).toEqual(new Set(['127.0.0.1:7777', 'localhost:7777', '[::1]:7777']));
    expect(allowedHosts(80).has('localhost')).toBe(true);
    expect(allowedHosts(7777, ['proxy.local:443']).has('proxy.local:443')).toBe(true);
  });
});
