/**
 * Match iteration with Rust's (and so rg's) rule for empty matches, which differs from a plain `exec` loop:
 * an empty match that starts where the previous match ended is skipped (`a*` on `aab` gives `aa` and the
 * empty match at the end, not also the empty match right after `aa`). Verified with rg 13 and 15.
 *
 * rg also reports empty matches inside multi-byte UTF-8 sequences; over decoded text they cannot exist, so we
 * report empty matches at character boundaries only (a documented deviation).
 */

export interface Span {
  /** UTF-16 index of the match start. */
  start: number;
  /** UTF-16 index just past the match. */
  end: number;
}

function nextIndex(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return i + 2;
  }
  return i + 1;
}

/**
 * Calls `onMatch` for each match of `regex` (a global regex from compilePattern) from `from` on, in order.
 * Returning false from `onMatch` stops the iteration (e.g. once a match starts past the caller's range).
 */
export function forEachMatch(
  regex: RegExp,
  text: string,
  onMatch: (span: Span) => boolean | undefined,
  from = 0,
): void {
  let lastEnd = -1;
  let at = from;
  while (at <= text.length) {
    regex.lastIndex = at;
    const m = regex.exec(text);
    if (m === null) return;
    const start = m.index;
    const end = start + m[0].length;
    if (start === end && start === lastEnd) {
      // Rust's rule: no empty match right where the previous match ended; search again one character on.
      if (start >= text.length) return;
      at = nextIndex(text, start);
      continue;
    }
    if (onMatch({ start, end }) === false) return;
    lastEnd = end;
    at = end;
  }
}

/** All match spans, in order. */
export function matchSpans(regex: RegExp, text: string, from = 0): Span[] {
  const out: Span[] = [];
  forEachMatch(
    regex,
    text,
    (s) => {
      out.push(s);
      return true;
    },
    from,
  );
  return out;
}
