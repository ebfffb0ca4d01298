/**
 * boundedMatcher: a caller's pattern matched on a thread nothing else can stop (the document pass, a row's
 * highlights) runs on V8 only where V8's work per start position is bounded by the pattern, on the linear VM
 * under a deadline otherwise, and is refused when neither can take it.
 */
import { describe, expect, it } from 'vitest';
import {
  boundedMatcher,
  compilePattern,
  MatchDeadlineError,
  matchSpans,
  PatternError,
  PatternTooComplexError,
} from '../src/match/index.js';
import { HUGE_COUNTED, POLYNOMIAL } from './fixtures/hostile-patterns.js';

const FOREVER = { deadline: Number.POSITIVE_INFINITY, now: Date.now };

describe('boundedMatcher', () => {
  it('keeps V8 for straight-line patterns and gives every other shape the linear VM', () => {
    for (const p of ['foo', 'foo\\d', '[Ff]oo|bar', '^needle$', '\\bword\\b'])
      expect(compilePattern(p).onThread, p).toBe('regex');
    expect(compilePattern('a.b(c', { fixedStrings: true, wordRegexp: true }).onThread).toBe('regex');
    for (const p of [...POLYNOMIAL.map((c) => c.pattern), '(a|b)(c|d)', 'a?b', 'x{2}', '(?:a|b|c)+'])
      expect(compilePattern(p).onThread, p).toMatchObject({ insts: expect.any(Array) });
  });

  it('finds what the translated RegExp finds, prefilter and all', () => {
    const texts = [
      'foo bar baz foo\nbar',
      'aaab aab ab b',
      'Straße STRASSE strasse',
      'x = 41; y = 42; z = 4',
      'KELVIN \u212a k K',
      '',
    ];
    const patterns = [
      'fo+',
      'a+b',
      '.*bar',
      'b?a*',
      '(?i)stra(ss|ß)e',
      '\\d+',
      '(?i)k\\b',
      'z?',
      '[a-z]+ \\d',
      '\\w+\\s?=',
    ];
    for (const p of patterns) {
      for (const ci of [false, true]) {
        const c = compilePattern(p, { caseInsensitive: ci });
        for (const t of texts)
          expect(matchSpans(boundedMatcher(c, FOREVER), t), `${p} ${ci} ${JSON.stringify(t)}`).toEqual(
            matchSpans(c.regex, t),
          );
      }
    }
  });

  it('tries every start after one where a leading look-around failed (-w, \\b before a repetition)', () => {
    // The whole-word switch wraps a regex in look-arounds: a start inside a word fails them, and the next start
    // (after a quote, a space) must still be tried.
    const cases: [string, { wordRegexp?: boolean; caseInsensitive?: boolean }, string][] = [
      ['ne+dle', { wordRegexp: true }, '  return "needle";'],
      ['ne+dle', { wordRegexp: true, caseInsensitive: true }, 'a NEEDLE and a needle'],
      ['ne+dle|NEEDLE_[A-Z]+', { wordRegexp: true }, 'export const NEEDLE_UPPER = "NEEDLE";'],
      ['\\bfo+', {}, 'xfoo foo'],
    ];
    for (const [p, opts, text] of cases) {
      const c = compilePattern(p, opts);
      expect(c.onThread, p).toMatchObject({ insts: expect.any(Array) });
      const spans = matchSpans(boundedMatcher(c, FOREVER), text);
      expect(spans.length, `${p} ${JSON.stringify(text)}`).toBeGreaterThan(0);
      expect(spans).toEqual(matchSpans(c.regex, text));
    }
  });

  it('answers polynomial shapes over a 100 KB paragraph in linear time', () => {
    for (const { pattern, paragraph } of POLYNOMIAL) {
      const m = boundedMatcher(compilePattern(pattern, { caseInsensitive: true }), FOREVER);
      expect(matchSpans(m, paragraph), pattern).toEqual([]);
    }
  });

  it('the VM stops at its clock’s deadline with a coded error, reading the clock as it goes', () => {
    let reads = 0;
    // One tick per reading: the deadline is three readings away, whatever the machine's speed.
    const clock = { deadline: 3, now: () => reads++ };
    const m = boundedMatcher(compilePattern('.*a.*a.*a.*b'), clock);
    let caught: unknown;
    try {
      matchSpans(m, `b ${'a'.repeat(1_000_000)}`);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(MatchDeadlineError);
    expect((caught as MatchDeadlineError).code).toBe('match_deadline');
    expect(reads).toBe(4);
    expect(matchSpans(boundedMatcher(compilePattern('.*a.*a.*a.*b'), FOREVER), 'aaab')).toEqual([
      { start: 0, end: 4 },
    ]);
  });

  it('refuses nested counted repetitions with pattern_too_complex, a PatternError', () => {
    const c = compilePattern(HUGE_COUNTED);
    expect(c.onThread).toBeNull();
    let caught: unknown;
    try {
      boundedMatcher(c, FOREVER);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PatternTooComplexError);
    expect(caught).toBeInstanceOf(PatternError);
    expect((caught as PatternError).code).toBe('pattern_too_complex');
    expect((caught as Error).message).toMatch(/too complex/);
  });
});
