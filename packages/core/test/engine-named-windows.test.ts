import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SearchEvent } from '../src/engine/index.js';
import { searchBatchesWithSeams } from '../src/engine/search.js';

/**
 * A large file named as a root is searched window by window on the js engine as a walked one is (the worker never
 * holds it whole: a 34 MB file counted peaked at 438 MB), through its NULs, and answers as the whole file's search:
 * the same lines and counts, its first NUL reported.
 */
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-named-windows-')));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const lines: string[] = [];
for (let i = 0; i < 20_000; i++)
  lines.push(i % 7 === 0 ? `needle ${i}` : i === 12_500 ? 'x\0y' : `filler ${i}`);
fs.writeFileSync(path.join(dir, 'big.txt'), `${lines.join('\n')}\n`);
fs.writeFileSync(path.join(dir, 'nul-no-literal.txt'), `${'filler\n'.repeat(20_000)}\0\n`);

async function collect(
  file: string,
  mode: 'lines' | 'count',
  fileWindowBytes?: number,
): Promise<SearchEvent[]> {
  const out: SearchEvent[] = [];
  for await (const batch of searchBatchesWithSeams({
    pattern: 'needle \\d+',
    cwd: dir,
    paths: [file],
    engine: 'js',
    mode,
    ...(fileWindowBytes ? { fileWindowBytes } : {}),
  }))
    out.push(...batch.filter((e) => e.type !== 'summary'));
  return out;
}

describe('js engine: a named file searched window by window', () => {
  for (const mode of ['lines', 'count'] as const)
    for (const file of ['big.txt', 'nul-no-literal.txt'])
      it(`${file}, ${mode}: as the whole file`, async () => {
        const whole = await collect(file, mode);
        const windowed = await collect(file, mode, 4096);
        expect(windowed).toEqual(whole);
        if (file === 'big.txt') {
          const end = whole.find((e) => e.type === 'end');
          expect(end?.type === 'end' && end.binaryOffset).toBeGreaterThan(0);
          expect(end?.type === 'end' && end.stats.matchedLines).toBe(Math.ceil(20_000 / 7));
        }
      });
});
