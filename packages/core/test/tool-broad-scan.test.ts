import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContentIndex, openIndex } from '../src/content-index/index.js';
import { RG_BATCH_EVENTS } from '../src/limits.js';
import type { SearchToolResult } from '../src/tool/index.js';
import { makeTree, run } from './fixtures/tool/helpers.js';
import { rng } from './parity/random.js';

/**
 * A broad search through the tool on the rg engine (its detail horizon: rg -c over the tree, then the page's
 * files in full); the js engine searches everything in one pass. Both must give the same text and totals, on a tree
 * with more matching files than the rg engine hands over in one batch, names whose UTF-16 and UTF-8 orders
 * differ, siblings that sort around a directory (`a-b`, `a.txt`, `a/`), files the fence and ignore rules hide.
 */
let root: string;
let matching = 0;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-broad-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

beforeAll(() => {
  const next = rng(1414);
  const files: Record<string, string> = {};
  const names = ['a-b.txt', 'a.txt', 'a/x.txt', '\ue000.txt', '\u{1f600}.txt', 'é.txt', 'z.txt'];
  const filler = (k: number) => `line ${k} of filler text\n`;
  for (let d = 0; d < 12; d++) {
    for (let f = 0; f < 110; f++) {
      const rel = `d${d}/${f < names.length ? names[f]! : `f${String(f).padStart(3, '0')}.txt`}`;
      // d1 matches everywhere: its names test the order.
      const hits = d === 1 || next() < 0.8 ? 1 + Math.floor(next() * 3) : 0;
      let text = '';
      for (let k = 0; k < 6; k++) text += k < hits ? `x needle ${d}.${f}.${k}\n` : filler(k);
      files[rel] = text;
      if (hits > 0) matching++;
    }
  }
  // Hidden from both engines alike: the fence (HOME is the root), an ignore rule.
  files['.netrc'] = 'needle in a sensitive file\n';
  files['.aws/credentials'] = 'needle key\n';
  files['.gitignore'] = 'ignored/\n';
  files['ignored/i.txt'] = 'needle ignored\n';
  root = makeTree(files, 'trawl-broad-scan-');
});

const call = (args: Record<string, unknown>, options: Parameters<typeof run>[2]) =>
  run(root, { pattern: 'needle', paths: '.', ...args }, { homeDir: root, ...options });

/** Text and details alike, but for the time taken and the engine's name. */
function same(a: SearchToolResult, b: SearchToolResult): void {
  expect(a.text).toBe(b.text);
  const { elapsedMs: _a, engine: _e, ...rest } = a.details;
  const { elapsedMs: _b, engine: _f, ...restB } = b.details;
  expect(rest).toEqual(restB);
}

describe('search tool: a broad search on the rg engine equals the js engine’s single pass', () => {
  it('has more matching files than one rg batch holds', () => {
    expect(matching).toBeGreaterThan(RG_BATCH_EVENTS);
  });

  for (const args of [
    {},
    { skip: 20 },
    { skip: 700 },
    { skip: 1300 },
    { output: 'files' },
    { output: 'files', skip: 100 },
    { output: 'count' },
    { output: 'count', skip: 1000 },
    { i: true, pattern: 'NEEDLE \\d+\\.1' },
  ]) {
    it(`same text and totals: ${JSON.stringify(args)}`, async () => {
      const rg = await call(args, { engine: 'rg' });
      const js = await call(args, { engine: 'js' });
      same(rg, js);
      if (!('pattern' in args)) expect(rg.details.totalFiles).toBe(matching);
      expect(rg.details.totalFilesExact).toBe(true);
      expect(rg.text).not.toContain('.netrc');
      expect(rg.text).not.toContain('ignored/');
    });
  }

  it('in path byte order (UTF-8): U+E000 before the astral name, a-b.txt and a.txt before a/', async () => {
    const shown: string[] = [];
    for (let skip = 0; ; ) {
      const r = await call({ output: 'files', paths: 'd1', skip }, { engine: 'rg' });
      shown.push(...r.details.files);
      if (r.details.nextSkip === undefined) break;
      skip = r.details.nextSkip;
    }
    // UTF-16 order would put the astral name (a surrogate pair) before U+E000.
    expect(shown).toContain('d1/\ue000.txt');
    expect(shown).toContain('d1/\u{1f600}.txt');
    const bytes = [...shown].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(shown).toEqual(bytes);
  });
});

describe('search tool with a content index: a scan answers as the search without it', () => {
  let index: ContentIndex;
  beforeAll(async () => {
    index = openIndex(root, { dataDir: path.join(tmp, 'data'), watch: false });
    await index.whenReady();
  });
  afterAll(async () => {
    await index.close();
  });

  for (const [name, args] of [
    ['broad (the index says scan)', {}],
    ['broad, a later page', { skip: 500 }],
    ['broad, counting', { output: 'count' }],
    ['selective (the index answers)', { pattern: 'needle 3\\.1' }],
  ] as const) {
    it(name, async () => {
      const without = await call(args, { engine: 'rg' });
      const withIndex = await call(args, { engine: 'auto', index });
      same(withIndex, without);
      expect(withIndex.details.totalFiles).toBeGreaterThan(0);
    });
  }
});
