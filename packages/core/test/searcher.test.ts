import { describe, expect, it } from 'vitest';
import { compilePattern } from '../src/match/index.js';
import { type LineMatcher, Prefilter, type SearcherConfig, searchBuffer } from '../src/search/searcher.js';
import { utf8OffsetsOf } from '../src/search/utf8.js';

function matcher(source: string, opts: { multiline?: boolean; literals?: string[] } = {}): LineMatcher {
  return {
    regex: new RegExp(source, 'gu'),
    asciiRegex: new RegExp(source, 'gu'),
    required: opts.literals ? { literals: opts.literals, caseInsensitive: false } : null,
    multiline: opts.multiline ?? false,
  };
}

const base: SearcherConfig = { mode: 'lines', beforeContext: 0, afterContext: 0, binary: 'quit' };

function run(content: string | Buffer, m: LineMatcher, config: Partial<SearcherConfig> = {}) {
  const buf = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return searchBuffer(buf, buf.length, m, new Prefilter(m.required), { ...base, ...config });
}

const brief = (r: ReturnType<typeof run>) =>
  r.lines.map((l) => `${l.type === 'match' ? '*' : ' '}${l.lineNumber}@${l.absoluteOffset}:${l.text}`);

describe('searchBuffer', () => {
  it('reports line numbers, byte offsets and submatch byte ranges', () => {
    const r = run('one\nneedle two needle\nthree\n', matcher('needle'));
    expect(brief(r)).toEqual(['*2@4:needle two needle\n']);
    expect(r.lines[0]!.submatches).toEqual([
      { start: 0, end: 6 },
      { start: 11, end: 17 },
    ]);
    expect(r.stats).toMatchObject({ matches: 2, matchedLines: 1 });
  });

  it('measures offsets in bytes on non-ASCII text', () => {
    const r = run('café\nnaïve needle\n', matcher('needle'));
    expect(r.lines[0]!.absoluteOffset).toBe(6);
    expect(r.lines[0]!.submatches).toEqual([{ start: 7, end: 13 }]);
  });

  it('maps offsets through invalid UTF-8 and keeps the raw bytes', () => {
    const buf = Buffer.concat([Buffer.from('a'), Buffer.from([0xff, 0xfe]), Buffer.from('b needle\n')]);
    const r = run(buf, matcher('needle'));
    expect(r.lines[0]!.submatches).toEqual([{ start: 5, end: 11 }]);
    expect(r.lines[0]!.text).toBe('a\ufffd\ufffdb needle\n');
    expect(Buffer.from(r.lines[0]!.bytes!)).toEqual(buf);
  });

  it('merges overlapping context windows: no line twice, never backwards', () => {
    const text = ['a', 'x1', 'b', 'x2', 'c', 'd', 'e', 'f', 'x3', 'g'].join('\n') + '\n';
    const r = run(text, matcher('x'), { beforeContext: 1, afterContext: 2 });
    expect(r.lines.map((l) => `${l.type === 'match' ? '*' : ' '}${l.lineNumber}`)).toEqual([
      ' 1',
      '*2',
      ' 3',
      '*4',
      ' 5',
      ' 6',
      ' 8',
      '*9',
      ' 10',
    ]);
  });

  it('keeps CRLF terminators and handles a missing final newline', () => {
    const r = run('x\r\nfoo\r\nlast x', matcher('x'));
    expect(r.lines.map((l) => l.text)).toEqual(['x\r\n', 'last x']);
  });

  it('skips a file with a NUL in the first 64 KiB and stops before a later NUL', () => {
    expect(run('x\n\0x\n', matcher('x')).skippedBinary).toBe(true);
    const late = `x1\n${'a'.repeat(70_000)}\nx2 \0 x3\nx4\n`;
    const r = run(late, matcher('x'));
    expect(r.skippedBinary).toBe(false);
    expect(r.lines.map((l) => l.lineNumber)).toEqual([1]);
    expect(r.binaryOffset).toBe(late.indexOf('\0'));
    const asText = run(late, matcher('x'), { binary: 'text' });
    expect(asText.lines.map((l) => l.lineNumber)).toEqual([1, 3, 4]);
  });

  it('stops at the per-file cap and says more remained', () => {
    const r = run('x\nx\nx\n', matcher('x'), { maxCount: 2 });
    expect(r.lines.map((l) => l.lineNumber)).toEqual([1, 2]);
    expect(r.stats.limitReached).toBe(true);
    expect(run('x\nx\n', matcher('x'), { maxCount: 2 }).stats.limitReached).toBe(false);
  });

  it('cuts long lines at a character boundary within the byte cap', () => {
    const r = run(`${'é'.repeat(10)} x\n`, matcher('x'), { maxColumns: 5 });
    expect(r.lines[0]!.text).toBe('éé');
    expect(r.lines[0]!.truncated).toBe(true);
  });

  it('reports a multiline match once, at its first line, with all its lines', () => {
    const r = run('a\nfoo\nbar\nb\n', matcher('foo\\nbar', { multiline: true }));
    expect(brief(r)).toEqual(['*2@2:foo\nbar\n']);
  });

  it('keeps a case-insensitive prefilter exact for non-ASCII and metacharacter literals', () => {
    const m: LineMatcher = {
      regex: /σοφία|a\.b/giu,
      asciiRegex: /σοφία|a\.b/giu,
      required: { literals: ['σοφία', 'ΣΟΦΊΑ', 'a.b'], caseInsensitive: true },
      multiline: false,
    };
    expect(brief(run('x\nΣΟΦΊΑ here\n', m))).toEqual(['*2@2:ΣΟΦΊΑ here\n']);
    expect(brief(run('x\nA.B\n', m))).toEqual(['*2@2:A.B\n']);
    expect(run('x\naxb\n', m).lines).toEqual([]);
  });

  it('rejects a file on the literal prefilter without decoding', () => {
    const r = run('nothing here\n', matcher('ne+dle', { literals: ['nedle'] }));
    expect(r.lines).toEqual([]);
  });

  it('counts an empty match at the end of an unterminated last line as a match without a submatch (as rg)', () => {
    const r = run('ab\ncd', matcher('(?![^\\n])'));
    expect(r.lines.map((l) => [l.type, l.lineNumber, l.submatches])).toEqual([
      ['match', 1, [{ start: 2, end: 2 }]],
      ['match', 2, []],
    ]);
  });

  it('never reports a line after the final newline', () => {
    expect(brief(run('a\n\nb\n', matcher('(?<![^\\n])(?![^\\n])')))).toEqual(['*2@2:\n']);
  });

  it('finds nothing in an empty file, even for an empty-matching pattern', () => {
    expect(run('', matcher('^')).lines).toEqual([]);
    expect(brief(run('a\n', matcher('x*')))).toEqual(['*1@0:a\n']);
  });
});

