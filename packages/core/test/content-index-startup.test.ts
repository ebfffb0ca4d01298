import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_FILE } from '../src/content-index/format.js';
import { type ContentIndex, indexDirFor, openIndex } from '../src/content-index/index.js';
import { nodeWatchDir, type WatchDir } from '../src/content-index/watch.js';
import { search } from '../src/engine/search.js';
import type { SearchSummary } from '../src/search/events.js';

/**
 * Start-up with a persisted index (content-index.ts open/loadBase, index-worker.ts `load`), on worker threads as
 * a server runs it: whatever changed while no process watched is re-read, wherever it is; a file changed just
 * before its directory's watch is in place is seen too (its stat comes after the watch); a damaged file is
 * never trusted.
 */

let tmp: string;
let root: string;
/** A few hundred directories, nested three deep, and files at the root. */
const DIRS = 135;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-cindex-startup-')));
  root = path.join(tmp, 'tree');
  for (let i = 0; i < DIRS; i++) {
    const d = path.join(root, `a${i % 5}`, `b${i}`, 'c');
    fs.mkdirSync(d, { recursive: true });
    for (let k = 0; k < 3; k++) fs.writeFileSync(path.join(d, `f${k}.txt`), `file ${i}.${k}\nplain words\n`);
  }
  for (let k = 0; k < 4; k++) fs.writeFileSync(path.join(root, `top${k}.txt`), `top ${k}\nplain words\n`);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function summaryOf(pattern: string, index?: ContentIndex): Promise<SearchSummary> {
  let s: SearchSummary | null = null;
  for await (const e of search({ pattern, cwd: root, engine: 'js', ...(index ? { index } : {}) }))
    if (e.type === 'summary') s = e.summary;
  return s!;
}

/** The index of `root` in `dataDir`, built (on threads, as a server does) and closed. */
async function persisted(dataDir: string): Promise<void> {
  const index = openIndex(root, { dataDir });
  await index.whenReady();
  expect(index.status().reason).toMatch(/^rebuilt: no index/);
  await index.close();
}

/** Every file in the tree, root-relative. */
function files(): string[] {
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)));
}

describe('content index: start-up with a persisted index', () => {
  it('re-reads every file that changed while no process watched, in any directory', async () => {
    const dataDir = path.join(tmp, 'data-offline');
    await persisted(dataDir);
    const saved = new Map(files().map((f) => [f, fs.readFileSync(path.join(root, f))]));
    try {
      // Offline: an edit at the root, in the first and the last directory walked, a new directory, a
      // directory removed, a file replaced by a new inode of the same size, a file only touched.
      fs.appendFileSync(path.join(root, 'top2.txt'), 'offline_token_q\n');
      fs.appendFileSync(path.join(root, 'a0', 'b0', 'c', 'f1.txt'), 'offline_token_q\n');
      fs.appendFileSync(
        path.join(root, `a${(DIRS - 1) % 5}`, `b${DIRS - 1}`, 'c', 'f2.txt'),
        'offline_token_q\n',
      );
      fs.mkdirSync(path.join(root, 'a3', 'new', 'deeper'), { recursive: true });
      fs.writeFileSync(path.join(root, 'a3', 'new', 'deeper', 'n.txt'), 'offline_token_q\n');
      fs.rmSync(path.join(root, 'a1', 'b6'), { recursive: true });
      const same = path.join(root, 'a4', 'b9', 'c', 'f0.txt');
      const body = fs.readFileSync(same, 'utf8');
      fs.rmSync(same);
      fs.writeFileSync(same, body.replace('plain', 'offln')); // same size, new inode and mtime
      const touched = path.join(root, 'a2', 'b7', 'c', 'f0.txt');
      fs.utimesSync(touched, new Date(), new Date('2030-01-01T00:00:00Z'));

      const index = openIndex(root, { dataDir });
      await index.whenReady();
      const st = index.status();
      expect(st.reason).toMatch(/^loaded;/);
      expect(st.freshness).toBe('events');
      // 3 appended + 1 new + 1 replaced + 1 touched (the removed directory's 3 files are gone, not changed).
      expect(st.changedSinceBuild).toBe(6);
      for (const pattern of ['offline_token_q', 'offln words', 'plain words', 'file 6\\.']) {
        const scan = await summaryOf(pattern);
        const through = await summaryOf(pattern, index);
        // A common pattern may scan (the share rule); the rare ones go through the index.
        if (pattern !== 'plain words') expect(through.index?.used, pattern).toBe(true);
        expect([through.filesWithMatch, through.matches], pattern).toEqual([
          scan.filesWithMatch,
          scan.matches,
        ]);
      }
      expect((await summaryOf('offline_token_q', index)).filesWithMatch).toBe(4);
      await index.close();
    } finally {
      fs.rmSync(root, { recursive: true });
      for (const [f, bytes] of saved) {
        fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
        fs.writeFileSync(path.join(root, f), bytes);
      }
    }
  });

  it('sees a file changed just before its directory is watched (its stat comes after the watch)', async () => {
    const dataDir = path.join(tmp, 'data-race');
    await persisted(dataDir);
    const target = path.join(root, 'a2', `b${DIRS - 3}`, 'c', 'f1.txt');
    const before = fs.readFileSync(target);
    // The change lands after the load worker started and before the watch exists: no event will report it,
    // only a stat made after the watch can. A stat made earlier (at the worker's start) would find the
    // recorded size and miss it. The pause (a blocked thread, not a wait for anything) gives a premature stat
    // the time to happen first; the rule holds without it.
    const watchDir: WatchDir = (dir, onEvent, onError) => {
      if (dir === path.dirname(target)) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
        fs.appendFileSync(target, 'raced_token_w\n');
      }
      return nodeWatchDir(dir, onEvent, onError);
    };
    try {
      const index = openIndex(root, { dataDir, watchDir, platform: 'linux' });
      await index.whenReady();
      expect(index.status()).toMatchObject({ freshness: 'events', changedSinceBuild: 1 });
      const s = await summaryOf('raced_token_w', index);
      expect(s.index?.used).toBe(true);
      expect(s.filesWithMatch).toBe(1);
      await index.close();
    } finally {
      fs.writeFileSync(target, before);
    }
  });

  it('never trusts a damaged file: a flipped byte in the lists or a truncated file is rebuilt', async () => {
    const dataDir = path.join(tmp, 'data-damaged');
    await persisted(dataDir);
    const file = path.join(indexDirFor(dataDir, root), INDEX_FILE);
    const good = fs.readFileSync(file);
    const flipped = Buffer.from(good);
    flipped[good.length - 40]! ^= 0xff;
    const cases: Array<[string, Buffer, RegExp]> = [
      ['flipped byte in the lists', flipped, /checksum/],
      ['truncated', good.subarray(0, good.length - 100), /section|checksum|truncated/],
    ];
    for (const [what, bytes, reason] of cases) {
      fs.writeFileSync(file, bytes);
      const index = openIndex(root, { dataDir });
      await index.whenReady();
      expect(index.status().state, what).toBe('ready');
      expect(index.status().reason, what).toMatch(/^rebuilt: /);
      expect(index.status().reason, what).toMatch(reason);
      expect((await summaryOf('plain words', index)).filesWithMatch, what).toBe(DIRS * 3 + 4);
      await index.close();
    }
  });
});
