/**
 * Differential test of the pattern translator against real ripgreps: rg 15 (bundled @vscode/ripgrep) is the
 * reference, rg 13 (Debian) must agree too except for cases listed in RG13_DIFFERS with the reason.
 *
 * For every case: run `rg --json --no-config [flags] -- PATTERN FILE` over one sample file, run our `regex`
 * over the whole decoded file (Rust's empty-match iteration rule), and compare per line the matched line
 * numbers and submatch byte ranges (UTF-8 offsets within the line). With -U, absolute byte spans.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CompiledPattern, compilePattern, matchSpans, PatternError } from '../src/match/index.js';
import { BUNDLED_RG, DEBIAN_RG, itHasRipgrep } from './fixtures/ripgreps.js';

const RG15 = BUNDLED_RG.path;
const RG13 = DEBIAN_RG.path;

/** The text `${name}` (spelled so no linter mistakes it for a template). */
const DOLLAR_NAME = '$\u{7b}name}';

const LONG = `${'ab1_'.repeat(700)}word2024 ${'x'.repeat(1500)}`;

/** The sample: ASCII and Unicode words, CRLF and lone CR, tabs, NBSP, U+2028, astral chars, empty lines. */
const SAMPLE = [
  'foo bar baz',
  'Foo(bar) foo( foo() bar) foobar',
  '  indented\twith tab',
  '',
  'crlf line\r',
  'trailing cr\r',
  'mid\rcr here',
  'café naïve Σίσυφος 東京 ἅγιος',
  'ΣΊΣΥΦΟΣ σίσυφος ς σ',
  'Kelvin \u212a k K ſ s S ß ẞ',
  'nbsp\u00a0here and\u2003em space',
  'line\u2028sep and\u0085nel x\ufeffbom',
  'digits 0123 ٣٤٥ ８ 42',
  'under_score __init__ snake_case_name',
  `template ${DOLLAR_NAME} and $name and {x} interface{} a{2,4}`,
  'aa aaa aaaa a{2} xx{',
  '@x a@x @xy (@x) x@x -a- --b--',
  'emoji 😀 and 𝒜𝒷 math',
  'e\u0301 combining and zero\u200dwidth join',
  'TODO: fix this; todo later; ToDo',
  'fn main() { println!("hi"); }',
  'price: $100.00 [tag] (paren) {brace} a|b',
  'kelvin KELVIN Desk DESK',
  '\t',
  'the end.',
  '',
  LONG,
  'tail line',
  'after tail 2023x',
].join('\n');
const SAMPLE_TEXT = `${SAMPLE}\n`;
/** The sample's pure-ASCII lines, for the ASCII-haystack regexes. */
const ASCII_TEXT = `${SAMPLE.split('\n')
  .filter((l) => /^[\x00-\x7f]*$/.test(l))
  .join('\n')}\n`;

interface Case {
  name: string;
  pattern: string;
  i?: boolean;
  w?: boolean;
  F?: boolean;
  U?: boolean;
  /** Compile leniently and run rg with the repaired pattern. */
  lenient?: boolean;
  /** Compare matched lines only, with the reason. */
  linesOnly?: string;
  /** A documented difference from rg 15: the test asserts it is still there (so the docs stay true). */
  deviation?: string;
}

