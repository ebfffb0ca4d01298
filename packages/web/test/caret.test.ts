// caret-relative detection and the span-agreeing replace.
import { describe, expect, it } from 'vitest';
import {
  MENTION_AT_CARET,
  matchMentionToken,
  matchPathToken,
  PATH_AT_CARET,
  replaceTokenAtCaret,
  splitPathToken,
} from '../src/tokens/caret.js';

describe('matchMentionToken (caret-relative @ detection)', () => {
  it('opens on a bare @ and captures the query up to the caret', () => {
    expect(matchMentionToken('@')).toBe('');
    expect(matchMentionToken('open @src/App')).toBe('src/App');
  });
  it('fires mid-sentence with text after the caret excluded from `before`', () => {
    expect(matchMentionToken('see @src/main.ts')).toBe('src/main.ts');
  });
  it('does NOT fire when the caret is past the token or @ is mid-word', () => {
    expect(matchMentionToken('@src/App and more')).toBeNull();
    expect(matchMentionToken('foo@bar')).toBeNull();
  });
  it('opens on a token at the caret on a later line', () => {
    expect(matchMentionToken('line one\n@src/a')).toBe('src/a');
  });
  it('does not treat punctuation as a boundary at detection time', () => {
    expect(matchMentionToken('(@src')).toBeNull();
  });
  it('never offers a query with a second @ (one grammar with the mention tokens)', () => {
    expect(matchMentionToken('@@x')).toBeNull();
    expect(matchMentionToken('@a@b')).toBeNull();
  });
});

describe('matchPathToken (caret-relative ./ detection)', () => {
  it('opens on a bare ./ or ../ run and captures the whole token', () => {
    expect(matchPathToken('./')).toBe('./');
    expect(matchPathToken('../')).toBe('../');
    expect(matchPathToken('read ../../src/a')).toBe('../../src/a');
  });
  it('fires mid-sentence with text after the caret excluded from `before`', () => {
    expect(matchPathToken('open ./src/ma')).toBe('./src/ma');
    expect(matchPathToken('line one\n./sr')).toBe('./sr');
  });
  it('needs a separator, so abbreviations and full stops never open a menu', () => {
    for (const s of ['e.g', 'done.', '..', '...', '.../x']) expect(matchPathToken(s)).toBeNull();
  });
  it('does NOT fire when the caret is past the token or the dot is mid-word', () => {
    expect(matchPathToken('./src and more')).toBeNull();
    expect(matchPathToken('a/../b')).toBeNull();
    expect(matchPathToken('x:./a')).toBeNull();
  });
  it('leaves ~/ alone — home is not a completion root', () => {
    expect(matchPathToken('~/')).toBeNull();
    expect(matchPathToken('~/src/a')).toBeNull();
  });
  it('only the forward slash triggers', () => {
    expect(matchPathToken('.\\src')).toBeNull();
    expect(matchPathToken('./../x')).toBe('./../x');
  });
});

describe('splitPathToken (directory prefix vs partial name)', () => {
  it('splits at the last separator, keeping the prefix verbatim', () => {
    expect(splitPathToken('./')).toEqual({ dir: './', partial: '' });
    expect(splitPathToken('./src/comp')).toEqual({ dir: './src/', partial: 'comp' });
    expect(splitPathToken('../../a/b')).toEqual({ dir: '../../a/', partial: 'b' });
  });
});

describe('replaceTokenAtCaret (caret-relative insertion)', () => {
  it('replaces the @token at the caret and preserves text after the caret', () => {
    const value = 'see @src/ma for details';
    const r = replaceTokenAtCaret(value, 11, MENTION_AT_CARET, '@src/main.ts ');
    expect(r.value).toBe('see @src/main.ts  for details');
    expect(r.caret).toBe('see @src/main.ts '.length);
  });
  it('preserves the word-boundary prefix (leading space or newline) before the token', () => {
    expect(replaceTokenAtCaret('a @c', 4, MENTION_AT_CARET, '@cd ').value).toBe('a @cd ');
    expect(replaceTokenAtCaret('x\n@c', 4, MENTION_AT_CARET, '@cd ').value).toBe('x\n@cd ');
  });
  it('insertion replaces exactly the span detection matched (no drift on the real path)', () => {
    const value = 'hi @sr more\nnext';
    const caret = 'hi @sr'.length;
    expect(matchMentionToken(value.slice(0, caret))).toBe('sr');
    expect(replaceTokenAtCaret(value, caret, MENTION_AT_CARET, '@src/ ').value).toBe('hi @src/  more\nnext');
  });
  it('path insertion replaces exactly the detected token, prefix and all', () => {
    const value = 'read ./src/ma later';
    const caret = 'read ./src/ma'.length;
    expect(matchPathToken(value.slice(0, caret))).toBe('./src/ma');
    expect(replaceTokenAtCaret(value, caret, PATH_AT_CARET, './src/main.ts ').value).toBe(
      'read ./src/main.ts  later',
    );
  });
  it('path insertion replaces a multi-level ../ run as one span', () => {
    const value = 'read ../../src/a';
    expect(replaceTokenAtCaret(value, value.length, PATH_AT_CARET, '../../src/app.ts ').value).toBe(
      'read ../../src/app.ts ',
    );
  });
  it('a directory accepted in path mode gets no trailing space, so completion continues', () => {
    expect(replaceTokenAtCaret('read ./', 7, PATH_AT_CARET, './src/')).toEqual({
      value: 'read ./src/',
      caret: 11,
    });
  });
  it('@ insertion preserves after-caret content across a newline', () => {
    expect(replaceTokenAtCaret('see @src/ma\nrest', 11, MENTION_AT_CARET, '@src/main.ts ').value).toBe(
      'see @src/main.ts \nrest',
    );
  });
  it('leaves the value alone when the token is no longer at the caret', () => {
    expect(replaceTokenAtCaret('plain text', 5, MENTION_AT_CARET, '@x ')).toEqual({
      value: 'plain text',
      caret: 5,
    });
  });
});
