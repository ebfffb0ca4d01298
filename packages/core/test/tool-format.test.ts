import { describe, expect, it } from 'vitest';
import { renderRows, type ShownFile, splitDisplay } from '../src/tool/format.js';
import { cutLine } from '../src/tool/shape.js';

const file = (
  display: string,
  kind: ShownFile['kind'],
  tag: string | null,
  lines: Array<[number, boolean, string]>,
): ShownFile => ({
  display,
  kind,
  tag,
  lines: lines.map(([n, match, text]) => ({ n, match, text })),
});

describe('search tool output shapes', () => {
  it('splits display paths into a directory heading and a name', () => {
    expect(splitDisplay({ display: 'a.ts', kind: 'file' })).toEqual({ dir: null, name: 'a.ts' });
    expect(splitDisplay({ display: 'src/sub/b.ts', kind: 'file' })).toEqual({
      dir: 'src/sub/',
      name: 'b.ts',
    });
    expect(splitDisplay({ display: '/abs/o.txt', kind: 'file' })).toEqual({ dir: '/abs/', name: 'o.txt' });
    expect(splitDisplay({ display: 'bundle.zip:src/foo.ts', kind: 'archive' })).toEqual({
      dir: 'bundle.zip:src/',
      name: 'foo.ts',
    });
    expect(splitDisplay({ display: 'lib/bundle.zip:foo.ts', kind: 'archive' })).toEqual({
      dir: null,
      name: 'lib/bundle.zip:foo.ts',
    });
    expect(splitDisplay({ display: 'docs://guide/x.md', kind: 'resource' })).toEqual({
      dir: null,
      name: 'docs://guide/x.md',
    });
  });

  it('renders a single tagged file with ¶, gaps with ..., and : or | by tag', () => {
    const rows = renderRows(
      [
        file('a.ts', 'file', '7ABB', [
          [1, false, 'one'],
          [2, true, 'two'],
          [9, true, 'nine'],
        ]),
      ],
      {
        single: true,
        format: 'hashline',
      },
    );
    expect(rows.map((r) => r.text)).toEqual(['¶a.ts#7ABB', ' 1:one', '*2:two', '...', '*9:nine']);
    const plain = renderRows([file('a.ts', 'file', '7ABB', [[2, true, 'two']])], {
      single: true,
      format: 'plain',
    });
    expect(plain.map((r) => r.text)).toEqual(['# a.ts', '*2|two']);
    const member = renderRows([file('z.zip:a.ts', 'archive', null, [[2, true, 'two']])], {
      single: true,
      format: 'hashline',
    });
    expect(member.map((r) => r.text)).toEqual(['# z.zip:a.ts', '*2|two']);
  });

  it('groups runs of files by directory, a blank line between groups, none inside one', () => {
    const rows = renderRows(
      [
        file('a.ts', 'file', 'AAAA', [[1, true, 'a']]),
        file('src/b.ts', 'file', 'BBBB', [[1, true, 'b']]),
        file('src/c.ts', 'file', null, [[3, true, 'c']]),
        file('lib/d.ts', 'file', 'DDDD', [[1, true, 'd']]),
      ],
      { single: false, format: 'hashline' },
    );
    expect(rows.map((r) => r.text).join('\n')).toBe(
      '# a.ts#AAAA\n*1:a\n\n# src/\n## b.ts#BBBB\n*1:b\n## c.ts\n*3|c\n\n# lib/\n## d.ts#DDDD\n*1:d',
    );
    expect(rows.map((r) => r.file)).toEqual([0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 3, 3]);
  });

  it('cuts a long line at a character boundary to at most 512 bytes, ending in ...', () => {
    expect(cutLine('x'.repeat(512), false)).toEqual({ text: 'x'.repeat(512), cut: false });
    expect(cutLine('x'.repeat(513), false)).toEqual({ text: `${'x'.repeat(509)}...`, cut: true });
    const euro = cutLine('€'.repeat(200), false);
    expect(euro.cut).toBe(true);
    expect(Buffer.byteLength(euro.text)).toBeLessThanOrEqual(512);
    expect(euro.text).toBe(`${'€'.repeat(169)}...`);
    expect(cutLine('short', true)).toEqual({ text: 'short...', cut: true });
  });
});
