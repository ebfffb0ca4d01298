/**
 * Caret-relative token detection for the composer: every matcher is handed only the text BEFORE the caret, so text
 * after the caret never closes a picker and a token can be completed mid-sentence. A token starts at a word
 * boundary: the start of the text or one whitespace character (punctuation is not a boundary here, so `(@src` and
 * `"./src` do not open a picker; the staging grammar in mentions.ts is more permissive about what surrounds a token
 * that already exists).
 *
 * The regular expressions that detect a token are the ones that replace it (`replaceTokenAtCaret`), so the span a
 * picker was opened for is exactly the span its pick rewrites.
 */

/** `@` mention at the caret: group 1 the boundary, group 2 the query (no whitespace, no second `@`). */
export const MENTION_AT_CARET = /(^|\s)@([^\s@]*)$/;

/**
 * `./` or `../` path token at the caret: group 1 the boundary, group 2 the whole token. `./` or `../` followed by any
 * non-whitespace covers `../../a` and `./../x`; `.`, `..`, `e.g` and `done.` have no separator and never match;
 * `~/` is not a token (home is never a completion root) and only the forward slash triggers.
 */
export const PATH_AT_CARET = /(^|\s)(\.\.?\/\S*)$/;

/** The `@` query at the caret (`""` for a bare `@`), or null when the caret is not in a mention. */
export function matchMentionToken(before: string): string | null {
  const m = MENTION_AT_CARET.exec(before);
  return m ? (m[2] ?? '') : null;
}

/** The whole `./…` / `../…` token at the caret (separator included), or null. */
export function matchPathToken(before: string): string | null {
  const m = PATH_AT_CARET.exec(before);
  return m ? (m[2] ?? '') : null;
}

/** A path token cut at its last `/`: the typed directory prefix (kept verbatim) and the partial entry name. */
export function splitPathToken(token: string): { dir: string; partial: string } {
  const cut = token.lastIndexOf('/');
  return { dir: token.slice(0, cut + 1), partial: token.slice(cut + 1) };
}

/**
 * Replaces the end-anchored token `tokenRe` finds in `value[0:caret]` with `token`, re-emitting the boundary the
 * regex captured in group 1, and keeps `value[caret:]` untouched. Returns the new value and the caret after the
 * inserted token. When the token is not there (the text moved on), the value is returned unchanged.
 */
export function replaceTokenAtCaret(
  value: string,
  caret: number,
  tokenRe: RegExp,
  token: string,
): { value: string; caret: number } {
  const at = Math.max(0, Math.min(caret, value.length));
  const before = value.slice(0, at);
  const m = tokenRe.exec(before);
  if (!m) return { value, caret: at };
  const head = before.slice(0, m.index) + (m[1] ?? '') + token;
  return { value: head + value.slice(at), caret: head.length };
}
