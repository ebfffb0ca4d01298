import { describe, expect, it } from 'vitest';
import { exactPathGlob, globField } from '../src/files/globs.js';
import { groupHits, hitSummary, unshownLines } from '../src/files/hitGroups.js';

describe('globField: a files-to-include field as globs', () => {
  it('splits at commas outside braces, trims and drops blanks, and keeps an escaped comma', () => {
    expect(globField('')).toEqual([]);
    expect(globField(' *.ts ,, src/** ,')).toEqual(['*.ts', 'src/**']);
    expect(globField('*.{ts,tsx},docs/*.md')).toEqual(['*.{ts,tsx}', 'docs/*.md']);
    expect(globField('a\\,b,c')).toEqual(['a\\,b', 'c']);
    expect(globField('{a,{b,c}},d')).toEqual(['{a,{b,c}}', 'd']);
  });
});

describe('exactPathGlob', () => {
  it('anchors the path to the root and escapes every glob character', () => {
    expect(exactPathGlob('src/a.ts')).toBe('/src/a.ts');
    expect(exactPathGlob('a[1]/{x,y}*?!.txt')).toBe('/a\\[1\\]/\\{x\\,y\\}\\*\\?\\!.txt');
    expect(exactPathGlob('back\\slash')).toBe('/back\\\\slash');
  });
});

describe('groupHits and hitSummary', () => {
  const hit = (file: string, line: number, count?: number) => ({
    file,
    line,
    preview: 'x',
    ...(count !== undefined ? { count } : {}),
  });

  it('groups rows by file in the order sent, and sums lines with documents as one and unknown counts as a floor', () => {
    const groups = groupHits([hit('a', 1, 3), hit('a', 4, 3), hit('b', 2, 1), hit('d.docx', 0)]);
    expect(groups.map((g) => [g.file, g.hits.length, g.count, g.document])).toEqual([
      ['a', 2, 3, false],
      ['b', 1, 1, false],
      ['d.docx', 1, undefined, true],
    ]);
    expect(groups.map(unshownLines)).toEqual([1, 0, 0]);
    expect(hitSummary(groups)).toBe('5 matching lines in 3 files');
    const floor = groupHits([hit('a', 1), hit('a', 2), hit('b', 2, 1)]);
    expect(unshownLines(floor[0]!)).toBeUndefined();
    expect(hitSummary(floor)).toBe('3+ matching lines in 2 files');
    expect(hitSummary(groupHits([hit('a', 1, 1)]))).toBe('1 matching line in 1 file');
  });
});
