import { describe, expect, it } from 'vitest';
import {
  closeBraces,
  commonBase,
  hasTopLevelComma,
  normaliseEntry,
  splitGlob,
  urlScheme,
} from '../src/tool/paths.js';

describe('paths entries', () => {
  it('normalises quotes, spaces, @ mentions, ~ and file URLs', () => {
    expect(normaliseEntry('  "a.ts"  ', '/home/u')).toBe('a.ts');
    expect(normaliseEntry("'a.ts'", '/home/u')).toBe("'a.ts'");
    expect(normaliseEntry('folder\u00a0with\u3000spaces/', '/home/u')).toBe('folder with spaces/');
    expect(normaliseEntry('~', '/home/u')).toBe('/home/u');
    expect(normaliseEntry('~/x/y.ts', '/home/u')).toBe('/home/u/x/y.ts');
    expect(normaliseEntry('@~/x', '/home/u')).toBe('/home/u/x');
    expect(normaliseEntry('@/abs/x', '/home/u')).toBe('/abs/x');
    expect(normaliseEntry('@src/x', '/home/u')).toBe('@src/x');
    expect(normaliseEntry('file:///tmp/a%20b.txt', '/home/u')).toBe('/tmp/a b.txt');
    expect(normaliseEntry('/', '/home/u')).toBe('.');
    expect(normaliseEntry('///', '/home/u')).toBe('.');
  });

  it('splits a glob at its first wildcard segment and knows bare globs', () => {
    expect(splitGlob('src/app/*.ts')).toEqual({ base: 'src/app', rest: '*.ts', bare: false });
    expect(splitGlob('*.ts')).toEqual({ base: '.', rest: '*.ts', bare: true });
    expect(splitGlob('**/x.ts')).toEqual({ base: '.', rest: '**/x.ts', bare: false });
    expect(splitGlob('src/**/*.ts')).toEqual({ base: 'src', rest: '**/*.ts', bare: false });
    expect(splitGlob('/abs/dir/*.md')).toEqual({ base: '/abs/dir', rest: '*.md', bare: false });
    expect(splitGlob('{src,lib}/*.ts')).toEqual({ base: '.', rest: '{src,lib}/*.ts', bare: false });
  });

  it('finds commas outside braces only', () => {
    expect(hasTopLevelComma('a,b')).toBe(true);
    expect(hasTopLevelComma('src/*.{ts,md}')).toBe(false);
    expect(hasTopLevelComma('a\\,b')).toBe(false);
    expect(hasTopLevelComma('{a,b},c')).toBe(true);
  });

  it('closes an unclosed brace', () => {
    expect(closeBraces('*.{ts,md')).toBe('*.{ts,md}');
    expect(closeBraces('*.{ts,md}')).toBe('*.{ts,md}');
  });

  it('computes the common base by whole components', () => {
    expect(commonBase(['/a/b/c', '/a/b/d/e'])).toBe('/a/b');
    expect(commonBase(['/a/bc', '/a/b'])).toBe('/a');
    expect(commonBase(['/data/A', '/var/B'])).toBe('/');
  });

  it('recognises URL schemes', () => {
    expect(urlScheme('docs://x.md')).toBe('docs');
    expect(urlScheme('HTTPS://e.com')).toBe('https');
    expect(urlScheme('src/x.ts')).toBeNull();
    expect(urlScheme('C:/x')).toBeNull();
  });
});
