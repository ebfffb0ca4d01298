import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as ResolveRg from '../src/engine/rg/resolve-rg.js';
import { SensitiveFence } from '../src/fence/index.js';
import { grepFiles } from '../src/grep/index.js';
import type { SearchToolResult } from '../src/tool/index.js';
import { makeTree, run } from './fixtures/tool/helpers.js';

/**
 * The search tool and the grep know nothing of engines: run with no ripgrep to be found (the engine module
 * that vets it says none) and with the rg engine forced, their answers are the same text. The engine alone
 * decides how a search runs (detail horizon, counts, fallback).
 */
const rgHidden = vi.hoisted(() => ({ hidden: false }));
vi.mock('../src/engine/rg/resolve-rg.js', async (importOriginal) => {
  const real = await importOriginal<typeof ResolveRg>();
  return {
    ...real,
    resolveRipgrep: (options: Parameters<typeof real.resolveRipgrep>[0]) =>
      rgHidden.hidden ? { rg: null, rejected: ['hidden by the test'] } : real.resolveRipgrep(options),
  };
});

let root: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-blind-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

beforeAll(() => {
  const files: Record<string, string | Buffer> = {};
  for (let d = 0; d < 4; d++)
    for (let f = 0; f < 30; f++) {
      const hits = (d * 30 + f) % 5;
      let text = 'head\n';
      for (let k = 0; k < hits; k++) text += `x needle ${d}.${f}.${k}\nfiller\n`;
      files[`d${d}/f${String(f).padStart(2, '0')}.txt`] = text;
    }
  // A walked file whose NUL follows its matches (past the first 64 KiB), and one binary from the start.
  files['d0/late.dat'] = Buffer.from(`needle late\n${'filler\n'.repeat(12_000)}\0tail\n`);
  files['d0/image.bin'] = Buffer.from('\0\x01needle\n');
  files['.gitignore'] = 'ignored/\n';
  files['ignored/i.txt'] = 'needle ignored\n';
  root = makeTree(files, 'trawl-blind-tree-');
});

async function both<T>(call: (engine: 'auto' | 'rg') => Promise<T>): Promise<{ without: T; forced: T }> {
  rgHidden.hidden = true;
  let without: T;
  try {
    without = await call('auto');
  } finally {
    rgHidden.hidden = false;
  }
  return { without, forced: await call('rg') };
}

describe('the search tool with no ripgrep and with rg forced', () => {
  for (const args of [
    {},
    { skip: 20 },
    { skip: 60 },
    { output: 'files' },
    { output: 'files', skip: 50 },
    { output: 'count' },
    { output: 'count', skip: 30 },
    { pattern: 'needle 1\\.\\d+\\.3', contextAfter: 1 },
    { paths: ['d1', 'd0/f03.txt', 'd0/late.dat'] },
  ]) {
    it(`the same text: ${JSON.stringify(args)}`, async () => {
      const { without, forced } = await both((engine) =>
        run(root, { pattern: 'needle', paths: '.', ...args }, { homeDir: root, engine }),
      );
      expect(without.details.engine).toBe('js');
      expect(forced.details.engine).toBe('rg');
      expect(forced.text).toBe(without.text);
      const { elapsedMs: _a, engine: _b, ...a } = without.details as SearchToolResult['details'];
      const { elapsedMs: _c, engine: _d, ...b } = forced.details as SearchToolResult['details'];
      expect(b).toEqual(a);
    });
  }
});

describe('the grep with no ripgrep and with rg forced', () => {
  const fence = () => new SensitiveFence({ home: root, env: {} });
  for (const [name, limits] of [
    ['within the cap', {}],
    ['capped', { maxResults: 7 }],
  ] as const) {
    it(`the same rows: ${name}`, async () => {
      const { without, forced } = await both((engine) =>
        grepFiles({
          root,
          query: 'needle',
          fence: fence(),
          engine,
          limits: { timeBudgetMs: 120_000, ...limits },
        }),
      );
      expect(without.payload.engine).toBe('js');
      expect(forced.payload.engine).toBe('rg');
      expect(forced.payload.results).toEqual(without.payload.results);
      expect(forced.payload.truncated).toBe(without.payload.truncated);
    });
  }
});
