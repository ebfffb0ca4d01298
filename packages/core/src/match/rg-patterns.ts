/**
 * How ripgrep turns its pattern flags into one pattern: several `-e`/`-f` patterns are alternatives,
 * `-F` escapes each, `-x` anchors the whole at both line ends, and `-S` (smart case) matches
 * case-insensitively when no pattern spells an uppercase letter.
 */

/** Rust regex syntax's escape: every meta character, including the ones only `(?x)` or classes use. */
export function escapeRustRegex(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$#&~-]/g, '\\$&');
}

export interface RgPatternSet {
  /** The pattern to compile. */
  pattern: string;
  /** Still a literal (one -F pattern, unanchored): the caller keeps -F, which is faster. */
  fixedStrings: boolean;
}

/** Several `-e` patterns as one, as ripgrep joins them (an alternation of the parts). */
export function combineRgPatterns(
  patterns: readonly string[],
  options: { fixedStrings: boolean; lineRegexp: boolean },
): RgPatternSet {
  if (patterns.length === 1 && !options.lineRegexp)
    return { pattern: patterns[0]!, fixedStrings: options.fixedStrings };
  const parts = patterns.map((p) => (options.fixedStrings ? escapeRustRegex(p) : p));
  let pattern = parts.length === 1 ? parts[0]! : parts.map((p) => `(?:${p})`).join('|');
  if (options.lineRegexp) pattern = `^(?:${pattern})$`;
  return { pattern, fixedStrings: false };
}

/**
 * ripgrep's -S: case-insensitive when the patterns hold at least one literal character and no
 * uppercase one. Escapes (`\W`, `\pL`, `\p{Lu}`) and group syntax (`(?i)`, `(?P<Name>`) are not literals.
 */
export function smartCaseInsensitive(patterns: readonly string[], fixedStrings: boolean): boolean {
  let anyLiteral = false;
  for (const p of patterns) {
    const literal = fixedStrings
      ? p
      : p
          .replace(/\\[pP](\{[^}]*\}|.)/gu, '')
          .replace(/\\x(\{[^}]*\}|[0-9a-fA-F]{2})|\\[uU][0-9a-fA-F]{4,8}/g, '')
          .replace(/\\./gu, '')
          .replace(/\(\?P?<[^>]*>|\(\?[a-zA-Z-]*:?|\[:\^?[a-z]+:\]/g, '');
    if (/\p{Lu}|\p{Lt}/u.test(literal)) return false;
    if (/[\p{L}\p{N}]/u.test(literal)) anyLiteral = true;
  }
  return anyLiteral;
}

/**
 * ripgrep's `-r` template for one match: `$N` / `$name` (the longest run of `[_0-9A-Za-z]`), `${…}` to
 * delimit, `$$` for a dollar. A group that does not exist or did not take part expands to nothing.
 */
export function expandReplacement(template: string, m: RegExpExecArray): string {
  return template.replace(
    /\$(?:\$|\{([^}]*)\}|([_0-9A-Za-z]+))/g,
    (whole, braced: string | undefined, bare: string | undefined) => {
      if (whole === '$$') return '$';
      const name = braced ?? bare!;
      if (/^\d+$/.test(name)) return m[Number(name)] ?? '';
      return m.groups?.[name] ?? '';
    },
  );
}
