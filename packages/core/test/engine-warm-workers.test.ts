import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { keepSearchWorkersWarm, search, searchWorkerStats } from '../src/engine/index.js';
import { IDLE_SEARCH_WORKER_MS } from '../src/limits.js';

/**
 * A long-lived server keeps a search worker warm (`keepSearchWorkersWarm`): an agent that pauses longer than
 * IDLE_SEARCH_WORKER_MS between calls does not wait for a worker to start at its next search. Without a hold,
 * an idle worker still leaves after that long. Timers are faked: nothing here waits for real time.
 */
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-warm-workers-')));
fs.writeFileSync(path.join(dir, 'a.txt'), 'needle\n');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

async function searchOnce(): Promise<number> {
  let matches = 0;
  for await (const e of search({ pattern: 'needle', cwd: dir, engine: 'js' }))
    if (e.type === 'match') matches++;
  return matches;
}

describe('keepSearchWorkersWarm', () => {
  it('keeps an idle worker past the idle expiry until released; searches reuse it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const release = keepSearchWorkersWarm(1);
    expect(searchWorkerStats().idle).toBe(1); // started now, idle
    const started = searchWorkerStats().started;
    for (let k = 0; k < 3; k++) {
      vi.advanceTimersByTime(IDLE_SEARCH_WORKER_MS * 2);
      expect(searchWorkerStats().idle).toBe(1);
      expect(await searchOnce()).toBe(1);
    }
    expect(searchWorkerStats().started).toBe(started); // every search found it warm
    release();
    vi.advanceTimersByTime(IDLE_SEARCH_WORKER_MS + 1);
    expect(searchWorkerStats().idle).toBe(0);
  });

  it('without a hold, an idle worker leaves after IDLE_SEARCH_WORKER_MS', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    expect(await searchOnce()).toBe(1);
    expect(searchWorkerStats().idle).toBeGreaterThan(0);
    vi.advanceTimersByTime(IDLE_SEARCH_WORKER_MS + 1);
    expect(searchWorkerStats().idle).toBe(0);
  });
});
