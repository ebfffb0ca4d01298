/**
 * Issue 13 (bounded memory): the printer prints a walked file's lines as they come, not at the file's end —
 * a file with 64 000 matching lines is not held. It holds a file only where ripgrep's binary rule needs the
 * whole of it (a named file, --binary), and a walked file's late NUL still ends in ripgrep's warning.
 */

import type { SearchEvent } from '@trawl/core/engine';
import { describe, expect, it } from 'vitest';
import { RgPrinter, type RgPrintOptions } from '../src/cli/rg-printer.js';

const OPTIONS: RgPrintOptions = {
  format: 'plain',
  mode: 'lines',
  lineNumbers: true,
  column: false,
  byteOffset: false,
  withFilename: true,
  heading: false,
  nullAfterPath: false,
  onlyMatching: false,
  invert: false,
  vimgrep: false,
  trim: false,
  includeZero: false,
  contextSeparator: '--',
  fieldMatchSeparator: ':',
  fieldContextSeparator: '-',
  contextRequested: false,
  namedBinaryRule: false,
  binarySearch: false,
};

const line = (n: number, path = 'big.h'): SearchEvent => ({
  type: 'match',
  path,
  lineNumber: n,
  absoluteOffset: (n - 1) * 10,
  text: `abc${String(n).padStart(5, '0')}\n`,
  submatches: [{ start: 0, end: 8 }],
});
const end = (lines: number, binaryOffset: number | null = null): SearchEvent => ({
  type: 'end',
  path: 'big.h',
  binaryOffset,
  stats: { matches: lines, matchedLines: lines, bytesSearched: lines * 10, limitReached: false },
});

describe('rg printer: streaming', () => {
  it('prints each line of a walked file as it comes, before the file ends', () => {
    const p = new RgPrinter({ ...OPTIONS, heading: true });
    expect(p.print({ type: 'begin', path: 'big.h' })).toBe('');
    expect(p.print(line(1))).toBe('big.h\n1:abc00001\n');
    expect(p.print(line(2))).toBe('2:abc00002\n');
    expect(p.linesPrinted).toBe(2);
    expect(p.print(end(2))).toBe('');
    expect(p.matchedAny).toBe(true);
    // The next file's group begins with ripgrep's blank line between headings.
    p.print({ type: 'begin', path: 'b.h' });
    expect(p.print(line(7, 'b.h'))).toBe('\nb.h\n7:abc00007\n');
  });

  it("a walked file's late NUL: its lines have been printed, the warning follows at its end", () => {
    const p = new RgPrinter(OPTIONS);
    p.print({ type: 'begin', path: 'big.h' });
    expect(p.print(line(1))).toBe('big.h:1:abc00001\n');
    expect(p.print(end(1, 70_000))).toBe(
      'big.h: WARNING: stopped searching binary file after match (found "\\0" byte around offset 70000)\n',
    );
  });

  for (const held of [{ namedBinaryRule: true }, { binarySearch: true }]) {
    it(`holds a file whose binary rule needs its end (${Object.keys(held)[0]})`, () => {
      const p = new RgPrinter({ ...OPTIONS, ...held });
      p.print({ type: 'begin', path: 'big.h' });
      expect(p.print(line(1))).toBe('');
      expect(p.print(line(2))).toBe('');
      expect(p.linesPrinted).toBe(0);
      // A NUL in the first 64 KiB: no line prints, only the notice.
      expect(p.print(end(2, 5))).toBe('big.h: binary file matches (found "\\0" byte around offset 5)\n');
    });
  }
});
