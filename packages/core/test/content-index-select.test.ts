import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Freshness } from '../src/content-index/freshness.js';
import { type ContentIndex, openIndex } from '../src/content-index/index.js';
import { type SearchRequest, search } from '../src/engine/search.js';
import type { SearchSummary } from '../src/search/events.js';

/**
 * How a watched index picks a search's files: from the query's candidates and the files changed since the
 * base, never by visiting every walked file — and still exactly what a scan finds, whatever changed.
 */

let tmp: string;
let root: string;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-cindex-select-')));
  root = path.join(tmp, 'tree');
  for (let i = 0; i < 400; i++) {
    const d = path.join(root, `d${i % 8}`);
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(
      path.join(d, `f${i}.txt`),
      `line ${i}\n${i % 50 === 0 ? 'rare_token_xyz here\n' : 'common words only\n'}`,
    );
  }
  fs.writeFileSync(path.join(root, 'd1', 'big.txt'), `${'filler line without it\n'.repeat(200)}`);
  // Written an hour ago: fresh mtimes would make every record racy (re-read into the overlay at once).
  const past = new Date(Date.now() - 3_600_000);
  for (const d of fs.readdirSync(root))
    for (const f of fs.readdirSync(path.join(root, d))) fs.utimesSync(path.join(root, d, f), past, past);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface Answer {
  files: string[];
  summary: SearchSummary;
}

async function answer(req: Omit<SearchRequest, 'cwd' | 'engine'>): Promise<Answer> {
  const files: string[] = [];
  let summary: SearchSummary | null = null;
  for await (const e of search({ ...req, cwd: root, engine: 'js' })) {
    if (e.type === 'end' || e.type === 'skip') files.push(`${e.type} ${e.path}`);
    if (e.type === 'summary') summary = e.summary;
  }
  return { files, summary: summary! };
}

type BaseData = { records: Float64Array; postings: object };

/**
 * Counts the property reads `counts` accepts on one table of the index's base (`records`, `postings`) while
 * `fn` runs.
 */
