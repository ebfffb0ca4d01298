import { describe, expect, it } from 'vitest';
import { compilePattern } from '../src/match/index.js';
import { Prefilter, type SearcherConfig, searchBuffer } from '../src/search/searcher.js';
import { type ByteWindows, searchWindows, type WindowReader } from '../src/search/windows.js';

/**
 * Windowed search (search/windows.ts) against the whole-file search it stands in for: on generated files,
 * with windows made as a content index makes them (the blocks where a required literal starts, plus blocks
 * that only look like they might), every answer — lines, numbers, offsets, submatches, context, counts, caps —
 * must be the whole search's. Blocks are tiny so that matches, context and caps cross window edges.
 */

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const FILLER = ['alpha', 'beta', 'gamma', 'x', 'é', '\t', ' ', 'nee', 'dle'];
const RARE = ['needle', 'NEEDLE', 'needles', 'pin', 'Pin', 'ünï', 'ÜNÏ'];

function generate(rand: () => number, lines: number): Buffer {
  const out: string[] = [];
  for (let l = 0; l < lines; l++) {
    const n = Math.floor(rand() * 8);
    const words: string[] = [];
    for (let w = 0; w < n; w++) {
      const from = rand() < 0.03 ? RARE : FILLER;
      words.push(from[Math.floor(rand() * from.length)]!);
    }
    out.push(words.join(rand() < 0.5 ? ' ' : ''));
  }
  return Buffer.from(out.join('\n') + (rand() < 0.5 ? '\n' : ''), 'utf8');
}

function reader(buf: Buffer, mtimeMs = 1): WindowReader & { reads: number } {
  const r = {
    size: buf.length,
    mtimeMs,
    reads: 0,
    read(into: Buffer, offset: number, length: number, position: number): number {
      r.reads += Math.max(0, Math.min(length, buf.length - position));
      return buf.copy(into, offset, position, Math.min(buf.length, position + length));
    },
  };
  return r;
}

/**
 * Windows as an index would give them: every block of `blockBytes` where a required literal starts (ASCII
 * case folded, as the index folds), plus, with `extra`, random blocks (hash collisions, chance co-occurrence).
 */
function windowsOf(
  buf: Buffer,
  literals: string[],
  blockBytes: number,
  rand: () => number,
  extra: number,
  withHint: boolean,
): ByteWindows {
  const hay = buf.toString('latin1').toLowerCase();
  const blocks = new Set<number>();
  for (const lit of literals) {
    const needle = Buffer.from(lit, 'utf8').toString('latin1').toLowerCase();
    for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1))
      blocks.add(Math.floor(i / blockBytes));
  }
  const count = Math.ceil(buf.length / blockBytes);
  for (let k = 0; k < count; k++) if (rand() < extra) blocks.add(k);
  const ranges: number[] = [];
  for (const k of [...blocks].sort((a, b) => a - b)) {
    const s = k * blockBytes;
    const e = Math.min(buf.length, s + blockBytes);
    if (ranges.length > 0 && ranges[ranges.length - 1] === s) ranges[ranges.length - 1] = e;
    else ranges.push(s, e);
  }
  const newlinesBefore: number[] = [];
  for (let i = 0; i < ranges.length; i += 2) {
    let n = 0;
    for (let j = 0; j < ranges[i]!; j++) if (buf[j] === 10) n++;
    newlinesBefore.push(n);
  }
  return {
    ranges,
    size: buf.length,
    mtimeMs: 1,
    ...(withHint ? { newlinesBefore, noNul: !buf.includes(0) } : {}),
  };
}

const QUERIES: Array<{ pattern: string; caseInsensitive?: boolean; wordRegexp?: boolean; fixed?: boolean }> =
  [
    { pattern: 'needle' },
    { pattern: 'needle', caseInsensitive: true },
    { pattern: 'needle|pin' },
    { pattern: 'needle', wordRegexp: true },
    { pattern: '^needle' },
    { pattern: 'needle$' },
    { pattern: 'ne+dle\\w*' },
    { pattern: 'pin.*needle' },
    { pattern: 'ünï' },
    { pattern: 'ÜNÏ', caseInsensitive: true },
  ];

const CONFIGS: Array<Omit<SearcherConfig, 'binary'>> = [
  { mode: 'lines', beforeContext: 0, afterContext: 0 },
  { mode: 'lines', beforeContext: 2, afterContext: 0 },
  { mode: 'lines', beforeContext: 0, afterContext: 3 },
  { mode: 'lines', beforeContext: 3, afterContext: 3 },
  { mode: 'lines', beforeContext: 1, afterContext: 2, maxCount: 1 },
  { mode: 'lines', beforeContext: 0, afterContext: 4, maxCount: 3 },
  { mode: 'lines', beforeContext: 0, afterContext: 0, maxCount: 2, maxColumns: 9 },
  { mode: 'count', beforeContext: 0, afterContext: 0 },
  { mode: 'count', beforeContext: 0, afterContext: 0, maxCount: 2 },
  { mode: 'count', beforeContext: 0, afterContext: 2, maxCount: 2 },
  { mode: 'files-with-matches', beforeContext: 0, afterContext: 0 },
];

