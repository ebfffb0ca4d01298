import { describe, expect, it } from 'vitest';
import { rgFlags } from '../src/engine/public.js';

describe('rgFlags: what ripgrep flags mean beyond a search request', () => {
  it('is one frozen object, so a command line cannot swap a rule for its own', () => {
    expect(Object.isFrozen(rgFlags)).toBe(true);
    expect(Object.keys(rgFlags).sort()).toEqual([
      'combinePatterns',
      'fileTypes',
      'patternMatchesNewline',
      'replacerFor',
      'smartCaseInsensitive',
    ]);
  });

  it('-t: ripgrep default types name their globs', () => {
    expect(rgFlags.fileTypes['rust']).toEqual(['*.rs']);
  });

  it('-e -e -F -x: escaped alternatives anchored at both line ends', () => {
    expect(rgFlags.combinePatterns(['a.b', 'c'], { fixedStrings: true, lineRegexp: true })).toEqual({
      pattern: '^(?:(?:a\\.b)|(?:c))$',
      fixedStrings: false,
    });
  });

  it('-S: insensitive only when no pattern spells an uppercase letter', () => {
    expect(rgFlags.smartCaseInsensitive(['foo'], false)).toBe(true);
    expect(rgFlags.smartCaseInsensitive(['foo', 'Bar'], false)).toBe(false);
  });

  it('-r: the template is expanded with the groups of the request pattern', () => {
    const replace = rgFlags.replacerFor({ pattern: '(\\w+)@(\\w+)' }, '$2 at $1');
    expect(replace('mail me@host now', 5, 12)).toBe('host at me');
  });

  it('-c -U: a pattern that can match a line end is told apart', () => {
    expect(rgFlags.patternMatchesNewline({ pattern: 'a\\nb', multiline: true })).toBe(true);
    expect(rgFlags.patternMatchesNewline({ pattern: 'ab', multiline: true })).toBe(false);
  });
});
