import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SearchIndex } from '../src/content-index/index.js';
import { type ContentIndex, openIndex } from '../src/content-index/index.js';
import { prepareSearchTool, searchTool } from '../src/tool/index.js';
import { Walker } from '../src/walk/walker.js';

/**
 * An answer that names what it did not enter (nameUnentered, as the MCP server asks) takes that from the index's
 * kept walk of the search when an index serves it: a warm call does not walk the tree a second time to survey it,
 * and says exactly what a call without the index says.
 */

let tmp: string;
let root: string;
let index: ContentIndex;

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-unentered-index-')));
  root = path.join(tmp, 'tree');
  const files: Record<string, string> = {
    '.gitignore': 'build/\n*.log\n',
    'build/out.txt': 'needle built\n',
    'build/deep/more.txt': 'words\n',
    'node_modules/pkg/index.js': 'needle dep\n',
    'app.log': 'needle logged\n',
    'keep/secret/x.txt': 'needle excluded\n',
    'keep/secret/build/y.txt': 'words\n',
  };
  for (let i = 0; i < 30; i++) files[`src/d${i % 3}/f${i}.txt`] = i % 10 === 0 ? 'needle\n' : 'words\n';
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
  index = openIndex(root, { dataDir: path.join(tmp, 'data') });
  await index.whenReady();
  expect(index.status().state).toBe('ready');
});
afterAll(async () => {
  await index.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The answer, and how many walks started at the tree's root. */
async function call(args: Record<string, unknown>, withIndex?: SearchIndex) {
  const walks = vi.spyOn(Walker.prototype, 'entries');
  const r = await searchTool(
    { pattern: 'needle', paths: ['.'], ...args },
    { cwd: root, format: 'hashline', nameUnentered: true, ...(withIndex ? { index: withIndex } : {}) },
  );
  const ofRoot = walks.mock.instances.filter((w) =>
    ((w as unknown as { options: { roots: string[] } }).options.roots ?? []).some(
      (r) => path.resolve(root, r) === root,
    ),
  ).length;
  walks.mockRestore();
  return { text: r.text, unentered: r.details.unentered, ofRoot };
}

describe('naming what a search did not enter, through an index', () => {
  it('says what a call without the index says, without walking the tree again once warm', async () => {
    await prepareSearchTool({ cwd: root, format: 'hashline', nameUnentered: true, index });
    const scanned = await call({});
    expect(scanned.text).toMatch(/Not searched: .*build\/ \(ignored by an ignore file, 2 files\)/);
    expect(scanned.text).toMatch(/node_modules\/ \(skipped, 1 files?\)/);
    await call({}, index); // lists the walk with these options (the first call may walk)
    const warm = await call({}, index);
    expect(warm.text).toBe(scanned.text);
    expect(warm.unentered).toEqual(scanned.unentered);
    expect(warm.ofRoot).toBe(0);
  });

  it('leaves out what the request excludes, and what lies under it, as a walk would', async () => {
    const args = { paths: ['.', '!keep/secret'] };
    const scanned = await call(args);
    // keep/secret/build/ is never named: the walk does not enter an excluded directory.
    expect(scanned.text).not.toContain('keep/secret');
    await call(args, index);
    const warm = await call(args, index);
    expect(warm.text).toBe(scanned.text);
    expect(warm.unentered).toEqual(scanned.unentered);
  });

  it('takes the survey from the index when it has one (a kept walk that left out a directory the tree lacks)', async () => {
    const fake: SearchIndex = {
      select: (req) => index.select(req),
      walkPruned: async () => ({
        pruned: [
          { path: 'vendor', abs: path.join(root, 'src'), isDir: true, reason: 'ignored' },
          { path: 'a.log', abs: path.join(root, 'app.log'), isDir: false, reason: 'ignored' },
        ],
        dirs: 1,
      }),
    };
    const r = await call({}, fake);
    expect(r.text).toMatch(
      /Not searched: src\/ \(ignored by an ignore file, 30 files\); 1 file left out by ignore rules/,
    );
    expect(r.ofRoot).toBe(0);
  });

  it('walks to survey when the kept walk listed more directories than the survey may', async () => {
    const fake: SearchIndex = {
      select: (req) => index.select(req),
      walkPruned: async () => ({ pruned: [], dirs: 1_000_000 }),
    };
    const r = await call({}, fake);
    expect(r.text).toMatch(/build\/ \(ignored by an ignore file, 2 files\)/);
    expect(r.ofRoot).toBeGreaterThan(0);
  });
});
