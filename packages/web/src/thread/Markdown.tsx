/**
 * An agent's reply as the chat apps show it: CommonMark with GFM tables, task lists, strikethrough and autolinks.
 *
 * Safe by construction rather than by cleaning: marked only LEXES the text, and its tokens become React elements
 * here, so no string from a reply is ever parsed as HTML by the page. Raw HTML in a reply is shown as the text it is;
 * a link is a link only when it leads to http(s) or mailto; an image is never fetched (a reply could otherwise send a
 * tracking request, and the CSP would refuse it anyway): it shows as a link to its address.
 */
import type { MarkedToken, Token, Tokens } from 'marked';
import { memo, type ReactNode, useMemo, useRef } from 'react';
import { CopyButton } from '../ui/CopyButton.js';
import { languageForFence, useHighlight } from '../ui/highlight.js';
import { type Lexed, lexAll, lexGrowing } from './growingLex.js';

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/**
 * Character references in text as CommonMark reads them (`&amp;` → `&`, `&#x41;` → `A`). A name outside the short
 * table is looked up by an inert DOMParser document holding only that reference: nothing runs or loads there.
 */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(
    /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g,
    (whole, body: string) => {
      if (body[0] === '#') {
        const n =
          body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
        return n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '\ufffd';
      }
      const known = NAMED[body];
      if (known !== undefined) return known;
      if (typeof DOMParser === 'undefined') return whole;
      const doc = new DOMParser().parseFromString(`<p>${whole}</p>`, 'text/html');
      return doc.body.textContent ?? whole;
    },
  );
}

const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** The address a reply's link may lead to, or null (script, data, file and relative addresses are not followed). */
export function safeHref(href: string): string | null {
  // Browsers drop control characters and whitespace inside a scheme ("java\tscript:"): judge what they would see.
  const cleaned = decodeEntities(href).replace(/[\u0000-\u0020\u007f]/g, '');
  let url: URL;
  try {
    url = new URL(cleaned);
  } catch {
    return null;
  }
  return SAFE_SCHEMES.has(url.protocol) ? url.href : null;
}

function inline(tokens: Token[] | undefined): ReactNode[] {
  // biome-ignore lint/suspicious/noArrayIndexKey: a token's place in its parent is its identity while a reply streams
  return (tokens ?? []).map((t, i) => <Inline key={i} token={t} />);
}

function Inline({ token }: { token: Token }): ReactNode {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case 'text':
      return t['tokens'] ? inline(t['tokens']) : decodeEntities(t['text'] as string);
    case 'escape':
      return decodeEntities(t['text'] as string);
    case 'strong':
      return <strong>{inline(t['tokens'])}</strong>;
    case 'em':
      return <em>{inline(t['tokens'])}</em>;
    case 'del':
      return <del>{inline(t['tokens'])}</del>;
    case 'codespan':
      return <code>{t['text'] as string}</code>;
    case 'br':
      return <br />;
    case 'link': {
      const link = token as Tokens.Link;
      const href = safeHref(link.href);
      const body = inline(link.tokens);
      if (!href) return <span className="md-unlinked">{body}</span>;
      return (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow" title={link.title ?? href}>
          {body}
        </a>
      );
    }
    case 'image': {
      const img = token as Tokens.Image;
      const href = safeHref(img.href);
      const label = `image: ${decodeEntities(img.text) || 'untitled'}`;
      return href ? (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="md-image" title={href}>
          {label}
        </a>
      ) : (
        <span className="md-image">{label}</span>
      );
    }
    case 'html':
      // Shown as written: a reply's HTML never becomes markup.
      return <span className="md-html">{t['text'] as string}</span>;
    case 'checkbox':
      return null;
    default:
      return typeof t['raw'] === 'string' ? t['raw'] : null;
  }
}