describe('windowed search', () => {
  it('answers exactly as the whole-file search, across window edges, caps and context', () => {
    let compared = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rand = rng(seed);
      const buf = generate(rand, 20 + Math.floor(rand() * 1500));
      const blockBytes = 4 + Math.floor(rand() * 60);
      for (const q of QUERIES) {
        const m = compilePattern(q.pattern, {
          caseInsensitive: q.caseInsensitive ?? false,
          wordRegexp: q.wordRegexp ?? false,
          lenient: true,
        });
        const pf = new Prefilter(m.required);
        for (const c of CONFIGS) {
          for (const binary of ['quit', 'text'] as const) {
            const config: SearcherConfig = { ...c, binary };
            const whole = searchBuffer(buf, buf.length, m, pf, config);
            const w = windowsOf(buf, m.required!.literals, blockBytes, rand, rand() * 0.3, rand() < 0.5);
            const got = searchWindows(reader(buf), w, m, pf, config, { buf: Buffer.alloc(0) });
            if (got === 'whole') continue; // windows over most of the file: a whole search is the answer
            expect({ seed, q, c, got }).toEqual({ seed, q, c, got: whole });
            compared++;
          }
        }
      }
    }
    // Most cases must have gone through windows, or the test says nothing.
    expect(compared).toBeGreaterThan(2000);
  });

  it('reads only around the windows of a file with no match in them', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} of filler text`);
    lines[15_000] = 'the needle is here';
    const buf = Buffer.from(`${lines.join('\n')}\n`);
    const m = compilePattern('needle', { lenient: true });
    const pf = new Prefilter(m.required);
    const config: SearcherConfig = { mode: 'count', beforeContext: 0, afterContext: 0, binary: 'quit' };
    // A window that (wrongly, as a collision would) points elsewhere: nothing found, little read.
    const r = reader(buf);
    const miss = searchWindows(r, { ranges: [4096, 8192], size: buf.length, mtimeMs: 1 }, m, pf, config, {
      buf: Buffer.alloc(0),
    });
    expect(miss).not.toBe('whole');
    expect((miss as Exclude<typeof miss, 'whole'>).stats).toEqual({
      matches: 0,
      matchedLines: 0,
      bytesSearched: buf.length,
      limitReached: false,
    });
    expect(r.reads).toBeLessThan(buf.length / 4);
    // The right window finds it, with its line number and offset.
    const at = buf.indexOf('needle');
    const hit = searchWindows(
      reader(buf),
      { ranges: [at - (at % 64), at - (at % 64) + 64], size: buf.length, mtimeMs: 1 },
      m,
      pf,
      { ...config, mode: 'lines' },
      { buf: Buffer.alloc(0) },
    );
    expect(hit).toEqual(searchBuffer(buf, buf.length, m, pf, { ...config, mode: 'lines' }));
    expect((hit as Exclude<typeof hit, 'whole'>).lines[0]!.lineNumber).toBe(15_001);
  });

  it('leaves to a whole search what windows cannot answer exactly', () => {
    const body = `${'a line\n'.repeat(5000)}needle\n${'b line\n'.repeat(5000)}`;
    const m = compilePattern('needle', { lenient: true });
    const pf = new Prefilter(m.required);
    const base: SearcherConfig = { mode: 'lines', beforeContext: 0, afterContext: 0, binary: 'quit' };
    const at = body.indexOf('needle');
    const w = (buf: Buffer): ByteWindows => ({ ranges: [at, at + 6], size: buf.length, mtimeMs: 1 });
    const run = (buf: Buffer, config = base, matcher = m, windows = w(buf), mtimeMs = 1) =>
      searchWindows(reader(buf, mtimeMs), windows, matcher, new Prefilter(matcher.required), config, {
        buf: Buffer.alloc(0),
      });
    const plain = Buffer.from(body);
    expect(run(plain)).not.toBe('whole');
    // A byte-order mark shifts every offset; a NUL (past the sniffed head, before the match) ends the search.
    expect(run(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), plain]), base, m, w(plain))).toBe('whole');
    const withNul = Buffer.from(plain);
    withNul[100] = 0;
    expect(run(withNul)).toBe('whole');
    const lateNul = Buffer.from(plain);
    lateNul[lateNul.length - 3] = 0;
    expect(run(lateNul)).toBe('whole');
    expect(run(lateNul, { ...base, binary: 'none' })).toEqual(
      searchBuffer(lateNul, lateNul.length, m, pf, { ...base, binary: 'none' }),
    );
    // -v, --null-data, a multiline pattern, another encoding, a changed file.
    expect(run(plain, { ...base, invert: true })).toBe('whole');
    expect(run(plain, { ...base, nullData: true })).toBe('whole');
    expect(run(plain, base, compilePattern('needle\\nb', { lenient: true, multiline: true }))).toBe('whole');
    expect(run(plain, { ...base, encoding: 'latin1' })).toBe('whole');
    expect(run(plain, base, m, w(plain), 2)).toBe('whole');
    expect(run(plain, base, m, { ...w(plain), size: plain.length + 1 })).toBe('whole');
  });
});
