/**
 * Globs with ripgrep's (globset's) semantics, compiled to JS regular expressions:
 * `?` one character, `*` any run, `**` across directories (only as `**​/x`, `x/**`, `x/**​/y` or alone;
 * elsewhere it acts as `*`), `[ab]`, `[!ab]`/`[^ab]`, `[a-z]`, `{a,b}` (not nested), backslash escapes.
 * With `literalSeparator`, `*`, `?` and classes never match `/`.
 */

export interface GlobOptions {
  literalSeparator: boolean;
  caseInsensitive?: boolean;
}

export class GlobError extends Error {
  readonly code = 'invalid_glob';
  constructor(
    readonly glob: string,
    reason: string,
  ) {
    super(`invalid glob '${glob}': ${reason}`);
    this.name = 'GlobError';
  }
}

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/;

function escapeChar(c: string): string {
  return REGEX_SPECIAL.test(c) ? `\\${c}` : c;
}

/**
 * `text` as a glob that matches exactly that text: every character special to globset (and to
 * {@link globToRegexSource}) escaped, `,` too since it is special inside braces. One escaper for every glob trawl
 * builds from a path, whichever engine reads it (ripgrep's `--glob` or ours).
 */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]{}!,]/g, '\\$&');
}

/** Regex source (no anchors) for `glob`; throws GlobError on malformed input. */
export function globToRegexSource(glob: string, options: GlobOptions): string {
  const any = options.literalSeparator ? '[^/]' : '[\\s\\S]';
  let out = '';
  let inAlternation = false;
  let i = 0;
  const n = glob.length;
  while (i < n) {
    const c = glob[i]!;
    if (c === '\\') {
      if (i + 1 >= n) throw new GlobError(glob, 'dangling escape');
      out += escapeChar(glob[i + 1]!);
      i += 2;
      continue;
    }
    if (c === '*') {
      let j = i;
      while (j < n && glob[j] === '*') j++;
      const stars = j - i;
      const atStart = i === 0 || glob[i - 1] === '/';
      const atEnd = j === n || glob[j] === '/';
      if (stars >= 2 && atStart && atEnd) {
        if (j === n) {
          // `x/**` or `**`: everything below (or everything).
          out += '[\\s\\S]*';
          i = j;
        } else {
          // `**/`: zero or more whole directories.
          out += '(?:[\\s\\S]*/)?';
          i = j + 1;
        }
        continue;
      }
      out += `${any}*`;
      i = j;
      continue;
    }
    if (c === '?') {
      out += any;
      i++;
      continue;
    }
    if (c === '[') {
      const { source, next } = parseClass(glob, i, options.literalSeparator);
      out += source;
      i = next;
      continue;
    }
    if (c === '{') {
      if (inAlternation) throw new GlobError(glob, 'nested alternate groups are not allowed');
      inAlternation = true;
      out += '(?:';
      i++;
      continue;
    }
    if (c === '}' && inAlternation) {
      inAlternation = false;
      out += ')';
      i++;
      continue;
    }
    if (c === ',' && inAlternation) {
      out += '|';
      i++;
      continue;
    }
    out += escapeChar(c);
    i++;
  }
  if (inAlternation) throw new GlobError(glob, 'unclosed alternate group; missing }');
  return out;
}

function parseClass(
  glob: string,
  start: number,
  literalSeparator: boolean,
): { source: string; next: number } {
  let i = start + 1;
  let negated = false;
  if (glob[i] === '!' || glob[i] === '^') {
    negated = true;
    i++;
  }
  let body = '';
  let first = true;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === ']' && !first) {
      // A class never matches the separator when separators are literal.
      const sep = literalSeparator ? '/' : '';
      const source = negated ? `[^${body}${sep ? '\\/' : ''}]` : sep ? `(?![/])[${body}]` : `[${body}]`;
      return { source, next: i + 1 };
    }
    first = false;
    if (c === '\\' && i + 1 < glob.length) {
      body += escapeClassChar(glob[i + 1]!);
      i += 2;
      continue;
    }
    if (c === '-' && body.length > 0 && glob[i + 1] !== ']' && i + 1 < glob.length) {
      body += '-';
      i++;
      continue;
    }
    body += escapeClassChar(c);
    i++;
  }
  throw new GlobError(glob, "unclosed character class; missing ']'");
}

function escapeClassChar(c: string): string {
  return c === ']' || c === '\\' || c === '^' || c === '-' || c === '[' ? `\\${c}` : c;
}

/** A compiled glob: `test` matches the whole candidate path. */
export function compileGlob(glob: string, options: GlobOptions): RegExp {
  return new RegExp(`^(?:${globToRegexSource(glob, options)})$`, options.caseInsensitive ? 'iu' : 'u');
}
