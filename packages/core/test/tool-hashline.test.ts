import { describe, expect, it } from 'vitest';
import { normaliseBytes } from '../src/tool/hashline.js';
import { hashlineTag, normaliseForTag, xxHash32 } from '../src/tool/index.js';

const hex = (n: number) => n.toString(16).padStart(8, '0');

describe('xxHash32 (seed 0)', () => {
  it('matches the published test vectors', () => {
    expect(hex(xxHash32(Buffer.from('')))).toBe('02cc5d05');
    expect(hex(xxHash32(Buffer.from('a')))).toBe('550d7456');
    expect(hex(xxHash32(Buffer.from('abc')))).toBe('32d153ff');
    expect(hex(xxHash32(Buffer.from('Nobody inspects the spammish repetition')))).toBe('e2293b2f');
  });

  it('covers every tail length around the 16-byte stripe', () => {
    // Each length takes a different mix of the stripe loop, the 4-byte loop and the byte loop;
    // equal inputs hash equal and a one-byte change always changes the hash.
    const seen = new Set<number>();
    for (let n = 0; n <= 40; n++) {
      const buf = Buffer.alloc(n, 0x61);
      seen.add(xxHash32(buf));
      expect(xxHash32(Buffer.from(buf))).toBe(xxHash32(buf));
      if (n > 0) {
        const other = Buffer.from(buf);
        other[n - 1] = 0x62;
        expect(xxHash32(other)).not.toBe(xxHash32(buf));
      }
    }
    expect(seen.size).toBe(41);
  });

  it('honours the seed', () => {
    expect(xxHash32(Buffer.from('abc'), 1)).not.toBe(xxHash32(Buffer.from('abc'), 0));
  });
});

describe('hashline tags', () => {
  // Tags the reference printed for exactly these contents (the reference tool’s documented examples).
  it.each([
    ['alpha\nneedle\n', '8468'],
    ['one\nneedle two\nthree\nfour\nfive\nsix\n', '7ABB'],
    ['needle b\n', 'C7E3'],
    ['a\n\nb\n', '306D'],
    ['x\nneedle last', '3900'],
    ['needle outside\n', 'CAFD'],
    ['Claude Opus\n', '802E'],
  ])('%j → %s', (content, tag) => {
    expect(hashlineTag(content)).toBe(tag);
  });

  it('ignores line-ending style and trailing blanks, as the reference normalises', () => {
    expect(hashlineTag('a\nneedle  \t\nneedle\r\nz\n')).toBe('EE5E');
    expect(hashlineTag('x\r\nneedle crlf\r\ny\r\n')).toBe('D3E5');
    expect(hashlineTag('x\r\nneedle crlf\r\ny\r\n')).toBe(hashlineTag('x\nneedle crlf\ny\n'));
    expect(normaliseForTag('a \r\nb\t\rc  ')).toBe('a\nb\nc');
  });

  it('is four upper-case hex digits and changes with the content', () => {
    expect(hashlineTag('anything')).toMatch(/^[0-9A-F]{4}$/);
    expect(hashlineTag('alpha\nneedle\n')).not.toBe(hashlineTag('alpha\nneedles\n'));
  });
});

describe('hashline tags on bytes', () => {
  it('the one-pass byte normaliser equals the text rule on random text', () => {
    const alphabet = ['a', ' ', '\t', '\r', '\n', '\r\n', 'é', '🙂', '\u00a0'];
    let seed = 7;
    const rnd = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    for (let i = 0; i < 5000; i++) {
      let s = '';
      for (let k = rnd(40); k > 0; k--) s += alphabet[rnd(alphabet.length)];
      expect(Buffer.from(normaliseBytes(Buffer.from(s))).toString('utf8')).toBe(normaliseForTag(s));
      expect(hashlineTag(Buffer.from(s))).toBe(hashlineTag(s));
    }
  });

  it('invalid UTF-8 is tagged as its lossy decoding, as a text reader sees it', () => {
    const bytes = Buffer.from([0x61, 0xe9, 0x20, 0x0d, 0x0a, 0x62]);
    expect(hashlineTag(bytes)).toBe(hashlineTag('a\ufffd\nb'));
  });
});
