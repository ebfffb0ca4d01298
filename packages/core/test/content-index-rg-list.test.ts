import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContentIndex } from '../src/content-index/index.js';
import type { SearchEvent, SpawnRg } from '../src/engine/index.js';
import { type SeamedSearchRequest, searchWithSeams } from '../src/engine/search.js';
import type { SearchSummary } from '../src/search/events.js';
import { withIndex as openedIndex } from './fixtures/with-index.js';

/**
 * A search the index declines for a scan (its candidates are too large a share for the js workers) is read by rg
 * over the index's candidate list, given as named files — only when every candidate reads the same named as
 * walked (no NUL byte, within the size cap) by the index's records. Every answer equals rg's own scan: files,
 * lines, offsets, counts, in the scan's order, whatever the batches, edits since the base, ignore rules.
 */
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-rg-list-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Past MIN_FILES_FOR_SHARE_RULE; `needle` in one file of three: over the share rule, under RG_LIST_MAX_SHARE. */
const FILES = 300;

function tree(name: string, extra: Record<string, string | Buffer> = {}): string {
  const root = path.join(tmp, name);
  for (let k = 0; k < FILES; k++) {
    // Siblings whose names order differently by path bytes and by name (`a-b` < `a.c` < `a/`).
    const dir = path.join(root, ['a', 'a-b', 'a.c', 'b/deep', 'c'][k % 5]!);
    fs.mkdirSync(dir, { recursive: true });
    const body =
      k % 3 === 0 ? `line one\nthe Needle ${k}\nneedle again\ntail\n` : `nothing here ${k}\nat all\n`;
    fs.writeFileSync(path.join(dir, `f${k}.txt`), body);
  }
  fs.writeFileSync(path.join(root, '-'), 'a file named dash with a needle\n');
  fs.writeFileSync(path.join(root, '.ignore'), 'ignored/\n');
  fs.mkdirSync(path.join(root, 'ignored'));
  fs.writeFileSync(path.join(root, 'ignored', 'x.txt'), 'an ignored needle\n');
  for (const [rel, text] of Object.entries(extra)) fs.writeFileSync(path.join(root, rel), text);
  // Dated back: fresh mtimes would make every record racy and send it to the overlay.
  const past = new Date(Date.now() - 3_600_000);
  for (const d of fs.readdirSync(root, { recursive: true }) as string[])
    fs.utimesSync(path.join(root, d), past, past);
  return root;
}

function withIndex(root: string, f: (index: ContentIndex) => Promise<void>): Promise<void> {
  return openedIndex(root, path.join(tmp, `data-${path.basename(root)}`), f);
}

interface Ran {
  events: SearchEvent[];
  summary: SearchSummary;
  argvs: string[][];
}

/** The search's events (the summary's timing, reasons and bytes read aside) and every rg argv it ran. */
async function run(root: string, q: Partial<SeamedSearchRequest>, index?: ContentIndex): Promise<Ran> {
  const argvs: string[][] = [];
  const spawnRg: SpawnRg = (cmd, args, options) => {
    argvs.push([...args]);
    return (q.spawnRg ?? spawn)(cmd, args, options);
  };
  const events: SearchEvent[] = [];
  let summary: SearchSummary | null = null;
  for await (const e of searchWithSeams({
    pattern: 'needle',
    cwd: root,
    ...q,
    spawnRg,
    ...(index ? { index } : {}),
  })) {
    if (e.type === 'summary') {
      summary = e.summary;
      // What was read (files, bytes) is what the index saves; what was found must be the same.
      const {
        elapsedMs: _e,
        engineReason: _r,
        index: _i,
        filesSearched: _f,
        bytesSearched: _b,
        ...found
      } = e.summary;
      events.push({ type: 'summary', summary: found as SearchSummary });
    } else events.push(e);
  }
  expect(summary?.engine, `${JSON.stringify(q)} ${summary?.index?.reason}`).toBe('rg');
  return { events, summary: summary!, argvs };
}

const listed = (r: Ran) => r.summary.index?.used === true && /rg reads the list/.test(r.summary.index.reason);

/** Each case runs tens of searches, rg processes and index syncs: no machine-speed bound (a loaded box is slow). */
const SEARCHES_TIMEOUT = 600_000;

const QUERIES: Array<Partial<SeamedSearchRequest>> = [
  {},
  { mode: 'files-with-matches' },
  { mode: 'count' },
  { caseInsensitive: true, beforeContext: 1, afterContext: 1 },
  { maxCount: 1 },
  { pattern: 'needle \\d+', caseInsensitive: true },
  { paths: ['a', 'a-b', 'a.c', 'b'] },
  { globs: ['*.txt', '!f3*'] },
];

async function sameAsScan(
  root: string,
  index: ContentIndex,
  extra: Partial<SeamedSearchRequest> = {},
  queries = QUERIES,
): Promise<Ran[]> {
  const out: Ran[] = [];
  for (const q of queries) {
    const through = await run(root, { ...q, ...extra }, index);
    const scan = await run(root, { ...q, ...extra });
    expect(through.events, JSON.stringify(q)).toEqual(scan.events);
    out.push(through);
  }
  return out;
}