/** A fence is closed when its raw text ends with the closing run (while streaming the last one may not be yet). */
const fenceClosed = (raw: string) => /(^|\n) {0,3}(`{3,}|~{3,})[ \t]*\n?$/.test(raw.replace(/\n+$/, '\n'));

function CodeBlock({ token, final }: { token: Tokens.Code; final: boolean }) {
  const language = token.codeBlockStyle === 'indented' ? undefined : languageForFence(token.lang);
  const closed = final || token.codeBlockStyle === 'indented' || fenceClosed(token.raw);
  const lines = useHighlight(token.text, language, closed);
  const name = (token.lang ?? '').trim().split(/\s+/)[0] ?? '';
  return (
    <figure className="code-block" data-language={language ?? ''}>
      <figcaption className="code-block-head">
        <span className="code-lang">{name || 'text'}</span>
        <CopyButton text={token.text} label={`Copy ${name || 'code'}`} />
      </figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a block wider than the page scrolls, and must be reachable by keyboard to be scrolled */}
      <pre tabIndex={0}>
        <code data-highlighted={lines ? 'true' : undefined}>
          {lines
            ? lines.map((runs, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: lines of one immutable block
                <span key={i}>
                  {runs.map((r, j) =>
                    r.cls ? (
                      // biome-ignore lint/suspicious/noArrayIndexKey: runs of one immutable line
                      <span key={j} className={r.cls}>
                        {r.text}
                      </span>
                    ) : (
                      r.text
                    ),
                  )}
                  {i < lines.length - 1 ? '\n' : null}
                </span>
              ))
            : token.text}
        </code>
      </pre>
    </figure>
  );
}

function ListBlock({ token, final }: { token: Tokens.List; final: boolean }) {
  const items = token.items.map((item, i) => {
    // A task's `[x]` is its checkbox token, drawn below as the input: never as text too.
    const body = item.tokens.map((t, j) => {
      if (t.type === 'checkbox') return null;
      // A tight list's paragraphs are bare text; a loose list keeps them as paragraphs.
      // biome-ignore lint/suspicious/noArrayIndexKey: blocks of one immutable item
      if (t.type === 'text' && !item.loose) return <Inline key={j} token={t} />;
      // biome-ignore lint/suspicious/noArrayIndexKey: as above
      return <Block key={j} token={t} final={final} />;
    });
    return (
      // biome-ignore lint/suspicious/noArrayIndexKey: items of one immutable list
      <li key={i} className={item.task ? 'task' : undefined}>
        {item.task ? (
          <input
            className="task-check"
            type="checkbox"
            checked={item.checked ?? false}
            disabled
            aria-label={item.checked ? 'done' : 'not done'}
          />
        ) : null}
        {body}
      </li>
    );
  });
  if (token.ordered) {
    const start = typeof token.start === 'number' && token.start !== 1 ? token.start : undefined;
    return <ol start={start}>{items}</ol>;
  }
  return <ul>{items}</ul>;
}

function TableBlock({ token }: { token: Tokens.Table }) {
  // Classes, not style attributes: the CSP allows no inline style.
  const align = (a: Tokens.TableCell['align']) => (a ? `align-${a}` : undefined);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide table scrolls inside its frame and must be reachable by keyboard
    <section className="md-table" tabIndex={0} aria-label="table">
      <table>
        <thead>
          <tr>
            {token.header.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: cells of one immutable table
              <th key={i} className={align(c.align)}>
                {inline(c.tokens)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {token.rows.map((row, r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            <tr key={r}>
              {row.map((c, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: as above
                <td key={i} className={align(c.align)}>
                  {inline(c.tokens)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function BlockView({ token: given, final }: { token: Token; final: boolean }): ReactNode {
  const t = given as Tokens.Generic;
  const token = given as MarkedToken;
  switch (token.type) {
    case 'space':
    case 'def':
      return null;
    case 'paragraph':
      return <p>{inline(token.tokens)}</p>;
    case 'heading': {
      const depth = Math.min(6, Math.max(1, token.depth));
      const H = `h${depth}` as 'h1';
      return <H className="md-heading">{inline(token.tokens)}</H>;
    }
    case 'code':
      return <CodeBlock token={token} final={final} />;
    case 'blockquote':
      return (
        <blockquote>
          {token.tokens.map((b, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: blocks of one immutable quote
            <Block key={i} token={b} final={final} />
          ))}
        </blockquote>
      );
    case 'list':
      return <ListBlock token={token} final={final} />;
    case 'table':
      return <TableBlock token={token} />;
    case 'hr':
      return <hr />;
    case 'html':
      return <pre className="md-html-block">{token.text}</pre>;
    case 'text':
      return <p>{token.tokens ? inline(token.tokens) : decodeEntities(token.text)}</p>;
    default:
      return typeof t['raw'] === 'string' ? <p>{t['raw']}</p> : null;
  }
}

/** A block re-renders only when its own source changes: a streaming reply repaints its last block, not all of them. */
const Block = memo(BlockView, (a, b) => a.token.raw === b.token.raw && a.final === b.final);

/**
 * Renders `text` as markdown. `final` false (still streaming) keeps an unclosed code fence plain until it closes, so a
 * long block is highlighted once, not on every chunk.
 */
export function Markdown({ text, final = true }: { text: string; final?: boolean }) {
  // While it streams only its tail is lexed again each frame; the finished reply is lexed whole.
  const last = useRef<Lexed | null>(null);
  const tokens = useMemo(() => {
    last.current = final ? { text, tokens: lexAll(text) } : lexGrowing(last.current, text);
    return last.current.tokens;
  }, [text, final]);
  return (
    <div className="markdown">
      {tokens.map((t, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a block's place in the reply is its identity while it streams
        <Block key={i} token={t} final={final} />
      ))}
    </div>
  );
}
