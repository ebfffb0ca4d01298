import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATIONS_DIR } from '../src/conversations/store.js';
import { type TestServer, type TestServerOptions, withTestServer } from './http-helpers.js';

let tmp: string;
let home: string;
let proj: string;
let n = 0;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-http-conv-')));
  home = path.join(tmp, 'home');
  proj = path.join(tmp, 'proj');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
  fs.mkdirSync(path.join(proj, 'src'), { recursive: true });
  fs.writeFileSync(path.join(proj, 'src', 'main.ts'), 'export const answer = 42;\n');
  fs.writeFileSync(path.join(tmp, 'outside.txt'), 'outside the project');
  fs.symlinkSync(path.join(tmp, 'outside.txt'), path.join(proj, 'link.txt'));
  fs.symlinkSync(path.join(home, '.ssh'), path.join(proj, 'keys'));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Whether `pid` is a process that has not exited (a zombie nobody reaped yet has). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

/** A node script as an agent (argv fixed here, as the operator's --agent would be). */
function agentScript(body: string): string[] {
  const file = path.join(tmp, `agent${n++}.mjs`);
  fs.writeFileSync(file, body);
  return [process.execPath, file];
}

const ECHO_AGENT = `
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { input += c; });
process.stdin.on('end', () => {
  const p = JSON.parse(input);
  process.stdout.write(JSON.stringify({ payload: p, argv: process.argv.slice(2), cwd: process.cwd(),
    token: process.env.TRAWL_TOKEN ?? null, project: process.env.TRAWL_PROJECT_DIR ?? null }));
});
`;

function opts(
  extra: Partial<TestServerOptions> = {},
  dataDir = path.join(tmp, `data${n++}`),
): TestServerOptions {
  return { projects: [proj], home, dataDir, ...extra };
}

