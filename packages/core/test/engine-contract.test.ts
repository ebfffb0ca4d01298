import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineUnavailableError, type SearchEvent, type SearchSummary } from '../src/engine/index.js';
import type { SpawnRg } from '../src/engine/run.js';
import { type SeamedSearchRequest, searchBatchesWithSeams } from '../src/engine/search.js';

/**
 * One contract, both engines: a detail horizon (`detailFiles`: the first N matching files in path order in full,
 * every later one counted exactly), a count mode (counts and totals, no match event; rg read through `--count`,
 * never its JSON), and the rg → js fallback of `auto` (an rg that cannot start, or fails before finding anything).
 */
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-contract-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// f00..f11 in a directory and beside it; file k holds k % 4 matching lines, the last with two matches.
const expected = new Map<string, { lines: number; matches: number }>();
for (const sub of ['', 'sub/']) {
  fs.mkdirSync(path.join(dir, sub), { recursive: true });
  for (let k = 0; k < 12; k++) {
    const rel = `${sub}f${String(k).padStart(2, '0')}.txt`;
    const n = k % 4;
    let text = 'head\n';
    for (let i = 0; i < n; i++) text += i === n - 1 ? `needle ${i} needle\nctx\n` : `needle ${i}\nctx\n`;
    fs.writeFileSync(path.join(dir, rel), text);
    if (n > 0) expected.set(rel, { lines: n, matches: n + 1 });
  }
}
// Apart: a walked file with a NUL after its matches (past the first 64 KiB, where a NUL makes the whole file
// binary to both engines), one with a NUL before them.
const bin = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-contract-bin-')));
afterAll(() => fs.rmSync(bin, { recursive: true, force: true }));
fs.writeFileSync(
  path.join(bin, 'late.dat'),
  `needle one\nneedle two\n${'filler line\n'.repeat(8000)}x\0y\nneedle after\n`,
);
fs.writeFileSync(path.join(bin, 'early.dat'), 'x\0y\nneedle\n');
fs.writeFileSync(path.join(bin, 'text.txt'), 'needle\n');
const inOrder = [...expected.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
const totals = [...expected.values()].reduce(
  (t, e) => ({ lines: t.lines + e.lines, matches: t.matches + e.matches }),
  { lines: 0, matches: 0 },
);

/** The events of a search, and the rg command lines it ran. */
async function collect(request: SeamedSearchRequest): Promise<{ events: SearchEvent[]; argv: string[][] }> {
  const argv: string[][] = [];
  const spawnRg: SpawnRg = (cmd, args, options) => {
    argv.push([...args]);
    return (request.spawnRg ?? spawn)(cmd, args, options);
  };
  const events: SearchEvent[] = [];
  for await (const batch of searchBatchesWithSeams({ cwd: dir, ...request, spawnRg })) events.push(...batch);
  return { events, argv };
}

function summaryOf(events: SearchEvent[]): SearchSummary {
  const last = events.at(-1);
  if (last?.type !== 'summary') throw new Error('no summary');
  return last.summary;
}

/**
 * An event without what differs between engines by nature: bytes searched, the summary's engine and times, and
 * the count a counted file was not asked for (ripgrep prints one count per file).
 */
function comparable(e: SearchEvent, counts = false): unknown {
  if (e.type === 'end') {
    const stats = { ...e.stats, bytesSearched: 0, ...(counts || e.counted ? { matches: -1 } : {}) };
    return { ...e, stats };
  }
  if (e.type === 'summary') {
    const { filesWithMatch, matches, matchedLines, outcome } = e.summary;
    return { type: 'summary', filesWithMatch, matches, matchedLines, outcome };
  }
  return e;
}

describe.each(['js', 'rg'] as const)('engine %s: the contract', (engine) => {
  it('detailFiles: the first N matching files in path order in full, every later one counted exactly', async () => {
    const { events } = await collect({ pattern: 'needle', engine, detailFiles: 4, afterContext: 1 });
    const ends = events.filter((e) => e.type === 'end');
    expect(ends.map((e) => e.path)).toEqual(inOrder);
    for (const [k, e] of ends.entries()) {
      expect(e.stats.matchedLines).toBe(expected.get(e.path)!.lines);
      if (k < 4) expect(e).not.toHaveProperty('counted');
      else expect(e.counted).toBe(true);
    }
    const detailed = new Set(inOrder.slice(0, 4));
    const lined = events.filter((e) => e.type === 'match' || e.type === 'context' || e.type === 'begin');
    expect(new Set(lined.map((e) => (e as { path: string }).path))).toEqual(detailed);
    expect(events.filter((e) => e.type === 'match')).toHaveLength(
      inOrder.slice(0, 4).reduce((n, p) => n + expected.get(p)!.lines, 0),
    );
    expect(events.some((e) => e.type === 'context')).toBe(true);
    expect(summaryOf(events)).toMatchObject({
      filesWithMatch: inOrder.length,
      matchedLines: totals.lines,
      matches: totals.matches,
      outcome: 'complete',
    });
  });

  it('detailFiles past the horizon counts within maxCount', async () => {
    const { events } = await collect({ pattern: 'needle', engine, detailFiles: 1, maxCount: 2 });
    for (const e of events.filter((x) => x.type === 'end'))
      expect(e.stats.matchedLines).toBe(Math.min(2, expected.get(e.path)!.lines));
  });

  it('count mode: one end a matching file with its exact count, exact totals, no line', async () => {
    const { events, argv } = await collect({ pattern: 'needle', engine, mode: 'count' });
    expect(events.filter((e) => e.type !== 'end' && e.type !== 'summary')).toEqual([]);
    const ends = events.filter((e) => e.type === 'end');
    expect(ends.map((e) => [e.path, e.stats.matchedLines])).toEqual(
      inOrder.map((p) => [p, expected.get(p)!.lines]),
    );
    expect(summaryOf(events)).toMatchObject({ matchedLines: totals.lines, matches: totals.matches });
    // The rg engine reads counts, never every match as JSON.
    for (const a of argv) expect(a).not.toContain('--json');
  });

  it('count mode with countMatches: the matches of each file', async () => {
    const { events } = await collect({ pattern: 'needle', engine, mode: 'count', countMatches: true });
    const ends = events.filter((e) => e.type === 'end');
    expect(ends.map((e) => [e.path, e.stats.matches])).toEqual(
      inOrder.map((p) => [p, expected.get(p)!.matches]),
    );
  });
});

describe('both engines answer alike', () => {
  for (const request of [
    { pattern: 'needle', detailFiles: 3 },
    { pattern: 'needle', detailFiles: 0 },
    { pattern: 'needle \\d', detailFiles: 5, beforeContext: 1 },
    { pattern: 'needle', mode: 'count' as const },
    { pattern: 'needle', paths: ['sub', 'f03.txt'], detailFiles: 2 },
    // rg's --count leaves out a walked file whose NUL follows its matches; its lines output does not.
    { pattern: 'needle', cwd: bin, mode: 'count' as const },
    { pattern: 'needle', cwd: bin, detailFiles: 1 },
    { pattern: 'needle', cwd: bin, detailFiles: 0 },
  ]) {
    it(JSON.stringify({ ...request, cwd: request.cwd && 'bin' }), async () => {
      const js = await collect({ ...request, engine: 'js' });
      const rg = await collect({ ...request, engine: 'rg' });
      const counts = request.mode === 'count';
      expect(rg.events.map((e) => comparable(e, counts))).toEqual(
        js.events.map((e) => comparable(e, counts)),
      );
    });
  }
});

describe.each(['js', 'rg'] as const)('engine %s: a walked file with a NUL after its matches', (engine) => {
  it('is counted with the matches before its NUL, and says where the NUL is', async () => {
    const { events } = await collect({ pattern: 'needle', cwd: bin, engine, mode: 'count' });
    const ends = events.filter((e) => e.type === 'end');
    expect(ends.map((e) => [e.path, e.stats.matchedLines, e.binaryOffset !== null])).toEqual([
      ['late.dat', 2, true],
      ['text.txt', 1, false],
    ]);
  });
});

// Apart: walked files past a size cap (sparse: no block is written), beside a small one that matches.
const sized = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-contract-size-')));
afterAll(() => fs.rmSync(sized, { recursive: true, force: true }));
fs.mkdirSync(path.join(sized, 'sub'));
fs.writeFileSync(path.join(sized, 'a.txt'), 'needle\n');
fs.writeFileSync(path.join(sized, 'b.bin'), '');
fs.truncateSync(path.join(sized, 'b.bin'), 8192);
fs.writeFileSync(path.join(sized, 'sub', 'huge.log'), `needle\n${'x'.repeat(8192)}\n`);
fs.writeFileSync(path.join(sized, 'z.txt'), 'needle\n');

describe.each(['js', 'rg'] as const)('engine %s: walked files past the size cap', (engine) => {
  for (const held of [true, false]) {
    it(`are named and counted as skipped (${held ? 'output held' : 'output streamed'})`, async () => {
      const { events } = await collect({
        pattern: 'needle',
        cwd: sized,
        engine,
        maxFilesize: 4096,
        ...(held ? {} : { rgHeldOutputBytes: 0 }),
      });
      const skips = events.filter((e) => e.type === 'skip');
      expect(skips.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
        { type: 'skip', path: 'b.bin', reason: 'too-large', message: 'larger than 4096 bytes' },
        { type: 'skip', path: 'sub/huge.log', reason: 'too-large', message: 'larger than 4096 bytes' },
      ]);
      expect(events.filter((e) => e.type === 'end').map((e) => e.path)).toEqual(['a.txt', 'z.txt']);
      expect(summaryOf(events).skipped['too-large']).toBe(2);
    });
  }

  it('a file past the cap that the caller excludes is neither named nor counted', async () => {
    const { events } = await collect({
      pattern: 'needle',
      cwd: sized,
      engine,
      maxFilesize: 4096,
      exclude: (canonical) => canonical.endsWith('/sub/huge.log'),
    });
    expect(events.filter((e) => e.type === 'skip').map((e) => e.path)).toEqual(['b.bin']);
    expect(summaryOf(events).skipped['too-large']).toBe(1);
  });
});

