import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSearchWorker, searchWorkerStats } from '../src/engine/js/worker-pool.js';
import { type SearchRequest, search } from '../src/engine/search.js';
import { MAX_IDLE_SEARCH_WORKERS } from '../src/limits.js';
import type { SearchEvent } from '../src/search/events.js';
import { RUNAWAY_LINE, RUNAWAY_PATTERN } from './fixtures/runaway.js';

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-pool-'));
  for (const name of ['a.txt', 'b.txt', 'c.txt'])
    fs.writeFileSync(path.join(dir, name), `x\nneedle ${name}\ny\n`);
  fs.writeFileSync(path.join(dir, 'evil.txt'), `${RUNAWAY_LINE}\n`);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function collect(request: Partial<SearchRequest>): Promise<SearchEvent[]> {
  const out: SearchEvent[] = [];
  for await (const e of search({ pattern: 'needle', cwd: dir, engine: 'js', ...request })) out.push(e);
  return out;
}

const summaryOf = (events: SearchEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== 'summary') throw new Error('no summary');
  return last.summary;
};

describe('warm search workers', () => {
  it('a second search reuses the first one’s worker instead of starting another', async () => {
    await collect({});
    const before = searchWorkerStats();
    const events = await collect({});
    const after = searchWorkerStats();
    expect(events.filter((e) => e.type === 'match')).toHaveLength(3);
    expect(after.started).toBe(before.started);
    expect(after.reused).toBeGreaterThan(before.reused);
  });

  it('a search switched to counting leaves no counting mode behind in the worker', async () => {
    // detailFiles 1: after the first matching file, the worker is told to only count.
    const counted = await collect({ detailFiles: 1 });
    expect(counted.filter((e) => e.type === 'end' && e.counted)).toHaveLength(2);
    const full = await collect({});
    expect(full.filter((e) => e.type === 'end' && !e.counted)).toHaveLength(3);
    expect(full.filter((e) => e.type === 'match').map((e) => e.type === 'match' && e.text)).toEqual([
      'needle a.txt\n',
      'needle b.txt\n',
      'needle c.txt\n',
    ]);
  });

  it('a worker stuck in a runaway regex at the deadline is terminated, and the next search is whole', async () => {
    const before = searchWorkerStats();
    const stuck = await collect({ pattern: RUNAWAY_PATTERN, paths: ['evil.txt'], deadlineMs: 400 });
    expect(summaryOf(stuck).outcome).toBe('timeout');
    expect(searchWorkerStats().discarded).toBeGreaterThan(before.discarded);
    const next = await collect({});
    expect(summaryOf(next).outcome).toBe('complete');
    expect(next.filter((e) => e.type === 'match')).toHaveLength(3);
  });

  it('a host process started with per-process flags (--expose-gc) can still start search workers', () => {
    const engine = new URL('../dist/engine/index.js', import.meta.url).href;
    const script = `const m = await import(${JSON.stringify(engine)});
      let n = 0;
      for await (const e of m.search({ pattern: 'needle', cwd: ${JSON.stringify(dir)}, engine: 'js' })) if (e.type === 'match') n++;
      console.log(n);`;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('3');
  });

  it(`keeps at most ${MAX_IDLE_SEARCH_WORKERS} workers idle; the rest are terminated when returned`, () => {
    const none = { onMessage: () => {}, onError: () => {} };
    const leases = Array.from({ length: MAX_IDLE_SEARCH_WORKERS + 2 }, () => leaseSearchWorker(none));
    const before = searchWorkerStats();
    expect(before.idle).toBe(0);
    for (const l of leases) l.release();
    const after = searchWorkerStats();
    expect(after.idle).toBe(MAX_IDLE_SEARCH_WORKERS);
    expect(after.discarded - before.discarded).toBe(2);
  });

  it('idle workers do not keep the process alive', () => {
    const engine = new URL('../dist/engine/index.js', import.meta.url).href;
    const script = `const m = await import(${JSON.stringify(engine)});
      let n = 0;
      for await (const e of m.search({ pattern: 'needle', cwd: ${JSON.stringify(dir)}, engine: 'js' })) if (e.type === 'match') n++;
      console.log(n, m.searchWorkerStats().idle);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.error).toBeUndefined(); // a hang would end in ETIMEDOUT
    expect(r.stdout.trim()).toBe('3 1');
  });
});

describe("engine 'auto' with named files only", () => {
  it('searches them with a warm worker when one is idle (no rg start), and says why', async () => {
    await collect({}); // leaves a warm worker
    expect(searchWorkerStats().idle).toBeGreaterThan(0);
    const events = await collect({ engine: 'auto', paths: ['a.txt', 'b.txt'] });
    expect(summaryOf(events).engine).toBe('js');
    expect(summaryOf(events).engineReason).toBe('auto: named files only, warm worker');
    expect(events.filter((e) => e.type === 'match')).toHaveLength(2);
  });

  it('in a process with no warm worker, uses rg and warms one for the next search', () => {
    const engine = new URL('../dist/engine/index.js', import.meta.url).href;
    const script = `const m = await import(${JSON.stringify(engine)});
      const once = async () => { let s; for await (const e of m.search({ pattern: 'needle', cwd: ${JSON.stringify(dir)}, paths: ['a.txt'] })) if (e.type === 'summary') s = e.summary; return s.engine; };
      const first = await once();
      const warmed = m.searchWorkerStats().idle;
      console.log(first, warmed, await once());`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.stderr).toBe('');
    // The worker is parked idle as the first search starts (no wait for it): the second search finds it.
    expect(r.stdout.trim()).toBe('rg 1 js');
  });

  it('still uses ripgrep for named files larger than 8 MiB together', async () => {
    const big = path.join(dir, 'big.log');
    fs.writeFileSync(big, Buffer.alloc(9 * 1024 * 1024, 0x61));
    try {
      const events = await collect({ engine: 'auto', paths: ['a.txt', 'big.log'] });
      expect(summaryOf(events).engine).toBe('rg');
    } finally {
      fs.rmSync(big);
    }
  });

  it('still uses ripgrep when a directory is among the roots', async () => {
    const events = await collect({ engine: 'auto', paths: ['a.txt', '.'] });
    expect(summaryOf(events).engine).toBe('rg');
  });
});
