import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContentIndex } from '../src/content-index/index.js';
import type { SearchEvent, SpawnRg } from '../src/engine/index.js';
import { type SeamedSearchRequest, searchWithSeams } from '../src/engine/search.js';
import { withIndex as openedIndex } from './fixtures/with-index.js';

/**
 * A scan the index declines skips ripgrep's per-file size check (--max-filesize: a stat per file) only when the
 * index vouches that no walked file is over the cap: watched, every size known. Whatever the flag, the answer is
 * the search's without the index.
 */
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-size-cap-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const CAP = 1000;
/** Past MIN_FILES_FOR_SHARE_RULE, every file matching: the index declines for a scan. */
const FILES = 240;

function tree(name: string, extra: Record<string, string> = {}): string {
  const root = path.join(tmp, name);
  for (let k = 0; k < FILES; k++) {
    const dir = path.join(root, `d${k % 7}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${k}.txt`), `broad needle ${k}\nfiller\n`);
  }
  // Exactly at the cap: searched (only files larger than the cap are skipped).
  fs.writeFileSync(path.join(root, 'at-cap.txt'), `broad needle at cap\n${'x'.repeat(CAP - 21)}\n`);
  expect(fs.statSync(path.join(root, 'at-cap.txt')).size).toBe(CAP);
  for (const [rel, text] of Object.entries(extra)) fs.writeFileSync(path.join(root, rel), text);
  // Dated back: fresh mtimes would make every record racy and send it to the overlay.
  const past = new Date(Date.now() - 3_600_000);
  for (const d of fs.readdirSync(root, { recursive: true }) as string[])
    fs.utimesSync(path.join(root, d), past, past);
  return root;
}

/** Runs `f` with the tree's index open (watched or not), and closes it. */
function withIndex(root: string, watch: boolean, f: (index: ContentIndex) => Promise<void>): Promise<void> {
  return openedIndex(root, path.join(tmp, `data-${path.basename(root)}`), f, { watch });
}

/** The search's events (elapsed time aside) and the argv of every rg it started. */
async function run(
  root: string,
  index?: ContentIndex,
): Promise<{ events: SearchEvent[]; argvs: string[][] }> {
  const argvs: string[][] = [];
  const spawnRg: SpawnRg = (cmd, args, options) => {
    argvs.push([...args]);
    return spawn(cmd, args, options);
  };
  const req: SeamedSearchRequest = {
    pattern: 'needle',
    cwd: root,
    paths: ['.'],
    maxFilesize: CAP,
    spawnRg,
    engine: index ? 'auto' : 'rg',
    ...(index ? { index } : {}),
  };
  const events: SearchEvent[] = [];
  for await (const e of searchWithSeams(req)) {
    if (e.type === 'summary') {
      expect(e.summary.engine).toBe('rg');
      if (index) expect(e.summary.index?.used).toBe(false);
      events.push({ ...e, summary: { ...e.summary, elapsedMs: 0, engineReason: '', index: undefined } });
    } else events.push(e);
  }
  return { events, argvs };
}

const sizeChecked = (argvs: string[][]) => argvs.map((a) => a.includes('--max-filesize'));

describe('a declined scan and the size cap', () => {
  it('all files within the cap, watched: rg is not asked to check sizes; same answer', async () => {
    const root = tree('within');
    await withIndex(root, true, async (index) => {
      const plain = await run(root);
      const through = await run(root, index);
      expect(sizeChecked(plain.argvs)).toEqual([true]);
      expect(sizeChecked(through.argvs)).toEqual([false]);
      expect(through.events).toEqual(plain.events);
      expect(through.events.some((e) => e.type === 'end' && e.path.endsWith('at-cap.txt'))).toBe(true);
    });
  });

  it('a file over the cap in the base: the check stays; same answer (the file is skipped)', async () => {
    const root = tree('over', { 'big.txt': `broad needle big\n${'y'.repeat(CAP + 50)}\n` });
    await withIndex(root, true, async (index) => {
      const plain = await run(root);
      const through = await run(root, index);
      expect(sizeChecked(through.argvs)).toEqual([true]);
      expect(through.events).toEqual(plain.events);
      expect(through.events.some((e) => e.type === 'end' && e.path.endsWith('big.txt'))).toBe(false);
    });
  });

  it('a file grown past the cap after the base, watched: the growth is seen and the check stays', async () => {
    const root = tree('grown');
    await withIndex(root, true, async (index) => {
      expect(sizeChecked((await run(root, index)).argvs)).toEqual([false]);
      fs.appendFileSync(path.join(root, 'd3', 'f3.txt'), `${'z'.repeat(CAP)}\n`);
      const through = await run(root, index);
      const plain = await run(root);
      expect(sizeChecked(through.argvs)).toEqual([true]);
      expect(through.events).toEqual(plain.events);
      expect(through.events.some((e) => e.type === 'end' && e.path.endsWith('d3/f3.txt'))).toBe(false);
    });
  });

  it('an unwatched index never vouches for sizes', async () => {
    const root = tree('unwatched');
    await withIndex(root, false, async (index) => {
      const through = await run(root, index);
      expect(sizeChecked(through.argvs)).toEqual([true]);
      expect(through.events).toEqual((await run(root)).events);
    });
  });
});
