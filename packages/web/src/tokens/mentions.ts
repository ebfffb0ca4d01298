/**
 * The mention grammar: how `@rel` (a file) and `@rel/` (a folder) tokens are found in composer text. One grammar
 * serves staging (chips derive from it), removal, the wire rewrite and the bubble render, so those four can never
 * disagree about where a token is.
 *
 *   MENTION  = BOUNDARY [ OPEN ] "@" BODY [ ":" DIGITS ] [ CLOSE* ] LOOKAHEAD
 *   BOUNDARY = start of text | one whitespace character (kept when a token is rewritten)
 *   OPEN     = one of ( [ { ` " '
 *   BODY     = characters that are neither whitespace nor "@", not ending in CLOSE punctuation
 *   CLOSE    = one of , . ! ? ; : ) ] } ` " '
 *   LOOKAHEAD= whitespace | end of text
 *
 * A BODY ending in `/` (or `\`, what Windows paths end in) is a folder; any other BODY is a file, and a trailing
 * `:DIGITS` on a file is a line reference, not part of its name. Punctuation and wrappers around a token do not
 * stop it being one (`(@src/)`, `@src/,` and `@main.ts:42.` are all mentions) — the study's folder grammar
 * required whitespace after the slash and the file grammar did not (§8.1); here both use this one.
 * Not mentions: `a@b` (no boundary), `@https://x/` (a URL), `@/` and `@\` (only separators).
 */

const CLOSE = ',.!?;:)\\]}`"\'';
const MENTION_RE = new RegExp(
  '(^|\\s)([(\\[{`"\']?)@([^\\s@]*[^\\s@' + CLOSE + '])([' + CLOSE + ']*)(?=\\s|$)',
  'g',
);
const LINE_SUFFIX_RE = /^(.*[^:]):(\d+)$/;
const SEPARATORS_ONLY_RE = /^[/\\]+$/;

export type MentionKind = 'file' | 'dir';

export interface Mention {
  kind: MentionKind;
  /** What follows the `@`, as typed: `src/pages/` for a folder, `src/main.ts` for a file (no `:line`). */
  rel: string;
  /** `:42` → 42 for a file reference with a line. */
  line?: number;
  /** Offsets of `@` + rel (the part a rewrite replaces). */
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
    let body = m[3] ?? '';
    const close = m[4] ?? '';
    if (body.includes('://') || SEPARATORS_ONLY_RE.test(body)) continue;
    const outerStart = (m.index ?? 0) + boundary.length;
    const start = outerStart + open.length;
    let line: number | undefined;
    const kind: MentionKind = isDirRel(body) ? 'dir' : 'file';
    if (kind === 'file') {
      const ln = LINE_SUFFIX_RE.exec(body);
      if (ln) {
        body = ln[1] ?? body;
        line = Number(ln[2]);
      }
    }
    const mention: Mention = {
      kind,
      rel: body,
      start,
      end: start + 1 + body.length,
      outerStart,
      outerEnd: start + 1 + (m[3] ?? '').length + close.length,
    };
    if (line !== undefined) mention.line = line;
    out.push(mention);
  }
  return out;
}

/** The folder tokens of a text, deduplicated by their exact rel, in order of first appearance. */
export function parseDirTokens(text: string): { rel: string; token: string }[] {
  const seen = new Set<string>();
  const out: { rel: string; token: string }[] = [];
  for (const m of parseMentions(text)) {
    if (m.kind !== 'dir' || seen.has(m.rel)) continue;
    seen.add(m.rel);
    out.push({ rel: m.rel, token: `@${m.rel}` });
  }
  return out;
}

/**
 * Removes every mention of `rel` (of the given kind) from `text`: the token with its wrapper, `:line` and trailing
 * punctuation, plus one following space when there is one (other whitespace stays). The boundary before it stays.
 * Removal works on the parsed spans, so a longer sibling (`@docs/sub/` when removing `docs/`) survives and adjacent
 * repeats (`@docs/ @docs/`) all go (the study's global replace missed the second, §8.4).
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
