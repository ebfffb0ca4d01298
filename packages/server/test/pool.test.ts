import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtScriptUrl } from '../src/built-script.js';
import { PoolBusyError, PoolTimeoutError, TaskFailedError, WorkerPool } from '../src/http/pool.js';

let tmp: string;
let script: URL;

// A worker speaking the pool protocol, with tasks that block (until the test opens their gate, or for ever), echo,
// throw and crash. A gate is a shared Int32 the worker waits on: the test decides when a blocker ends, not a clock.
const WORKER = `
import { parentPort, threadId } from 'node:worker_threads';
parentPort.on('message', (m) => {
  if (m.end) process.exit(0);
  else if (m.task === 'hang') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  else if (m.task === 'gate') {
    Atomics.wait(m.payload, 0, 0);
    parentPort.postMessage({ id: m.id, ok: true, value: threadId });
  } else if (m.task === 'echo') parentPort.postMessage({ id: m.id, ok: true, value: m.payload });
  else if (m.task === 'thread') parentPort.postMessage({ id: m.id, ok: true, value: threadId });
  else if (m.task === 'throw') parentPort.postMessage({ id: m.id, ok: false, error: 'boom' });
  else if (m.task === 'crash') process.exit(3);
});
`;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-pool-')));
  fs.writeFileSync(path.join(tmp, 'w.mjs'), WORKER);
  script = pathToFileURL(path.join(tmp, 'w.mjs'));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A gate for the 'gate' task: closed until `open()`. */
function gate() {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  return {
    cell,
    open() {
      Atomics.store(cell, 0, 1);
      Atomics.notify(cell, 0);
    },
  };
}

/** The test worker's tasks, as the pool's callers see them. */
type TestTasks = {
  hang: { payload: null; result: never };
  gate: { payload: Int32Array; result: number };
  echo: { payload: unknown; result: unknown };
  thread: { payload: null; result: number };
  throw: { payload: null; result: never };
  crash: { payload: null; result: never };
};

function pool(over: Partial<ConstructorParameters<typeof WorkerPool>[0]> = {}) {
  return new WorkerPool<TestTasks>({ name: 'test', script, size: 2, execCeilingMs: 60_000, ...over });
}

