import { describe, expect, it } from 'vitest';
import { formatRanges, parseLineRanges, splitSelector } from '../src/tool/line-ranges.js';

const INF = Number.POSITIVE_INFINITY;

describe('line-range selectors', () => {
  it('peels a selector after the last colon only when it is one', () => {
    expect(splitSelector('f.txt:4-8')).toEqual({ path: 'f.txt', selector: '4-8' });
    expect(splitSelector('a/b:c.txt:5,9-12')).toEqual({ path: 'a/b:c.txt', selector: '5,9-12' });
    expect(splitSelector('f.txt:L4-L7')).toEqual({ path: 'f.txt', selector: 'L4-L7' });
    expect(splitSelector('f.txt:raw')).toEqual({ path: 'f.txt', selector: 'raw' });
    expect(splitSelector('f.txt:1-5:raw')).toEqual({ path: 'f.txt', selector: '1-5:raw' });
    expect(splitSelector('f.txt:raw:1-5')).toEqual({ path: 'f.txt', selector: 'raw:1-5' });
    expect(splitSelector('notes:todo')).toEqual({ path: 'notes:todo', selector: null });
    expect(splitSelector(':5')).toEqual({ path: ':5', selector: null });
    expect(splitSelector('plain.txt')).toEqual({ path: 'plain.txt', selector: null });
  });

  it('reads N as that line only (the reference read it as N to the end — fixed, as upstream later did)', () => {
    expect(parseLineRanges('7', 'f:7')).toEqual([{ start: 7, end: 7 }]);
  });

  it('reads N-M, N-, N+K, lists and L prefixes, merging overlaps', () => {
    expect(parseLineRanges('4-8', 'e')).toEqual([{ start: 4, end: 8 }]);
    expect(parseLineRanges('8-', 'e')).toEqual([{ start: 8, end: INF }]);
    expect(parseLineRanges('4+3', 'e')).toEqual([{ start: 4, end: 6 }]);
    expect(parseLineRanges('l4-L7', 'e')).toEqual([{ start: 4, end: 7 }]);
    expect(parseLineRanges('10-12,1-1', 'e')).toEqual([
      { start: 1, end: 1 },
      { start: 10, end: 12 },
    ]);
    expect(parseLineRanges('1-5,4-9,10', 'e')).toEqual([{ start: 1, end: 10 }]);
    expect(parseLineRanges('3-,1-2', 'e')).toEqual([{ start: 1, end: INF }]);
  });

  it('refuses bad ranges with the reference texts', () => {
    expect(() => parseLineRanges('0', 'f:0')).toThrow(
      'Line selector 0 is invalid; lines are 1-indexed. Use :1.',
    );
    expect(() => parseLineRanges('8-4', 'f:8-4')).toThrow('Invalid range 8-4: end must be >= start.');
    expect(() => parseLineRanges('4+0', 'f:4+0')).toThrow('Invalid range 4+0: count must be >= 1.');
    expect(() => parseLineRanges('raw', 'f.txt:raw')).toThrow(
      'paths entry "f.txt:raw" — only line-range selectors like ":50-100" are supported (no ":raw"/":conflicts")',
    );
    expect(() => parseLineRanges('1-5:raw', 'f.txt:1-5:raw')).toThrow(/only line-range selectors/);
  });

  it('spells ranges back', () => {
    expect(
      formatRanges([
        { start: 5, end: 5 },
        { start: 9, end: 12 },
        { start: 20, end: INF },
      ]),
    ).toBe('5,9-12,20-');
  });
});
