import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SearchRequest, search } from '../src/index.js';
import { COMPILED_PATTERNS_KEPT } from '../src/limits.js';
import { PatternError } from '../src/match/index.js';

/**
 * The engine keeps the patterns it compiled lately (one agent call searches several times with one pattern):
 * a kept pattern is one compiled with the same options, never another's, and a bad pattern is refused every time.
 */
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-engine-compiled-'));
  fs.writeFileSync(path.join(dir, 'a.txt'), 'Needle\nneedle\nneedles\nne.dle\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function lines(req: Omit<SearchRequest, 'cwd' | 'engine'>): Promise<string[]> {
  const out: string[] = [];
  for await (const e of search({ ...req, cwd: dir, engine: 'js' }))
    if (e.type === 'match') out.push(e.text.trimEnd());
  return out;
}

describe('engine: compiled patterns kept between searches', () => {
  it('answers each option set with its own compilation, in any order and past the cache size', async () => {
    const cases: Array<[Omit<SearchRequest, 'cwd' | 'engine'>, string[]]> = [
      [{ pattern: 'ne.dle' }, ['needle', 'needles', 'ne.dle']],
      [{ pattern: 'ne.dle', fixedStrings: true }, ['ne.dle']],
      [{ pattern: 'needle', caseInsensitive: true }, ['Needle', 'needle', 'needles']],
      [{ pattern: 'needle' }, ['needle', 'needles']],
      [{ pattern: 'needle', wordRegexp: true }, ['needle']],
      [{ pattern: 'needle', invertMatch: true }, ['Needle', 'ne.dle']],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [req, want] of cases) expect(await lines(req), JSON.stringify(req)).toEqual(want);
      // Push every kept pattern out, then ask again.
      for (let i = 0; i <= COMPILED_PATTERNS_KEPT; i++) await lines({ pattern: `other${i}` });
    }
  });

  it('refuses a pattern that does not compile every time it is asked', () => {
    for (let i = 0; i < 3; i++)
      expect(() => search({ pattern: 'a(', lenient: false, cwd: dir })).toThrow(PatternError);
  });
});
