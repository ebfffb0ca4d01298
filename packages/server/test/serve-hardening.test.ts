// `trawl serve` hardening (issue 12): what an adversarial audit found, each pinned by a test that failed before.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog, type AuditRecord, auditSegments, verifyAuditLog } from '../src/audit/index.js';
import { withTestServer } from './http-helpers.js';

let tmp: string;
let home: string;
let proj: string;
let dirs = 0;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-harden-')));
  home = path.join(tmp, 'home');
  proj = path.join(tmp, 'proj');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(path.join(proj, 'src'), { recursive: true });
  fs.writeFileSync(path.join(proj, 'src', 'hello.py'), 'x');
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const freshDataDir = () => path.join(tmp, `data${dirs++}`);
const auditText = (dataDir: string) => fs.readFileSync(path.join(dataDir, 'audit', 'audit.jsonl'), 'utf8');

describe('the audit log never holds the server token 🔒', () => {
  // Fails without the fix: the query was lowercased before logging and the token's redaction was case-sensitive,
  // so `q=<token lowercased>` reached the log.
  it('in any letter case, in a query or a refused URL', async () => {
    const dataDir = freshDataDir();
    let token = '';
    await withTestServer({ projects: [proj], home, dataDir, inline: true, diskAudit: true }, async (s) => {
      token = s.token;
      for (const q of [token, token.toUpperCase(), `x${token.toLowerCase()}y`]) {
        expect((await s.get('/api/file-search', { q, project: proj })).status).toBe(200);
        expect((await s.get('/api/file-search', { q })).status).toBe(200);
      }
      await s.request(`/api/file-search?q=${token}`);
      await s.request(`/?token=${token.toLowerCase()}`);
    });
    const text = auditText(dataDir);
    expect(text).toContain('[REDACTED: token]');
    expect(text.toLowerCase()).not.toContain(token.toLowerCase());
  });
});

describe('a flood of refused requests cannot flush the audit log 🔒', () => {
  // Fails without the fix: every refusal was one record, so 1 500 refusals with long paths (about 1.5 MB of lines)
  // rotated a 64 KB log over many times and the earlier record was gone.
  it('1 500 unauthenticated requests over loopback leave an earlier record in place, and are all counted', async () => {
    const dataDir = freshDataDir();
    const audit = AuditLog.open({ dataDir, segmentBytes: 32_000, keep: 1 });
    const FLOOD = 1_500;
    let refused = 0;
    await withTestServer({ projects: [proj], home, dataDir, inline: true, audit }, async (s) => {
      expect((await s.get('/api/file-search', { q: 'the-earlier-record', project: proj })).status).toBe(200);
      const url = new URL(s.origin);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
      const one = (i: number) =>
        new Promise<void>((resolve, reject) => {
          const path = `/api/${'x'.repeat(2_000)}${i}`;
          http
            .get({ host: url.hostname, port: url.port, path, agent }, (res) => {
              if (res.statusCode === 401) refused++;
              res.resume();
              res.on('end', () => resolve());
            })
            .on('error', reject);
        });
      for (let i = 0; i < FLOOD; i += 50) {
        await Promise.all(Array.from({ length: 50 }, (_, j) => one(i + j)));
      }
      agent.destroy();
    });
    expect(refused).toBe(FLOOD);
    const recs = auditSegments(dataDir).flatMap((f) =>
      fs
        .readFileSync(f, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as AuditRecord),
    );
    expect(recs.find((r) => r.resources.startsWith('q=the-earlier-record'))).toBeDefined();
    const counted = recs
      .filter((r) => r.operation === 'access_control')
      .reduce((sum, r) => sum + Number(/^refused=(\d+)/.exec(r.resources)?.[1] ?? 0), 0);
    expect(counted).toBe(FLOOD);
    expect(await verifyAuditLog(dataDir)).toMatchObject({ ok: true, losses: [] });
  }, 180_000);
});

/** One raw exchange on its own connection: the test writes every byte (fetch and http.request tidy requests up). */
function rawExchange(
  port: number,
  request: string,
): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1', () => sock.write(request));
    let data = '';
    sock.setEncoding('latin1');
    sock.on('data', (c: string) => {
      data += c;
    });
    sock.on('error', reject);
    sock.on('close', () => {
      const end = data.indexOf('\r\n\r\n');
      const head = end >= 0 ? data.slice(0, end) : data;
      const headers = head.toLowerCase();
      let body = end >= 0 ? data.slice(end + 4) : '';
      if (headers.includes('transfer-encoding: chunked')) body = unchunk(body);
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), headers, body });
    });
  });
}

function unchunk(body: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const nl = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.slice(at, nl), 16);
    if (!(size > 0)) return out;
    out += body.slice(nl + 2, nl + 2 + size);
    at = nl + 2 + size + 2;
  }
}

describe('every request is answered by trawl: coded JSON, security headers, audited 🔒', () => {
  // Fails without the fix: @hono/node-server or Node's parser answered these with an empty, header-less 400 (or
  // 431), with no audit record, and a request with two Host headers was served (the first one won).
  it('malformed Host, a backslash path, two Hosts, bad header bytes, huge headers, no Host', async () => {
    await withTestServer({ projects: [proj], home, dataDir: freshDataDir(), inline: true }, async (s) => {
      const port = s.server.port;
      const auth = `Authorization: Bearer ${s.token}\r\nConnection: close\r\n`;
      const cases: Array<[string, number, string]> = [
        [`GET /api/projects HTTP/1.1\r\nHost: [::ffff:127.0.0.1]:${port}\r\n${auth}\r\n`, 400, 'bad_request'],
        [`GET /api/projects HTTP/1.1\r\nHost: evil.com@127.0.0.1:${port}\r\n${auth}\r\n`, 400, 'bad_request'],
        [`GET /api\\projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${auth}\r\n`, 400, 'bad_request'],
        [
          `GET /api/projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: 127.0.0.1:${port}\r\n${auth}\r\n`,
          400,
          'duplicate_host',
        ],
        [
          `GET /api/projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.com\r\n${auth}\r\n`,
          400,
          'duplicate_host',
        ],
        [
          `GET /api/projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Bad: a\u0001b\r\n${auth}\r\n`,
          400,
          'bad_request',
        ],
        [`GET /api/projects HTTP/1.1\r\nBad Name: x\r\n\r\n`, 400, 'bad_request'],
        [
          `GET /api/projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Big: ${'a'.repeat(20_000)}\r\n${auth}\r\n`,
          431,
          'headers_too_large',
        ],
        [`GET /api/projects HTTP/1.1\r\n${auth}\r\n`, 403, 'bad_host'],
      ];
      for (const [request, status, code] of cases) {
        const label = JSON.stringify(request.slice(0, 80));
        s.audit.clear();
        const a = await rawExchange(port, request);
        expect(a.status, label).toBe(status);
        expect(a.headers, label).toContain('content-type: application/json');
        for (const h of [
          'cache-control: no-store',
          'x-content-type-options: nosniff',
          'referrer-policy: no-referrer',
          'x-frame-options: deny',
        ]) {
          expect(a.headers, `${label} ${h}`).toContain(h);
        }
        expect(JSON.parse(a.body), label).toEqual({ error: expect.any(String), code });
        expect(
          s.audit.refusals.map((r) => r.code),
          label,
        ).toEqual([code]);
        expect(s.audit.refusals[0]!.address, label).toBe('127.0.0.1');
      }
      // The server still serves after all of that.
      expect((await s.get('/api/projects')).status).toBe(200);
    });
  });
});