describe('utf8OffsetsOf', () => {
  it('gives the UTF-8 byte offsets of UTF-16 indices in one pass (ASCII, 2-, 3- and 4-byte characters)', () => {
    const text = 'xaé€🙂b🙂é';
    const indices = [1, 2, 3, 4, 6, 7, 9, 10];
    const expected = indices.map((i) => Buffer.byteLength(text.slice(1, i), 'utf8'));
    expect(utf8OffsetsOf(text, 1, indices)).toEqual(expected);
  });

  it('keeps up with thousands of matches on one long line', () => {
    const line = 'é prototype '.repeat(20_000);
    const indices: number[] = [];
    for (let i = line.indexOf('prototype'); i !== -1; i = line.indexOf('prototype', i + 1))
      indices.push(i, i + 9);
    const got = utf8OffsetsOf(line, 0, indices);
    expect(got.length).toBe(40_000);
    expect(got[39_998]).toBe(Buffer.byteLength(line.slice(0, indices[39_998]), 'utf8'));
  });
});

describe('spans of patterns that begin with an unbounded one-character repeat (sought from line-regex hits)', () => {
  // Each pattern gets a leadAtom; its spans must equal running the full regex along every line.
  const patterns = ['\\w+\\d{4}', '\\w+_probe\\s*\\(', 'a+b', '[a1]+1', '\\w{2,}é', '.+?1', '\\S+\\s'];
  const alphabet = ['a', 'b', '1', '_', ' ', 'é', '🙂', '(', 'probe', '\n'];
  let seed = 7;
  const rnd = (k: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % k;
  };

  it.each(patterns)('%s', (pattern) => {
    const compiled = compilePattern(pattern);
    expect(compiled.leadAtom).toBeDefined();
    for (let round = 0; round < 200; round++) {
      let text = '';
      const len = rnd(120);
      for (let k = 0; k < len; k++) text += alphabet[rnd(alphabet.length)];
      const r = run(text, compiled);
      const expected: string[] = [];
      let offset = 0;
      for (const line of text.split(/(?<=\n)/)) {
        const re = new RegExp(compiled.regex.source, compiled.regex.flags);
        for (const m of line.matchAll(re)) {
          const start = Buffer.byteLength(line.slice(0, m.index), 'utf8');
          expected.push(`${offset}+${start}-${start + Buffer.byteLength(m[0], 'utf8')}`);
        }
        offset += Buffer.byteLength(line, 'utf8');
      }
      const got = r.lines.flatMap((l) => l.submatches.map((s) => `${l.absoluteOffset}+${s.start}-${s.end}`));
      expect(got, JSON.stringify(text)).toEqual(expected);
    }
  });

  it('a pattern not starting that way has no leadAtom', () => {
    for (const p of ['a{1,3}b', 'a*b', 'foo|\\w+1', 'x\\w+'])
      expect(compilePattern(p).leadAtom).toBeUndefined();
  });
});
