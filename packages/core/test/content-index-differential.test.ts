import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContentIndex, openIndex } from '../src/content-index/index.js';
import { type SearchRequest, search } from '../src/engine/search.js';
import { smartCaseInsensitive } from '../src/match/rg-patterns.js';
import type { SearchEvent, SearchSummary } from '../src/search/events.js';
import { rng } from './parity/random.js';

/**
 * The index picks the files a search reads and never changes what it finds: every search through it must
 * equal the same search by scan (files, lines, offsets, submatches, counts), on a generated tree and after
 * every step of a random edit sequence, searched right after each edit with no waiting.
 */

let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-cindex-diff-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const WORDS = [
  'alpha',
  'Beta',
  'GAMMA',
  'needle',
  'Needle',
  'haystack',
  'sched_clock',
  'foo_bar',
  'fooBar',
  'Straße',
  'STRASSE',
  'Kelvin',
  '\u212Aelvin',
  'ǅungla',
  'x',
  'ab',
  'zz9',
  'return',
  'function',
  'TODO',
  'café',
  'naïve',
  'λambda',
  '{',
  '}',
  '();',
  '1234',
  'deadbeef',
  // Case (grams are lowercased; any scheme that narrows by case must keep these exact): spellings of one
  // word, and letters whose folding changes their UTF-8 length (ſ ~ s, ẞ ~ ß ~ ss, K ~ KELVIN SIGN above).
  'PM_RESUME',
  'pm_resume',
  'Pm_Resume',
  'ſched_clock',
  'STRAẞE',
];

function text(r: () => number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const n = Math.floor(r() * 8);
    const words: string[] = [];
    for (let j = 0; j < n; j++) words.push(WORDS[Math.floor(r() * WORDS.length)]!);
    out.push(words.join(r() < 0.3 ? '' : ' '));
  }
  return `${out.join(r() < 0.1 ? '\r\n' : '\n')}${r() < 0.8 ? '\n' : ''}`;
}

/** Filler lines (no word of WORDS in them) with a word of WORDS on about one line in forty. */
function sparse(r: () => number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const filler = `\tlorem ipsum dolor ${Math.floor(r() * 1e6)};`;
    out.push(r() < 0.025 ? `${filler} ${text(r, 1).trim() || WORDS[i % WORDS.length]} end` : filler);
  }
  return `${out.join('\n')}\n`;
}

const DIRS = ['', 'src', 'src/lib', 'src/lib/deep', 'docs', '.hidden', 'build', 'node_modules/pkg', 'vendor'];

function generate(root: string, seed: number): void {
  const r = rng(seed);
  for (const d of DIRS) fs.mkdirSync(path.join(root, d), { recursive: true });
  for (let i = 0; i < 120; i++) {
    const d = DIRS[Math.floor(r() * DIRS.length)]!;
    const name = r() < 0.1 ? `.dot${i}.txt` : `f${i}.${['ts', 'c', 'md', 'txt'][i % 4]}`;
    fs.writeFileSync(path.join(root, d, name), text(r, Math.floor(r() * 30)));
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'build/\n*.md\n!docs/keep.md\n');
  fs.writeFileSync(path.join(root, 'docs', 'keep.md'), 'needle kept\n');
  fs.writeFileSync(path.join(root, 'src', '.ignore'), 'deep/\n');
  fs.writeFileSync(path.join(root, 'bin.dat'), Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1, 2]));
  // UTF-16 with a byte-order mark: the searcher decodes it, so its raw bytes do not hold the literals.
  fs.writeFileSync(
    path.join(root, 'src', 'wide.txt'),
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a needle in UTF-16\nGAMMA kelvin\n', 'utf16le')]),
  );
  fs.writeFileSync(path.join(root, 'src', 'big.txt'), `${'needle haystack\n'.repeat(4000)}tail alpha\n`);
  // Long files with rare words: an index with small blocks searches them through windows (search/windows.ts).
  for (const [k, d] of ['', 'src', 'src/lib', 'docs'].entries())
    fs.writeFileSync(path.join(root, d, `sparse${k}.c`), sparse(r, 300 + Math.floor(r() * 300)));
  fs.mkdirSync(path.join(root, '.git', 'info'), { recursive: true });
  fs.writeFileSync(path.join(root, '.git', 'info', 'exclude'), 'vendor/\n');
  fs.writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main needle\n');
  // Written an hour ago: fresh mtimes would make every record racy (re-read into the overlay at once), and the
  // base's own paths (block postings, windows) would go untested.
  const past = new Date(Date.now() - 3_600_000);
  for (const f of listFiles(root)) fs.utimesSync(f, past, past);
}