describe('rg over the index candidate list', () => {
  it(
    'a listed file swapped for a link before rg reads it is left out, as the walk would leave it (security)',
    async () => {
      const root = tree('swapped');
      const outside = path.join(tmp, 'outside-swapped');
      fs.mkdirSync(outside, { recursive: true });
      fs.writeFileSync(path.join(outside, 'secret.txt'), 'needle SECRET_FILE\n');
      for (const k of [0, 3, 6, 9, 12, 15])
        fs.writeFileSync(path.join(outside, `f${k}.txt`), 'needle SECRET_DIR\n');
      await withIndex(root, async (index) => {
        const before = await run(root, {}, index);
        expect(listed(before)).toBe(true);
        // Between the index's answer and rg's read: a file becomes a link out of the tree, a directory too.
        let swapped = false;
        const spawnRg: SpawnRg = (cmd, args, options) => {
          if (!swapped) {
            swapped = true;
            fs.rmSync(path.join(root, 'a', 'f0.txt'));
            fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'a', 'f0.txt'));
            fs.rmSync(path.join(root, 'c'), { recursive: true });
            fs.symlinkSync(outside, path.join(root, 'c'));
          }
          return spawn(cmd, args, options);
        };
        const r = await run(root, { spawnRg }, index);
        expect(listed(r)).toBe(true);
        const text = JSON.stringify(r.events);
        expect(text).not.toContain('SECRET');
        const ends = r.events.filter((e) => e.type === 'end').map((e) => (e.type === 'end' ? e.path : ''));
        expect(ends).not.toContain('a/f0.txt');
        expect(ends.some((p) => p.startsWith('c/'))).toBe(false);
        expect(ends.length).toBeGreaterThan(0);
        const found = r.summary.filesWithMatch;
        expect(found).toBe(ends.length);
      });
    },
    SEARCHES_TIMEOUT,
  );

  it(
    'answers as the scan in every mode, as named files without walk flags, and says so',
    async () => {
      const root = tree('plain');
      await withIndex(root, async (index) => {
        const runs = await sameAsScan(root, index);
        for (const r of runs) expect(listed(r), r.summary.index?.reason).toBe(true);
        const first = runs[0]!;
        expect(first.summary.index?.candidates).toBeGreaterThanOrEqual(FILES / 3 + 1);
        expect(first.summary.index?.candidates).toBeLessThan(FILES / 2);
        expect(first.argvs).toHaveLength(1);
        expect(first.argvs[0]).not.toContain('--max-filesize');
        expect(first.argvs[0]).toContain('./-');
        expect(first.events.some((e) => e.type === 'end' && e.path === '-')).toBe(true);
        expect(first.events.some((e) => e.type === 'end' && e.path.includes('ignored'))).toBe(false);
        // Under the root `.` the walk spells the file `./-`, and so must the list's answer (as the scan's).
        const dotted = await sameAsScan(root, index, { paths: ['.'] }, [{}]);
        expect(listed(dotted[0]!)).toBe(true);
        expect(dotted[0]!.events.some((e) => e.type === 'end' && e.path === './-')).toBe(true);
      });
    },
    SEARCHES_TIMEOUT,
  );

  it(
    'reporting files without a match (--files-without-match, --include-zero): not through the index',
    async () => {
      const root = tree('unmatched');
      await withIndex(root, async (index) => {
        for (const q of [
          { reportUnmatched: true },
          { reportUnmatched: true, countMatches: true, mode: 'count' as const },
        ]) {
          const through = await run(root, q, index);
          expect(through.summary.index?.used).toBe(false);
          expect(through.events).toEqual((await run(root, q)).events);
        }
      });
    },
    SEARCHES_TIMEOUT,
  );

  it(
    'sees every edit since the base, searched right after it',
    async () => {
      const root = tree('edits');
      await withIndex(root, async (index) => {
        fs.appendFileSync(path.join(root, 'a', 'f5.txt'), 'a needle appended\n'); // not a candidate before
        fs.writeFileSync(path.join(root, 'c', 'new.txt'), 'a created needle\n');
        fs.rmSync(path.join(root, 'a', 'f0.txt')); // a candidate, gone
        fs.writeFileSync(path.join(root, 'b/deep', 'f3.txt'), 'rewritten without it\n');
        fs.writeFileSync(path.join(root, '.ignore'), 'ignored/\nc/\n'); // a candidate directory ignored
        fs.writeFileSync(path.join(root, 'ignored', 'y.txt'), 'still ignored needle\n');
        const runs = await sameAsScan(root, index);
        for (const r of runs) expect(listed(r), r.summary.index?.reason).toBe(true);
        const paths = runs[0]!.events.flatMap((e) => (e.type === 'end' ? [e.path] : []));
        expect(paths).toContain('a/f5.txt');
        expect(paths).not.toContain('a/f0.txt');
        expect(paths).not.toContain('b/deep/f3.txt');
        expect(paths.some((p) => p.startsWith('c/') || p.startsWith('ignored/'))).toBe(false);
      });
    },
    SEARCHES_TIMEOUT,
  );

  it(
    'a candidate holding a NUL (in the base, or created since): scans',
    async () => {
      const nul = Buffer.from('needle first\n\0binary after a needle\n');
      const root = tree('nul', { 'a/bin.txt': nul });
      await withIndex(root, async (index) => {
        for (const r of await sameAsScan(root, index)) expect(listed(r), r.summary.index?.reason).toBe(false);
      });
      const root2 = tree('nul-later');
      await withIndex(root2, async (index) => {
        expect(listed(await run(root2, {}, index))).toBe(true);
        fs.writeFileSync(path.join(root2, 'a', 'late.txt'), Buffer.from('\0a needle after the NUL\n'));
        for (const r of await sameAsScan(root2, index))
          expect(listed(r), r.summary.index?.reason).toBe(false);
      });
    },
    SEARCHES_TIMEOUT,
  );

  it(
    'a candidate over --max-filesize (in the base, or grown since): scans, and the file is skipped',
    async () => {
      const cap = 200;
      const root = tree('over', { 'a/big.txt': `a big needle\n${'y'.repeat(cap)}\n` });
      await withIndex(root, async (index) => {
        for (const r of await sameAsScan(root, index, { maxFilesize: cap })) {
          expect(listed(r), r.summary.index?.reason).toBe(false);
          expect(r.events.some((e) => e.type === 'end' && e.path.endsWith('big.txt'))).toBe(false);
        }
      });
      const root2 = tree('grown');
      await withIndex(root2, async (index) => {
        expect(listed(await run(root2, { maxFilesize: cap }, index))).toBe(true);
        fs.appendFileSync(path.join(root2, 'a', 'f0.txt'), `${'z'.repeat(cap)}\n`);
        for (const r of await sameAsScan(root2, index, { maxFilesize: cap }))
          expect(listed(r), r.summary.index?.reason).toBe(false);
      });
    },
    SEARCHES_TIMEOUT,
  );

  it(
    'a list in many batches, held or streamed, answers the same',
    async () => {
      const root = tree('batches');
      await withIndex(root, async (index) => {
        for (const extra of [{ rgListArgvBytes: 200 }, { rgListArgvBytes: 200, rgHeldOutputBytes: 300 }]) {
          // A batch per ~8 paths, every rg start counting: three modes (lines held or streamed, counts).
          const runs = await sameAsScan(root, index, extra, QUERIES.slice(0, 3));
          expect(listed(runs[0]!)).toBe(true);
          expect(runs[0]!.argvs.length).toBeGreaterThan(5);
          if (extra.rgHeldOutputBytes) expect(runs[0]!.argvs.some((a) => a.includes('--threads'))).toBe(true);
        }
      });
    },
    SEARCHES_TIMEOUT,
  );

  it(
    'an abort or the deadline mid-list stops it: no later batch runs, what was found is the scan’s',
    async () => {
      const root = tree('stop');
      await withIndex(root, async (index) => {
        const scan = await run(root, {});
        const ends = (events: SearchEvent[]) => events.flatMap((e) => (e.type === 'end' ? [e.path] : []));
        // Abort once the first batch's results arrive.
        const controller = new AbortController();
        let spawned = 0;
        const events: SearchEvent[] = [];
        for await (const e of searchWithSeams({
          pattern: 'needle',
          cwd: root,
          index,
          rgListArgvBytes: 200,
          signal: controller.signal,
          spawnRg: (cmd, args, options) => {
            spawned++;
            return spawn(cmd, args, options);
          },
        })) {
          events.push(e);
          if (e.type === 'end') controller.abort();
        }
        const summary = events.at(-1);
        expect(summary?.type === 'summary' && summary.summary.outcome).toBe('aborted');
        expect(spawned).toBe(1);
        const found = ends(events);
        expect(found.length).toBeGreaterThan(0);
        expect(ends(scan.events).slice(0, found.length)).toEqual(found);

        // The deadline passes (an injected clock) as the second batch starts: the first batch's results stay.
        let late = 0;
        let started = 0;
        const timed = await run(
          root,
          {
            rgListArgvBytes: 200,
            deadlineMs: 60_000,
            now: () => Date.now() + late,
            spawnRg: (cmd, args, options) => {
              if (++started === 2) late = 120_000;
              return spawn(cmd, args, options);
            },
          },
          index,
        );
        expect(timed.summary.outcome).toBe('timeout');
        // The second batch, cut while held (in parallel), is tried again in order (--threads 1), which the deadline
        // cuts too: no later batch runs.
        expect(timed.argvs).toHaveLength(3);
        expect(timed.argvs[2]!.slice(0, 2)).toEqual(['--threads', '1']);
        expect(timed.argvs[2]!.slice(-3)).toEqual(timed.argvs[1]!.slice(-3));
        const partial = ends(timed.events);
        expect(partial.length).toBeGreaterThan(0);
        expect(ends(scan.events).slice(0, partial.length)).toEqual(partial);
      });
    },
    SEARCHES_TIMEOUT,
  );
});
