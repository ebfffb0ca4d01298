/**
 * Lexing a reply that grows while it streams. Lexing the whole text again for every painted frame costs in
 * proportion to the reply (a 6 000-line reply: tens of milliseconds a frame, bench/web.mjs); the blocks before the
 * last two are final once more text follows them, so only the text from there on is lexed again. A text that does
 * not extend the previous one, or whose kept blocks do not spell its start, is lexed whole.
 */
import { Lexer, type Token } from 'marked';

/** The previous answer: the text and its blocks. */
export interface Lexed {
  text: string;
  tokens: Token[];
}

/** Blocks kept from before: all but the last two, so a list or paragraph the new text continues is lexed again. */
const RELEX_BLOCKS = 2;

export const lexAll = (text: string): Token[] => new Lexer({ gfm: true, breaks: false }).lex(text);

/**
 * `text`'s blocks, reusing `prev`'s where `text` extends it. Reference-style link definitions apply only within the
 * part lexed together while it streams; the finished reply is lexed whole (`lexAll`).
 */
export function lexGrowing(prev: Lexed | null, text: string, lex: (s: string) => Token[] = lexAll): Lexed {
  if (prev === null || !text.startsWith(prev.text)) return { text, tokens: lex(text) };
  let keep = Math.max(0, prev.tokens.length - RELEX_BLOCKS);
  // A blank line between kept blocks and the rest may join them (a loose list): lex from before it.
  while (keep > 0 && prev.tokens[keep - 1]!.type === 'space') keep--;
  let offset = 0;
  for (let i = 0; i < keep; i++) offset += prev.tokens[i]!.raw.length;
  const head = prev.tokens.slice(0, keep);
  // The lexer normalises line ends; where the kept blocks are not the text's own characters, start over.
  if (text.slice(0, offset) !== head.map((t) => t.raw).join('')) return { text, tokens: lex(text) };
  return { text, tokens: [...head, ...lex(text.slice(offset))] };
}
