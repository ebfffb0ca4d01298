import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runJsEngine } from '../src/engine/js/js-engine.js';
import type { LeaseHandlers, WorkerLease } from '../src/engine/js/worker-pool.js';
import type { EngineRun } from '../src/engine/run.js';
import { REORDER_WINDOW_BATCHES, WORKER_BATCH_FILES, WORKER_OUTPUT_CREDIT } from '../src/limits.js';
import type { SearchEvent } from '../src/search/events.js';
import { RUNAWAY_LINE, RUNAWAY_PATTERN } from './fixtures/runaway.js';

/**
 * The traffic between the engine and its workers, seen through a transparent wrapper of the lease: batches posted,
 * answers and final answers received, and each worker's output credit. A slow consumer below waits on these events
 * (never on a clock) for what it means to let happen while it holds the engine at a yield.
 */
const traffic = vi.hoisted(() => ({
  posted: 0,
  answered: 0,
  messages: 0,
  credits: [] as Int32Array[],
  waiters: new Set<() => void>(),
}));
vi.mock('../src/engine/js/worker-pool.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/engine/js/worker-pool.js')>();
  const leaseSearchWorker = (handlers: LeaseHandlers): WorkerLease => {
    const lease = real.leaseSearchWorker({
      onMessage: (m) => {
        handlers.onMessage(m);
        traffic.messages++;
        if (m.type === 'results' && m.partial === undefined) traffic.answered++;
        for (const w of traffic.waiters) w();
      },
      onError: (e) => handlers.onError(e),
    });
    return {
      post: (m, transfer) => {
        if (m.type === 'batch') traffic.posted++;
        if (m.type === 'setup' && m.setup.outputCredit)
          traffic.credits.push(new Int32Array(m.setup.outputCredit));
        lease.post(m, transfer);
      },
      release: () => lease.release(),
      discard: () => lease.discard(),
    };
  };
  return { ...real, leaseSearchWorker };
});

/** Resolves once `done()` holds, looked at after each message from a worker. */
function until(done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const look = () => {
      if (!done()) return;
      traffic.waiters.delete(look);
      resolve();
    };
    traffic.waiters.add(look);
    look();
  });
}

function resetTraffic(): void {
  Object.assign(traffic, { posted: 0, answered: 0, messages: 0, credits: [] });
}

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-js-engine-'));
  for (let i = 0; i < 700; i++) {
    fs.mkdirSync(path.join(dir, `d${i % 7}`), { recursive: true });
    fs.writeFileSync(
      path.join(dir, `d${i % 7}`, `f${i}.txt`),
      i % 3 === 0 ? `x\nneedle ${i}\n` : 'nothing\n',
    );
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(source: string, over: Partial<EngineRun> = {}): EngineRun {
  const spec = {
    regex: { source, flags: 'gu' },
    asciiRegex: { source, flags: 'gu' },
    required: null,
    multiline: false,
  };
  return {
    pattern: {
      rust: source,
      fixedStrings: false,
      caseInsensitive: false,
      wordRegexp: false,
      multiline: false,
      spec,
    },
    walk: { roots: [dir], cwd: dir },
    searcher: { mode: 'lines', beforeContext: 0, afterContext: 0 },
    maxFilesize: Number.POSITIVE_INFINITY,
    now: Date.now,
    engineReason: 'test',
    ...over,
  };
}

async function collect(r: EngineRun): Promise<SearchEvent[]> {
  const out: SearchEvent[] = [];
  for await (const batch of runJsEngine(r)) out.push(...batch);
  return out;
}

describe('js engine', () => {
  it('searches every file once and emits files in path byte order, whatever the worker scheduling', async () => {
    const events = await collect(run('needle'));
    const begins = events.filter((e) => e.type === 'begin').map((e) => (e as { path: string }).path);
    expect(begins).toHaveLength(234);
    expect([...begins].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))).toEqual(begins);
    const summary = events.at(-1)!;
    expect(summary.type).toBe('summary');
    if (summary.type === 'summary') {
      expect(summary.summary.filesSearched).toBe(700);
      expect(summary.summary.filesWithMatch).toBe(234);
      expect(summary.summary.outcome).toBe('complete');
    }
  });

  it('keeps going when a slow consumer lets every batch in flight finish before it asks for more', async () => {
    let begins = 0;
    let outcome = '';
    resetTraffic();
    for await (const batch of runJsEngine(run('needle', { workers: 1 }))) {
      // The worker answers everything it holds while the engine is suspended at this yield (its wake-ups spent).
      await until(() => traffic.answered === traffic.posted);
      for (const e of batch) {
        if (e.type === 'begin') begins++;
        if (e.type === 'summary') outcome = e.summary.outcome;
      }
    }
    expect(outcome).toBe('complete');
    expect(begins).toBe(234);
  });

  it('stops a catastrophic regex at the deadline and says it timed out', async () => {
    fs.writeFileSync(path.join(dir, 'evil.txt'), `${'a'.repeat(40)}!\n`);
    // Unstopped, this backtracks ~2^40 steps: the test's own timeout, not a clock, catches a deadline that fails.
    const events = await collect(
      run('(a+)+$', { deadline: Date.now() + 500, walk: { roots: ['evil.txt'], cwd: dir } }),
    );
    const summary = events.at(-1)!;
    expect(summary.type === 'summary' && summary.summary.outcome).toBe('timeout');
    expect(events.filter((e) => e.type === 'match')).toHaveLength(0);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const events = await collect(run('needle', { signal: controller.signal }));
    const summary = events.at(-1)!;
    expect(summary.type === 'summary' && summary.summary.outcome).toBe('aborted');
  });
});

