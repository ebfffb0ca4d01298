import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchEvent } from '../src/engine/index.js';
import type { SpawnRg } from '../src/engine/run.js';
import { type SeamedSearchRequest, searchBatchesWithSeams } from '../src/engine/search.js';
import { RUNAWAY_LINE, RUNAWAY_PATTERN } from './fixtures/runaway.js';
import { run as runTool } from './fixtures/tool/helpers.js';

/**
 * What a deadline cuts is the tail in path order: the files a cut search reports are the first matching files,
 * with no gap, so a next page (`skip`) continues after them and hides none. The inputs can never finish (a line
 * the pattern backtracks on for ever, an rg that never ends), so what is reported cannot depend on the machine's
 * speed: only on where the input stops the search.
 */
async function collect(request: SeamedSearchRequest): Promise<SearchEvent[]> {
  const out: SearchEvent[] = [];
  for await (const batch of searchBatchesWithSeams(request)) out.push(...batch);
  return out;
}

function summaryOf(events: SearchEvent[]) {
  const last = events.at(-1);
  if (last?.type !== 'summary') throw new Error('no summary');
  return last.summary;
}

describe('js engine: a deadline cuts the walk’s tail', () => {
  let tree: string;
  const names: string[] = [];
  beforeAll(() => {
    // A file no worker can finish, with hundreds of matching files before it and thousands after: the other
    // worker searches batches after it while it is stuck.
    tree = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-cut-js-')));
    const put = (name: string, text: string) => {
      fs.writeFileSync(path.join(tree, name), text);
      names.push(name);
    };
    for (let i = 0; i < 600; i++) put(`b${String(i).padStart(4, '0')}.txt`, 'needle\n');
    put('c-stuck.txt', `${RUNAWAY_LINE}\n`);
    for (let i = 0; i < 3000; i++) put(`d${String(i).padStart(4, '0')}.txt`, 'needle\n');
    names.sort();
  });
  afterAll(() => fs.rmSync(tree, { recursive: true, force: true }));

  for (const mode of ['lines', 'count'] as const) {
    it(`reports a prefix of the files in path order, nothing after the stuck one (${mode})`, async () => {
      const events = await collect({
        pattern: `${RUNAWAY_PATTERN}|needle`,
        cwd: tree,
        engine: 'js',
        workers: 2,
        mode,
        deadlineMs: 2_000,
      });
      expect(summaryOf(events).outcome).toBe('timeout');
      const ends = events.filter((e) => e.type === 'end').map((e) => e.path);
      expect(ends.length).toBeGreaterThan(0);
      expect(ends).toEqual(names.slice(0, ends.length));
      expect(ends.every((p) => p < 'c-stuck.txt')).toBe(true);
      expect(summaryOf(events).filesWithMatch).toBe(ends.length);
    });
  }

  it('the search tool’s pages under a deadline follow each other with no file skipped', async () => {
    const page = (skip: number) =>
      runTool(
        tree,
        { pattern: `${RUNAWAY_PATTERN}|needle`, paths: '.', output: 'files', skip },
        { engine: 'js', deadlineMs: 2_000, homeDir: tree },
      );
    const first = await page(0);
    expect(first.details.outcome).toBe('timeout');
    const next = await page(first.details.nextSkip!);
    const shown = [...first.details.files, ...next.details.files];
    expect(shown.length).toBeGreaterThan(first.details.files.length);
    expect(shown).toEqual(names.slice(0, shown.length));
  });
});

describe('rg engine: a deadline cuts the tail, not files from anywhere', () => {
  let tree: string;
  beforeAll(() => {
    tree = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-cut-rg-')));
    for (const f of ['a/x.txt', 'm/stuck.txt', 'z/late.txt']) {
      fs.mkdirSync(path.dirname(path.join(tree, f)), { recursive: true });
      fs.writeFileSync(path.join(tree, f), 'needle\n');
    }
  });
  afterAll(() => fs.rmSync(tree, { recursive: true, force: true }));

  /**
   * An rg that never ends: in parallel (as rg runs first) one thread has finished z/late.txt while another is
   * stuck; in path order (`--sort path`) it has reported a/x.txt and is stuck on m/.
   */
  const neverEnding: SpawnRg = (_cmd, args, options) => {
    const first = args.includes('--sort') ? 'a/x.txt' : 'z/late.txt';
    return spawn('/bin/sh', ['-c', `printf '%s\\0001\\n' '${first}'; exec sleep 600`], {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  };

  it('started again in path order when the parallel run is cut: the first files only', async () => {
    const events = await collect({
      pattern: 'needle',
      cwd: tree,
      engine: 'rg',
      mode: 'count',
      deadlineMs: 1_500,
      spawnRg: neverEnding,
    });
    expect(summaryOf(events).outcome).toBe('timeout');
    expect(events.filter((e) => e.type === 'end').map((e) => e.path)).toEqual(['a/x.txt']);
    expect(summaryOf(events).filesWithMatch).toBe(1);
  });
});
