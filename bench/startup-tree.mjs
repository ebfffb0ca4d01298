// The small tree the start-up benchmarks search (bench/startup.mjs, bench/search-tool.mjs --startup): 2 000 generated
// files, 100 packages × 20 files × 80 lines (17 MB), the pattern in 21 of them. Deterministic; written into the bench
// cache when missing. It is small and generated: not a corpus.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE } from './paths.mjs';

/** The pattern the start-up rows search for: on line 41 of 21 files of the tree. */
export const STARTUP_PATTERN = 'createRequire';

/** The tree's directory, built first if it is not there yet. */
export function startupTree() {
  const tree = join(CACHE, 'startup-2k');
  if (existsSync(join(tree, '.done'))) return tree;
  const words =
    'const let function return import export from value index result error handler config options request response buffer stream module'.split(
      ' ',
    );
  let seed = 7;
  const rnd = (k) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % k;
  };
  for (let d = 0; d < 100; d++) {
    const dir = join(tree, `pkg${String(d).padStart(3, '0')}`, 'src');
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 20; f++) {
      const lines = [];
      for (let l = 0; l < 80; l++)
        lines.push(Array.from({ length: 8 }, () => words[rnd(words.length)]).join(' '));
      if ((d * 20 + f) % 97 === 0) lines[40] = 'const req = createRequire(import.meta.url);';
      writeFileSync(join(dir, `f${String(f).padStart(2, '0')}.ts`), `${lines.join('\n')}\n`);
    }
  }
  writeFileSync(join(tree, '.done'), '');
  return tree;
}
