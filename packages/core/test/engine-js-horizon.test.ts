import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type SearchEvent, searchBatches } from '../src/engine/index.js';

/**
 * A search with a detail horizon (`detailFiles`, the tool's page): a js worker that has itself found that many
 * matching files counts every later file — exactly, and without sending a line of it (files past the horizon are
 * only counted, and its batches come in walk order). Without this, the batches handed out before the engine
 * learnt of the horizon were searched in full, lines and all.
 */
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-js-horizon-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const FILES = 40;
for (let i = 0; i < FILES; i++)
  fs.writeFileSync(
    path.join(dir, `f${String(i).padStart(2, '0')}.txt`),
    'needle one\nx\nneedle two\nneedle three\n',
  );

async function events(detailFiles: number): Promise<SearchEvent[]> {
  const out: SearchEvent[] = [];
  for await (const batch of searchBatches({ pattern: 'needle', cwd: dir, engine: 'js', detailFiles }))
    out.push(...batch);
  return out;
}

describe('js engine: a worker past the detail horizon', () => {
  it('sends the horizon’s files whole and counts each later one exactly', async () => {
    const all = await events(3);
    const ends = all.filter((e) => e.type === 'end');
    expect(ends.map((e) => e.path)).toEqual(
      Array.from({ length: FILES }, (_, i) => `f${String(i).padStart(2, '0')}.txt`),
    );
    for (const [k, e] of ends.entries()) {
      if (k < 3) {
        expect(e).not.toHaveProperty('counted');
        expect(e.stats.matches).toBe(3);
      } else {
        expect(e).toMatchObject({ counted: true, stats: { matches: 3, matchedLines: 3 } });
      }
    }
    expect(all.filter((e) => e.type === 'match')).toHaveLength(9);
    expect(all.at(-1)).toMatchObject({
      type: 'summary',
      summary: { filesWithMatch: FILES, matches: 3 * FILES },
    });
  });
});