const CASES: Case[] = [
  // literals, alternation, basics
  { name: 'plain literal', pattern: 'foo' },
  { name: 'alternation', pattern: 'foo|bar|baz' },
  { name: 'literal with dot', pattern: 'the end.' },
  { name: 'escaped dot', pattern: 'end\\.' },
  { name: 'empty alternation branch', pattern: 'foo|' },
  { name: 'empty group', pattern: 'fo()o' },
  { name: 'empty pattern matches every line', pattern: '' },
  { name: 'star of an absent char (empty matches)', pattern: 'q*' },
  { name: 'a* empty-match iteration rule', pattern: 'a*' },
  { name: 'lazy quantifiers', pattern: 'a+?|b??' },
  { name: 'counted repetition', pattern: 'a{2,3}' },
  { name: 'counted exact', pattern: 'x{2}' },
  { name: 'counted at least', pattern: 'a{3,}' },
  { name: 'nested repetition a** (accepted by both)', pattern: 'a**' },
  { name: 'nested repetition (?:a+)+ stays linear', pattern: '(?:a+)+b' },
  { name: 'swap greed (?U)', pattern: '(?U)a+' },
  { name: 'swap greed lazy becomes greedy', pattern: '(?U)a+?' },
  // dot and line terminators
  { name: 'dot matches CR, NEL, U+2028 but not LF', pattern: 'r.' },
  { name: 'dot run', pattern: 'mid.cr' },
  { name: '(?s) dot in line mode still stops at LF', pattern: '(?s)cr.' },
  { name: 'line end anchor is LF-only (foo\\r does not match)', pattern: 'line$' },
  { name: 'cr before end', pattern: '\\r$' },
  { name: 'line start anchor', pattern: '^[a-z]+' },
  { name: 'empty line', pattern: '^$' },
  { name: '(?R) CRLF mode end anchor matches before CR', pattern: '(?R)line$' },
  { name: '(?R) CRLF mode start anchor after CR', pattern: '(?R)^cr' },
  { name: '(?R) dot excludes CR', pattern: '(?R)cr.' },
  { name: '\\z is line end in line mode', pattern: 'tab\\z' },
  {
    name: '\\A is line start for line selection',
    pattern: '\\A[a-z]+',
    linesOnly:
      'rg selects every line but finds \\A submatches from the buffer start, so lines after the first have none',
  },
  { name: '(?-m)$ acts as line end', pattern: 'baz(?-m)$' },
  // classes
  { name: 'negated class excludes LF', pattern: '[^a-z ]+' },
  { name: 'class with LF keeps the rest', pattern: '[\\na]+' },
  { name: '\\s excludes LF, includes CR NBSP NEL U+2028', pattern: '\\s+' },
  { name: '\\S', pattern: '\\S+' },
  { name: '\\W includes CR', pattern: '\\W+' },
  { name: '\\w is Unicode', pattern: '\\w+' },
  { name: '\\d is Unicode Nd', pattern: '\\d+' },
  { name: '\\D', pattern: '\\D{3}' },
  { name: 'POSIX alpha', pattern: '[[:alpha:]]+' },
  { name: 'POSIX negated', pattern: '[[:^alnum:][:space:]]+' },
  { name: 'POSIX word and punct', pattern: '[[:word:]]+[[:punct:]]' },
  { name: 'literal colon class outside brackets', pattern: '[:alpha:]+' },
  { name: '\\pL', pattern: '\\pL+' },
  { name: '\\PL', pattern: '\\PL+' },
  { name: '\\p{Greek}', pattern: '\\p{Greek}+' },
  { name: '\\p{sc=Greek} named value', pattern: '\\p{sc=Greek}+' },
  { name: '\\p{Han} script', pattern: '\\p{Han}' },
  { name: '\\p{Lu} loose name', pattern: '\\p{uppercase letter}+' },
  { name: '\\p{gc!=L} means \\p{gc=L} in rg 13 and 15 (the != is ignored)', pattern: '\\p{gc!=L}+' },
  { name: 'class intersection', pattern: '[a-z&&[^aeiou]]+' },
  { name: 'class difference', pattern: '[\\w--\\d]+' },
  { name: 'class symmetric difference', pattern: '[a-f~~d-z]+' },
  { name: 'class leading ] and -', pattern: '[]a-]+' },
  { name: 'negated leading ]', pattern: '[^]a-z ]+' },
  { name: 'nested class', pattern: '[a[0-9]]+' },
  { name: 'Unicode in class', pattern: '[é東σ]' },
  // escapes
  { name: 'hex escape', pattern: '\\x41|\\x{1F600}' },
  { name: '\\u escapes', pattern: '\\u00e9|\\u{6771}|\\U0001D49C' },
  { name: 'tab escape', pattern: '\\t' },
  { name: 'escaped punctuation \\/ (rg 15 only)', pattern: 'a\\|b|\\@x' },
  { name: 'escaped braces and dollar', pattern: '\\$\\{name\\}' },
  { name: 'escaped space', pattern: 'Desk\\ DESK' },
  // word boundaries
  { name: '\\b Unicode', pattern: '\\bna\\w+' },
  { name: '\\B', pattern: '\\Bar\\B' },
  { name: '\\b around é', pattern: '\\bcaf\\b' },
  { name: '\\< and \\> (rg 15)', pattern: '\\<[a-z]+\\>' },
  { name: '\\b{start} and \\b{end} (rg 15)', pattern: '\\b{start}fo\\w*\\b{end}' },
  { name: '\\b{start-half}', pattern: '\\b{start-half}x' },
  { name: 'empty \\B matches never fall inside a surrogate pair', pattern: '\\B' },
  { name: '\\b{end-half} alone (empty matches, astral text)', pattern: '\\b{end-half}' },
  { name: '-w empty pattern', pattern: '', w: true },
  // flags
  { name: '(?i) whole pattern', pattern: '(?i)foo' },
  { name: '(?i) Kelvin sign and long s', pattern: '(?i)k|s' },
  { name: '(?i) sharp s', pattern: '(?i)ß' },
  { name: '(?i) sigma forms', pattern: '(?i)σ' },
  { name: '(?i) Greek word', pattern: '(?i)σίσυφος' },
  { name: 'scoped (?i:…)', pattern: 'f(?i:OO) bar' },
  { name: 'negated (?-i) inside -i', pattern: 'k(?-i)elvin', i: true },
  { name: '(?i) persists across |', pattern: 'zzz(?i)q|FOO' },
  { name: 'mixed case-folded class', pattern: 'TODO(?i:[a-z]+)' },
  { name: '(?i) class folding', pattern: '(?i)[a-c]+' },
  { name: '(?i) negated class', pattern: '(?i)[^a-z ]+' },
  { name: '(?i) \\p{Lu} folds before negation', pattern: '(?i)\\P{Lu}+' },
  { name: '(?x) whitespace and comment', pattern: '(?x) f o o # a comment\n | b a r' },
  { name: '(?x) escaped space', pattern: '(?x)Desk\\ DESK' },
  { name: '(?x) scoped', pattern: '(?x: f o o )bar' },
  { name: 'named groups (?P<n>) and (?<n>)', pattern: '(?P<first>foo)(?<rest>bar)?' },
  { name: '(?-u) ASCII word', pattern: '(?-u)\\w+' },
  { name: '(?-u) ASCII boundary', pattern: '(?-u)\\bna' },
  { name: '(?-u:\\d) with Unicode digits around', pattern: '(?-u:\\d)+' },
  { name: '(?i-u) ASCII-only folding', pattern: '(?i-u)kelvin' },
  { name: '(?s) with -U crosses lines', pattern: '(?s)end\\..', U: true },
  // options
  { name: '-i literal', pattern: 'foo', i: true },
  { name: '-i Kelvin', pattern: 'KELVIN', i: true },
  { name: '-i desk (k and s fold outside ASCII)', pattern: 'desk', i: true },
  { name: '-F metacharacters', pattern: 'foo() bar)', F: true },
  { name: '-F with dollar brace', pattern: DOLLAR_NAME, F: true },
  { name: '-F -i', pattern: 'ΣΊΣΥΦΟΣ', F: true, i: true },
  { name: '-F -w', pattern: 'foo', F: true, w: true },
  { name: '-w plain', pattern: 'foo', w: true },
  { name: '-w pattern ending in non-word char', pattern: 'foo\\(', w: true },
  { name: '-w pattern starting with non-word char', pattern: '@x', w: true },
  { name: '-w dashes', pattern: '-a-', w: true },
  { name: '-w \\w+ at line start (rg 13 differs)', pattern: '\\w+', w: true },
  { name: '-w dot (rg 13 differs)', pattern: '.', w: true },
  { name: '-w alternation', pattern: 'a|aa', w: true },
  { name: '-w Unicode', pattern: 'naïve', w: true },
  { name: '-w -i', pattern: 'kelvin', w: true, i: true },
  // multiline
  { name: '-U literal newline', pattern: 'bar\\nFoo', U: true },
  { name: '-U \\s+ crosses lines', pattern: 'tab\\s+crlf', U: true },
  { name: '-U $ is LF-only', pattern: 'line$', U: true },
  { name: '-U ^', pattern: '^Foo', U: true },
  { name: '-U negated class crosses LF', pattern: 'baz[^o]+oo', U: true },
  { name: '-U dot does not cross LF', pattern: 'baz.+', U: true },
  { name: '-U \\A', pattern: '\\Afoo', U: true },
  { name: '-U \\z', pattern: '2023x\\n\\z', U: true },
  { name: '-U CRLF', pattern: 'line\\r\\ntrailing', U: true },
  { name: '-U (?R) $', pattern: '(?R)cr$', U: true },
  { name: '-U -w', pattern: 'cr\\s+mid', U: true, w: true },
  // real-world shapes
  { name: 'class + literal (bench query)', pattern: '\\w+_probe\\s*\\(' },
  { name: 'no-literal regex (bench query)', pattern: '\\w+\\d{4}' },
  { name: 'leading dot-star', pattern: '.*tail' },
  { name: 'function call', pattern: '[a-z]+!?\\(' },
  { name: 'price', pattern: '\\$\\d+\\.\\d{2}' },
  { name: 'uppercase words', pattern: '\\b[A-Z][a-z]+\\b' },
  { name: 'TODO variants', pattern: '(?i)\\btodo\\b' },
  // more flags and classes
  { name: '(?m) explicit is the default', pattern: '(?m)^foo' },
  {
    name: '(?-m)^ is a line start for line selection',
    pattern: '(?-m)^[a-z]+',
    linesOnly: 'as for \\A: rg reports lines after the first without submatches',
  },
  { name: '(?i) POSIX upper folds (Unicode mode)', pattern: '(?i)[[:upper:]]+' },
  { name: '(?i) \\p{Lu} folds', pattern: '(?i)\\p{Lu}{2}' },
  { name: 'mixed case with Kelvin', pattern: '(?i)k(?-i)elvin' },
  { name: '-i with negated class [^k]', pattern: '[^k ]+', i: true },
  { name: '\\pN and \\p{Nd}', pattern: '\\pN+|\\p{Nd}' },
  { name: 'POSIX negated alpha', pattern: '[[:^alpha:]]+' },
  { name: 'class with escapes and ranges', pattern: '[\\t\\x20-\\x2F\\]]+' },
  { name: '(?-u) negated class run', pattern: '(?-u)[^a-z ]+' },
  { name: '(?-u) \\W run', pattern: '(?-u)\\W+' },
  { name: '(?-u) non-ASCII literal (rg 15 only)', pattern: '(?-u)é.' },
  { name: '-U (?s) dot crosses LF', pattern: '(?s)tab.+?crlf', U: true },
  { name: '-U \\W+ crosses LF', pattern: 'baz\\W+Foo', U: true },
  {
    name: 'deviation: a loop body that prefers the empty match',
    pattern: '(?:|a)+b|(?:|x)*',
    deviation:
      'rg 15 (regex 1.9+) takes the empty iteration and leaves the loop; JS rejects empty iterations and tries the next alternative, as rg 13 did',
  },
  {
    name: 'deviation: (?-u) dot is one byte in rg',
    pattern: '(?-u)caf.',
    deviation: 'rg matches one byte of é; over decoded text we match the whole character',
  },
  // errors (both rgs refuse unless noted)
  { name: 'error: a{,3}', pattern: 'a{,3}' },
  { name: 'error: unclosed counted repetition', pattern: 'a{2' },
  { name: 'error: lone {', pattern: '{' },
  { name: 'error: \\Q…\\E', pattern: '\\Qa\\E' },
  { name: 'error: octal / backreference \\0', pattern: '\\0' },
  { name: 'error: backreference \\1', pattern: '(a)\\1' },
  { name: 'error: look-ahead', pattern: 'a(?=b)' },
  { name: 'error: empty class []', pattern: '[]' },
  { name: 'error: unclosed class', pattern: 'a[b' },
  { name: 'error: reversed range', pattern: '[z-a]' },
  { name: 'error: reversed count', pattern: 'a{3,1}' },
  { name: 'error: duplicate group name', pattern: '(?P<n>a)(?P<n>b)' },
  { name: 'error: duplicate flag', pattern: '(?ii)a' },
  { name: 'error: unknown property', pattern: '\\p{Klingon}' },
  { name: 'error: \\n without -U', pattern: 'a\\nb' },
  { name: 'error: \\x0A without -U', pattern: '\\x0A' },
  { name: 'error: [\\n] without -U', pattern: '[\\n]' },
  { name: 'error: -F with a newline without -U', pattern: 'a\nb', F: true },
  { name: 'error: repetition of nothing', pattern: '*a' },
  { name: 'error: (?) empty flags', pattern: '(?)' },
  { name: 'error: unclosed group', pattern: '(a' },
  { name: 'error: unopened group', pattern: 'a)' },
  { name: 'error: \\e', pattern: '\\e' },
  { name: 'error: trailing backslash (rg 15: unclosed group)', pattern: 'a\\' },
  { name: 'error: (?x) trailing comment swallows rg 15 wrapper', pattern: '(?x)a # c' },
  { name: 'a)(b is valid in rg 15 (wrapped in (?:…))', pattern: 'a)(b' },
  {
    name: 'nest limit: 125 nested (a( levels are accepted',
    pattern: `${'(f'.repeat(125)}${')'.repeat(125)}`,
  },
  { name: 'error: nest limit, 126 nested (a( levels', pattern: `${'(f'.repeat(126)}${')'.repeat(126)}` },
  {
    name: 'error: nest limit, 250 nested groups (rg 15 counts its wrapper)',
    pattern: `${'('.repeat(250)}f${')'.repeat(250)}`,
  },
  // lenient repairs (rg is run on the repaired pattern)
  { name: 'lenient dollar-brace name', pattern: DOLLAR_NAME, lenient: true },
  { name: 'lenient interface{}', pattern: 'interface{}', lenient: true },
  { name: 'lenient a{2,4} stays a repetition', pattern: 'a{2,4}', lenient: true },
  { name: 'lenient {x}', pattern: '{x}', lenient: true },
  { name: 'lenient foo( paren retry', pattern: 'foo(', lenient: true },
  { name: 'lenient bar) paren retry', pattern: 'bar)', lenient: true },
  { name: 'lenient \\p{Greek} untouched', pattern: '\\p{Greek}{2}', lenient: true },
  { name: 'lenient a{,3} becomes literal', pattern: 'xx{,3}|a{2}', lenient: true },
  { name: 'lenient \\b{start} untouched', pattern: '\\b{start}fo', lenient: true },
  { name: 'lenient $ before literal brace', pattern: `template ${DOLLAR_NAME}`, lenient: true },
];

