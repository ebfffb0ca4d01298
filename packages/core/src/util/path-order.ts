/**
 * Byte order of UTF-8 strings (= code point order). JS `<` compares UTF-16 code units, which puts
 * astral characters (surrogates, 0xD800–0xDFFF) before U+E000–U+FFFF; UTF-8 puts them after.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return codePointRank(x) - codePointRank(y);
    return x - y;
  }
  return a.length - b.length;
}

/** Surrogates rank above every BMP unit from 0xD800 up, as their code points (≥ 0x10000) do. */
function codePointRank(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}

/**
 * Sort key of a directory entry so that a depth-first walk emits paths in byte order of the full
 * relative path: a directory `a` sorts as `a/`, after `a-b` and `a.ts` ('-' and '.' are below '/').
 */
export function entrySortKey(name: string, isDir: boolean): string {
  return isDir ? `${name}/` : name;
}
