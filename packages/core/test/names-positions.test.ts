import { describe, expect, it } from 'vitest';
import { fuzzyScore, matchPositions } from '../src/names/index.js';

const marked = (rel: string, pos: number[]) => pos.map((i) => rel[i]).join('');

describe('matchPositions', () => {
  it('marks a substring of the name at a word start before an earlier occurrence inside a word', () => {
    const rel = 'src/ui/highlight_light.ts';
    const pos = matchPositions('light', rel);
    expect(pos[0]).toBe(rel.indexOf('_light') + 1);
    expect(marked(rel, pos)).toBe('light');
  });

  it('marks a prefix of the name, not the same letters in a directory', () => {
    const rel = 'schemas/v4/mini/schemas.js';
    expect(matchPositions('schem', rel)).toEqual([16, 17, 18, 19, 20]);
  });

  it('marks a separator-blind match letter by letter', () => {
    const rel = 'mm/mmap.c';
    expect(marked(rel, matchPositions('mmapc', rel))).toBe('mmapc');
    expect(matchPositions('mmapc', rel)).toEqual([3, 4, 5, 6, 8]);
  });

  it('marks the directory segments of a slash query in order with the name', () => {
    const rel = 'net/ipv4/tcp_input.c';
    expect(marked(rel, matchPositions('ipv4/tcp', rel))).toBe('ipv4tcp');
  });

  it('marks the fuzzy alignment the scorer takes: word starts over scattered letters', () => {
    const rel = 'src/components/FooBar.tsx';
    expect(fuzzyScore('fb', 'FooBar.tsx', rel)).toBeGreaterThan(0);
    expect(matchPositions('fb', rel)).toEqual([rel.indexOf('Foo'), rel.indexOf('Bar')]);
    const deep = 'fs/ext4/inode.c';
    expect(marked(deep, matchPositions('ext4inode', deep))).toBe('ext4inode');
  });

  it('marks nothing when the query does not match, and offsets are UTF-16 offsets of the row', () => {
    expect(matchPositions('zzz', 'src/main.ts')).toEqual([]);
    const rel = 'docs/résumé-notes.md';
    expect(marked(rel, matchPositions('résumé', rel))).toBe('résumé');
  });
});
