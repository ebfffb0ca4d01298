import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpawnRg } from '../src/engine/index.js';
import { type SeamedSearchRequest, searchWithSeams } from '../src/engine/search.js';
import { RG_HELD_FILES } from '../src/limits.js';
import { credentialTree } from './fixtures/credential-tree.js';

/**
 * The rg engine opens the files it is named, judges each where it is, and hands rg the descriptors: what rg reads
 * is the file judged, whatever the path leads to by the time rg would have opened it.
 */

const CANARY = 'CANARYrgheld9d2';
let tmp: string;
let home: string;
let proj: string;

beforeEach(() => {
  ({ tmp, home, proj } = credentialTree('trawl-rg-held-', CANARY, 'needle notes\n'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Searches with rg (started by `req.spawnRg` if given); `beforeSpawn` runs as each rg is about to start. */
async function run(req: Partial<SeamedSearchRequest>, beforeSpawn?: () => void) {
  let spawns = 0;
  let text = '';
  const files: string[] = [];
  const errors: string[] = [];
  const spawnRg: SpawnRg = (cmd, args, options) => {
    spawns++;
    beforeSpawn?.();
    return (req.spawnRg ?? spawn)(cmd, args, options);
  };
  for await (const e of searchWithSeams({ pattern: 'needle', cwd: proj, engine: 'rg', ...req, spawnRg })) {
    if (e.type === 'match') text += e.text;
    if (e.type === 'end') files.push(e.path);
    if (e.type === 'summary') for (const x of e.summary.errors) errors.push(`${x.code} ${x.path}`);
  }
  return { spawns, text, files, errors };
}

/** `d` exchanged for a link to the store, as a racing renameat2(RENAME_EXCHANGE) leaves it. */
function swap(): void {
  fs.renameSync(path.join(proj, 'd'), path.join(proj, 'd.real'));
  fs.symlinkSync(path.join(home, '.ssh'), path.join(proj, 'd'));
}

describe('rg engine: named files are read through the descriptors judged', () => {
  for (const paths of [['d/id_ed25519'], ['d/id_ed25519', 'notes.txt']]) {
    it(`a directory swapped for a link just before rg starts changes nothing it reads (${paths.length} named)`, async () => {
      const r = await run({ paths }, swap);
      expect(r.spawns).toBe(1);
      expect(r.text).toContain('needle decoy');
      expect(r.text).not.toContain(CANARY);
      expect(r.files[0]).toBe('d/id_ed25519');
    });
  }

  it('a named file that leads into an excluded place is left out, judged where it leads', async () => {
    swap();
    const store = path.join(home, '.ssh');
    const r = await run({
      paths: ['d/id_ed25519', 'notes.txt'],
      exclude: (canon) => canon === store || canon.startsWith(`${store}/`),
    });
    expect(r.files).toEqual(['notes.txt']);
    expect(r.text).not.toContain(CANARY);
  });

  it("never reports a name rg's own walk found in a directory that is not the tree's", async () => {
    // What rg walking by path sees when `d` is exchanged for a link to the store between its listing of the root
    // and its opening of `d`: the store's names under `d/`. Modelled by running it in a copy of the tree whose `d/`
    // holds a name of the store (the race itself cannot be timed from here; swap-race.test.ts runs it).
    const seen = path.join(tmp, 'seen');
    fs.mkdirSync(path.join(seen, 'd'), { recursive: true });
    fs.writeFileSync(path.join(seen, 'notes.txt'), 'needle notes\n');
    fs.writeFileSync(path.join(seen, 'd', 'id_ed25519'), 'needle decoy\n');
    fs.writeFileSync(path.join(seen, 'd', `${CANARY}_key`), 'needle\n');
    const store = path.join(home, '.ssh');
    const r = await run({
      paths: [''],
      mode: 'files-with-matches',
      exclude: (canon) => canon === store || canon.startsWith(`${store}/`),
      spawnRg: (cmd, args, options) => spawn(cmd, args, { ...options, cwd: seen }),
    });
    expect(r.files).toEqual(['d/id_ed25519', 'notes.txt']);
  });

  it(`more than ${RG_HELD_FILES} named files take several runs, answered in the order named`, async () => {
    const names: string[] = [];
    for (let i = 0; i < RG_HELD_FILES + 3; i++) {
      const name = `f${String(RG_HELD_FILES + 3 - i).padStart(4, '0')}.txt`;
      fs.writeFileSync(path.join(proj, name), 'needle\n');
      names.push(name);
    }
    const r = await run({ paths: names });
    expect(r.spawns).toBe(2);
    expect(r.files).toEqual(names);
    expect(r.errors).toEqual([]);
  });
});
