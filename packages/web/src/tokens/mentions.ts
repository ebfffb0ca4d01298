/**
 * The mention grammar: how `@rel` (a file) and `@rel/` (a folder) tokens are found in composer text. One grammar
 * serves staging (chips derive from it), removal, the wire rewrite and the bubble render, so those four can never
 * disagree about where a token is.
 *
 *   MENTION  = BOUNDARY [ OPEN ] "@" ( QUOTED | BODY ) [ ":" DIGITS [ "-" DIGITS ] ] [ CLOSE* ] LOOKAHEAD
 *   BOUNDARY = start of text | one whitespace character (kept when a token is rewritten)
 *   OPEN     = one of ( [ { ` " '
 *   BODY     = characters that are neither whitespace nor "@", not ending in CLOSE punctuation
 *   QUOTED   = '"' ( any character but '"', "\\" and a line break | "\\" '"' | "\\" "\\" )* '"'
 *   CLOSE    = one of , . ! ? ; : ) ] } ` " '
 *   LOOKAHEAD= whitespace | end of text
 *
 * A BODY ending in `/` (or `\`, what Windows paths end in) is a folder; any other BODY is a file, and a trailing
 * `:DIGITS` on a file is a line reference, not part of its name. Punctuation and wrappers around a token do not
 * stop it being one (`(@src/)`, `@src/,` and `@main.ts:42.` are all mentions) — the study's folder grammar
 * required whitespace after the slash and the file grammar did not; here both use this one.
 * Not mentions: `a@b` (no boundary), `@https://x/` (a URL), `@/` and `@\` (only separators).
 *
 * QUOTED carries any name the bare BODY cannot (a space, an `@`, trailing punctuation, a `:12` that is part of the
 * name): `@"my notes.md"`, `@"a\"b.md"`. Its rel is the text between the quotes with `\"` and `\\` unescaped;
 * `mentionToken` writes the bare form whenever it reads back as the same rel, else this one.
 */

const CLOSE = ',.!?;:)\\]}`"\'';
const MENTION_RE = new RegExp(
  '(^|\\s)([(\\[{`"\']?)@(?:"((?:[^"\\\\\\n]|\\\\["\\\\])*)"(?::(\\d+)(?:-(\\d+))?)?|([^\\s@]*[^\\s@' +
    CLOSE +
    ']))([' +
    CLOSE +
    ']*)(?=\\s|$)',
  'g',
);
const UNESCAPE_RE = /\\(["\\])/g;
const LINE_SUFFIX_RE = /^(.*[^:]):(\d+)(?:-(\d+))?$/;
const SEPARATORS_ONLY_RE = /^[/\\]+$/;

export type MentionKind = 'file' | 'dir';

export interface Mention {
  kind: MentionKind;
  /** What follows the `@`, as typed: `src/pages/` for a folder, `src/main.ts` for a file (no `:line`). */
  rel: string;
  /** `:42` → 42 for a file reference with a line (`:42-50`: 42, and 50 in endLine). */
  line?: number;
  endLine?: number;
  /** Offsets of the `@` token itself, quotes included (the part a rewrite replaces). */
  start: number;
  end: number;
  /** Offsets of the whole mention with its wrapper, `:line` and trailing punctuation (what a removal strips). */
  outerStart: number;
  outerEnd: number;
}

/** True when a rel names a folder (ends in a separator). */
export function isDirRel(rel: string): boolean {
  return rel.endsWith('/') || rel.endsWith('\\');
}

/** Every mention in `text`, in order of appearance (repeats included). */
export function parseMentions(text: string): Mention[] {
  const out: Mention[] = [];
  for (const m of text.matchAll(MENTION_RE)) {
    const boundary = m[1] ?? '';
    const open = m[2] ?? '';
    const quoted = m[3];
    const bare = m[6] ?? '';
    const close = m[7] ?? '';
    const outerStart = (m.index ?? 0) + boundary.length;
    const start = outerStart + open.length;
    // The whole token after the wrapper: `@` and the body (its quotes and `:line` included), before CLOSE.
    const tokenEnd = (m.index ?? 0) + m[0].length - close.length;
    let body: string;
    let line: number | undefined;
    let endLine: number | undefined;
    let end: number;
    if (quoted !== undefined) {
      body = quoted.replace(UNESCAPE_RE, '$1');
      if (body === '') continue;
      if (m[4] !== undefined) line = Number(m[4]);
      if (m[5] !== undefined) endLine = Number(m[5]);
      end = start + 3 + quoted.length; // `@"` … `"`
    } else {
      body = bare;
      if (body.includes('://') || SEPARATORS_ONLY_RE.test(body)) continue;
      if (!isDirRel(body)) {
        const ln = LINE_SUFFIX_RE.exec(body);
        if (ln) {
          body = ln[1] ?? body;
          line = Number(ln[2]);
          if (ln[3] !== undefined) endLine = Number(ln[3]);
        }
      }
      end = start + 1 + body.length;
    }
    const kind: MentionKind = isDirRel(body) ? 'dir' : 'file';
    if (kind === 'dir') line = endLine = undefined;
    const mention: Mention = { kind, rel: body, start, end, outerStart, outerEnd: tokenEnd + close.length };
    if (line !== undefined) mention.line = line;
    if (endLine !== undefined && line !== undefined && endLine >= line) mention.endLine = endLine;
    out.push(mention);
  }
  return out;
}

/**
 * The token that reads back as exactly `rel`: `@rel` when the bare form does, else the quoted form with `"` and
 * `\\` escaped. Null only for a name with a line break, which no token in a one-line grammar can carry.
 */
export function mentionToken(rel: string): string | null {
  if (rel === '' || /[\r\n]/.test(rel)) return null;
  const bare = `@${rel}`;
  const back = parseMentions(bare);
  const m = back[0];
  if (back.length === 1 && m && m.rel === rel && m.line === undefined && m.outerEnd === bare.length)
    return bare;
  return `@"${rel.replace(/["\\]/g, '\\$&')}"`;
}

/** The folder tokens of a text, deduplicated by their exact rel, in order of first appearance. */
export function parseDirTokens(text: string): { rel: string; token: string }[] {
  const seen = new Set<string>();
  const out: { rel: string; token: string }[] = [];
  for (const m of parseMentions(text)) {
    if (m.kind !== 'dir' || seen.has(m.rel)) continue;
    seen.add(m.rel);
    out.push({ rel: m.rel, token: text.slice(m.start, m.end) });
  }
  return out;
}

/**
 * Removes every mention of `rel` (of the given kind) from `text`: the token with its wrapper, `:line` and trailing
 * punctuation, plus one following space when there is one (other whitespace stays). The boundary before it stays.
 * Removal works on the parsed spans, so a longer sibling (`@docs/sub/` when removing `docs/`) survives and adjacent
 * repeats (`@docs/ @docs/`) all go (the study's global replace missed the second).
 */
export function removeMention(text: string, rel: string, kind: MentionKind): string {
  let out = text;
  const hits = parseMentions(text).filter((m) => m.kind === kind && m.rel === rel);
  for (let i = hits.length - 1; i >= 0; i--) {
    const m = hits[i]!;
    let end = m.outerEnd;
    if (out[end] === ' ') end += 1;
    out = out.slice(0, m.outerStart) + out.slice(end);
  }
  return out;
}
