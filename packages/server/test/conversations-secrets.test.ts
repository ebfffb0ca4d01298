import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATIONS_DIR } from '../src/conversations/store.js';
import { type TestServer, withTestServer } from './http-helpers.js';

/** Secrets in what a conversation keeps besides message text: its title, and a failed reply's error. */
let tmp: string;
let proj: string;
let n = 0;
const SECRET = `ghp_${'A1b2C3d4E5'.repeat(4).slice(0, 36)}`;
const TOKEN = 'the-server-token-0123456789abcdef';

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-conv-secrets-')));
  proj = path.join(tmp, 'proj');
  fs.mkdirSync(proj, { recursive: true });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const opts = (extra: { agent?: string[] } = {}) => ({
  projects: [proj],
  home: path.join(tmp, 'home'),
  dataDir: path.join(tmp, `data${n++}`),
  token: TOKEN,
  ...extra,
});

async function json(s: TestServer, method: string, route: string, body?: unknown) {
  return s.request(route, {
    method,
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Everything the conversations directory holds, as one string. */
function onDisk(dataDir: string): string {
  const dir = path.join(dataDir, CONVERSATIONS_DIR);
  return fs
    .readdirSync(dir)
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
}

describe('conversation titles and reply errors are redacted before they are kept 🔒', () => {
  it('a title (made from a first message) keeps neither a credential nor the server token, in any letter case', async () => {
    const o = opts();
    await withTestServer(o, async (s) => {
      const created = await json(s, 'POST', '/api/conversations', {
        title: `deploy with ${SECRET} please`,
        project: proj,
      });
      expect(created.status).toBe(201);
      const id = (created.body['conversation'] as { id: string }).id;
      const renamed = await json(s, 'PATCH', `/api/conversations/${id}`, {
        title: `token ${TOKEN.toUpperCase()} and ${'x'.repeat(180)}${SECRET}`,
      });
      expect(renamed.status).toBe(200);
      const title = (renamed.body['conversation'] as { title: string }).title;
      expect(title).toMatch(/^token \[REDACTED/);
      // A secret cut by the 200-character clip is redacted whole first, never kept as a stub.
      expect(title).not.toContain('ghp_');
      const list = await json(s, 'GET', '/api/conversations');
      const listed = JSON.stringify(list.body);
      expect(listed).not.toContain(SECRET);
      expect(listed.toLowerCase()).not.toContain(TOKEN);
    });
    const disk = onDisk(o.dataDir);
    expect(disk).not.toContain(SECRET.slice(0, 12));
    expect(disk.toLowerCase()).not.toContain(TOKEN);
    expect(disk).toContain('[REDACTED');
  });

  it("a failed reply's error (the agent's stderr) is redacted in the stream, the messages and on disk", async () => {
    const agent = path.join(tmp, 'leaky-agent.mjs');
    const go = path.join(tmp, 'go');
    // It fails once the test is subscribed to the live stream (the run's own event, not the stored replay).
    fs.writeFileSync(
      agent,
      `import * as fs from 'node:fs';
      setInterval(() => { if (!fs.existsSync(${JSON.stringify(go)})) return;
        process.stderr.write('auth failed for ${SECRET} with ${TOKEN}\\n'); process.exit(1); }, 5);`,
    );
    const o = opts({ agent: [process.execPath, agent] });
    await withTestServer(o, async (s) => {
      const created = await json(s, 'POST', '/api/conversations', { project: proj });
      const id = (created.body['conversation'] as { id: string }).id;
      const sent = await json(s, 'POST', `/api/conversations/${id}/messages`, { text: 'go', wire: 'go' });
      const reply = (sent.body['reply'] as { id: string }).id;
      const res = await fetch(`${s.origin}/api/conversations/${id}/messages/${reply}/stream`, {
        headers: { authorization: `Bearer ${s.token}` },
      });
      expect(res.status).toBe(200);
      fs.writeFileSync(go, '');
      const events = await res.text();
      expect(events).toMatch(/event: error/);
      expect(events).toContain('auth failed for [REDACTED');
      expect(events).not.toContain(SECRET);
      expect(events).not.toContain(TOKEN);
      const messages = JSON.stringify((await json(s, 'GET', `/api/conversations/${id}/messages`)).body);
      expect(messages).toContain('agent_failed');
      expect(messages).not.toContain(SECRET);
      expect(messages).not.toContain(TOKEN);
    });
    const disk = onDisk(o.dataDir);
    expect(disk).toContain('auth failed for [REDACTED');
    expect(disk).not.toContain(SECRET);
    expect(disk).not.toContain(TOKEN);
  });
});