type Query = Omit<SearchRequest, 'cwd' | 'index' | 'engine'>;

const QUERIES: Query[] = [
  { pattern: 'needle' },
  { pattern: 'needle', caseInsensitive: true },
  { pattern: 'Needle|GAMMA' },
  { pattern: 'sched_clock', wordRegexp: true },
  { pattern: 'foo_?[bB]ar' },
  { pattern: 'stra(ss|ß)e', caseInsensitive: true },
  { pattern: 'kelvin', caseInsensitive: true },
  { pattern: 'ǆungla', caseInsensitive: true },
  { pattern: 'café|naïve' },
  { pattern: 'λambda' },
  { pattern: 'deadbeef\\d*' },
  { pattern: 'return\\s+function' },
  { pattern: '\\w+zz9' },
  { pattern: 'TODO', mode: 'count' },
  { pattern: 'alpha', mode: 'files-with-matches' },
  { pattern: 'haystack', maxCount: 2, beforeContext: 1, afterContext: 1 },
  // Context and caps around rare words: with small blocks these cross window edges (search/windows.ts).
  { pattern: 'needle', beforeContext: 3, afterContext: 2 },
  { pattern: 'Straße|deadbeef', maxCount: 1, afterContext: 4 },
  { pattern: 'kelvin', caseInsensitive: true, maxCount: 2, mode: 'count' },
  { pattern: 'needle', detailFiles: 3 },
  { pattern: 'needle', hidden: true },
  { pattern: 'needle', ignoreFiles: false },
  { pattern: 'needle', ignoreFiles: false, hidden: true },
  { pattern: 'needle', requireGit: false },
  { pattern: 'alpha', globs: ['*.ts'] },
  { pattern: 'alpha', globs: ['!src/**'] },
  { pattern: 'needle', paths: ['src', 'docs'] },
  { pattern: 'needle', paths: ['src/lib'], globs: ['**/*.c'], globBase: 'root', globMode: 'filter' },
  { pattern: 'Beta\\nGAMMA', multiline: true },
  { pattern: 'needle', fixedStrings: true, caseInsensitive: true },
  { pattern: 'alpha', maxFilesize: 1000 },
  { pattern: 'needle', exclude: (abs: string) => abs.includes(`${path.sep}lib`) },
  // Longer than a tiny test block (+ 3 bytes): the block query keeps only the literal's first bytes.
  { pattern: 'needle haystack\nneedle haystack', multiline: true },
  { pattern: 'sched_clockneedle|fooBarhaystack' },
  // An AND of literals (match/literals.ts `also`): within a line, or (-U, a match over lines) within a file.
  { pattern: 'needle.*haystack' },
  { pattern: 'haystack.*needle', beforeContext: 2, afterContext: 1 },
  { pattern: 'GAMMA.*alpha|alpha.*GAMMA' },
  { pattern: '(alpha|Beta)\\s*\\w*\\s*(haystack|deadbeef)' },
  { pattern: 'needle.*kelvin', caseInsensitive: true },
  { pattern: 'sched_clock \\w+ fooBar', wordRegexp: true },
  { pattern: 'return.*function.*1234', maxCount: 1 },
  { pattern: 'GAMMA[\\s\\S]{0,300}deadbeef', multiline: true },
  { pattern: 'needle.*haystack', multiline: true },
  // The literals say nothing of the raw bytes: inverted, --null-data, -E other than UTF-8.
  { pattern: 'needle', invertMatch: true },
  { pattern: 'needle', nullData: true },
  { pattern: 'needle', encoding: 'utf-16le' },
  { pattern: 'needle', encoding: 'none' },
  // Case: -s, -i, smart case (-S: insensitive for an all-lowercase pattern), inline flags, non-ASCII folding.
  { pattern: 'PM_RESUME' },
  { pattern: 'Pm_Resume|GAMMA' },
  { pattern: 'pm_resume', caseInsensitive: smartCaseInsensitive(['pm_resume'], false) },
  { pattern: 'PM_resume', caseInsensitive: smartCaseInsensitive(['PM_resume'], false) },
  { pattern: 'PM_RESUME', caseInsensitive: true },
  { pattern: '(?i)pm_RESUME' },
  { pattern: 'NEEDLE', caseInsensitive: true },
  { pattern: 'FOOBAR', fixedStrings: true, caseInsensitive: true },
  { pattern: 'SCHED_CLOCK', caseInsensitive: true },
  { pattern: 'straße', caseInsensitive: true },
  { pattern: 'STRAẞE' },
  { pattern: 'PM_RESUME.*GAMMA' },
  // Without a usable literal: these scan, and say so.
  { pattern: '[a-z]{5}\\d' },
  { pattern: 'ab' },
  { pattern: 'x|needle' },
];

