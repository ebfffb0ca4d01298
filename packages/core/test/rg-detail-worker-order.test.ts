import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SearchEvent, SpawnRg } from '../src/engine/index.js';
import { searchWorkerStats } from '../src/engine/js/worker-pool.js';
import { searchBatchesWithSeams } from '../src/engine/search.js';
import { BUNDLED_RG, itHasRipgrep } from './fixtures/ripgreps.js';

/**
 * The rg engine with a detail horizon counts with rg, then reads the first files' lines in a js worker
 * (engine/rg/rg-detail.ts). The worker is started once rg is spawned, not before: a thread booting while the
 * process forks for rg made the spawn slower (a CPU profile of a one-shot `trawl search`: 12 ms → 28 ms).
 */
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-rg-detail-order-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(dir, `f${i}.txt`), `x\nneedle ${i}\n`);

describe('rg engine, detail horizon: the lines worker is started after rg', () => {
  itHasRipgrep(BUNDLED_RG, 'rg-detail-worker-order');
  it.runIf(BUNDLED_RG.path)(
    'no worker is started before the count run is spawned; one is after',
    async () => {
      const before = searchWorkerStats();
      const atSpawn: number[] = [];
      const spawnRg: SpawnRg = (cmd, args, options) => {
        atSpawn.push(searchWorkerStats().started + searchWorkerStats().reused);
        return spawn(cmd, args, options);
      };
      const events: SearchEvent[] = [];
      for await (const batch of searchBatchesWithSeams({
        pattern: 'needle',
        cwd: dir,
        engine: 'rg',
        rgPath: BUNDLED_RG.path!,
        detailFiles: 2,
        spawnRg,
      }))
        events.push(...batch);
      expect(events.filter((e) => e.type === 'match').map((e) => e.path)).toEqual(['f0.txt', 'f1.txt']);
      expect(atSpawn).toEqual([before.started + before.reused]);
      expect(searchWorkerStats().started).toBe(before.started + 1);
    },
  );
});