async function reads(
  index: ContentIndex,
  table: keyof BaseData,
  counts: (key: string | symbol) => boolean,
  fn: () => Promise<unknown>,
): Promise<number> {
  const data = (index as unknown as { base: { data: BaseData } }).base.data;
  const real = data[table];
  let n = 0;
  (data as Record<string, unknown>)[table] = new Proxy(real, {
    get(target, key) {
      if (counts(key)) n++;
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  try {
    await fn();
  } finally {
    (data as Record<string, unknown>)[table] = real;
  }
  return n;
}

const element = (key: string | symbol) => typeof key === 'string' && /^\d+$/.test(key);

/** An index of the tree in its own data directory, ready, closed after `fn`. */
async function withIndex(name: string, fn: (index: ContentIndex) => Promise<void>): Promise<void> {
  const index = openIndex(root, { dataDir: path.join(tmp, `data-${name}`) });
  try {
    await index.whenReady();
    expect(index.status()).toMatchObject({ state: 'ready', freshness: 'events' });
    await fn(index);
  } finally {
    await index.close();
  }
}

describe('content index: select', () => {
  it('consults the candidates and the changed files only, and answers as a scan does', () =>
    withIndex('watched', async (index) => {
      const q = { pattern: 'rare_token_xyz' };
      const first = await answer({ ...q, index });
      expect(first.summary.index).toMatchObject({ used: true, candidates: 8, files: 401 });
      // The walk is cached now: a second select reads the records of its candidates, not of 401 files.
      const n = await reads(index, 'records', element, () => answer({ ...q, index }));
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(8 * 8);

      // Changes: a file gains the token, one loses it, a new file has it, one that had it is deleted, and a
      // file is edited without it. Each is consulted (judged by its new content); nothing else is.
      fs.appendFileSync(path.join(root, 'd3', 'f3.txt'), 'now rare_token_xyz too\n');
      fs.writeFileSync(path.join(root, 'd0', 'f0.txt'), 'no longer\n');
      fs.writeFileSync(path.join(root, 'd5', 'new.txt'), 'a new rare_token_xyz\n');
      fs.rmSync(path.join(root, 'd2', 'f50.txt'));
      fs.appendFileSync(path.join(root, 'd4', 'f4.txt'), 'unrelated\n');
      // A changed file is judged by first asking whether it is still pending (selection.ts judgeChanged).
      const pending = vi.spyOn(Freshness.prototype, 'isPending');
      let judged: string[];
      let through: Answer;
      try {
        through = await answer({ ...q, index });
        judged = pending.mock.calls.map(([rel]) => rel);
      } finally {
        pending.mockRestore();
      }
      expect(judged.sort()).toEqual(['d0/f0.txt', 'd3/f3.txt', 'd4/f4.txt', 'd5/new.txt']);
      const scan = await answer(q);
      expect(through.files).toEqual(scan.files);
      expect(through.files).toContain('end d3/f3.txt');
      expect(through.files).toContain('end d5/new.txt');
      expect(through.files).not.toContain('end d0/f0.txt');
      expect(through.summary.filesWithMatch).toBe(scan.summary.filesWithMatch);
      expect(through.summary.index).toMatchObject({ used: true, candidates: 8, files: 401 });
    }));

  it('an agent call that finds nothing reads the lists once for its two searches', () =>
    withIndex('evaluation', async (index) => {
      // The tool's second search (ignore rules off, hidden files in) has another walk, the same query.
      const q = { pattern: 'zz_nowhere_token' };
      let a: Answer | undefined;
      let b: Answer | undefined;
      const first = await reads(
        index,
        'postings',
        () => true,
        async () => {
          a = await answer({ ...q, index });
        },
      );
      const second = await reads(
        index,
        'postings',
        () => true,
        async () => {
          b = await answer({ ...q, index, ignoreFiles: false, hidden: true });
        },
      );
      expect(first).toBeGreaterThan(0);
      expect(second).toBe(0);
      expect([a?.summary.index?.candidates, b?.summary.index?.candidates]).toEqual([0, 0]);
      // Another query is evaluated afresh, and answers as a scan does.
      let other: Answer | undefined;
      const third = await reads(
        index,
        'postings',
        () => true,
        async () => {
          other = await answer({ pattern: 'rare_token_xyz', index });
        },
      );
      expect(third).toBeGreaterThan(0);
      expect(other?.files).toEqual((await answer({ pattern: 'rare_token_xyz' })).files);
    }));

  it('a changed file not re-indexed yet is still searched', async () => {
    // More changes than a search re-indexes before it answers (REINDEX_PER_SEARCH): those still pending are
    // read by the search unjudged. Every one of them now holds the token.
    const edited: string[] = [];
    try {
      await withIndex('pending', async (index) => {
        for (let i = 1; i < 400; i += 1) {
          if (i % 50 === 0) continue;
          const rel = `d${i % 8}/f${i}.txt`;
          fs.appendFileSync(path.join(root, rel), 'pending rare_token_xyz\n');
          edited.push(rel);
        }
        expect(edited.length).toBeGreaterThan(300);
        const q = { pattern: 'rare_token_xyz', mode: 'files-with-matches' as const };
        const through = await answer({ ...q, index });
        expect(through.files).toEqual((await answer(q)).files);
        for (const rel of edited) expect(through.files).toContain(`end ${rel}`);
        expect(through.summary.index?.used).toBe(false); // nearly every file may match now: a scan is faster
        // With a smaller share the index answers, and reads every pending file.
        const few = await answer({ ...q, index, paths: ['d1'] });
        expect(few.summary.index?.used).toBe(true);
        expect(few.files).toEqual((await answer({ ...q, paths: ['d1'] })).files);
        for (const rel of edited.filter((r) => r.startsWith('d1/')))
          expect(few.files).toContain(`end ${rel}`);
      });
    } finally {
      for (const rel of edited) {
        const f = path.join(root, rel);
        fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('pending rare_token_xyz\n', ''));
      }
    }
  });

  // Each walk option shapes the walk the index keeps: a walk kept for one search must not answer another.
  it('a walk kept for one set of walk options does not answer a search with others', () =>
    withIndex('walk-options', async (index) => {
      const q = { pattern: 'rare_token_xyz' };
      for (const extra of [
        { maxDepth: 1 },
        {},
        { fileTypes: { include: ['*.md'], exclude: [] } },
        {},
        { fileTypes: { include: [], exclude: ['*.txt'] } },
        { maxDepth: 2 },
        {},
      ] as Array<Partial<SearchRequest>>) {
        const through = await answer({ ...q, ...extra, index });
        expect(through.files, JSON.stringify(extra)).toEqual((await answer({ ...q, ...extra })).files);
      }
    }));

  it('files past the size cap and walks that yield a file twice answer as a scan does', () =>
    withIndex('caps', async (index) => {
      // big.txt holds no token, but past the cap the searcher reports it as skipped: it must be handed over.
      const capped = { pattern: 'rare_token_xyz', maxFilesize: 1000 };
      const through = await answer({ ...capped, index });
      expect(through.files).toEqual((await answer(capped)).files);
      expect(through.files).toContain('skip d1/big.txt');
      expect(through.summary.index?.used).toBe(true);
      // Overlapping roots: the walk yields d1's files twice (as a scan does), in walk order.
      const twice = { pattern: 'rare_token_xyz', paths: ['d1', '.', 'd1'] };
      const t2 = await answer({ ...twice, index });
      expect(t2.files).toEqual((await answer(twice)).files);
      expect(t2.summary.index?.used).toBe(true);
    }));
});
