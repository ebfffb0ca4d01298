/**
 * A preview line with its matches marked: the server's `ranges` (UTF-16 offsets, end exclusive) when it sent them,
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
  const marks =
    valid.length > 0 ? valid : [findFolded(text, query)].filter((r): r is [number, number] => r !== null);
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
