/**
 * Issue 11 item 12: the rg engine started one ripgrep per named file (its one-rg-per-root rule exists for
 * directories, whose parent ignore rules ripgrep 15 applies racily with several roots). A page of 20 files
 * fetched after a counting walk cost 20 process starts, most of a one-shot `trawl search`. Named files now
 * go to one rg, and come back in the caller's order; output too large to hold falls back to one rg each.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpawnRg } from '../src/engine/index.js';
import { type SeamedSearchRequest, searchWithSeams } from '../src/engine/search.js';

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-rg-named-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
for (const name of ['c.txt', 'a.txt', 'b.txt']) fs.writeFileSync(path.join(dir, name), `needle ${name}\n`);
fs.mkdirSync(path.join(dir, 'sub'));
fs.writeFileSync(path.join(dir, 'sub', 'd.txt'), 'needle d\n');

async function run(paths: string[], extra: Partial<SeamedSearchRequest> = {}) {
  let spawns = 0;
  const spawnRg: SpawnRg = (cmd, args, options) => {
    spawns++;
    return spawn(cmd, args, options);
  };
  const files: string[] = [];
  for await (const ev of searchWithSeams({
    pattern: 'needle',
    cwd: dir,
    paths,
    engine: 'rg',
    spawnRg,
    ...extra,
  }))
    if (ev.type === 'end') files.push(ev.path);
  return { spawns, files };
}

describe('rg engine: named files', () => {
  it('several named files are one rg, in the order they were named', async () => {
    expect(await run(['c.txt', 'a.txt', 'b.txt'])).toEqual({ spawns: 1, files: ['c.txt', 'a.txt', 'b.txt'] });
    const abs = ['b.txt', 'c.txt'].map((f) => path.join(dir, f));
    expect(await run(abs)).toEqual({ spawns: 1, files: abs });
  });

  it('output too large to hold: one rg each, the same answer in the same order', async () => {
    // The batch overflows; each file then overflows too and is streamed (`--sort path`): 1 + 3 × 2.
    expect(await run(['c.txt', 'a.txt', 'b.txt'], { rgHeldOutputBytes: 1 })).toEqual({
      spawns: 7,
      files: ['c.txt', 'a.txt', 'b.txt'],
    });
  });

  it('a directory among the roots keeps one rg per root', async () => {
    expect(await run(['c.txt', 'sub'])).toEqual({ spawns: 2, files: ['c.txt', 'sub/d.txt'] });
  });
});
