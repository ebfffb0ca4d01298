import { describe, expect, it } from 'vitest';
import { compilePattern } from '../src/match/index.js';
import { Prefilter, type SearcherConfig, searchBuffer } from '../src/search/searcher.js';

/**
 * Counting a file past the detail horizon (files-with-matches) finds its first matching line from the bytes,
 * decoding only the lines that hold a literal. Differential: on generated files (non-ASCII and invalid UTF-8
 * lines, a literal on lines the regex rejects, CRLF, no final newline, a late NUL) its answer is the whole-file
 * search's — a file matches exactly when counting its lines finds one.
 */

/** A small deterministic generator (tests never depend on chance). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES: Array<string | Buffer> = [
  'needle',
  'needle42',
  'needles',
  'xneedle',
  'needle_é',
  'needleé',
  'néedle',
  'foo',
  'barbaz',
  'foobaz',
  '日本',
  '日本語',
  ' ',
  '\t',
  'é',
  '\u{1F600}',
  'word',
  '(',
  '\r',
  Buffer.from([0xff]),
  Buffer.from([0xe6, 0x97]), // a truncated UTF-8 sequence
  Buffer.from([0xc3]),
];

function file(seed: number): Buffer {
  const next = rng(seed);
  const parts: Buffer[] = [];
  const lines = 1 + Math.floor(next() * 12);
  for (let l = 0; l < lines; l++) {
    const n = Math.floor(next() * 6);
    for (let k = 0; k < n; k++) {
      const p = PIECES[Math.floor(next() * PIECES.length)]!;
      parts.push(typeof p === 'string' ? Buffer.from(p, 'utf8') : p);
    }
    if (l < lines - 1 || next() < 0.5) parts.push(Buffer.from(next() < 0.2 ? '\r\n' : '\n'));
  }
  return Buffer.concat(parts);
}

const PATTERNS = [
  'needle',
  'needle\\d+',
  '\\bneedle\\b',
  'needle.$',
  'needle\\W',
  'needle_.',
  '^needle',
  'needle$',
  'foo|barbaz',
  '(foo|bar)baz',
  '日本[^語]',
  'x\\w+e',
  '\\w+le\\b',
  'e+dle',
];

const config: SearcherConfig = { mode: 'lines', beforeContext: 0, afterContext: 0, binary: 'quit' };

function answers(pattern: string, buf: Buffer) {
  const c = compilePattern(pattern, { lenient: true });
  const prefilter = new Prefilter(c.required);
  const counted = searchBuffer(buf, buf.length, c, prefilter, { ...config, mode: 'count' });
  const first = searchBuffer(buf, buf.length, c, prefilter, { ...config, mode: 'files-with-matches' });
  const matched = counted.stats.matchedLines > 0;
  return {
    first: { stats: first.stats, binaryOffset: first.binaryOffset, skipped: first.skippedBinary },
    expected: {
      stats: {
        matches: matched ? 1 : 0,
        matchedLines: matched ? 1 : 0,
        bytesSearched: counted.stats.bytesSearched,
        limitReached: false,
      },
      binaryOffset: counted.binaryOffset,
      skipped: counted.skippedBinary,
    },
  };
}

describe('files-with-matches from the bytes', () => {
  it('answers as the whole-file search on generated files', () => {
    let matched = 0;
    let rejected = 0;
    for (const pattern of PATTERNS) {
      expect(
        new Prefilter(compilePattern(pattern, { lenient: true }).required).byteNeedles,
        pattern,
      ).not.toBeNull();
      for (let seed = 1; seed <= 400; seed++) {
        const buf = file(seed * 7919 + pattern.length);
        const { first, expected } = answers(pattern, buf);
        expect(first, `${pattern} on ${JSON.stringify(buf.toString('latin1'))}`).toEqual(expected);
        if (expected.stats.matchedLines > 0) matched++;
        else if (buf.includes('needle') || buf.includes('foo') || buf.includes('日本')) rejected++;
      }
    }
    // The cases that tell: files that match, and files holding a literal on lines the regex rejects.
    expect(matched).toBeGreaterThan(500);
    expect(rejected).toBeGreaterThan(500);
  });

  it('a NUL past the binary sniff ends the search before its line, as in the whole-file search', () => {
    const head = Buffer.from(`${'x'.repeat(70_000)}\n`);
    for (const tail of ['a needle\0\n', 'needle\n\0x\n', '\0\nneedle\n']) {
      const { first, expected } = answers('needle', Buffer.concat([head, Buffer.from(tail)]));
      expect(first).toEqual(expected);
    }
  });
});
