import { SearchToolError } from './errors.js';

/** An inclusive range of 1-based line numbers; `end` is Infinity for an open range (`:N-`). */
export interface LineRange {
  start: number;
  end: number;
}

const CHUNK = /^[Ll]?\d+(?:-(?:[Ll]?\d+)?|\+\d+)?$/;
const WORD = /^(?:raw|conflicts)$/i;

function isSelectorText(s: string): boolean {
  return s.length > 0 && s.split(',').every((c) => CHUNK.test(c));
}

/**
 * Peels a trailing selector (`path:50-100`, `path:5,9-12`, `path:L10+5`) off a paths entry. Only the text
 * after the last `:` is considered, and only when it is a selector; otherwise the whole entry is a path.
 * `:raw`/`:conflicts` (read-tool selectors) are recognised so they can be refused by name.
 */
export function splitSelector(entry: string): { path: string; selector: string | null } {
  const colon = entry.lastIndexOf(':');
  if (colon <= 0) return { path: entry, selector: null };
  const tail = entry.slice(colon + 1);
  if (isSelectorText(tail)) {
    // `range:raw` / `raw:range` compounds are recognised whole, to be refused.
    const before = entry.slice(0, colon);
    const prev = before.lastIndexOf(':');
    if (prev > 0 && WORD.test(before.slice(prev + 1)))
      return { path: before.slice(0, prev), selector: `${before.slice(prev + 1)}:${tail}` };
    return { path: before, selector: tail };
  }
  if (WORD.test(tail)) {
    const before = entry.slice(0, colon);
    const prev = before.lastIndexOf(':');
    if (prev > 0 && isSelectorText(before.slice(prev + 1)))
      return { path: before.slice(0, prev), selector: `${before.slice(prev + 1)}:${tail}` };
    return { path: before, selector: tail };
  }
  return { path: entry, selector: null };
}

/**
 * Parses a selector into sorted, merged ranges. `N` is that line only; `N-M` inclusive; `N-` to the end;
 * `N+K` is K lines from N. Errors use the reference's texts.
 */
export function parseLineRanges(selector: string, entry: string): LineRange[] {
  if (selector.split(':').some((part) => WORD.test(part))) {
    throw new SearchToolError(
      'unsupported_selector',
      `paths entry "${entry}" — only line-range selectors like ":50-100" are supported (no ":raw"/":conflicts")`,
    );
  }
  const ranges: LineRange[] = [];
  for (const chunk of selector.split(',')) {
    const m = /^[Ll]?(\d+)(?:(-)(?:[Ll]?(\d+))?|\+(\d+))?$/.exec(chunk);
    if (!m)
      throw new SearchToolError(
        'invalid_line_range',
        `Invalid line selector "${chunk}" in paths entry "${entry}"`,
      );
    const start = Number(m[1]);
    if (start === 0)
      throw new SearchToolError(
        'invalid_line_range',
        'Line selector 0 is invalid; lines are 1-indexed. Use :1.',
      );
    if (m[4] !== undefined) {
      const count = Number(m[4]);
      if (count < 1)
        throw new SearchToolError(
          'invalid_line_range',
          `Invalid range ${start}+${m[4]}: count must be >= 1.`,
        );
      ranges.push({ start, end: start + count - 1 });
    } else if (m[2] !== undefined) {
      if (m[3] === undefined) {
        ranges.push({ start, end: Number.POSITIVE_INFINITY });
      } else {
        const end = Number(m[3]);
        if (end < start)
          throw new SearchToolError(
            'invalid_line_range',
            `Invalid range ${start}-${end}: end must be >= start.`,
          );
        ranges.push({ start, end });
      }
    } else {
      ranges.push({ start, end: start });
    }
  }
  return mergeRanges(ranges);
}

/** Sorts and merges overlapping or adjacent ranges. */
export function mergeRanges(ranges: LineRange[]): LineRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: LineRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

export function inRanges(line: number, ranges: readonly LineRange[]): boolean {
  for (const r of ranges) if (line >= r.start && line <= r.end) return true;
  return false;
}

/** `5-9,12-` — how a selection is spelled back to the caller. */
export function formatRanges(ranges: readonly LineRange[]): string {
  return ranges
    .map((r) =>
      r.end === r.start
        ? `${r.start}`
        : r.end === Number.POSITIVE_INFINITY
          ? `${r.start}-`
          : `${r.start}-${r.end}`,
    )
    .join(',');
}
