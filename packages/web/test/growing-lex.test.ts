import type { Token } from 'marked';
import { describe, expect, it } from 'vitest';
import { type Lexed, lexAll, lexGrowing } from '../src/thread/growingLex.js';

/** A reply with the blocks a model writes: headings, paragraphs, a loose list, a fence, a table. */
const REPLY = [
  '## Plan',
  '',
  'First a paragraph that runs',
  'over two lines.',
  '',
  '- one',
  '',
  '- two, loose',
  '- three',
  '',
  '```ts',
  'const a = 1;',
  '',
  'const b = 2;',
  '```',
  '',
  '| a | b |',
  '| - | - |',
  '| 1 | 2 |',
  '',
  'Heading by underline',
  '===',
  '',
  'Done.',
  '',
].join('\n');

const shape = (tokens: Token[]) => tokens.map((t) => [t.type, t.raw]);

describe('lexing a streaming reply', () => {
  it('gives the blocks a whole lex gives, at every cut of the stream', () => {
    let prev: Lexed | null = null;
    for (let at = 1; at <= REPLY.length; at += 3) {
      const text = REPLY.slice(0, at);
      prev = lexGrowing(prev, text);
      expect(shape(prev.tokens), JSON.stringify(text.slice(-20))).toEqual(shape(lexAll(text)));
    }
  });

  it('lexes only the tail again when the text grows', () => {
    const long = Array.from({ length: 2_000 }, (_, i) => `Paragraph ${i} of the reply.\n`).join('\n');
    const lexed: number[] = [];
    const counting = (s: string) => {
      lexed.push(s.length);
      return lexAll(s);
    };
    const first = lexGrowing(null, long, counting);
    const next = lexGrowing(first, `${long}\nOne more line`, counting);
    expect(lexed[0]).toBe(long.length);
    expect(lexed[1]).toBeLessThan(100);
    expect(shape(next.tokens)).toEqual(shape(lexAll(`${long}\nOne more line`)));
  });

  it('lexes whole a text that does not extend the previous one, or whose line ends the lexer rewrote', () => {
    const a = lexGrowing(null, 'one\n\ntwo\n\nthree\n\nfour');
    expect(shape(lexGrowing(a, 'other\n\ntext').tokens)).toEqual(shape(lexAll('other\n\ntext')));
    const crlf = 'one\r\n\r\ntwo\r\n\r\nthree\r\n\r\nfour';
    const b = lexGrowing(null, crlf);
    expect(shape(lexGrowing(b, `${crlf}\r\nfive`).tokens)).toEqual(shape(lexAll(`${crlf}\r\nfive`)));
  });
});
