import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { centreOnMatch, Highlighted } from '../../src/files/highlight.js';
import { fileTypeOf } from '../../src/ui/fileTypes.js';
import { cutDirStart, RowLabel } from '../../src/ui/RowLabel.js';

describe('row labels', () => {
  it('cuts a directory from its start by whole segments, keeping the end that tells rows apart', () => {
    expect(cutDirStart('packages/zod-4.6.7/v4/mini/', 14)).toEqual({ text: '…/v4/mini/', dropped: 19 });
    expect(cutDirStart('src/', 14)).toEqual({ text: 'src/', dropped: 0 });
    // a last segment longer than the budget stays whole (the browser cuts it)
    expect(cutDirStart('a/averyveryverylongname/', 8).text).toBe('…/averyveryverylongname/');
  });

  it('shows the name first with its matched characters marked, then the dim directory', () => {
    const path = '/repo/packages/zod/v4/mini/schemas.js';
    const at = path.indexOf('schemas.js');
    const { container } = render(
      <RowLabel
        path={path}
        name="schemas.js"
        kind="file"
        root="/repo"
        positions={[at, at + 1, at + 2]}
        dirChars={12}
      />,
    );
    expect(container.querySelector('.row-name')?.textContent).toBe('schemas.js');
    expect(container.querySelector('.row-name mark')?.textContent).toBe('sch');
    expect(container.querySelector('.row-dir')?.textContent).toBe('…/v4/mini/');
  });

  it('marks directory characters where the cut directory still shows them', () => {
    const path = '/r/alpha/beta/x.c';
    const b = path.indexOf('beta');
    const { container } = render(
      <RowLabel
        path={path}
        name="x.c"
        kind="file"
        root="/r"
        positions={[3, b, b + 1, path.length - 3]}
        dirChars={8}
      />,
    );
    expect(container.querySelector('.row-dir')?.textContent).toBe('…/beta/');
    expect([...container.querySelectorAll('.row-dir mark')].map((m) => m.textContent)).toEqual(['be']);
  });
});

describe('content previews', () => {
  it('start shortly before a match that would sit past the row, the ranges moved with the text', () => {
    const line = `${'x'.repeat(100)} needle here`;
    const r = centreOnMatch(line, [[101, 107]], 'needle');
    expect(r.text.startsWith('…')).toBe(true);
    const [s, e] = r.ranges![0]!;
    expect(r.text.slice(s, e)).toBe('needle');
    expect(s).toBeLessThan(30);
    expect(centreOnMatch('a needle', [[2, 8]], 'needle').text).toBe('a needle');
  });

  it("mark the server's ranges, and nothing when it sent none (a case-exact or regex query is not searched again)", () => {
    const marks = (ranges: [number, number][] | undefined, query: string) =>
      [
        ...render(
          <Highlighted text="NEEDLE and needle" ranges={ranges} query={query} />,
        ).container.querySelectorAll('mark'),
      ].map((m) => m.textContent);
    expect(marks([[11, 17]], 'needle')).toEqual(['needle']);
    // an empty list: the match was redacted or cut off; a case-insensitive guess would mark NEEDLE
    expect(marks([], 'needle')).toEqual([]);
    expect(marks(undefined, 'needle')).toEqual(['NEEDLE']);
  });
});

describe('file types', () => {
  it('reads the common kinds from the name', () => {
    expect(fileTypeOf('main.ts')).toBe('code');
    expect(fileTypeOf('README.md')).toBe('text');
    expect(fileTypeOf('package.json')).toBe('data');
    expect(fileTypeOf('report.PDF')).toBe('doc');
    expect(fileTypeOf('logo.svg')).toBe('image');
    expect(fileTypeOf('Makefile')).toBe('code');
    expect(fileTypeOf('.gitignore')).toBe('data');
    expect(fileTypeOf('LICENSE-MIT')).toBe('file');
  });
});