describe('js engine at the deadline', () => {
  let slow: string;
  const QUICK = 5;
  beforeAll(() => {
    // f00–f04 match at once; f05 can never finish (runaway backtracking on RUNAWAY_LINE); f06–f09 would
    // match but come after it. One worker takes them in one batch, in walk order.
    slow = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-js-slow-'));
    const name = (i: number) => path.join(slow, `f${String(i).padStart(2, '0')}.txt`);
    for (let i = 0; i < 10; i++) fs.writeFileSync(name(i), i === QUICK ? `${RUNAWAY_LINE}\n` : 'needle\n');
  });
  afterAll(() => fs.rmSync(slow, { recursive: true, force: true }));

  it('reports the files a slow batch had searched when the deadline stopped it', async () => {
    // partialAnswerMs 0: the batch answers before each file, so what it searched before the stuck file has been
    // sent when the deadline terminates the worker. The deadline only has to outlast searching five tiny files;
    // the outcome cannot depend on it (the stuck file never completes).
    const events = await collect(
      run(`${RUNAWAY_PATTERN}|needle`, {
        workers: 1,
        partialAnswerMs: 0,
        deadline: Date.now() + 5_000,
        walk: { roots: [slow], cwd: slow },
      }),
    );
    const summary = events.at(-1)!;
    expect(summary.type === 'summary' && summary.summary.outcome).toBe('timeout');
    const matched = events.filter((e) => e.type === 'match').map((e) => e.type === 'match' && e.path);
    expect(matched).toEqual(Array.from({ length: QUICK }, (_, k) => path.join(slow, `f0${k}.txt`)));
    expect(summary.type === 'summary' && summary.summary.filesSearched).toBe(QUICK);
  });
});

describe('js engine: a batch stuck at the head of the walk', () => {
  let tree: string;
  const BEFORE = 600; // enough for the second worker to start (SECOND_WORKER_MIN_FILES)
  const AFTER = 5000;
  beforeAll(() => {
    // One file keeps its worker busy past the deadline; thousands of quick ones follow it.
    tree = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-js-window-'));
    const put = (name: string, text: string) => fs.writeFileSync(path.join(tree, name), text);
    for (let i = 0; i < BEFORE; i++) put(`b${String(i).padStart(4, '0')}.txt`, 'needle\n');
    put('c-stuck.txt', `${RUNAWAY_LINE}\n`);
    for (let i = 0; i < AFTER; i++) put(`d${String(i).padStart(4, '0')}.txt`, 'needle\n');
  });
  afterAll(() => fs.rmSync(tree, { recursive: true, force: true }));

  it('does not let the other worker run far ahead of it (answers are held in walk order)', async () => {
    const events = await collect(
      run(`${RUNAWAY_PATTERN}|needle`, {
        workers: 2,
        deadline: Date.now() + 3000,
        walk: { roots: [tree], cwd: tree },
      }),
    );
    const summary = events.at(-1)!;
    expect(summary.type === 'summary' && summary.summary.outcome).toBe('timeout');
    // Unbounded, the second worker would search every file after the stuck one before the deadline.
    const matched = events.filter((e) => e.type === 'match').length;
    expect(matched).toBeGreaterThan(0);
    expect(matched).toBeLessThanOrEqual(BEFORE + REORDER_WINDOW_BATCHES * WORKER_BATCH_FILES);
  });
});

describe('js engine: output larger than the workers may send ahead', () => {
  let big: string;
  const FILES = 300;
  const LINES = 200;
  beforeAll(() => {
    big = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-js-credit-'));
    const body = Array.from({ length: LINES }, (_, k) => `needle ${k} ${'x'.repeat(40)}\n`).join('');
    for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(big, `f${String(i).padStart(4, '0')}`), body);
  });
  afterAll(() => fs.rmSync(big, { recursive: true, force: true }));

  // 60 000 lines are about 18 M output units, many times WORKER_OUTPUT_CREDIT: workers must wait for this
  // consumer, which lets the event loop run between batches so answers come in while it holds the engine at
  // a yield. (A part that arrived during a yield was once left unread: the worker waited for credit for ever.)
  it('delivers everything, in order, to a consumer slower than the workers', async () => {
    const r = run('needle', { walk: { roots: [big], cwd: big } });
    let matches = 0;
    const order: string[] = [];
    resetTraffic();
    for await (const batch of runJsEngine(r)) {
      for (const e of batch) {
        if (e.type === 'match') matches++;
        if (e.type === 'begin') order.push(e.path);
      }
      // Something arrives while the engine is held at this yield, whenever something can: a worker past its
      // credit sends nothing until the engine takes more, and one with nothing in flight has nothing to send.
      const seen = traffic.messages;
      if (!traffic.credits.some((c) => Atomics.load(c, 0) > WORKER_OUTPUT_CREDIT))
        await until(() => traffic.messages > seen || traffic.answered === traffic.posted);
    }
    expect(matches).toBe(FILES * LINES);
    expect(order).toEqual([...order].sort());
    expect(order).toHaveLength(FILES);
  });
});