describe('WorkerPool', () => {
  it('runs tasks on worker threads and returns their answers', async () => {
    const p = pool();
    try {
      expect(await p.run('echo', { a: 1 })).toEqual({ a: 1 });
      expect(await p.run('thread', null)).toBeGreaterThan(0);
    } finally {
      await p.close();
    }
  });

  it('warm() starts one worker ahead of the first call, once', async () => {
    const p = pool();
    try {
      expect(p.stats().workers).toBe(0);
      p.warm();
      p.warm();
      expect(p.stats().workers).toBe(1);
      expect(await p.run('echo', 'x')).toBe('x');
      expect(p.stats().workers).toBe(1);
    } finally {
      await p.close();
    }
  });

  it('never runs more workers than its size', async () => {
    const p = pool({ size: 2 });
    try {
      const g = gate();
      const runs = Array.from({ length: 6 }, () => p.run('gate', g.cell));
      expect(p.stats().workers).toBe(2);
      expect(p.stats().waiting).toBe(4);
      g.open();
      const threads = new Set(await Promise.all(runs));
      expect(threads.size).toBe(2);
    } finally {
      await p.close();
    }
  });

  it('withdraws a call no worker claims within the admission wait: PoolBusyError, while the blocker still runs', async () => {
    const p = pool({ size: 1, admitMs: 100 });
    try {
      const order: string[] = [];
      const g = gate();
      const blocker = p.run('gate', g.cell).then(() => order.push('blocker done'));
      const refused = p.run('echo', 1).then(
        () => order.push('admitted'),
        (err: unknown) => order.push(err instanceof PoolBusyError ? 'busy' : 'other'),
      );
      await refused; // the blocker's gate is still closed: only the admission wait can end this call
      g.open();
      await blocker;
      expect(order).toEqual(['busy', 'blocker done']);
      expect(p.busyRejections).toBe(1);
    } finally {
      await p.close();
    }
  });

  it("a call may bound its own admission wait below the pool's: 0 is busy at once when no worker is free", async () => {
    const p = pool({ size: 1, admitMs: 30_000 });
    try {
      const g = gate();
      const blocker = p.run('gate', g.cell);
      await expect(p.run('echo', 1, { admitMs: 0 })).rejects.toBeInstanceOf(PoolBusyError);
      expect(p.stats().waiting).toBe(0);
      g.open();
      await blocker;
      expect(await p.run('echo', 2, { admitMs: 0 })).toBe(2); // a free worker needs no wait
    } finally {
      await p.close();
    }
  });

  it('admits a waiting call as soon as a worker frees up', async () => {
    const p = pool({ size: 1, admitMs: 30_000 });
    try {
      const g = gate();
      const a = p.run('gate', g.cell);
      const b = p.run('echo', 'second');
      expect(p.stats().waiting).toBe(1);
      g.open();
      await a;
      expect(await b).toBe('second');
    } finally {
      await p.close();
    }
  });

  it('bounds the waiting line: past it a call is refused at once', async () => {
    const p = pool({ size: 1, maxWaiting: 2, admitMs: 30_000 });
    try {
      const g = gate();
      const first = p.run('gate', g.cell);
      const w1 = p.run('echo', 1);
      const w2 = p.run('echo', 2);
      await expect(p.run('echo', 3)).rejects.toBeInstanceOf(PoolBusyError);
      expect(p.stats().waiting).toBe(2);
      g.open();
      await Promise.all([first, w1, w2]);
    } finally {
      await p.close();
    }
  });

  it('terminates a worker that passes the execution ceiling, and keeps serving', async () => {
    const p = pool({ size: 1, execCeilingMs: 200 });
    try {
      // A task that can never finish: only the ceiling ends it, however slowly this machine runs.
      await expect(p.run('hang', null)).rejects.toBeInstanceOf(PoolTimeoutError);
      expect(await p.run('echo', 'after')).toBe('after');
    } finally {
      await p.close();
    }
  });

  it('reports a task that failed or a worker that died as TaskFailedError, and replaces the worker', async () => {
    const p = pool({ size: 1 });
    try {
      await expect(p.run('throw', null)).rejects.toBeInstanceOf(TaskFailedError);
      await expect(p.run('crash', null)).rejects.toBeInstanceOf(TaskFailedError);
      expect(await p.run('echo', 'alive')).toBe('alive');
    } finally {
      await p.close();
    }
  });

  it('close() withdraws waiting calls', async () => {
    // The blocked worker cannot end itself: no grace, close() terminates it.
    const p = pool({ size: 1, admitMs: 30_000, endGraceMs: 0 });
    const first = p.run('gate', gate().cell).catch(() => 'terminated'); // never opened: close() ends it
    const waiting = expect(p.run('echo', 1)).rejects.toBeInstanceOf(PoolBusyError);
    await p.close();
    await waiting;
    await first;
    await expect(p.run('echo', 2)).rejects.toBeInstanceOf(PoolBusyError);
  });

  it('close() asks each worker to end (it releases what it holds), and terminates one that will not', async () => {
    const deaf = path.join(tmp, 'deaf.mjs');
    fs.writeFileSync(deaf, WORKER.replace('if (m.end) process.exit(0);', 'if (m.end) return;'));
    for (const [file, graceMs] of [
      [script, 3_600_000],
      [pathToFileURL(deaf), 0],
    ] as const) {
      const p = pool({ script: file, endGraceMs: graceMs });
      expect(await p.run('echo', 1)).toBe(1);
      await p.close(); // with an hour's grace, this returns only because the worker ended itself
      expect(p.stats().workers).toBe(0);
    }
  });
});

describe.runIf(process.platform === 'linux' && os.getPriority() < 10)('lowerThreadPriority', () => {
  it('renices only the calling worker thread, not the event loop', async () => {
    const before = os.getPriority();
    const tasks = pathToFileURL(path.resolve(__dirname, '../dist/http/tasks.js')).href;
    const src = `
      import { parentPort } from 'node:worker_threads';
      import * as fs from 'node:fs';
      import * as os from 'node:os';
      const { lowerThreadPriority } = await import(${JSON.stringify(tasks)});
      const ok = lowerThreadPriority(10);
      const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
      parentPort.postMessage({ ok, mine: os.getPriority(tid) });
    `;
    const file = path.join(tmp, 'nice.mjs');
    fs.writeFileSync(file, src);
    const { Worker } = await import('node:worker_threads');
    const w = new Worker(file);
    const msg = await new Promise<{ ok: boolean; mine: number }>((resolve) => w.once('message', resolve));
    await w.terminate();
    expect(msg).toEqual({ ok: true, mine: 10 });
    expect(os.getPriority()).toBe(before);
  });
});

describe('builtScriptUrl', () => {
  it('maps a TS source module to the compiled sibling in dist', () => {
    const here = pathToFileURL(path.resolve(__dirname, '../src/http/pool.ts')).href;
    const url = builtScriptUrl('worker.js', here);
    expect(url.pathname).toMatch(/\/packages\/server\/dist\/http\/worker\.js$/);
    expect(fs.existsSync(url)).toBe(true);
  });
});