/** What a search found, in order, with everything that must not depend on the index. */
function normalise(events: SearchEvent[]): { files: unknown[]; summary: Partial<SearchSummary> } {
  const files: unknown[] = [];
  let summary: SearchSummary | null = null;
  let counted = false;
  for (const e of events) {
    if (e.type === 'summary') summary = e.summary;
    else if (e.type === 'begin') continue;
    else if (e.type === 'skip' && e.reason === 'binary') continue;
    else if (e.type === 'match' || e.type === 'context') {
      files.push([
        e.type,
        e.path,
        e.lineNumber,
        e.absoluteOffset,
        e.text,
        e.submatches,
        e.truncated ?? false,
      ]);
    } else if (e.type === 'end' && e.counted) {
      // Past the detail horizon a file is searched only until it is known to match; how far that went
      // depends on worker scheduling (its stats are a lower bound), in a scan as much as through the index.
      files.push(['counted', e.path]);
      counted = true;
    } else if (e.type === 'end')
      files.push([
        'end',
        e.path,
        e.stats.matches,
        e.stats.matchedLines,
        e.stats.limitReached,
        e.counted ?? false,
        e.binaryOffset,
      ]);
    else files.push([e.type, e.path, e.reason]);
  }
  if (!summary) throw new Error('no summary');
  return {
    files,
    summary: {
      outcome: summary.outcome,
      filesWithMatch: summary.filesWithMatch,
      ...(counted ? {} : { matches: summary.matches, matchedLines: summary.matchedLines }),
      missingRoots: summary.missingRoots,
      errors: summary.errors,
    },
  };
}

async function collect(req: SearchRequest): Promise<{ events: SearchEvent[]; summary: SearchSummary }> {
  const events: SearchEvent[] = [];
  for await (const e of search(req)) events.push(e);
  const last = events[events.length - 1];
  if (last?.type !== 'summary') throw new Error('no summary');
  return { events, summary: last.summary };
}

async function compareAll(
  root: string,
  index: ContentIndex,
  label: string,
  counts = { windowed: 0 },
): Promise<number> {
  let used = 0;
  for (const q of QUERIES) {
    const scan = await collect({ ...q, cwd: root, engine: 'js' });
    const through = await collect({ ...q, cwd: root, engine: 'js', index });
    const what = `${label}: ${JSON.stringify({ ...q, exclude: q.exclude ? 'fn' : undefined })}`;
    expect(normalise(through.events), what).toEqual(normalise(scan.events));
    expect(through.summary.index, what).toBeDefined();
    if (through.summary.index!.used) used++;
    counts.windowed += through.summary.index!.windowed ?? 0;
  }
  return used;
}

async function withIndex<T>(
  root: string,
  options: { watch?: boolean } & Record<string, unknown>,
  fn: (i: ContentIndex) => Promise<T>,
): Promise<T> {
  const index = openIndex(root, { dataDir: path.join(tmp, `data-${path.basename(root)}`), ...options });
  try {
    await index.whenReady();
    expect(index.status().state).toBe('ready');
    return await fn(index);
  } finally {
    await index.close();
  }
}

type Edit = (root: string, r: () => number) => string;

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.git') walk(p);
      } else out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

const pick = <T>(r: () => number, xs: T[]): T => xs[Math.floor(r() * xs.length)]!;

