/**
 * A preview line with its matches marked: the server's `ranges` (UTF-16 offsets, end exclusive) when it sent them
 * (an empty list marks nothing: the match was redacted or cut off, and the query may be a pattern or case-exact),
 * else the first case-insensitive occurrence of the query, found with per-character folding so a character whose
 * lower case is longer (`İ`) does not shift the mark.
 */
export function findFolded(text: string, query: string): [number, number] | null {
  if (query === '') return null;
  const fold = (s: string) =>
    Array.from(s, (ch) => (ch.toLowerCase().length === ch.length ? ch.toLowerCase() : ch)).join('');
  const at = fold(text).indexOf(fold(query));
  return at < 0 ? null : [at, at + query.length];
}

/** Characters of a preview kept before its first match when the start is cut (room for context, not a whole line). */
export const PREVIEW_LEAD_CHARS = 24;

/**
 * A preview whose first match would sit past the lead, cut to start a little before it (`…` in place of the cut),
 * so a narrow row shows the match rather than the line's beginning; the ranges move with it.
 */
export function centreOnMatch(
  text: string,
  ranges: [number, number][] | undefined,
  query: string,
): { text: string; ranges: [number, number][] | undefined } {
  const first = ranges
    ? ranges.length > 0
      ? Math.min(...ranges.map((r) => r[0]))
      : undefined
    : findFolded(text, query)?.[0];
  if (first === undefined || first <= PREVIEW_LEAD_CHARS) return { text, ranges };
  let cut = first - PREVIEW_LEAD_CHARS;
  // never split a surrogate pair
  if (/[\uDC00-\uDFFF]/.test(text[cut] ?? '')) cut -= 1;
  const shift = cut - 1;
  return {
    text: `…${text.slice(cut)}`,
    ranges: ranges?.map(([s, e]) => [s - shift, e - shift] as [number, number]).filter(([s]) => s >= 1),
  };
}

export function Highlighted({
  text,
  ranges,
  query,
}: {
  text: string;
  ranges?: [number, number][];
  query: string;
}) {
  const valid = (ranges ?? [])
    .filter(([s, e]) => Number.isInteger(s) && Number.isInteger(e) && s >= 0 && e > s && e <= text.length)
    .sort((a, b) => a[0] - b[0]);
  const marks = ranges ? valid : [findFolded(text, query)].filter((r): r is [number, number] => r !== null);
  const out: React.ReactNode[] = [];
  let at = 0;
  for (const [s, e] of marks) {
    if (s < at) continue;
    if (s > at) out.push(text.slice(at, s));
    out.push(<mark key={s}>{text.slice(s, e)}</mark>);
    at = e;
  }
  out.push(text.slice(at));
  return <>{out}</>;
}
