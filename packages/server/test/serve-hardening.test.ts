// `trawl serve` hardening (issue 12): what an adversarial audit found, each pinned by a test that failed before.
import * as fs from 'node:fs';
import * as http from 'node:http';
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