/** Cases where rg 13 and rg 15 disagree (we follow 15). Each must really differ. */
const RG13_DIFFERS: Record<string, string> = {
  'escaped punctuation \\/ (rg 15 only)': 'rg 13 rejects escapes of non-meta punctuation like \\@',
  '\\< and \\> (rg 15)': 'rg 13 has no \\< \\> word assertions',
  '\\b{start} and \\b{end} (rg 15)': 'rg 13 has no \\b{…} assertions',
  '\\b{start-half}': 'rg 13 has no \\b{…} assertions',
  '(?R) CRLF mode end anchor matches before CR': 'rg 13 has no (?R) flag',
  '(?R) CRLF mode start anchor after CR': 'rg 13 has no (?R) flag',
  '(?R) dot excludes CR': 'rg 13 has no (?R) flag',
  '-U (?R) $': 'rg 13 has no (?R) flag',
  'named groups (?P<n>) and (?<n>)': 'rg 13 only knows (?P<name>…)',
  'escaped space': 'rg 13 rejects the escape \\<space>',
  'lenient \\b{start} untouched': 'rg 13 has no \\b{…} assertions',
  'error: (?x) trailing comment swallows rg 15 wrapper':
    'rg 13 does not wrap the pattern, so the comment is harmless',
  'a)(b is valid in rg 15 (wrapped in (?:…))': 'rg 13: unopened group',
  'error: nest limit, 250 nested groups (rg 15 counts its wrapper)':
    'rg 13 has no wrapper group, so 250 levels fit',
  '(?-u) non-ASCII literal (rg 15 only)': 'rg 13: Unicode not allowed here',
  'empty \\B matches never fall inside a surrogate pair':
    'rg 13 reports different empty \\B matches next to multi-byte characters (e.g. none between "é" and " ")',
  '\\b{end-half} alone (empty matches, astral text)': 'rg 13 has no \\b{…} assertions',
  '-w empty pattern': 'rg 13 wraps -w as (?:^|\\W)(…)(?:$|\\W), which consumes the neighbours',
  '-w alternation': 'rg 13 reports (1,2) instead of (0,2) for `aa` at column 0',
  '-w \\w+ at line start (rg 13 differs)':
    'rg 13 wraps -w as (?:^|\\W)(…)(?:$|\\W) and misses a word at column 0 here',
  '-w dot (rg 13 differs)': 'rg 13 consumes the neighbouring non-word char, so adjacent matches are lost',
};