describe('auto: rg → js inside the engine', () => {
  /** An rg that cannot be started (its binary is gone). */
  const missing: SpawnRg = (_cmd, args, options) => spawn(path.join(dir, 'no-such-rg'), args, options);
  /** An rg that starts and fails before finding anything (exit 2 with a complaint of its own). */
  const failing: SpawnRg = (_cmd, _args, options) =>
    spawn('/bin/sh', ['-c', 'echo "rg: regex too big" >&2; exit 2'], {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  it('an rg that cannot start: the js engine answers, and the summary says why', async () => {
    const js = await collect({ pattern: 'needle', engine: 'js', detailFiles: 2 });
    const auto = await collect({ pattern: 'needle', engine: 'auto', detailFiles: 2, spawnRg: missing });
    expect(auto.argv.length).toBeGreaterThan(0);
    expect(auto.events.map((e) => comparable(e))).toEqual(js.events.map((e) => comparable(e)));
    const s = summaryOf(auto.events);
    expect(s.engine).toBe('js');
    expect(s.fallback).toMatch(/^rg failed: cannot run rg/);
  });

  it('an rg that fails before finding anything: the js engine answers', async () => {
    const auto = await collect({ pattern: 'needle', engine: 'auto', mode: 'count', spawnRg: failing });
    const s = summaryOf(auto.events);
    expect(s).toMatchObject({
      engine: 'js',
      matchedLines: totals.lines,
      fallback: 'rg failed: regex too big',
    });
  });

  it('rg asked for by name: no fallback, a typed error or rg’s own report', async () => {
    await expect(collect({ pattern: 'needle', engine: 'rg', spawnRg: missing })).rejects.toBeInstanceOf(
      EngineUnavailableError,
    );
    const failed = summaryOf((await collect({ pattern: 'needle', engine: 'rg', spawnRg: failing })).events);
    expect(failed.engine).toBe('rg');
    expect(failed.fallback).toBeUndefined();
    expect(failed.errors.map((e) => e.code)).toContain('ERG');
  });
});
