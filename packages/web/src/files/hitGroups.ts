import type { GrepHit } from '../api/endpoints.js';

/** One file of a content search's answer: its rows (its first matching lines, or a document's one hit) together. */
export interface HitGroup {
  /** The file as the server names it (relative to the search root). */
  file: string;
  hits: GrepHit[];
  /** Matching lines in the whole file; undefined where the server did not say (a document, a count out of time). */
  count: number | undefined;
  /** A document hit (no line: it opens at the document's text). */
  document: boolean;
}

/** The answer's rows grouped by file, files in the order the server sent them (a file's rows arrive together). */
export function groupHits(rows: readonly GrepHit[]): HitGroup[] {
  const groups: HitGroup[] = [];
  const byFile = new Map<string, HitGroup>();
  for (const r of rows) {
    let g = byFile.get(r.file);
    if (!g) {
      g = { file: r.file, hits: [], count: r.count, document: r.line === 0 };
      byFile.set(r.file, g);
      groups.push(g);
    }
    g.hits.push(r);
  }
  return groups;
}

/** Lines of a group the rows do not show: undefined when unknown (more match, the count did not arrive). */
export function unshownLines(g: HitGroup): number | undefined {
  if (g.document) return 0;
  return g.count === undefined ? undefined : Math.max(0, g.count - g.hits.length);
}

/**
 * What the status line says of an answer: "7 matching lines in 3 files", a document counting as one line, and
 * `+` after the lines where some file's count is unknown (so the sum is a floor).
 */
export function hitSummary(groups: readonly HitGroup[]): string {
  let lines = 0;
  let floor = false;
  for (const g of groups) {
    if (g.document) lines += 1;
    else if (g.count === undefined) {
      lines += g.hits.length;
      floor = true;
    } else lines += g.count;
  }
  const files = groups.length;
  return (
    `${lines}${floor ? '+' : ''} matching ${lines === 1 && !floor ? 'line' : 'lines'}` +
    ` in ${files} ${files === 1 ? 'file' : 'files'}`
  );
}