interface Found {
  /** line number → byte spans within the line (line mode) */
  lines: Map<number, [number, number][]>;
  /** absolute byte spans (multiline) */
  spans: [number, number][];
}

function runRg(bin: string, file: string, c: Case, pattern: string): Found | 'error' {
  const args = ['--json', '--no-config'];
  if (c.i) args.push('-i');
  if (c.w) args.push('-w');
  if (c.F) args.push('-F');
  if (c.U) args.push('-U');
  args.push('--', pattern, file);
  const r = spawnSync(bin, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (r.status === 2) return 'error';
  const found: Found = { lines: new Map(), spans: [] };
  for (const line of r.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const ev = JSON.parse(line) as {
      type: string;
      data: { line_number: number; absolute_offset: number; submatches: { start: number; end: number }[] };
    };
    if (ev.type !== 'match') continue;
    const subs = ev.data.submatches.map((s): [number, number] => [s.start, s.end]);
    found.lines.set(ev.data.line_number, subs);
    for (const [s, e] of subs) found.spans.push([ev.data.absolute_offset + s, ev.data.absolute_offset + e]);
  }
  return found;
}

const encoder = new TextEncoder();
const SAMPLE_BYTES = encoder.encode(SAMPLE_TEXT);
/** UTF-16 index → UTF-8 byte offset. */
const BYTE_AT: number[] = (() => {
  const out: number[] = [];
  let b = 0;
  for (let i = 0; i < SAMPLE_TEXT.length; i++) {
    out.push(b);
    const c = SAMPLE_TEXT.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      b += 4;
      out.push(b);
      i++;
    } else b += 3;
  }
  out.push(b);
  return out;
})();
/** Byte offsets where lines start. */
const LINE_STARTS: number[] = [0];
SAMPLE_BYTES.forEach((byte, k) => {
  if (byte === 0x0a) LINE_STARTS.push(k + 1);
});
const CHAR_BOUNDARY = new Set(BYTE_AT);