async function json(s: TestServer, method: string, route: string, body?: unknown) {
  return s.request(route, {
    method,
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
    ...(body === undefined || method === 'GET'
      ? {}
      : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

async function newConversation(s: TestServer, body: unknown = { project: proj }): Promise<string> {
  const a = await json(s, 'POST', '/api/conversations', body);
  expect(a.status).toBe(201);
  return (a.body['conversation'] as { id: string }).id;
}

async function send(s: TestServer, id: string, text: string, wire = text, meta: unknown = {}) {
  return json(s, 'POST', `/api/conversations/${id}/messages`, { text, wire, meta });
}

/** Reads a reply's event stream to its end: the events in order. */
async function stream(
  s: TestServer,
  id: string,
  mid: string,
): Promise<Array<{ event: string; data: Record<string, unknown> }>> {
  const res = await fetch(`${s.origin}/api/conversations/${id}/messages/${mid}/stream`, {
    headers: { authorization: `Bearer ${s.token}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((b) => {
      const event = /^event: (.*)$/m.exec(b)?.[1] ?? 'message';
      const data = b
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      return { event, data: JSON.parse(data) };
    });
}

/** A reply's event stream read as it comes: `until` reads until the text so far passes a test, `rest` to the end. */
async function liveStream(s: TestServer, id: string, mid: string) {
  const res = await fetch(`${s.origin}/api/conversations/${id}/messages/${mid}/stream`, {
    headers: { authorization: `Bearer ${s.token}` },
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = '';
  return {
    async until(test: (seen: string) => boolean): Promise<string> {
      while (!test(seen)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended first: ${seen}`);
        seen += value;
      }
      return seen;
    },
    async rest(): Promise<string> {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return seen;
        seen += value;
      }
    },
  };
}

type Msg = Record<string, unknown>;

const replyText = (events: Array<{ event: string; data: Record<string, unknown> }>) =>
  events
    .filter((e) => e.event === 'chunk')
    .map((e) => String(e.data['text']))
    .join('');

describe('conversations: create, list, rename, and bad input', () => {
  it('creates, lists newest first, renames; unknown ids are 404 unknown_conversation', async () => {
    await withTestServer(opts(), async (s) => {
      const a = await newConversation(s, { title: 'first', project: proj });
      const b = await newConversation(s, {});
      const list = await json(s, 'GET', '/api/conversations');
      const convs = list.body['conversations'] as Array<Record<string, unknown>>;
      expect(convs.map((c) => c['id'])).toEqual([b, a]);
      expect(convs[1]).toMatchObject({ title: 'first', project: proj });
      expect(convs[0]).toMatchObject({ title: 'New conversation', project: null });
      const r = await json(s, 'PATCH', `/api/conversations/${a}`, { title: '  renamed\n' });
      expect(r.status).toBe(200);
      expect(r.body['conversation']).toMatchObject({ id: a, title: 'renamed' });
      for (const [m, route] of [
        ['PATCH', '/api/conversations/00000000-0000-4000-8000-000000000000'],
        ['PATCH', '/api/conversations/..%2f..%2fetc'],
        ['GET', '/api/conversations/nope/messages'],
        ['POST', '/api/conversations/nope/messages'],
      ] as const) {
        const x = await json(s, m, route, { title: 't', text: 'x', wire: 'x' });
        expect([x.status, x.body.code], route).toEqual([404, 'unknown_conversation']);
      }
      expect(s.audit.of('conversation_create')).toHaveLength(2);
      expect(s.audit.last('conversation_rename')).toMatchObject({ outcome: 'allowed' });
    });
  });

  it('answers bad input with a coded 400 and changes nothing', async () => {
    await withTestServer(opts(), async (s) => {
      const id = await newConversation(s);
      const cases: Array<[string, string, unknown, number, string]> = [
        ['POST', '/api/conversations', '{not json', 400, 'invalid_json'],
        ['POST', '/api/conversations', { title: 42 }, 400, 'invalid_request'],
        ['POST', '/api/conversations', { project: tmp }, 403, 'unknown_project_dir'],
        ['PATCH', `/api/conversations/${id}`, {}, 400, 'invalid_request'],
        ['POST', `/api/conversations/${id}/messages`, '[]', 400, 'invalid_request'],
        ['POST', `/api/conversations/${id}/messages`, { text: 'x' }, 400, 'invalid_request'],
        ['POST', `/api/conversations/${id}/messages`, { text: '', wire: ' ' }, 400, 'empty_message'],
        [
          'POST',
          `/api/conversations/${id}/messages`,
          { text: 'x'.repeat(100_001), wire: 'x' },
          400,
          'invalid_request',
        ],
        [
          'POST',
          `/api/conversations/${id}/messages`,
          { text: 'x', wire: 'x', meta: { files: [{ path: 1, name: 'a' }] } },
          400,
          'invalid_request',
        ],
        [
          'POST',
          `/api/conversations/${id}/messages`,
          {
            text: 'x',
            wire: 'x',
            meta: { dirs: Array.from({ length: 101 }, () => ({ path: '/a', label: 'a' })) },
          },
          400,
          'invalid_request',
        ],
      ];
      for (const [m, route, body, status, code] of cases) {
        const a = await json(s, m, route, body);
        expect([a.status, a.body.code], `${m} ${route} ${JSON.stringify(body).slice(0, 60)}`).toEqual([
          status,
          code,
        ]);
      }
      expect((await json(s, 'GET', '/api/conversations')).body['conversations']).toHaveLength(1);
      expect((await json(s, 'GET', `/api/conversations/${id}/messages`)).body['messages']).toEqual([]);
      // A 100 000-character message fits (the general 64 KiB body limit does not apply to this route).
      const big = await send(s, id, 'é'.repeat(100_000));
      expect(big.status).toBe(201);
    });
  });
});

describe('messages: stored as JSON Lines, survive restarts, redacted on disk', () => {
  it('survives a restart, a torn last line included, and keeps secrets off the disk 🔒', async () => {
    const dataDir = path.join(tmp, `data${n++}`);
    const secret = `ghp_${'A1b2C3d4E5'.repeat(4).slice(0, 36)}`;
    let id = '';
    let serverToken = '';
    await withTestServer(opts({}, dataDir), async (s) => {
      serverToken = s.token;
      id = await newConversation(s);
      const sent = await send(s, id, `use ${secret} and ${s.token}`, `use ${secret}`, {
        dirs: [{ path: proj, label: 'proj' }],
      });
      expect(sent.status).toBe(201);
      const reply = (sent.body['reply'] as { id: string }).id;
      const events = await stream(s, id, reply);
      expect(events.at(-1)!.event).toBe('done');
    });
    const file = path.join(dataDir, CONVERSATIONS_DIR, `${id}.jsonl`);
    const disk = fs.readFileSync(file, 'utf8');
    expect(disk).not.toContain(secret);
    expect(disk).not.toContain(serverToken);
    expect(disk).toContain('[REDACTED');
    // A crash mid-append: a torn line at the end.
    fs.appendFileSync(file, '{"id":"torn","role":"user","te');
    await withTestServer(opts({}, dataDir), async (s) => {
      const before = (await json(s, 'GET', `/api/conversations/${id}/messages`)).body['messages'] as Msg[];
      expect(before.map((m) => [m['role'], m['status'] ?? null])).toEqual([
        ['user', null],
        ['assistant', 'done'],
      ]);
      expect(before[0]!['meta']).toEqual({ dirs: [{ path: proj, label: 'proj' }] });
      const again = await send(s, id, 'after the tear');
      expect(again.status).toBe(201);
      await stream(s, id, (again.body['reply'] as { id: string }).id);
      const after = (await json(s, 'GET', `/api/conversations/${id}/messages`)).body['messages'] as Msg[];
      expect(after.map((m) => m['text']).slice(2, 3)).toEqual(['after the tear']);
      expect(after).toHaveLength(4);
    });
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    expect(lines.filter((l) => l.includes('"text":"after the tear"'))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('{"id":"torn"'))).toHaveLength(1);
  });

  it('a reply cut off by a restart reads as failed (interrupted), not streaming forever', async () => {
    const dataDir = path.join(tmp, `data${n++}`);
    let id = '';
    await withTestServer(opts({}, dataDir), async (s) => {
      id = await newConversation(s);
    });
    fs.appendFileSync(
      path.join(dataDir, CONVERSATIONS_DIR, `${id}.jsonl`),
      `${JSON.stringify({ id: 'r1', role: 'assistant', text: 'partial', wire: '', meta: {}, at: new Date().toISOString(), status: 'streaming' })}\n`,
    );
    await withTestServer(opts({}, dataDir), async (s) => {
      const m = (await json(s, 'GET', `/api/conversations/${id}/messages`)).body['messages'] as Msg[];
      expect(m[0]).toMatchObject({ id: 'r1', status: 'failed', error: { code: 'interrupted' } });
      const events = await stream(s, id, 'r1');
      expect(events.map((e) => e.event)).toEqual(['chunk', 'error']);
      expect(events[1]!.data['code']).toBe('interrupted');
    });
  });
});

describe('replies without --agent: a preview of the payload', () => {
  it('shows what an agent would receive: wire text, meta, project, attached files read without links 🔒', async () => {
    await withTestServer(opts(), async (s) => {
      const id = await newConversation(s);
      const files = ['src/main.ts', 'link.txt', 'keys/id_ed25519'].map((r) => ({
        path: path.join(proj, r),
        name: path.basename(r),
      }));
      files.push({ path: path.join(tmp, 'outside.txt'), name: 'outside.txt' });
      const sent = await send(s, id, 'look @main.ts', 'look [attached_file 1] …', { files });
      const events = await stream(s, id, (sent.body['reply'] as { id: string }).id);
      expect(events.map((e) => e.event)).toEqual(['chunk', 'done']);
      const text = replyText(events);
      expect(text).toMatch(/^No agent is configured/);
      const payload = JSON.parse(/```json\n([\s\S]*)\n```/.exec(text)![1]!);
      expect(payload.text).toBe('look [attached_file 1] …');
      expect(payload.project).toBe(proj);
      expect(payload.files).toEqual([
        { path: files[0]!.path, text: 'export const answer = 42;\n', truncated: false },
        { path: files[1]!.path, text: '', truncated: false, error: 'link_refused' },
        { path: files[2]!.path, text: '', truncated: false, error: 'link_refused' },
        { path: files[3]!.path, text: '', truncated: false, error: 'unknown_project_dir' },
      ]);
      expect(text).not.toMatch(/PRIVATE KEY|outside the project/);
      expect(events[1]!.data['message']).toMatchObject({ role: 'assistant', status: 'done' });
      // Opened again after it finished: the whole text, then done.
      const replay = await stream(s, id, (sent.body['reply'] as { id: string }).id);
      expect(replyText(replay)).toBe(text);
      expect(replay.at(-1)!.event).toBe('done');
      expect(s.audit.last('message_send')).toMatchObject({
        outcome: 'allowed',
        resources: expect.stringContaining('files=4'),
      });
      expect(s.audit.last('agent_run')).toMatchObject({
        outcome: 'allowed',
        resources: expect.stringContaining('agent=preview'),
      });
    });
  });
});

describe("trawl serve --agent: the operator's command, streamed, bounded, stoppable", () => {
  it('runs the fixed argv with the payload on stdin, in the project, without the server token 🔒', async () => {
    await withTestServer(
      opts({ agent: agentScript(ECHO_AGENT), token: 'the-server-token-0123456789' }),
      async (s) => {
        const id = await newConversation(s);
        const sent = await send(s, id, '@main.ts', '[attached_file 1] x', {
          files: [{ path: path.join(proj, 'src', 'main.ts'), name: 'main.ts' }],
        });
        const events = await stream(s, id, (sent.body['reply'] as { id: string }).id);
        expect(events.at(-1)!.event).toBe('done');
        const out = JSON.parse(replyText(events));
        expect(out.argv).toEqual([]);
        expect(out.cwd).toBe(proj);
        expect(out.project).toBe(proj);
        expect(out.token).toBeNull();
        expect(out.payload).toEqual({
          text: '[attached_file 1] x',
          meta: { files: [{ path: path.join(proj, 'src', 'main.ts'), name: 'main.ts' }] },
          project: proj,
          files: [
            {
              path: path.join(proj, 'src', 'main.ts'),
              text: 'export const answer = 42;\n',
              truncated: false,
            },
          ],
        });
      },
    );
  });

  it('the README example adapter (examples/agent-prompt.mjs) turns the payload into a prompt for a stdin CLI', async () => {
    const adapter = path.resolve(import.meta.dirname, '..', '..', '..', 'examples', 'agent-prompt.mjs');
    // `cat` as the "model": the reply is exactly the prompt the adapter built.
    await withTestServer(opts({ agent: [process.execPath, adapter, 'cat'] }), async (s) => {
      const id = await newConversation(s);
      const sent = await send(s, id, 'explain @main.ts', 'explain [attached_file 1] x', {
        files: [{ path: path.join(proj, 'src', 'main.ts'), name: 'main.ts' }],
      });
      const events = await stream(s, id, (sent.body['reply'] as { id: string }).id);
      expect(events.at(-1)!.event).toBe('done');
      expect(replyText(events)).toBe(
        `explain [attached_file 1] x\n\n(working in the project ${proj})\n\n` +
          `[attached_file 1] ${path.join(proj, 'src', 'main.ts')}\nexport const answer = 42;\n`,
      );
    });
  });

  it('stop kills the whole process group; the reply keeps its text, status stopped; one reply at a time', async () => {
    const pidFile = path.join(tmp, `grandchild${n++}.pid`);
    const agent = agentScript(`
      import { spawn } from 'node:child_process';
      import * as fs from 'node:fs';
      const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      fs.writeFileSync(${JSON.stringify(pidFile)}, String(g.pid));
      process.stdout.write('working…');
      setInterval(() => {}, 1000);
    `);
    await withTestServer(opts({ agent }), async (s) => {
      const id = await newConversation(s);
      const sent = await send(s, id, 'go');
      const mid = (sent.body['reply'] as { id: string }).id;
      const live = await liveStream(s, id, mid);
      await live.until((seen) => seen.includes('working'));
      while (!fs.existsSync(pidFile) || !fs.readFileSync(pidFile, 'utf8'))
        await new Promise((r) => setImmediate(r));
      const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
      const busy = await send(s, id, 'again');
      expect([busy.status, busy.body.code]).toEqual([409, 'reply_in_progress']);
      const stop = await json(s, 'POST', `/api/conversations/${id}/messages/${mid}/stop`, {});
      expect(stop.body).toEqual({ stopped: true });
      expect(await live.rest()).toMatch(/event: done/);
      const m = (await json(s, 'GET', `/api/conversations/${id}/messages`)).body['messages'] as Msg[];
      expect(m[1]).toMatchObject({ id: mid, status: 'stopped', text: 'working…' });
      // The grandchild was in the agent's process group: it is gone too (waiting on the kernel, not a clock).
      const alive = () => {
        try {
          process.kill(grandchild, 0);
          return true;
        } catch {
          return false;
        }
      };
      while (alive()) await new Promise((r) => setTimeout(r, 20));
      expect(alive()).toBe(false);
      expect(s.audit.last('agent_stop')).toMatchObject({
        resources: expect.stringContaining('running=true'),
      });
      expect((await send(s, id, 'now free')).status).toBe(201);
    });
  });

  it('an agent that exits 0 takes what it left running with it: the reply is done, its background children gone', async () => {
    const pidFile = path.join(tmp, `left${n++}.pid`);
    // One child holds the agent's stdout open (the reply would never end), one holds nothing (it would live on).
    const agent = agentScript(`
      import { spawn } from 'node:child_process';
      import * as fs from 'node:fs';
      const keep = ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'];
      const holder = spawn(process.execPath, keep, { stdio: ['ignore', 'inherit', 'ignore'] });
      const quiet = spawn(process.execPath, keep, { stdio: 'ignore' });
      fs.writeFileSync(${JSON.stringify(pidFile)}, holder.pid + ' ' + quiet.pid);
      process.stdout.write('answer', () => process.exit(0));
    `);
    await withTestServer(opts({ agent }), async (s) => {
      const id = await newConversation(s);
      const sent = await send(s, id, 'go');
      const live = await liveStream(s, id, (sent.body['reply'] as { id: string }).id);
      expect(await live.rest()).toMatch(/event: done/);
      const m = (await json(s, 'GET', `/api/conversations/${id}/messages`)).body['messages'] as Msg[];
      expect(m[1]).toMatchObject({ status: 'done', text: 'answer' });
      const pids = fs.readFileSync(pidFile, 'utf8').split(' ').map(Number);
      // SIGKILL was sent before the reply ended; the kernel finishes it (waiting on /proc, not a clock).
      while (pids.some(running)) await new Promise((r) => setTimeout(r, 20));
      expect(pids.filter(running)).toEqual([]);
    });
  });

  it('a quiet run keeps its stream alive with SSE comments, which the events ignore', async () => {
    const go = path.join(tmp, `go${n++}`);
    const agent = agentScript(`
      import * as fs from 'node:fs';
      process.stdout.write('thinking');
      const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(go)})) { clearInterval(t); process.stdout.write(' done'); } }, 5);
    `);
    await withTestServer(opts({ agent, sseHeartbeatMs: 1 }), async (s) => {
      const id = await newConversation(s);
      const sent = await send(s, id, 'go');
      const live = await liveStream(s, id, (sent.body['reply'] as { id: string }).id);
      // The agent is silent until the test says go: the stream must carry a comment meanwhile.
      await live.until((seen) => /thinking[\s\S]*\n: keep-alive\n\n/.test(seen));
      fs.writeFileSync(go, '');
      expect(await live.rest()).toMatch(/event: done/);
      const m = (await json(s, 'GET', `/api/conversations/${id}/messages`)).body['messages'] as Msg[];
      expect(m[1]).toMatchObject({ status: 'done', text: 'thinking done' });
    });
  });

  it('a run past its deadline fails with agent_timeout (an agent that never ends)', async () => {
    const agent = agentScript(`process.stdout.write('partial'); setInterval(() => {}, 1000);`);
    await withTestServer(opts({ agent, agentLimits: { deadlineMs: 1, killGraceMs: 10 } }), async (s) => {
      const id = await newConversation(s);
      const sent = await send(s, id, 'go');
      const events = await stream(s, id, (sent.body['reply'] as { id: string }).id);
      expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'agent_timeout' } });
      const m = (await json(s, 'GET', `/api/conversations/${id}/messages`)).body['messages'] as Msg[];
      expect(m[1]).toMatchObject({ status: 'failed', error: { code: 'agent_timeout' } });
    });
  });

  it('output past the cap is cut (never mid-character) and the run killed: agent_output_too_large', async () => {
    const agent = agentScript(`process.stdout.write('ab' + 'é'.repeat(100)); setInterval(() => {}, 1000);`);
    await withTestServer(opts({ agent, agentLimits: { outputMaxBytes: 5, killGraceMs: 10 } }), async (s) => {
      const id = await newConversation(s);
      const sent = await send(s, id, 'go');
      const events = await stream(s, id, (sent.body['reply'] as { id: string }).id);
      expect(replyText(events)).toBe('abé');
      expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'agent_output_too_large' } });
    });
  });

  it('a failing agent is a failed reply with its exit code and stderr tail; a missing one is agent_unavailable', async () => {
    const agent = agentScript(`process.stderr.write('model not found\\n'); process.exit(3);`);
    await withTestServer(opts({ agent }), async (s) => {
      const id = await newConversation(s);
      const sent = await send(s, id, 'go');
      const events = await stream(s, id, (sent.body['reply'] as { id: string }).id);
      expect(events.at(-1)).toMatchObject({
        event: 'error',
        data: { code: 'agent_failed', error: 'the agent exited with code 3: model not found' },
      });
    });
    await withTestServer(opts({ agent: [path.join(tmp, 'no-such-agent')] }), async (s) => {
      const id = await newConversation(s);
      const sent = await send(s, id, 'go');
      const events = await stream(s, id, (sent.body['reply'] as { id: string }).id);
      expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'agent_unavailable' } });
    });
  });
});

