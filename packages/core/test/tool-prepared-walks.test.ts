import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ContentIndex, openIndex } from '../src/content-index/index.js';
import { walkKey } from '../src/content-index/walk-cache.js';
import type { IndexSelection, IndexWalkOptions, SearchIndex } from '../src/engine/search-index.js';
import { prepareSearchTool, searchTool } from '../src/tool/index.js';
import { callWalks } from '../src/tool/search-tool.js';
import { Walker } from '../src/walk/walker.js';

/**
 * A long-lived host readies its index for the search tool's usual calls (prepareSearchTool): the walks a call on
 * the root asks for, and those of its check for matches hidden by ignore rules, are listed once, ahead — the
 * calls after it walk nothing, and answer exactly as without an index.
 */

let tmp: string;
let root: string;
const indexes: ContentIndex[] = [];

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-prepared-walks-')));
  root = path.join(tmp, 'tree');
  const files: Record<string, string> = {
    '.gitignore': 'ignored.txt\n',
    'ignored.txt': 'only_ignored_token here\n',
  };
  for (let i = 0; i < 60; i++)
    files[`d${i % 4}/f${i}.txt`] = `line ${i}\n${i % 20 === 0 ? 'rare_token\n' : 'words\n'}`;
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  // An hour old: fresh mtimes would make every record racy (re-read into the overlay).
  const past = new Date(Date.now() - 3_600_000);
  const age = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) age(p);
      else fs.utimesSync(p, past, past);
    }
  };
  age(root);
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  for (const index of indexes) await index.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function readyIndex(name: string): Promise<ContentIndex> {
  const index = openIndex(root, { dataDir: path.join(tmp, name) });
  indexes.push(index);
  await index.whenReady();
  expect(index.status().state).toBe('ready');
  return index;
}

/** The tool's answer, and how many walks it started. */
async function call(
  args: { pattern: string },
  index?: ContentIndex,
): Promise<{ text: string; walks: number }> {
  const walks = vi.spyOn(Walker.prototype, 'entries');
  const r = await searchTool(
    { ...args, paths: ['.'] },
    { cwd: root, format: 'hashline', ...(index ? { index } : {}) },
  );
  const n = walks.mock.calls.length;
  walks.mockRestore();
  return { text: r.text, walks: n };
}

describe('prepareSearchTool', () => {
  it('lists a call’s walk and its hidden-match check’s walk once, ahead: the calls after walk nothing', async () => {
    const scanned = await call({ pattern: 'only_ignored_token' });
    expect(scanned.text).toMatch(/hidden by/);

    const cold = await readyIndex('cold');
    const first = await call({ pattern: 'only_ignored_token' }, cold);
    expect(first.walks).toBe(2); // the search's walk and the hidden-match check's: what preparing saves
    expect(first.text).toBe(scanned.text);

    const warm = await readyIndex('warm');
    expect(await prepareSearchTool({ cwd: root, format: 'hashline', index: warm })).toBe(2);
    for (const pattern of ['only_ignored_token', 'rare_token', 'no_such_token_qq']) {
      const prepared = await call({ pattern }, warm);
      expect(prepared.walks).toBe(0);
      expect(prepared.text).toBe((await call({ pattern })).text);
    }
  });

  it('walks only the walks it keeps: no survey of what calls do not enter, no search', async () => {
    const index = await readyIndex('surveying');
    const walks = vi.spyOn(Walker.prototype, 'entries');
    const opts = { cwd: root, format: 'hashline' as const, index, nameUnentered: true };
    expect(await prepareSearchTool(opts)).toBe(2);
    expect(walks.mock.calls.length).toBe(2);
    walks.mockRestore();
  });

  it('keeps nothing for an index that cannot answer for the paths', async () => {
    const index = await readyIndex('outside');
    expect(await prepareSearchTool({ cwd: tmp, format: 'hashline', index })).toBe(0);
  });
});

describe('callWalks', () => {
  /** The walks a real call asks the index for, with an index that answers every one with no candidate. */
  async function askedWalks(args: Record<string, unknown>): Promise<IndexWalkOptions[]> {
    const asked: IndexWalkOptions[] = [];
    const recorder: SearchIndex = {
      select: async (req): Promise<IndexSelection> => {
        asked.push(req.walk);
        return {
          use: { used: true, reason: 'recording', candidates: 0, files: 0 },
          walk: { entries: [], stats: { entries: 0, dirs: 0, files: 0, errors: [], missingRoots: [] } },
        };
      },
    };
    await searchTool(args, { cwd: root, format: 'hashline', index: recorder });
    return asked;
  }
  const keys = (walks: IndexWalkOptions[]) => walks.map(walkKey).sort();

  it.each([
    { pattern: 'rare_token', paths: '.' },
    { pattern: 'rare_token', paths: ['d1', 'd2/f2.txt'] },
    { pattern: 'rare_token', paths: ['d*/f1*.txt'] },
    { pattern: 'rare_token', paths: ['.', 'd3/**'], hidden: false, gitignore: false, type: 'md' },
    { pattern: 'rare_token', paths: '.', exclude: 'd0' },
  ])(
    'names the walks the call %o asks the index for (its own and its hidden-match check’s)',
    async (args) => {
      const asked = await askedWalks(args);
      expect(asked.length).toBeGreaterThan(0);
      expect(keys(await callWalks(args, { cwd: root, format: 'hashline' }))).toEqual(keys(asked));
    },
  );

  it('names no tree walk for a call on named files only, nor for one that asks for rg by name', async () => {
    expect(await callWalks({ pattern: 'x', paths: ['d1/f1.txt'] }, { cwd: root })).toEqual([]);
    expect(await callWalks({ pattern: 'x', paths: '.' }, { cwd: root, engine: 'rg' })).toEqual([]);
  });
});
