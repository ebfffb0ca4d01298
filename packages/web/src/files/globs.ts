/**
 * The content search's file filters as a person types them: "files to include" / "files to exclude" fields holding
 * ripgrep `-g` globs separated by commas, as an editor's search panel takes them (`*.ts, src/**`). The server judges
 * each glob (a malformed one is its `invalid_glob`); this module only splits the field and spells a path as a glob.
 */

/**
 * The globs of one field: split at commas outside braces (`*.{ts,tsx}` is one glob), trimmed, blanks dropped.
 * A comma escaped with a backslash stays in its glob.
 */
export function globField(text: string): string[] {
  const globs: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      globs.push(text.slice(start, i));
      start = i + 1;
    }
  }
  globs.push(text.slice(start));
  return globs.map((g) => g.trim()).filter((g) => g !== '');
}

/**
 * A glob that matches exactly `rel` (a path relative to the search root) and nothing else: anchored to the root by a
 * leading `/`, every character a glob gives a meaning escaped with a backslash.
 */
export function exactPathGlob(rel: string): string {
  return `/${rel.replace(/[\\*?[\]{}!,]/g, '\\$&')}`;
}