describe('retry, regenerate and delete', () => {
  it('runs the agent again on the same wire text; every attempt is kept, the old one marked superseded', async () => {
    // Fails the first time it sees a message, answers the second: a flaky model.
    const marker = path.join(tmp, `seen${n++}`);
    const agent = agentScript(`
import * as fs from 'node:fs';
let input = '';
process.stdin.on('data', (c) => { input += c; });
process.stdin.on('end', () => {
  const p = JSON.parse(input);
  if (!fs.existsSync(${JSON.stringify(marker)})) {
    fs.writeFileSync(${JSON.stringify(marker)}, '');
    process.stdout.write('half an answer');
    process.stderr.write('rate limited\\n');
    process.exit(2);
  }
  process.stdout.write('answer to ' + p.text);
});
`);
    await withTestServer(opts({ agent }), async (s) => {
      const id = await newConversation(s);
      const sent = await send(s, id, 'see @main.ts', 'see [attached_file 1] /x/main.ts');
      const userId = (sent.body['message'] as { id: string }).id;
      const first = (sent.body['reply'] as { id: string }).id;
      await stream(s, id, first);

      const again = await json(s, 'POST', `/api/conversations/${id}/messages/${first}/retry`, {});
      expect(again.status).toBe(201);
      const second = (again.body['reply'] as { id: string }).id;
      expect(again.body['replaces']).toBe(first);
      expect(replyText(await stream(s, id, second))).toBe('answer to see [attached_file 1] /x/main.ts');

      const list = (await json(s, 'GET', `/api/conversations/${id}/messages`)).body['messages'] as Msg[];
      expect(list.map((m) => [m['role'], m['status'] ?? null, m['superseded_by'] ?? null])).toEqual([
        ['user', null, null],
        ['assistant', 'failed', second],
        ['assistant', 'done', null],
      ]);
      expect(list[1]).toMatchObject({
        text: 'half an answer',
        reply_to: userId,
        error: { code: 'agent_failed' },
      });
      expect(list[2]).toMatchObject({ reply_to: userId });

      // Only the latest reply runs again; a superseded or unknown one does not.
      const stale = await json(s, 'POST', `/api/conversations/${id}/messages/${first}/retry`, {});
      expect(stale.status).toBe(404);
      const user = await json(s, 'POST', `/api/conversations/${id}/messages/${userId}/retry`, {});
      expect(user.body['code']).toBe('unknown_message');
      // Regenerate after a finished reply: a third attempt, the second kept.
      const third = await json(s, 'POST', `/api/conversations/${id}/messages/${second}/retry`, {});
      expect(third.status).toBe(201);
      await stream(s, id, (third.body['reply'] as { id: string }).id);
      const after = (await json(s, 'GET', `/api/conversations/${id}/messages`)).body['messages'] as Msg[];
      expect(after.filter((m) => !m['superseded_by']).map((m) => m['role'])).toEqual(['user', 'assistant']);
      expect(after).toHaveLength(4);
    });
  });

  it('refuses to run again while a reply is being written, and only the latest reply', async () => {
    const agent = agentScript(`process.stdout.write('x'); setInterval(() => {}, 1000);`);
    await withTestServer(opts({ agent }), async (s) => {
      const id = await newConversation(s);
      const sent = await send(s, id, 'go');
      const mid = (sent.body['reply'] as { id: string }).id;
      const busy = await json(s, 'POST', `/api/conversations/${id}/messages/${mid}/retry`, {});
      expect([busy.status, busy.body['code']]).toEqual([409, 'reply_in_progress']);
      await json(s, 'POST', `/api/conversations/${id}/messages/${mid}/stop`, {});
      await stream(s, id, mid);
      const next = await send(s, id, 'second');
      await json(
        s,
        'POST',
        `/api/conversations/${id}/messages/${(next.body['reply'] as { id: string }).id}/stop`,
        {},
      );
      const old = await json(s, 'POST', `/api/conversations/${id}/messages/${mid}/retry`, {});
      expect([old.status, old.body['code']]).toEqual([409, 'not_latest_reply']);
    });
  });

  it('deletes a conversation, its files and a reply being written; an unknown id is 404', async () => {
    const agent = agentScript(`process.stdout.write('x'); setInterval(() => {}, 1000);`);
    const dataDir = path.join(tmp, `data${n++}`);
    await withTestServer(opts({ agent }, dataDir), async (s) => {
      const id = await newConversation(s);
      const sent = await send(s, id, 'go');
      const mid = (sent.body['reply'] as { id: string }).id;
      const del = await json(s, 'DELETE', `/api/conversations/${id}`);
      expect([del.status, del.body['deleted']]).toEqual([200, true]);
      // The stopped run's last write finds no conversation: the stream ends and no file comes back.
      await fetch(`${s.origin}/api/conversations/${id}/messages/${mid}/stream`, {
        headers: { authorization: `Bearer ${s.token}` },
      }).then((r) => r.text());
      const list = (await json(s, 'GET', '/api/conversations')).body['conversations'] as Msg[];
      expect(list.map((c) => c['id'])).not.toContain(id);
      expect((await json(s, 'DELETE', `/api/conversations/${id}`)).status).toBe(404);
      expect((await json(s, 'GET', `/api/conversations/${id}/messages`)).status).toBe(404);
    });
    // The server's close waited for the stopped run to be written (or to find nothing to write to).
    expect(fs.readdirSync(path.join(dataDir, CONVERSATIONS_DIR)).filter((f) => !f.endsWith('.tmp'))).toEqual(
      [],
    );
  });
});
