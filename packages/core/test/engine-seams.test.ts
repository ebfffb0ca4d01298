import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SearchRequest, type SpawnRg, search } from '../src/engine/index.js';
import { searchWithSeams } from '../src/engine/search.js';

/**
 * A search's test seams (how rg is started, the engines' size thresholds) are not part of the public request: a
 * caller of `search` cannot set them, typed or not; tests pass them through `searchWithSeams`.
 */

let dir: string;
beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-engine-seams-')));
  fs.writeFileSync(path.join(dir, 'a.txt'), 'needle here\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function files(events: AsyncIterable<{ type: string; path?: string }>): Promise<string[]> {
  const out: string[] = [];
  for await (const e of events) if (e.type === 'end' && e.path) out.push(e.path);
  return out;
}

describe('search seams', () => {
  it('are not read from a public request, even when one is slipped in untyped', async () => {
    let spawned = 0;
    const spawnRg: SpawnRg = (cmd, args, options) => {
      spawned++;
      return spawn(cmd, args, options);
    };
    const slipped = { pattern: 'needle', cwd: dir, engine: 'rg', spawnRg } as unknown as SearchRequest;
    expect(await files(search(slipped))).toEqual(['a.txt']);
    expect(spawned).toBe(0);
    // @ts-expect-error spawnRg is a test seam, not a SearchRequest field
    const typed: SearchRequest = { pattern: 'needle', cwd: dir, spawnRg };
    expect(typed.pattern).toBe('needle');
  });

  it('are honoured through searchWithSeams', async () => {
    let spawned = 0;
    const spawnRg: SpawnRg = (cmd, args, options) => {
      spawned++;
      return spawn(cmd, args, options);
    };
    expect(await files(searchWithSeams({ pattern: 'needle', cwd: dir, engine: 'rg', spawnRg }))).toEqual([
      'a.txt',
    ]);
    expect(spawned).toBeGreaterThan(0);
  });
});
