/**
 * The Unicode data behind the translator (case folding classes, property names) and the lenient repair
 * functions on their own.
 */
import { describe, expect, it } from 'vitest';
import { FOLD_CLASSES } from '../src/match/fold-table.js';
import { applyBraceRule, escapeUnbalancedParens } from '../src/match/repair.js';
import {
  computeFoldClassesFromV8,
  foldClassOf,
  normalisePropertyName,
  resolveProperty,
} from '../src/match/unicode.js';
import { BINARY_PROPERTIES, GENERAL_CATEGORIES, SCRIPTS } from '../src/match/unicode-names.js';

describe('simple case folding table', () => {
  it("matches this Node's V8 (regenerate fold-table.ts when it does not)", () => {
    expect(computeFoldClassesFromV8()).toBe(FOLD_CLASSES);
  });

  it('groups the known multi-member classes', () => {
    expect(foldClassOf(0x6b)).toEqual([0x4b, 0x6b, 0x212a]);
    expect(foldClassOf(0x17f)).toEqual([0x53, 0x73, 0x17f]);
    expect(foldClassOf(0x3c2)).toEqual([0x3a3, 0x3c2, 0x3c3]);
    expect(foldClassOf(0xdf)).toEqual([0xdf, 0x1e9e]);
    expect(foldClassOf(0x69)).toEqual([0x49, 0x69]);
    expect(foldClassOf(0x131)).toEqual([0x131]);
    expect(foldClassOf(0x31)).toEqual([0x31]);
  });
});

describe('Unicode property names', () => {
  it('normalises like regex-syntax', () => {
    expect(normalisePropertyName('Is_Greek')).toBe('greek');
    expect(normalisePropertyName('Uppercase Letter')).toBe('uppercaseletter');
    expect(normalisePropertyName('isc')).toBe('isc');
  });

  it('resolves every name of the generated tables to something V8 accepts', () => {
    for (const table of [BINARY_PROPERTIES, GENERAL_CATEGORIES, SCRIPTS]) {
      for (const key of Object.keys(table)) expect(resolveProperty(key, null).ok, key).toBe(true);
    }
  });

  it('prefers binary properties, then general categories, then scripts (sc means Currency_Symbol)', () => {
    const js = (name: string, value: string | null = null): string => {
      const r = resolveProperty(name, value);
      return r.ok && r.atom.t === 'prop' ? r.atom.js : 'none';
    };
    expect(js('Lower')).toBe('Lowercase');
    expect(js('Ll')).toBe('gc=Lowercase_Letter');
    expect(js('sc')).toBe('gc=Currency_Symbol');
    expect(js('Greek')).toBe('sc=Greek');
    expect(js('scx', 'Grek')).toBe('scx=Greek');
    expect(js('Any')).toBe('Any');
  });

  it('explains properties JavaScript lacks', () => {
    const r = resolveProperty('Word_Break', 'ALetter');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/not supported by JavaScript/);
  });
});

describe('brace rule', () => {
  const fix = (p: string): string => applyBraceRule(p).text;

  it('escapes braces that cannot be a repetition, and a $ right before them', () => {
    expect(fix('$\u{7b}platform}')).toBe('\\$\\{platform\\}');
    expect(fix('interface{}')).toBe('interface\\{\\}');
    expect(fix('a{,2}')).toBe('a\\{,2\\}');
    expect(fix('{2}')).toBe('\\{2\\}');
    expect(fix('(|{2})')).toBe('(|\\{2\\})');
    expect(fix('a}')).toBe('a\\}');
  });

  it('keeps repetitions, escapes, classes and braced escape bodies', () => {
    for (const p of [
      'a{2,4}',
      'a{2}',
      'a{2,}',
      '\\{',
      '[{}]',
      '\\p{Greek}',
      '\\P{L}',
      '\\x{41}',
      '\\u{1F600}',
      '\\b{start}',
      '\\p{Greek',
    ]) {
      expect(fix(p), p).toBe(p);
    }
    expect(fix('\\b{2}')).toBe('\\b{2}');
  });

  it('maps positions back to the input', () => {
    const r = applyBraceRule('x{y}');
    expect(r.text).toBe('x\\{y\\}');
    expect(r.map).toEqual([0, 1, 1, 2, 3, 3, 4]);
  });
});

describe('paren escaping', () => {
  const esc = (p: string) => {
    const r = escapeUnbalancedParens(p);
    return r.ok ? r.repaired.text : `refused: ${r.reason}`;
  };

  it('escapes only the parentheses without a partner; real groups keep their meaning', () => {
    expect(esc('foo(')).toBe('foo\\(');
    expect(esc('bar)')).toBe('bar\\)');
    expect(esc('\\(a)')).toBe('\\(a\\)');
    // The case: the group (get|post) stays a group, the call paren becomes literal.
    expect(esc('\\.(get|post)(')).toBe('\\.(get|post)\\(');
    expect(esc('a)(b)')).toBe('a\\)(b)');
    expect(esc('((a)')).toBe('\\((a)');
    // Parentheses inside a class are literal already and do not pair.
    expect(esc('[(]x)')).toBe('[(]x\\)');
    expect(esc('[]()]x(')).toBe('[]()]x\\(');
  });

  it('refuses where escaping would not be the literal reading: beside an alternation, or group syntax', () => {
    // Escaped, `(foo|bar` would be "(foo" or "bar": neither the group nor the text typed.
    expect(esc('(foo|bar')).toBe(
      'refused: an unbalanced parenthesis beside "|" has two readings, the group "(foo|bar)" or the literal text "\\(foo\\|bar"; write the one you mean',
    );
    expect(esc('foo|bar)')).toMatch(/the group "\(foo\|bar\)" or the literal text "foo\\\|bar\\\)"/);
    // `\(?P<x>` would be an optional parenthesis.
    expect(esc('(?P<x>a')).toMatch(/^refused: the group opened at "\(\?P<x>a" is never closed/);
    // An alternation in another scope is no obstacle.
    expect(esc('(a|b)(')).toBe('(a|b)\\(');
    expect(esc('x(|')).toMatch(/^refused/);
  });
});
