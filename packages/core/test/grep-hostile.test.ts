/**
 * grepFiles with a caller's regex that V8 would backtrack on for hours: the document pass and the rows' highlights
 * match on the calling thread, so they must stop at the deadline (the linear VM checks its clock) or refuse the
 * pattern up front. The text pass's engine runs in search workers terminated at the deadline (js) or in rg.
 */
import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { SensitiveFence } from '../src/fence/index.js';
import { grepFiles } from '../src/grep/index.js';
import { PatternError } from '../src/match/index.js';
import { write } from './fixtures/grep-trees.js';
import { HEAVY_DOCS, HEAVY_PATTERN, HUGE_COUNTED, heavyDocs } from './fixtures/hostile-patterns.js';
import { docx } from './fixtures/office-docs.js';
import { TempTrees } from './fixtures/temp-trees.js';

const trees = new TempTrees('trawl-grep-hostile-');
afterAll(() => trees.remove());
const fence = new SensitiveFence({ home: trees.home, env: {} });

function fresh(files: Record<string, string | Buffer>): string {
  const root = trees.fresh('g');
  fs.mkdirSync(root, { recursive: true });
  return write(root, files);
}

describe('grepFiles with a hostile regex', () => {
  it('stops matching documents at its deadline and says the answer is partial', async () => {
    const root = fresh({ ...heavyDocs(), 'a.txt': 'plain text\n' });
    const budget = 1_500;
    const { payload, detail } = await grepFiles({
      root,
      query: HEAVY_PATTERN,
      regex: true,
      fence,
      // rg reads the text file for seconds (its lazy DFA thrashes on this pattern); the js engine's VM does not.
      engine: 'js',
      limits: { timeBudgetMs: budget },
    });
    // The text file's row, highlighted by the same VM ("plain tex" is where the X is).
    expect(payload.results).toEqual([{ file: 'a.txt', line: 1, preview: 'plain text', ranges: [[0, 9]] }]);
    expect(payload.truncated).toBe(true);
    expect(payload.skipped_docs).toBeGreaterThanOrEqual(1);
    // The VM needs minutes for one of these documents: documents left unsearched show the deadline held (a
    // deadline that failed would run past the test's timeout rather than fail a clock comparison).
    expect(detail.docsSearched).toBeLessThan(HEAVY_DOCS);
  }, 120_000);

  it('refuses nested counted repetitions with pattern_too_complex before it searches anything', async () => {
    const root = fresh({ 'a.txt': `${'a'.repeat(5000)}\n`, 'd.docx': docx(['a'.repeat(5000)]) });
    let caught: unknown;
    try {
      await grepFiles({ root, query: HUGE_COUNTED, regex: true, fence });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PatternError);
    expect((caught as PatternError).code).toBe('pattern_too_complex');
  });
});
