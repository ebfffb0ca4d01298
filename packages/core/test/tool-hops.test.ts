import { createHook } from 'node:async_hooks';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIndex } from '../src/content-index/index.js';
import { searchBatches, searchWorkerStats } from '../src/engine/index.js';
import type { SearchSummary } from '../src/search/events.js';
import { hashlineTag, searchTool, TagCache } from '../src/tool/index.js';
import { TAG_SYNC_READ_BYTES } from '../src/tool/limits.js';

/**
 * The thread hops of one search call. Each thread-pool round trip wakes a sleeping pool thread and then this
 * one (0.1–0.4 ms after an idle pause on a VM): a call makes a fixed few, never one per file shown.
 */

let tmp: string;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-tool-hops-')));
  for (let i = 0; i < 12; i++) fs.writeFileSync(path.join(tmp, `f${i}.txt`), `line\nneedle_${i % 3}\n`);
  fs.mkdirSync(path.join(tmp, 'many'));
  for (let i = 0; i < 80; i++)
    fs.writeFileSync(path.join(tmp, 'many', `m${i}.txt`), i % 2 === 0 ? `x\nmany_token ${i}\n` : 'nothing\n');
  fs.writeFileSync(path.join(tmp, 'big.txt'), `${'x'.repeat(TAG_SYNC_READ_BYTES)}\nneedle_big\n`);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Thread-pool file-system requests started while `fn` runs (promise and callback APIs both). */
async function poolRequests(fn: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'FSREQPROMISE' || type === 'FSREQCALLBACK') n++;
    },
  });
  hook.enable();
  try {
    await fn();
  } finally {
    hook.disable();
  }
  return n;
}

describe('thread-pool round trips of a call', () => {
  it('the page’s tags take none: a call showing 12 files makes as many as one showing none', async () => {
    const opts = { cwd: tmp, format: 'hashline' as const, engine: 'js' as const, tagCache: new TagCache() };
    const none = await poolRequests(() => searchTool({ pattern: 'no_such_qq', paths: ['.'] }, opts));
    let text = '';
    const twelve = await poolRequests(async () => {
      text = (await searchTool({ pattern: 'needle_[0-2]', paths: ['.'] }, opts)).text;
    });
    expect(text.match(/^# f\d+\.txt#[0-9A-F]{4}$/gm)?.length).toBe(12);
    expect(twelve).toBe(none);
  });

  it('a small file is tagged on the calling thread, a large one through the pool; both tags are the content’s', async () => {
    const cache = new TagCache(() => Date.now() + 3_600_000);
    const small = path.join(tmp, 'f1.txt');
    const big = path.join(tmp, 'big.txt');
    let tags: Array<string | null> = [];
    expect(await poolRequests(async () => tags.push(await cache.tagOf(small)))).toBe(0);
    expect(await poolRequests(async () => tags.push(await cache.tagOf(big)))).toBeGreaterThan(0);
    expect(tags).toEqual([hashlineTag(fs.readFileSync(small)), hashlineTag(fs.readFileSync(big))]);
    // Remembered: the second time, no read at all.
    tags = [];
    expect(await poolRequests(async () => tags.push(await cache.tagOf(big)))).toBe(0);
    expect(tags).toEqual([hashlineTag(fs.readFileSync(big))]);
  });
});

describe('worker round trips of a search through the index', () => {
  it('its candidates (a list known whole) go to the worker in one batch, not in small first batches', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-tool-hops-data-'));
    const index = openIndex(tmp, { dataDir });
    try {
      await index.whenReady();
      const before = searchWorkerStats().batches;
      let summary: SearchSummary | null = null;
      let ends = 0;
      // A clock that jumps at every reading: a batch cut when a walk's time slice is spent would be one per file.
      let t = 0;
      const now = () => (t += 50);
      const request = { pattern: 'many_token', cwd: tmp, engine: 'js' as const, index, now, deadlineMs: 1e9 };
      for await (const batch of searchBatches(request))
        for (const e of batch) {
          if (e.type === 'end') ends++;
          if (e.type === 'summary') summary = e.summary;
        }
      expect(summary?.index).toMatchObject({ used: true, candidates: 40 });
      expect(ends).toBe(40);
      expect(searchWorkerStats().batches - before).toBe(1);
    } finally {
      await index.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