const EDITS: Edit[] = [
  (root, r) => {
    const f = pick(r, listFiles(root));
    fs.appendFileSync(f, `${text(r, 2)}needle appended\n`);
    return `append ${f}`;
  },
  (root, r) => {
    const f = pick(r, listFiles(root));
    fs.writeFileSync(f, text(r, 5));
    return `rewrite ${f}`;
  },
  (root, r) => {
    // Same size, new content: only the watcher (or the racy rule) can tell.
    const f = pick(r, listFiles(root));
    const old = fs.readFileSync(f);
    const neu = Buffer.alloc(old.length, 0x7a);
    Buffer.from('GAMMA').copy(neu, 0, 0, Math.min(5, old.length));
    fs.writeFileSync(f, neu);
    return `same-size rewrite ${f}`;
  },
  (root, r) => {
    const d = path.join(
      root,
      pick(
        r,
        DIRS.filter((x) => fs.existsSync(path.join(root, x))),
      ),
    );
    const f = path.join(d, `new${Math.floor(r() * 1e6)}.ts`);
    fs.writeFileSync(f, `${text(r, 3)}sched_clock needle fooBar\n`);
    return `create ${f}`;
  },
  (root, r) => {
    const f = pick(r, listFiles(root));
    fs.rmSync(f);
    return `delete ${f}`;
  },
  (root, r) => {
    // The same words in another case: the overlay must know the new spelling (any case scheme included).
    const f = pick(r, listFiles(root));
    const old = fs.readFileSync(f, 'latin1');
    const flipped = old.replace(/[a-zA-Z]/g, (c) =>
      c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase(),
    );
    fs.writeFileSync(f, `${flipped}pm_resume PM_RESUME\n`, 'latin1');
    return `case flip ${f}`;
  },
  (root, r) => {
    const f = pick(r, listFiles(root));
    const to = path.join(path.dirname(f), `renamed${Math.floor(r() * 1e6)}.c`);
    fs.renameSync(f, to);
    return `rename ${f} → ${to}`;
  },
  (root, r) => {
    const f = pick(r, listFiles(root));
    fs.writeFileSync(
      f,
      Buffer.concat([Buffer.from('needle alpha\n'), Buffer.from([0, 0, 1]), Buffer.from('GAMMA\n')]),
    );
    return `binary ${f}`;
  },
  (root, r) => {
    const d = pick(r, ['src/lib/deep', 'vendor', 'node_modules/pkg', 'docs', 'newdir/sub']);
    fs.rmSync(path.join(root, d), { recursive: true, force: true });
    return `rm -r ${d}`;
  },
  (root, r) => {
    const d = path.join(root, pick(r, ['newdir/sub', 'src/lib/deep', 'vendor']));
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, 'made.c'), `needle in ${d}\nStraße\nalpha\n`);
    return `mkdir+file ${d}`;
  },
  (root, r) => {
    const rules = pick(r, ['build/\n', '*.c\n', 'src/\n!src/lib/\n', '', '*.ts\n!f1*.ts\n', 'docs/\n']);
    fs.writeFileSync(path.join(root, '.gitignore'), rules);
    return `.gitignore ← ${JSON.stringify(rules)}`;
  },
  (root, r) => {
    const rules = pick(r, ['', 'deep/\n', '*.txt\n']);
    fs.writeFileSync(path.join(root, '.git', 'info', 'exclude'), rules);
    return `.git/info/exclude ← ${JSON.stringify(rules)}`;
  },
  (root, r) => {
    // Rename a whole directory.
    const from = path.join(root, 'src', 'lib');
    if (!fs.existsSync(from)) return 'noop';
    const to = path.join(root, `lib${Math.floor(r() * 1e6)}`);
    fs.renameSync(from, to);
    fs.mkdirSync(from, { recursive: true });
    fs.writeFileSync(path.join(from, 'again.ts'), 'needle again\n');
    return `mv src/lib → ${to}`;
  },
];

