import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openIndex } from '../src/content-index/index.js';
import { type SearchRequest, search } from '../src/engine/search.js';
import { credentialTree } from './fixtures/credential-tree.js';

/**
 * The files an index hands a search are judged where they are, not as spelled: a directory on the way that
 * turns into a link to a credential store after the index checked the search's root, or a link followed into
 * one, never hands over the store's bytes.
 */

const CANARY = 'CANARYidx51e0';
let tmp: string;
let home: string;
let proj: string;

beforeEach(() => {
  ({ tmp, home, proj } = credentialTree('trawl-cindex-swap-', CANARY, 'needle in the project\n'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function texts(req: SearchRequest): Promise<{ text: string; indexUsed: boolean | undefined }> {
  let text = '';
  let indexUsed: boolean | undefined;
  for await (const e of search(req)) {
    if (e.type === 'match') text += e.text;
    if (e.type === 'summary') indexUsed = e.summary.index?.used;
  }
  return { text, indexUsed };
}

describe('content index: what it hands a search is judged where it is', () => {
  it('leaves out a named file whose directory became a link out of the tree after the root was checked', async () => {
    const index = openIndex(proj, { dataDir: path.join(tmp, 'data'), watch: false });
    const realpath = fs.realpathSync.native;
    const named = path.join(proj, 'd', 'id_ed25519');
    let swapped = false;
    try {
      await index.whenReady();
      // The index checks that the named root reads the same through no link; right after that check, `d` is
      // exchanged for a link to the store (what a racing renameat2(RENAME_EXCHANGE) does at the worst moment).
      fs.realpathSync.native = ((p: fs.PathLike, ...rest: []) => {
        const real = realpath(p, ...rest);
        if (!swapped && p === named && new Error().stack?.includes('rootsUnusable')) {
          swapped = true;
          fs.renameSync(path.join(proj, 'd'), path.join(proj, 'd.real'));
          fs.symlinkSync(path.join(home, '.ssh'), path.join(proj, 'd'));
        }
        return real;
      }) as typeof fs.realpathSync.native;
      const { text, indexUsed } = await texts({
        pattern: 'needle',
        cwd: proj,
        paths: ['d/id_ed25519'],
        engine: 'js',
        index,
      });
      expect(swapped).toBe(true);
      expect(indexUsed).toBe(true);
      expect(text).not.toContain(CANARY);
    } finally {
      fs.realpathSync.native = realpath;
      await index.close();
    }
  });

  it("applies the search's exclusion to a followed link's target, not to the link's spelling", async () => {
    fs.symlinkSync(path.join(home, '.ssh'), path.join(proj, 'keys'));
    const store = path.join(home, '.ssh');
    const index = openIndex(proj, { dataDir: path.join(tmp, 'data'), watch: false });
    try {
      await index.whenReady();
      const { text, indexUsed } = await texts({
        pattern: 'needle',
        cwd: proj,
        followLinks: true,
        engine: 'js',
        index,
        exclude: (canon) => canon === store || canon.startsWith(`${store}/`),
      });
      expect(indexUsed).toBe(true);
      expect(text).toContain('needle in the project');
      expect(text).not.toContain(CANARY);
    } finally {
      await index.close();
    }
  });
});
