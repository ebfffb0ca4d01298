// `trawl serve` hardening (issue 12): what an adversarial audit found, each pinned by a test that failed before.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