describe('content index: every search through the index equals the scan', () => {
  it('on a generated tree, for literals, alternations, -i, regexes, globs, ignore and hidden options', async () => {
    const root = path.join(tmp, 'static');
    fs.mkdirSync(root);
    generate(root, 1);
    await withIndex(root, {}, async (index) => {
      const used = await compareAll(root, index, 'static');
      expect(used).toBeGreaterThan(QUERIES.length / 2);
      const st = index.status();
      expect(st.files).toBeGreaterThan(100);
      expect(st.freshness).toBe(process.platform === 'linux' ? 'events' : 'stat');
    });
  }, 600_000); // 2 × 34 searches: no machine-speed bound

  it('a pattern without a usable literal scans and says why', async () => {
    const root = path.join(tmp, 'static');
    await withIndex(root, {}, async (index) => {
      const a = await collect({ pattern: '[a-z]{5}\\d', cwd: root, index });
      expect(a.summary.index).toMatchObject({ used: false, reason: 'the pattern has no required literal' });
      const b = await collect({ pattern: 'x|needle', cwd: root, index });
      expect(b.summary.index?.used).toBe(false);
      expect(b.summary.index?.reason).toMatch(/shorter than 4 bytes/);
      const c = await collect({ pattern: 'sched_clock', cwd: root, index, engine: 'js' });
      expect(c.summary.index?.used).toBe(true);
      expect(c.summary.index?.candidates).toBeLessThan(c.summary.index!.files!);
      expect(c.summary.filesSearched).toBe(c.summary.index?.candidates);
    });
  });

  it('with blocks of a few bytes, where every literal crosses block boundaries', async () => {
    // 7 to 16 bytes: literals start at every offset of a block and span two (or, cut, more) blocks.
    for (const blockBytes of [7, 16]) {
      const root = path.join(tmp, `blocks-${blockBytes}`);
      fs.mkdirSync(root);
      generate(root, 3);
      await withIndex(root, { blockBytes }, async (index) => {
        const counts = { windowed: 0 };
        const used = await compareAll(root, index, `blocks of ${blockBytes}`, counts);
        expect(used).toBeGreaterThan(QUERIES.length / 2);
        // Long files went through windows (search/windows.ts), whose answers are compared like the rest.
        expect(counts.windowed).toBeGreaterThan(QUERIES.length);
      });
    }
  }, 600_000);

  it('an AND of literals narrows: within a line more than within a file, both more than one literal', async () => {
    const root = path.join(tmp, 'and-16');
    fs.mkdirSync(root);
    generate(root, 5);
    await withIndex(root, { blockBytes: 16 }, async (index) => {
      const candidates = async (q: Query) => {
        const through = await collect({ ...q, cwd: root, engine: 'js', index });
        const scan = await collect({ ...q, cwd: root, engine: 'js' });
        expect(normalise(through.events), JSON.stringify(q)).toEqual(normalise(scan.events));
        expect(through.summary.index?.used, JSON.stringify(q)).toBe(true);
        return through.summary.index!.candidates!;
      };
      // Words the generated text spreads (needle and haystack fill big.txt: in too many blocks to be listed).
      const one = await candidates({ pattern: 'deadbeef' });
      const inFile = await candidates({ pattern: 'deadbeef[\\s\\S]*function', multiline: true });
      const inLine = await candidates({ pattern: 'deadbeef.*function' });
      expect(inFile).toBeLessThan(one);
      expect(inLine).toBeLessThan(inFile);
    });
  }, 600_000);

  for (const [watch, seed, blockBytes] of [
    [true, 7, undefined],
    [true, 99, 16],
    [false, 7, undefined],
  ] as const) {
    it(`after random edits searched at once (${watch ? 'watchers + barrier' : 'size+mtime checks'}, seed ${seed}${blockBytes ? `, ${blockBytes}-byte blocks` : ''})`, async () => {
      const root = path.join(tmp, `edits-${watch}-${seed}`);
      fs.mkdirSync(root);
      generate(root, seed);
      const r = rng(seed * 31);
      await withIndex(root, { watch, ...(blockBytes ? { blockBytes } : {}) }, async (index) => {
        for (let step = 0; step < 8; step++) {
          const edits: string[] = [];
          const n = 1 + Math.floor(r() * 3);
          for (let k = 0; k < n; k++) edits.push(pick(r, EDITS)(root, r));
          await compareAll(root, index, `step ${step} after ${edits.join('; ')}`);
        }
        if (!watch) expect(index.status().freshness).toBe('stat');
      });
    }, 600_000);
  }
});
