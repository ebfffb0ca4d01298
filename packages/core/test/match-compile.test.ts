/**
 * Behaviour of compilePattern: what the compiled regexes match (not their source text), the errors, the
 * lenient repairs, the prefilter literals and the line-selection regex. Differences from real rg are pinned in
 * match-differential.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  type CompiledPattern,
  compilePattern,
  matchSpans,
  PatternError,
  type PatternOptions,
} from '../src/match/index.js';

/** The matched substrings of `text`, with Rust's empty-match iteration. */
function found(pattern: string | CompiledPattern, text: string, options?: PatternOptions): string[] {
  const c = typeof pattern === 'string' ? compilePattern(pattern, options) : pattern;
  return matchSpans(c.regex, text).map((s) => text.slice(s.start, s.end));
}

function errorOf(pattern: string, options?: PatternOptions): PatternError {
  try {
    compilePattern(pattern, options);
  } catch (err) {
    if (err instanceof PatternError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(pattern)} to be refused`);
}

const DOLLAR_NAME = '$\u{7b}name}';

describe('compiled regexes', () => {
  it('always carry g and u, and i only when the whole pattern is case-insensitive', () => {
    expect(compilePattern('foo').regex.flags).toBe('gu');
    expect(compilePattern('foo', { caseInsensitive: true }).regex.flags).toBe('giu');
    expect(compilePattern('(?i)foo').regex.flags).toBe('giu');
    // Mixed case sensitivity is spelled out per character instead of using the flag.
    expect(compilePattern('foo(?i:bar)').regex.flags).toBe('gu');
    expect(compilePattern('foo').asciiRegex.flags).toBe('g');
  });

  it('reports multiline and the effective pattern', () => {
    const c = compilePattern('a.b', { multiline: true });
    expect(c.multiline).toBe(true);
    expect(c.effectivePattern).toBe('a.b');
  });

  it('asciiRegex agrees with regex on ASCII text', () => {
    const text = 'foo_bar 1234 Foo(bar)\r\nx\ty  z';
    for (const p of ['\\w+', '\\bFoo\\b', '\\s+', '[^a-z]+', '(?i)FOO', '\\d{2}', '.$', '\\B\\w']) {
      const c = compilePattern(p);
      expect(matchSpans(c.asciiRegex, text), p).toEqual(matchSpans(c.regex, text));
    }
  });
});

describe('line-oriented matching (no -U)', () => {
  it('never crosses a line end, even with \\s, negated classes or (?s).', () => {
    const text = 'a  \n  b\nc\nd';
    expect(found('a\\s+', text)).toEqual(['a  ']);
    expect(found('c[^x]*', text)).toEqual(['c']);
    expect(found('(?s)c.+', text)).toEqual([]);
    expect(found('(?s)c.*', text)).toEqual(['c']);
  });

  it('treats only \\n as a line end: `$` does not match before \\r, `.` matches \\r and U+2028', () => {
    expect(found('foo$', 'foo\r\nfoo\n')).toEqual(['foo']);
    expect(found('o.$', 'fo\r\n')).toEqual(['o\r']);
    expect(found('a.b', 'a\u2028b a\u2029b a\rb')).toEqual(['a\u2028b', 'a\u2029b', 'a\rb']);
    expect(found('^b', 'a\rb\nb')).toEqual(['b']);
  });

  it('makes \\A and \\z line anchors', () => {
    expect(found('\\Ab', 'b\nb\nab')).toEqual(['b', 'b']);
    expect(found('b\\z', 'b\nb\nba')).toEqual(['b', 'b']);
  });

  it('refuses a literal newline like rg does', () => {
    const err = errorOf('a\\nb');
    expect(err.code).toBe('invalid_pattern');
    expect(err.position).toBe(1);
    expect(err.message).toMatch(/"\\n" is not allowed .*-U.* at position 1$/);
    expect(errorOf('\\x0A').position).toBe(0);
    expect(errorOf('x[\\n]').position).toBe(1);
    expect(errorOf('a\nb', { fixedStrings: true }).position).toBe(1);
    // A class that keeps something else just loses the newline.
    expect(found('[\\na]+', 'aa\na')).toEqual(['aa', 'a']);
  });
});

describe('multiline (-U)', () => {
  it('lets \\n, \\s and negated classes cross lines; `.` still stops at \\n', () => {
    const text = 'foo\nbar\r\nbaz';
    expect(found('foo\\nbar', text, { multiline: true })).toEqual(['foo\nbar']);
    expect(found('o\\s+b', text, { multiline: true })).toEqual(['o\nb']);
    expect(found('r[^z]+', text, { multiline: true })).toEqual(['r\r\nba']);
    expect(found('foo.bar', text, { multiline: true })).toEqual([]);
    expect(found('(?s)foo.bar', text, { multiline: true })).toEqual(['foo\nbar']);
  });

  it('keeps ^ and $ as \\n line anchors and makes \\A, \\z the file ends', () => {
    const text = 'ab\r\nab\nab';
    expect(found('b$', text, { multiline: true })).toEqual(['b', 'b']);
    expect(found('^a', text, { multiline: true })).toEqual(['a', 'a', 'a']);
    expect(found('\\Aa', text, { multiline: true })).toEqual(['a']);
    expect(found('b\\z', text, { multiline: true })).toEqual(['b']);
  });
});

describe('word mode (-w, ripgrep 15 semantics)', () => {
  it('needs no word character right before and right after, whatever the pattern starts or ends with', () => {
    const text = 'foo(bar) foo( x foo(';
    expect(found('foo\\(', text, { wordRegexp: true })).toEqual(['foo(', 'foo(']);
    expect(found('@x', '@x a@x @xy (@x)', { wordRegexp: true })).toEqual(['@x', '@x']);
    expect(found('foo', 'foo foobar barfoo foo_ (foo)', { wordRegexp: true })).toEqual(['foo', 'foo']);
  });

  it('uses Unicode word characters', () => {
    expect(found('na', 'naïve na', { wordRegexp: true })).toEqual(['na']);
    expect(found('té', 'été té', { wordRegexp: true })).toEqual(['té']);
  });
});

describe('fixed strings (-F)', () => {
  it('matches metacharacters literally, also with -i and -w', () => {
    expect(found('a.b(c)[d]{2}$^|*+?\\', 'a.b(c)[d]{2}$^|*+?\\ axb', { fixedStrings: true })).toEqual([
      'a.b(c)[d]{2}$^|*+?\\',
    ]);
    expect(found(DOLLAR_NAME, `x ${DOLLAR_NAME} $NAME`, { fixedStrings: true })).toEqual([DOLLAR_NAME]);
    expect(found('Σ(x)', 'σ(X) ς(x)', { fixedStrings: true, caseInsensitive: true })).toEqual([
      'σ(X)',
      'ς(x)',
    ]);
    expect(found('a.b', 'a.b a.bc', { fixedStrings: true, wordRegexp: true })).toEqual(['a.b']);
  });
});

describe('case-insensitive (Unicode simple case folding, as Rust)', () => {
  it('folds K/k/KELVIN SIGN, S/s/LONG S, ß/ẞ and the three sigmas', () => {
    const text = 'K k \u212a S s \u017f ß ẞ Σ σ ς';
    expect(found('k', text, { caseInsensitive: true })).toEqual(['K', 'k', '\u212a']);
    expect(found('(?i)s', text)).toEqual(['S', 's', '\u017f']);
    expect(found('(?i)ß', text)).toEqual(['ß', 'ẞ']);
    expect(found('(?i)σ', text)).toEqual(['Σ', 'σ', 'ς']);
  });

  it('does not fold full case mappings (ß is not ss) or Turkish dotless i', () => {
    expect(found('(?i)ss', 'ß SS')).toEqual(['SS']);
    expect(found('(?i)i', 'ı İ I i')).toEqual(['I', 'i']);
  });

  it('scopes (?i:…) and (?-i) correctly', () => {
    expect(found('f(?i:OO)', 'fOO foo FOO')).toEqual(['fOO', 'foo']);
    expect(found('k(?-i)elvin', 'KELVIN Kelvin \u212aelvin kelvin', { caseInsensitive: true })).toEqual([
      'Kelvin',
      '\u212aelvin',
      'kelvin',
    ]);
    // A flag set mid-group lasts to the end of the group, across `|`.
    expect(found('x(?i)y|c', 'C xY')).toEqual(['C', 'xY']);
  });

  it('folds before negating, like Rust: (?i)[^k] excludes every k', () => {
    expect(found('(?i)[^k]', 'K\u212akx')).toEqual(['x']);
    expect(found('(?i)\\P{Lu}', 'Aa1')).toEqual(['1']);
  });

  it('keeps (?i-u) to ASCII folding', () => {
    expect(found('(?i-u)k', 'K k \u212a')).toEqual(['K', 'k']);
  });
});

describe('Rust-only syntax', () => {
  it('supports (?x) with comments and escaped spaces', () => {
    expect(found('(?x) f o o # the word\n | b\\ r', 'foo b r')).toEqual(['foo', 'b r']);
  });

  it('supports named groups, \\x{…}, \\u{…}, POSIX and Unicode classes', () => {
    expect(found('(?P<a>x)(?<b>y)', 'xy')).toEqual(['xy']);
    expect(found('\\x{41}\\u{e9}\\U0001F600', 'Aé😀')).toEqual(['Aé😀']);
    expect(found('[[:upper:]][[:digit:]]+', 'A12 b3')).toEqual(['A12']);
    expect(found('\\pL+', 'ab1Σσ')).toEqual(['ab', 'Σσ']);
    expect(found('\\p{Greek}+', 'abcΣίσυφος')).toEqual(['Σίσυφος']);
    expect(found('\\p{Is_Greek}', 'σ')).toEqual(['σ']);
    // Loose matching drops spaces, but the "is" prefix must come first (rg agrees).
    expect(found('\\p{ Greek }', 'σ')).toEqual(['σ']);
    expect(errorOf('\\p{ Is_Greek }').message).toMatch(/^Unicode property not found/);
    expect(found('\\p{sc:Grek}', 'σ')).toEqual(['σ']);
    expect(found('\\p{Uppercase Letter}', 'aB')).toEqual(['B']);
  });

  it('translates class set operations', () => {
    expect(found('[a-z&&[^aeiou]]+', 'strength')).toEqual(['str', 'ngth']);
    expect(found('[\\w--\\d]+', 'ab12cd')).toEqual(['ab', 'cd']);
    expect(found('[a-f~~d-z]+', 'abcdefgh')).toEqual(['abc', 'gh']);
  });

  it('has Unicode \\w, \\d, \\s, \\b by default and ASCII ones under (?-u)', () => {
    expect(found('\\w+', 'naïve 東京')).toEqual(['naïve', '東京']);
    expect(found('\\d+', '٣٤ 12')).toEqual(['٣٤', '12']);
    expect(found('a\\sb', 'a\u00a0b a\u0085b a\ufeffb')).toEqual(['a\u00a0b', 'a\u0085b']);
    expect(found('\\bé', 'é xé')).toEqual(['é']);
    expect(found('(?-u)\\w+', 'naïve')).toEqual(['na', 've']);
    expect(found('(?-u)\\bx', 'éx x')).toEqual(['x', 'x']);
  });

  it('supports \\<, \\>, \\b{start}, \\b{end-half} (rg 15)', () => {
    expect(found('\\<a', 'a ba a')).toEqual(['a', 'a']);
    expect(found('a\\>', 'a ab ba')).toEqual(['a', 'a']);
    expect(found('\\b{start}x', 'x yx')).toEqual(['x']);
    expect(found('x\\b{end-half}', 'x! xy')).toEqual(['x']);
  });

  it('matches empty alternation branches and nested repetition like Rust', () => {
    expect(found('ab|', 'ab x')).toEqual(['ab', '', '']);
    expect(found('a**', 'aab')).toEqual(['aa', '']);
    // `X?` with X able to match empty: Rust takes X's empty match, a plain JS `?` would not.
    expect(found('(?:a*|b)?', 'b')).toEqual(['', '']);
  });

  it('does not turn nested quantifiers exponential', () => {
    const c = compilePattern('(?:a+)+$');
    // V8 would explore 2^n paths for the literal translation; the merged loop answers at once.
    expect(found(c, `${'a'.repeat(40)}!`)).toEqual([]);
  });
});

describe('errors', () => {
  it('are PatternErrors with a code, a 0-based position and a one-line message', () => {
    const err = errorOf('a[', { lenient: false });
    expect(err).toBeInstanceOf(PatternError);
    expect(err.code).toBe('invalid_pattern');
    expect(err.message).toBe('unclosed character class at position 1');
    expect(err.position).toBe(1);
    for (const p of [
      'a{,3}',
      '\\Qa\\E',
      '\\0',
      '(?=a)',
      '\\1',
      'x{3,1}',
      '(?ii)',
      '[z-a]',
      '\\p{Klingon}',
      '*a',
      '(?)',
    ]) {
      const e = errorOf(p, { lenient: false });
      expect(e.message, p).not.toContain('\n');
      expect(e.message, p).toMatch(/at position \d+$/);
    }
  });

  it('name the construct rg refuses', () => {
    expect(errorOf('(?=a)').message).toMatch(/^look-around/);
    expect(errorOf('\\1').message).toMatch(/^backreferences are not supported/);
    expect(errorOf('\\Qx\\E').message).toMatch(/^unrecognized escape sequence at position 0/);
    expect(errorOf('[z-a]').message).toMatch(/start must be <= the end at position 1/);
    expect(errorOf('\\p{Other_Alphabetic}').message).toMatch(/not supported by JavaScript/);
    expect(errorOf('\\p{Age=3.0}').message).toMatch(/not supported by JavaScript/);
  });

  it('follow rg 15, which parses the pattern inside (?:…)', () => {
    expect(found('a)(b', 'ab', { lenient: false })).toEqual(['ab']);
    expect(errorOf('a)', { lenient: false }).message).toBe('unopened group at position 1');
    expect(errorOf('(?x)a # c', { lenient: false }).message).toMatch(
      /comment runs to the end.* at position 6$/,
    );
    expect(errorOf('a\\', { lenient: false }).message).toMatch(
      /^incomplete escape sequence.* at position 1$/,
    );
  });

  it("apply regex-syntax's nest limit of 250, counting rg 15's wrapper group", () => {
    const groups = (n: number): string => `${'('.repeat(n)}a${')'.repeat(n)}`;
    expect(found(groups(249), 'a')).toEqual(['a']);
    expect(errorOf(groups(250)).message).toMatch(/nesting limit of 250/);
    expect(errorOf(`a${'*'.repeat(250)}`).message).toMatch(/nesting limit/);
    expect(errorOf(`${'['.repeat(100_000)}a`).message).toMatch(/nesting limit/);
    expect(found('x'.repeat(20_000), 'x'.repeat(20_000))).toHaveLength(1);
    // rg takes it, but V8 refuses to compile it: a clear error up front, never a throw mid-search.
    expect(errorOf('x'.repeat(100_000)).message).toMatch(/too large for JavaScript/);
  });

  it('refuse (?-u) byte classes that decoded text cannot express', () => {
    expect(errorOf('(?-u)\\xE9').position).toBe(5);
    expect(errorOf('(?-u)[a\\xE9]').message).toMatch(/only some non-ASCII bytes/);
    expect(found('(?-u)[\\x80-\\xFF]+', 'aéb')).toEqual(['é']);
  });
});

describe('lenient repairs', () => {
  it('makes braces that cannot start a repetition literal, and the $ before them', () => {
    expect(found(DOLLAR_NAME, `a ${DOLLAR_NAME} $name`)).toEqual([DOLLAR_NAME]);
    expect(compilePattern(DOLLAR_NAME).effectivePattern).toBe('\\$\\{name\\}');
    expect(found('interface{}', 'interface{} interface')).toEqual(['interface{}']);
    expect(found('a{,3}', 'a{,3}')).toEqual(['a{,3}']);
    expect(found('{x}', '{x}')).toEqual(['{x}']);
  });

  it('keeps real repetitions and the braced bodies of escapes', () => {
    expect(found('a{2,4}', 'a aa aaaaa')).toEqual(['aa', 'aaaa']);
    expect(found('\\p{Greek}{2}', 'σς')).toEqual(['σς']);
    expect(found('\\x{41}{2}', 'AA')).toEqual(['AA']);
    expect(found('\\b{start}ab', 'ab cab')).toEqual(['ab']);
    expect(found('(?x) a{ 2 }', 'aa')).toEqual(['aa']);
  });

  it('retries with escaped parentheses only after an unclosed/unopened group error', () => {
    expect(found('foo(', 'foo(bar)')).toEqual(['foo(']);
    expect(found('bar)', 'foo(bar)')).toEqual(['bar)']);
    expect(compilePattern('foo(').effectivePattern).toBe('foo\\(');
    // `foo()` is a valid pattern (an empty group), so no retry: it matches `foo`.
    expect(found('foo()', 'foo() foo')).toEqual(['foo', 'foo']);
    // Other errors are not retried.
    expect(errorOf('foo([').message).toBe('unclosed character class at position 4');
  });

  it('report positions in the original pattern', () => {
    expect(errorOf(`${DOLLAR_NAME}[`).position).toBe(7);
    expect(errorOf('{a}(?=b)').position).toBe(3);
  });

  it('are off with lenient: false', () => {
    expect(errorOf(DOLLAR_NAME, { lenient: false }).message).toMatch(/repetition/);
    expect(errorOf('foo(', { lenient: false }).message).toBe('unclosed group at position 3');
    expect(compilePattern('a{2}', { lenient: false }).effectivePattern).toBe('a{2}');
  });
});

describe('required literals (prefilter)', () => {
  const req = (p: string, o?: PatternOptions) => compilePattern(p, o).required;

  it('extracts what every match must contain', () => {
    expect(req('foo')).toEqual({ literals: ['foo'], caseInsensitive: false });
    expect(req('foo|bar')).toEqual({ literals: ['foo', 'bar'], caseInsensitive: false });
    expect(req('\\w+_probe\\s*\\(')?.literals).toEqual(['_probe']);
    expect(req('colou?r')?.literals.sort()).toEqual(['color', 'colour']);
    // A literal containing another adds nothing to the filter.
    expect(req('(?:foo)?bar')?.literals).toEqual(['bar']);
    expect(req('a.b', { fixedStrings: true })?.literals).toEqual(['a.b']);
    expect(req('foo', { wordRegexp: true })?.literals).toEqual(['foo']);
  });

  it('gives every set of literals a match must hold, for parts in sequence (an AND of ORs)', () => {
    expect(req('kmalloc\\(.*GFP_ATOMIC\\)')).toEqual({
      literals: ['GFP_ATOMIC)'],
      caseInsensitive: false,
      also: [['kmalloc(']],
      oneLine: true,
    });
    expect(req('netif_rx\\w*\\(skb')?.also).toEqual([['(skb']]);
    expect(req('a(b|c)d.*efgh')?.also).toEqual([['abd', 'acd']]);
    // -U: a match may span lines when the pattern can match a newline; --null-data: lines end at NULs.
    expect(req('foo\\s+barbaz', { multiline: true })).toMatchObject({ also: [['foo']], oneLine: false });
    expect(req('foo.*barbaz', { multiline: true })?.oneLine).toBe(true);
    expect(req('foo.*barbaz', { nullData: true })?.oneLine).toBe(false);
    // Sets implied by another add nothing; a part that may be skipped requires nothing.
    expect(req('foo')?.also).toBeUndefined();
    expect(req('foobar.*(?:bar)?baz')).toMatchObject({ literals: ['foobar'], also: [['baz']] });
    expect(req('abcd(?:.*wxyz)?')?.also).toBeUndefined();
    // An alternation of sequences: one set per choice of a part from each side.
    expect(req('GAMMA.*alpha|alpha.*GAMMA')).toMatchObject({
      literals: ['GAMMA', 'alpha'],
      also: [['GAMMA'], ['alpha']],
    });
    expect(
      req('(foo.*bar)|(baz.*qux)')
        ?.also?.map((set) => [...set].sort().join())
        .sort(),
    ).toEqual(['bar,baz', 'bar,qux', 'foo,qux']);
    expect(req('(foo.*bar)|\\w+')).toBeNull();
  });

  it('gives up when a match may contain no literal', () => {
    expect(req('[a-z]+')).toBeNull();
    expect(req('.')).toBeNull();
    expect(req('a*')).toBeNull();
    expect(req('foo|\\w+')).toBeNull();
    expect(req('')).toBeNull();
  });

  it('is case-insensitive with the i flag, spelling out folds that leave ASCII', () => {
    expect(req('(?i)Foo')).toEqual({ literals: ['foo'], caseInsensitive: true });
    // k ~ U+212A KELVIN SIGN, s ~ U+017F LATIN SMALL LETTER LONG S
    expect(req('desk', { caseInsensitive: true })?.literals.sort()).toEqual(
      ['desk', 'des\u212a', 'de\u017fk', 'de\u017f\u212a'].sort(),
    );
    expect(req('(?i)café')?.literals.sort()).toEqual(['caf\u00c9', 'café'].sort());
  });

  it('lists explicit spellings when case sensitivity is mixed', () => {
    expect(req('a(?i)b')).toEqual({ literals: ['aB', 'ab'], caseInsensitive: false });
  });
});

describe('lineRegex (line selection shortcut)', () => {
  it('trims leading and trailing one-character repeats', () => {
    const c = compilePattern('\\w+\\d{4}');
    expect(c.lineRegex).toBeDefined();
    const text = `${'a'.repeat(200_000)}\nabc2024 x\n`;
    // The trimmed regex is linear on the long line; the full one would be quadratic there.
    expect(matchSpans(c.lineRegex!, text).map((s) => text.slice(s.start, s.end))).toEqual(['c2024']);
    expect(compilePattern('.*tail.*').lineRegex?.source).not.toContain('*');
  });

  it('is absent when nothing can be trimmed, and in multiline mode', () => {
    expect(compilePattern('foo').lineRegex).toBeUndefined();
    expect(compilePattern('\\w+x', { multiline: true }).lineRegex).toBeUndefined();
    expect(compilePattern('\\w+x', { wordRegexp: true }).lineRegex).toBeUndefined();
  });

  it('selects the same lines as regex', () => {
    const text = 'foo123 bar\nxx 2024a\n\nabc\n12345\n';
    for (const p of ['\\w+\\d{2}', '.*a', 'x*\\d', '\\d+$', 'a|b+c', '[0-9]{2,}']) {
      const c = compilePattern(p);
      const lines = (re: RegExp) => [
        ...new Set(matchSpans(re, text).map((s) => text.slice(0, s.start).split('\n').length)),
      ];
      expect(lines(c.lineRegex ?? c.regex), p).toEqual(lines(c.regex));
    }
  });
});

describe('matchSpans', () => {
  it('follows Rust: no empty match where the previous match ended', () => {
    expect(matchSpans(compilePattern('a*').regex, 'baaa')).toEqual([
      { start: 0, end: 0 },
      { start: 1, end: 4 },
    ]);
    expect(found('x*', 'ab')).toEqual(['', '', '']);
  });

  it('never reports an empty match inside a surrogate pair', () => {
    for (const p of ['x*', '\\B', '', '^$', '\\b{end-half}']) {
      const spans = matchSpans(compilePattern(p).regex, 'a😀😀b');
      expect(
        spans.every((s) => s.start !== 2 && s.start !== 4),
        p,
      ).toBe(true);
    }
    expect(matchSpans(compilePattern('', { wordRegexp: true }).regex, '😀😀')).toEqual([
      { start: 0, end: 0 },
      { start: 2, end: 2 },
      { start: 4, end: 4 },
    ]);
  });
});
