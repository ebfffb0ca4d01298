/**
 * Issue 13 (bounded memory): both engines pass a file with a lot of output on in parts, so none is held
 * whole — the largest file of the Linux tree has 64 000 matching lines. Pinned by what the consumer sees:
 * a file's first part arrives without its end, and no part is much larger than a part's bound (the js
 * worker's PARTIAL_ANSWER_UNITS, the rg engine's RG_FILE_PART_BYTES of rg's JSON) — for the rg engine in
 * both the held phase (ripgrep's parallel output) and the streamed one (`rg --sort path`).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type SearchEvent, searchBatches } from '../src/engine/index.js';
import { OUTPUT_LINE_OVERHEAD, PARTIAL_ANSWER_UNITS, RG_FILE_PART_BYTES } from '../src/limits.js';
import { BUNDLED_RG, itHasRipgrep } from './fixtures/ripgreps.js';

const LINES = 40_000;
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-rg-parts-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
fs.writeFileSync(path.join(dir, 'a-small.txt'), 'needle0001 small\n');
fs.writeFileSync(
  path.join(dir, 'big.txt'),
  Array.from({ length: LINES }, (_, i) => `needle${String(i).padStart(5, '0')} line\n`).join(''),
);
fs.writeFileSync(path.join(dir, 'c-small.txt'), 'needle0002 small\n');

/** Each batch's events of big.txt, as the consumer receives them. */
async function bigFileBatches(engine: 'js' | 'rg', rgHeldOutputBytes?: number): Promise<SearchEvent[][]> {
  const out: SearchEvent[][] = [];
  const order: string[] = [];
  for await (const batch of searchBatches({
    pattern: 'needle\\d+',
    cwd: dir,
    engine,
    ...(engine === 'rg' ? { rgPath: BUNDLED_RG.path! } : {}),
    ...(rgHeldOutputBytes !== undefined ? { rgHeldOutputBytes } : {}),
  })) {
    for (const e of batch) if (e.type === 'begin') order.push(e.path);
    const mine = batch.filter((e) => 'path' in e && e.path === 'big.txt');
    if (mine.length > 0) out.push(mine);
  }
  expect(order).toEqual(['a-small.txt', 'big.txt', 'c-small.txt']);
  return out;
}

function expectParts(parts: SearchEvent[][], maxPartLines: number): void {
  expect(parts.length).toBeGreaterThan(2);
  expect(parts[0]![0]!.type).toBe('begin');
  expect(parts[0]!.some((e) => e.type === 'end')).toBe(false);
  expect(parts.at(-1)!.at(-1)!.type).toBe('end');
  expect(parts.flat().filter((e) => e.type === 'begin' || e.type === 'end').length).toBe(2);
  const lines = parts.flat().filter((e) => e.type === 'match');
  expect(lines.map((e) => (e.type === 'match' ? e.lineNumber : 0))).toEqual(
    Array.from({ length: LINES }, (_, i) => i + 1),
  );
  for (const p of parts) expect(p.length).toBeLessThanOrEqual(maxPartLines + 2);
}

describe('a file with a lot of output comes in parts', () => {
  it('js engine: parts in order, none holding the whole file', async () => {
    // A part is cut once it passes PARTIAL_ANSWER_UNITS (a line costs its text plus OUTPUT_LINE_OVERHEAD).
    expectParts(await bigFileBatches('js'), PARTIAL_ANSWER_UNITS / OUTPUT_LINE_OVERHEAD + 1);
  });

  itHasRipgrep(BUNDLED_RG, 'rg engine parts');
  for (const [phase, held] of [
    ['streamed (rg --sort path)', 0],
    ['first held, then streamed', undefined],
  ] as const) {
    it.skipIf(!BUNDLED_RG.path)(
      `rg engine, ${phase}: parts in order, none holding the whole file`,
      async () => {
        // A part is cut once it passes RG_FILE_PART_BYTES of rg's JSON; a line here is well over 100 bytes of it.
        expectParts(await bigFileBatches('rg', held), RG_FILE_PART_BYTES / 100);
      },
    );
  }
});
