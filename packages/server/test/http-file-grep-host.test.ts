// Indexed content search runs on the grep host's thread, admitted and bounded: the event loop answers while greps
// are held there, greps past admission are refused with a coded 503, and the server's budget holds on an indexed root.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BroadcastChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempTrees } from '../../core/test/fixtures/temp-trees.js';
import { GrepHost } from '../src/http/grep-host.js';
import { PoolTimeoutError } from '../src/http/pool.js';
import { type Answer, startTestServer, type TestServer } from './http-helpers.js';
import { judgedRoot } from './roots.js';

const HOLD_CHANNEL = 'trawl-test-grep-hold';
let trees: TempTrees;
let root: string;
let dataDir: string;
/** A grep host whose every grep waits forever once it has said "held" on the channel: a search that cannot finish. */
let holdingScript: URL;
const held = new BroadcastChannel(HOLD_CHANNEL);
const heldRoots: string[] = [];
let onHeld: (() => void) | undefined;
held.onmessage = (ev) => {
  heldRoots.push(String((ev as MessageEvent).data));
  onHeld?.();
};

/** Resolves once `n` greps in all have been held on the host (events, never a sleep). */
function heldCount(n: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (heldRoots.length >= n) {
        onHeld = undefined;
        resolve();
      }
    };
    onHeld = check;
    check();
  });
}

beforeAll(() => {
  trees = new TempTrees('trawl-http-grep-host-');
  root = trees.fresh('p');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  for (let i = 0; i < 20; i++)
    fs.writeFileSync(path.join(root, 'src', `f${i}.txt`), `line ${i}\nneedle_${i}\n`);
  root = fs.realpathSync(root);
  dataDir = path.join(trees.dir, 'data');
  const thread = pathToFileURL(path.resolve(__dirname, '../dist/http/grep-host-thread.js')).href;
  const script = path.join(trees.dir, 'holding-host.mjs');
  fs.writeFileSync(
    script,
    `import { parentPort, workerData, BroadcastChannel } from 'node:worker_threads';
import { serveGrepHost } from ${JSON.stringify(thread)};
const channel = new BroadcastChannel(${JSON.stringify(HOLD_CHANNEL)});
serveGrepHost(parentPort, workerData, {
  beforeGrep: (task) => new Promise(() => channel.postMessage(task.root)),
});
`,
  );
  holdingScript = pathToFileURL(script);
});
afterAll(() => {
  held.close();
  trees.remove();
});

function post(s: TestServer, body: unknown): Promise<Answer> {
  return s.request('/api/file-grep', {
    method: 'POST',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('indexed /api/file-grep on the grep host', () => {
  it('keeps /api/health answering while indexed greps are held, and refuses greps past admission with a coded 503', async () => {
    const s = await startTestServer({
      projects: [root],
      home: trees.home,
      dataDir,
      indexes: undefined,
      // Long enough that the waiting grep is still waiting when the one past the queue arrives.
      grepBudgetMs: 600_000,
      grepHost: { script: holdingScript, maxActive: 2, maxWaiting: 1 },
    });
    try {
      expect((await s.server.context.grepHost!.whenSettled(root)).state).toBe('ready');
      const before = heldRoots.length;
      const running = [post(s, { root, q: 'needle' }), post(s, { root, q: 'line' })];
      await heldCount(before + 2);
      const health = await s.request('/api/health');
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: 'ok' });
      const waiting = post(s, { root, q: 'needle_1' });
      // The third waits for a place (admitted, not refused): the host reports it queued.
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (s.server.context.grepHost!.stats().waiting === 1) {
            clearInterval(poll);
            resolve();
          }
        }, 5);
      });
      const refused = await post(s, { root, q: 'needle_2' });
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('path_probe_busy');
      expect(s.audit.last('file_grep')).toMatchObject({ outcome: 'failure', error: 'path_probe_busy' });
      expect((await s.request('/api/health')).status).toBe(200);
      // Held greps never finish: closing the server cuts their connections.
      for (const p of [...running, waiting]) p.catch(() => {});
    } finally {
      await s.close();
    }
  }, 120_000);

  it('holds the server budget (--grep-deadline) on an indexed root', async () => {
    const s = await startTestServer({
      projects: [root],
      home: trees.home,
      dataDir: path.join(trees.dir, 'data-budget'),
      indexes: undefined,
      // No time at all: the answer is cut by the budget whatever the machine's speed.
      grepBudgetMs: 0,
    });
    try {
      expect((await s.server.context.grepHost!.whenSettled(root)).state).toBe('ready');
      const a = await post(s, { root, q: 'needle_1' });
      expect(a.status).toBe(200);
      expect(a.body.truncated).toBe(true);
      expect(s.server.context.grepHost!.covering(root)?.state).toBe('ready');
    } finally {
      await s.close();
    }
  }, 120_000);

  it('restarts a host whose grep passes the execution ceiling, and answers that grep with a timeout', async () => {
    const judged = await judgedRoot(root);
    const host = new GrepHost({
      fence: { home: trees.home, env: { HOME: trees.home }, extra: [] },
      dataDir: path.join(trees.dir, 'data-ceiling'),
      roots: [judged],
      script: holdingScript,
      execCeilingMs: 50,
    });
    try {
      expect((await host.whenSettled(judged)).state).toBe('ready');
      const task = { root: judged, query: 'needle', caseSensitive: false, wholeWord: false, regex: false };
      await expect(host.grep(task)).rejects.toBeInstanceOf(PoolTimeoutError);
      // The host is restarted and loads its index again.
      expect((await host.whenSettled(judged)).state).toBe('ready');
    } finally {
      await host.close();
    }
  }, 120_000);
});
