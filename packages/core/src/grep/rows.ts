import { forEachMatch, MatchDeadlineError } from '../match/index.js';
import { redactPathSegments } from '../redact/path-segments.js';
import { redactValues } from '../redact/tool-output.js';
import { GREP_LABEL_CHARS, GREP_PREVIEW_CHARS } from './limits.js';

/** One row of a content grep: one file where it matched first, or (with `perFile`) one of its first matching lines. */
export interface GrepRow {
  /** Path relative to the root, `/`-separated, redacted by segments (a clean path is byte-identical). */
  file: string;
  /** 1-based line of a text hit; 0 for a document hit (a document has no line to reveal). */
  line: number;
  /** The matching line, redacted, then cut to 400 characters. */
  preview: string;
  /** Where inside a document (`slide 3`, `Ledger · row 2`); absent where the format has none. */
  label?: string;
  /** A document hit's place as a number where the format has one: the .xlsx row, the .pptx slide, the PDF page. */
  doc_line?: number;
  /** Match ranges inside `preview`: UTF-16 offsets, end exclusive, in order, non-empty. */
  ranges?: Array<[number, number]>;
  /**
   * With `perFile`, on each row of a text file: how many lines of the file match in all (absent when more match
   * than its rows show and the count did not finish in time; always absent on a document row).
   */
  count?: number;
}

/** A hit as a pass found it, before the chokepoint. */
export interface RawHit {
  file: string;
  line: number;
  text: string;
  label?: string;
}

/** How a row's strings are redacted (RowOptions). */
export interface RowOptions {
  /** The path's redactor (default: by segments). */
  pathRedactor?: (p: string) => string;
  /** No credential redaction of previews and labels (an MCP operator's `--no-redact`); default false. */
  raw?: boolean;
  /** Counts the values redacted in previews and labels. */
  tally?: { redacted: number };
}

/** Cuts to `max` UTF-16 units without splitting a surrogate pair. */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return s.slice(0, end);
}

/**
 * The one place a row is made, for every engine and both passes: every string it carries is redacted, and
 * redaction runs BEFORE cutting (a secret straddling the cut would otherwise leave a recognisable prefix).
 * Ranges are found with the request's own matcher on the redacted text, so a redacted secret is never highlighted
 * and offsets always index the preview as sent. `matcher` is `boundedMatcher`'s: one that runs out of time leaves
 * the row with the ranges found so far (the row itself is complete; only its highlighting is short).
 */
export function makeRow(hit: RawHit, matcher: RegExp, options: RowOptions = {}): GrepRow {
  // The agent tools' redactor (credentials, then exfiltration-shaped URLs), counted.
  const clean = (s: string): string => {
    if (options.raw) return s;
    const r = redactValues(s);
    if (options.tally) options.tally.redacted += r.count;
    return r.text;
  };
  const redacted = clean(hit.text);
  const preview = cut(redacted, GREP_PREVIEW_CHARS);
  const row: GrepRow = {
    file: (options.pathRedactor ?? redactPathSegments)(hit.file),
    line: hit.line,
    preview,
  };
  if (hit.label) {
    const n = documentPlace(hit.label);
    if (n !== undefined) row.doc_line = n;
  }
  if (hit.label) row.label = cut(clean(hit.label), GREP_LABEL_CHARS);
  const ranges: Array<[number, number]> = [];
  try {
    forEachMatch(matcher, redacted, (s) => {
      if (s.start >= preview.length) return false;
      const end = Math.min(s.end, preview.length);
      if (end > s.start) ranges.push([s.start, end]);
      return true;
    });
  } catch (err) {
    if (!(err instanceof MatchDeadlineError)) throw err;
  }
  row.ranges = ranges;
  return row;
}

/**
 * The number in a document label as the extractors make them (docs/xlsx.ts `<sheet> · row N`, docs/pptx.ts
 * `slide N`, docs/pdf-pool.ts `p N`), read before redaction or cutting can touch the label; undefined otherwise.
 */
export function documentPlace(label: string): number | undefined {
  const m = /(?:^slide | · row |^p )(\d{1,9})$/.exec(label);
  return m ? Number(m[1]) : undefined;
}

/** A text hit's line without its terminator (the engines hand lines over with `\n` or `\r\n`). */
export function lineWithoutTerminator(text: string): string {
  if (text.endsWith('\r\n')) return text.slice(0, -2);
  if (text.endsWith('\n')) return text.slice(0, -1);
  return text;
}
