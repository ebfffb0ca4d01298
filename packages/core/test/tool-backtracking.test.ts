/**
 * Issue 11 item 1: the same call gives the same answer whichever engine runs. Patterns on which a
 * backtracking regex explores exponentially many paths (`(\w+\s?)*;$` over a 47-line .d.ts took the js
 * engine past its 30 s deadline; ripgrep answered in 0.2 s) now run on the linear-time matcher.
 *
 * No timing threshold: each search gets a deadline far beyond any linear run (10 min), so the test can only
 * fail when a run is exponential (minutes to years on these inputs) or when the engines disagree.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compilePattern } from '../src/match/index.js';
import { makeTree, run } from './fixtures/tool/helpers.js';

const GENEROUS_MS = 600_000;

/** A TypeScript declaration file of 47 lines, like vitest's dist/browser.d.ts. */
function declarations(): string {
  const lines: string[] = [];
  for (let k = 0; lines.length < 47; k++) {
    lines.push(
      `export declare function helper${k}(options: BrowserOptions${k}, timeout?: number): Promise<void>;`,
    );
    lines.push(`interface BrowserOptions${k} { headless boolean provider string name string }`);
    lines.push(`declare const value${k}: string;`);
  }
  return `${lines.slice(0, 47).join('\n')}\n`;
}

const CASES: Array<{ pattern: string; i?: boolean }> = [
  { pattern: '(\\w+\\s?)*;$' },
  { pattern: '^(a|aa)+$' },
  { pattern: '(a|ab)*c' },
  { pattern: '(x+x+)+y' },
  { pattern: '(\\w|\\d)+!' },
  { pattern: '((ab)*|a)*c' },
  { pattern: '(.*a){12}' },
  { pattern: '^(\\s*\\w+\\s*,?)*\\)' },
  { pattern: '(é|É|e)+x', i: true },
  { pattern: '\\b(\\w+\\s*)+\\b:' },
];

let dir: string;
beforeAll(() => {
  dir = makeTree({
    'browser.d.ts': declarations(),
    'evil.txt': `${'a'.repeat(64)}!\n${'ab'.repeat(40)}\n${'x'.repeat(60)}\n${'é'.repeat(40)}ÉX\n`,
    'words.txt': `${'word '.repeat(60)}\nsome, args, here, and, more, of, them, than, ever, before\nend\n`,
    'sub/more.txt': `${'1a'.repeat(50)}\n${'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'}\n`,
  });
});

describe('pathological patterns give the same answer on both engines', () => {
  it('each of these patterns runs on the linear-time matcher in the js engine', () => {
    for (const c of CASES) {
      expect(
        compilePattern(c.pattern, { caseInsensitive: c.i ?? false, lenient: true }).linear,
        c.pattern,
      ).toBeDefined();
    }
  });

  for (const c of CASES) {
    for (const paths of ['browser.d.ts', '.']) {
      it(`${c.pattern} over ${paths}`, async () => {
        const args = { pattern: c.pattern, paths, ...(c.i ? { i: true } : {}) };
        const js = await run(dir, args, { engine: 'js', deadlineMs: GENEROUS_MS, contextAfter: 1 });
        const rg = await run(dir, args, { engine: 'rg', deadlineMs: GENEROUS_MS, contextAfter: 1 });
        expect(js.details.outcome).toBe('complete');
        expect(rg.details.outcome).toBe('complete');
        expect(js.text).toBe(rg.text);
        expect(js.details.fileMatches).toEqual(rg.details.fileMatches);
      });
    }
  }

  it('the reported call finds the lines ending in ";" (32 of them in that file, 31 here)', async () => {
    const r = await run(
      dir,
      { pattern: '(\\w+\\s?)*;$', paths: 'browser.d.ts' },
      { engine: 'js', deadlineMs: GENEROUS_MS },
    );
    expect(r.details.outcome).toBe('complete');
    expect(r.details.matchCount).toBe(
      declarations()
        .split('\n')
        .filter((l) => /;$/.test(l)).length,
    );
  });
});
