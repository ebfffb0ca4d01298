import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContentIndex, openIndex } from '../src/content-index/index.js';
import {
  WALK_KEY_RULES,
  type WalkKeyRule,
  type WalkKeyRules,
  walkKey,
} from '../src/content-index/walk-cache.js';
import { search } from '../src/engine/search.js';
import type { IndexWalkOptions } from '../src/engine/search-index.js';

/**
 * A kept walk is found again under a key made from every walk option: a new option does not typecheck until it
 * says how it keys a walk, every keyed option changes the key, and a walk the index cannot keep is never answered
 * from a kept one.
 */

const plain: IndexWalkOptions = { roots: [''], cwd: '/tree' };

/** Per option keyed by value or as a set: two values that make different walks. */
const differing: { [K in keyof IndexWalkOptions]-?: [IndexWalkOptions[K], IndexWalkOptions[K]] } = {
  roots: [[''], ['src']],
  cwd: ['/tree', '/other'],
  hidden: [false, true],
  ignoreFiles: [true, false],
  requireGit: [true, false],
  parents: [true, false],
  globs: [[], ['*.c']],
  globCaseInsensitive: [false, true],
  globBase: ['cwd', 'root'],
  globMode: ['override', 'filter'],
  skipDirs: [new Set(['node_modules']), new Set(['node_modules', 'dist'])],
  maxEntries: [undefined, 10],
  maxDirs: [undefined, 10],
  maxDepth: [undefined, 2],
  fileTypes: [undefined, { include: ['c'], exclude: [] }],
  vcsIgnore: [undefined, false],
  dotIgnore: [undefined, false],
  followLinks: [undefined, true],
  extraIgnoreFiles: [undefined, ['/elsewhere/ignore']],
  onPruned: [undefined, () => {}],
  exclude: [undefined, (canon) => canon.endsWith('.log')],
};

describe('walkKey', () => {
  it('has a rule for every walk option: one more option without one does not typecheck', () => {
    // @ts-expect-error a walk option without a keying rule is a type error
    const missing: WalkKeyRules<IndexWalkOptions & { newWalkOption?: boolean }> = WALK_KEY_RULES;
    expect(missing).toBe(WALK_KEY_RULES);
    const rules: readonly WalkKeyRule[] = Object.values(WALK_KEY_RULES);
    expect(rules.every((r) => ['value', 'set', 'uncached', 'per-search'].includes(r))).toBe(true);
  });

  it('changes with every option keyed by value or as a set', () => {
    const keyed = Object.keys(WALK_KEY_RULES).filter((k) => {
      const rule = WALK_KEY_RULES[k as keyof IndexWalkOptions];
      return rule === 'value' || rule === 'set';
    }) as Array<keyof IndexWalkOptions>;
    expect(keyed.length).toBeGreaterThan(15);
    for (const name of keyed) {
      const [a, b] = differing[name];
      const ka = walkKey({ ...plain, [name]: a });
      const kb = walkKey({ ...plain, [name]: b });
      expect(ka, name).not.toBeNull();
      expect(ka, name).not.toBe(kb);
    }
  });

  it('keys a set by its members, whatever their order', () => {
    expect(walkKey({ ...plain, skipDirs: new Set(['a', 'b']) })).toBe(
      walkKey({ ...plain, skipDirs: new Set(['b', 'a']) }),
    );
  });

  it('gives no key to a walk with an uncached option set, and ignores per-search ones', () => {
    for (const [name, rule] of Object.entries(WALK_KEY_RULES) as Array<
      [keyof IndexWalkOptions, WalkKeyRule]
    >) {
      const [unset, set] = differing[name];
      if (rule === 'uncached') {
        expect(walkKey({ ...plain, [name]: set }), name).toBeNull();
        expect(walkKey({ ...plain, [name]: unset }), name).toBe(walkKey(plain));
      }
      if (rule === 'per-search') expect(walkKey({ ...plain, [name]: set }), name).toBe(walkKey(plain));
    }
    expect(walkKey({ ...plain, followLinks: false })).toBe(walkKey(plain));
    expect(walkKey({ ...plain, extraIgnoreFiles: [] })).toBe(walkKey(plain));
  });
});

describe('a kept walk and the options it cannot stand for', () => {
  let tmp: string;
  let root: string;
  let index: ContentIndex;

  beforeAll(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-walk-key-')));
    root = path.join(tmp, 'tree');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'linked'));
    fs.writeFileSync(path.join(root, 'src', 'kept.txt'), 'walk_key_token kept\n');
    fs.writeFileSync(path.join(root, 'src', 'dropped.txt'), 'walk_key_token dropped\n');
    fs.writeFileSync(path.join(tmp, 'linked', 'far.txt'), 'walk_key_token far\n');
    fs.symlinkSync(path.join(tmp, 'linked'), path.join(root, 'link'));
    fs.writeFileSync(path.join(tmp, 'extra-ignore'), 'dropped.txt\n');
    const past = new Date(Date.now() - 3_600_000);
    for (const f of ['src/kept.txt', 'src/dropped.txt']) fs.utimesSync(path.join(root, f), past, past);
    index = openIndex(root, { dataDir: path.join(tmp, 'data') });
    await index.whenReady();
    expect(index.status().state).toBe('ready');
  });
  afterAll(async () => {
    await index.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function found(extra: { extraIgnoreFiles?: string[]; followLinks?: boolean }): Promise<string[]> {
    const files: string[] = [];
    for await (const e of search({ pattern: 'walk_key_token', cwd: root, engine: 'js', index, ...extra }))
      if (e.type === 'end') files.push(e.path);
    return files.sort();
  }

  it('answers an extra ignore file and followed links with their own walk, not the kept one', async () => {
    expect(await found({})).toEqual(['src/dropped.txt', 'src/kept.txt']);
    expect(await found({ extraIgnoreFiles: [path.join(tmp, 'extra-ignore')] })).toEqual(['src/kept.txt']);
    expect(await found({ followLinks: true })).toEqual(['link/far.txt', 'src/dropped.txt', 'src/kept.txt']);
    expect(await found({})).toEqual(['src/dropped.txt', 'src/kept.txt']);
  });
});