function lineOf(byte: number): number {
  let lo = 0;
  let hi = LINE_STARTS.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (LINE_STARTS[mid]! <= byte) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function runOurs(compiled: CompiledPattern): Found {
  const found: Found = { lines: new Map(), spans: [] };
  for (const { start, end } of matchSpans(compiled.regex, SAMPLE_TEXT)) {
    const s = BYTE_AT[start]!;
    const e = BYTE_AT[end]!;
    // rg never reports an empty match at the very end of the file (after the last line terminator).
    if (s === e && s === SAMPLE_BYTES.length) continue;
    found.spans.push([s, e]);
    const ln = lineOf(s);
    const base = LINE_STARTS[ln - 1]!;
    const list = found.lines.get(ln) ?? [];
    list.push([s - base, e - base]);
    found.lines.set(ln, list);
  }
  return found;
}

/** rg reports empty matches inside multi-byte characters; decoded text cannot have them. */
function dropMidCharEmpties(f: Found): Found {
  const lines = new Map<number, [number, number][]>();
  for (const [ln, subs] of f.lines) {
    const base = LINE_STARTS[ln - 1]!;
    lines.set(
      ln,
      subs.filter(([s, e]) => s !== e || CHAR_BOUNDARY.has(base + s)),
    );
  }
  return { lines, spans: f.spans.filter(([s, e]) => s !== e || CHAR_BOUNDARY.has(s)) };
}

function summary(f: Found | 'error', c: Case): unknown {
  if (f === 'error') return 'error';
  if (c.U) return [...f.spans].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Record<number, unknown> = {};
  for (const [ln, subs] of [...f.lines].sort((a, b) => a[0] - b[0])) out[ln] = c.linesOnly ? true : subs;
  return out;
}

function compileCase(c: Case): CompiledPattern | 'error' {
  try {
    return compilePattern(c.pattern, {
      caseInsensitive: c.i,
      wordRegexp: c.w,
      fixedStrings: c.F,
      multiline: c.U,
      lenient: c.lenient === true,
    });
  } catch (err) {
    if (err instanceof PatternError) return 'error';
    throw err;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'trawl-match-'));
const file = join(dir, 'sample.txt');
writeFileSync(file, SAMPLE_BYTES);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('translator: the references', () => {
  itHasRipgrep(BUNDLED_RG, 'match-differential');
  itHasRipgrep(DEBIAN_RG, 'match-differential');
});

describe.runIf(RG15)('translator vs ripgrep 15 (bundled) and 13 (Debian)', () => {
  it('has at least 80 distinct cases', () => {
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
    expect(CASES.length).toBeGreaterThanOrEqual(80);
  });

  for (const c of CASES) {
    const tag = c.name in RG13_DIFFERS ? ' [rg 13 differs]' : c.deviation ? ' [documented deviation]' : '';
    it(`${c.name}: ${JSON.stringify(c.pattern.length > 60 ? `${c.pattern.slice(0, 60)}…` : c.pattern)}${tag}`, () => {
      const ours = compileCase(c);
      const rgPattern = ours !== 'error' && c.lenient ? ours.effectivePattern : c.pattern;
      const ref = runRg(RG15!, file, c, rgPattern);
      const oursFound = ours === 'error' ? 'error' : runOurs(ours);
      const refNorm = ref === 'error' ? ref : dropMidCharEmpties(ref);
      if (c.deviation) {
        expect(summary(oursFound, c), c.deviation).not.toEqual(summary(refNorm, c));
        return;
      }
      expect(summary(oursFound, c), 'rg 15').toEqual(summary(refNorm, c));
      if (RG13) {
        const old = runRg(RG13, file, c, rgPattern);
        const oldNorm = old === 'error' ? old : dropMidCharEmpties(old);
        const a = JSON.stringify(summary(oldNorm, c));
        const b = JSON.stringify(summary(refNorm, c));
        const same = a === b;
        const detail = same ? '' : `\nrg 13: ${a.slice(0, 600)}\nrg 15: ${b.slice(0, 600)}`;
        expect(
          same,
          `rg 13 ${same ? 'agrees with' : 'differs from'} rg 15; RG13_DIFFERS must say so${detail}`,
        ).toBe(!(c.name in RG13_DIFFERS));
      }
    });
  }

  it('lineRegex selects the same lines as regex', () => {
    let checked = 0;
    const lines = (re: RegExp, text: string): number[] => {
      const starts = [0];
      for (let k = 0; k < text.length; k++) if (text[k] === '\n') starts.push(k + 1);
      const out = new Set<number>();
      for (const m of matchSpans(re, text)) {
        if (m.start === text.length && text.endsWith('\n')) continue;
        out.add(starts.filter((st) => st <= m.start).length);
      }
      return [...out];
    };
    for (const c of CASES) {
      const ours = compileCase(c);
      if (ours === 'error' || !ours.lineRegex) continue;
      checked++;
      expect(lines(ours.lineRegex, SAMPLE_TEXT), c.name).toEqual(lines(ours.regex, SAMPLE_TEXT));
      expect(lines(ours.asciiLineRegex!, ASCII_TEXT), c.name).toEqual(lines(ours.regex, ASCII_TEXT));
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('asciiRegex finds the same spans as regex on pure-ASCII text', () => {
    for (const c of CASES) {
      const ours = compileCase(c);
      if (ours === 'error') continue;
      expect(matchSpans(ours.asciiRegex, ASCII_TEXT), c.name).toEqual(matchSpans(ours.regex, ASCII_TEXT));
    }
  });

  it('every match contains one of the required literals, of each required set', () => {
    let withLiterals = 0;
    let withAnd = 0;
    for (const c of CASES) {
      const ours = compileCase(c);
      if (ours === 'error' || ours.required === null) continue;
      withLiterals++;
      const { literals, caseInsensitive, also = [], oneLine } = ours.required;
      if (also.length > 0) withAnd++;
      const fold = (t: string): string => (caseInsensitive ? t.replace(/[A-Z]/g, (x) => x.toLowerCase()) : t);
      for (const m of matchSpans(ours.regex, SAMPLE_TEXT)) {
        const text = fold(SAMPLE_TEXT.slice(m.start, m.end));
        // Every set is required (an AND of ORs): the index asks for all of them.
        for (const set of [literals, ...also]) {
          expect(
            set.some((l) => text.includes(fold(l))),
            `${c.name}: ${JSON.stringify(text)} lacks ${JSON.stringify(set)}`,
          ).toBe(true);
        }
        if (oneLine) expect(text.includes('\n'), `${c.name}: a match over lines`).toBe(false);
      }
    }
    expect(withLiterals).toBeGreaterThan(40);
    expect(withAnd).toBeGreaterThan(5);
  });
});
