import type { LineRedactor } from '../redact/tool-output.js';
import type { LineRecord } from '../search/events.js';
import { charBoundaryAtOrBefore } from '../search/utf8.js';
import type { ShownLine } from './format.js';
import { CUT_LINE_KEEP_BYTES, MAX_LINE_BYTES } from './limits.js';
import { inRanges, type LineRange } from './line-ranges.js';

/** A record from the engine (or the in-memory searcher), tagged as match or context. */
export interface ToolRecord extends LineRecord {
  match: boolean;
}

export interface ShapeOptions {
  /** Only these lines count (a `:N-M` selector); null for the whole file. */
  ranges: readonly LineRange[] | null;
  /** Matching lines (records) shown at most. */
  cap: number;
  before: number;
  after: number;
  /** The searcher stopped at its own per-file cap while more matches remained. */
  limitReached: boolean;
  /** Offset of a NUL byte: nothing from the line holding it on is shown (a named file's binary tail). */
  binaryOffset: number | null;
  /** Redacts each shown line (whole, before it is cut: a cut secret would leave a recognisable prefix). */
  redactor?: LineRedactor | undefined;
}

export interface ShapedLines {
  lines: ShownLine[];
  /** Matching records shown. */
  matches: number;
  /** Matches exist beyond those shown (the per-file cap). */
  more: boolean;
  /** Line of the first match not shown, when known. */
  nextMatchLine: number | null;
  /** Lines cut to MAX_LINE_BYTES. */
  cutLines: number;
  /** Set when matches after a NUL byte were dropped: the offset of that byte. */
  binaryCut: number | null;
  /** The file matched, but the deadline came before its lines were fetched (shown by name only). */
  unfetched: boolean;
  /** Credential-shaped values the redactor replaced in these lines (0 without one). */
  redacted: number;
  /** Matching lines in the whole file, when the cap hid some and they were counted. */
  totalMatches?: number;
}

/** A matching file shown without lines: the deadline came before they were fetched. */
export function unfetchedLines(): ShapedLines {
  return {
    lines: [],
    matches: 0,
    more: false,
    nextMatchLine: null,
    cutLines: 0,
    binaryCut: null,
    unfetched: true,
    redacted: 0,
  };
}

/**
 * Turns one file's records into shown lines: drops what lies past a NUL (named binary files), applies
 * line ranges (a context line survives only next to a match that survives, as the reference does), caps
 * the matches, and cuts long lines.
 */
export function shapeRecords(records: readonly ToolRecord[], o: ShapeOptions): ShapedLines {
  const out: ShapedLines = {
    lines: [],
    matches: 0,
    more: o.limitReached,
    nextMatchLine: null,
    cutLines: 0,
    binaryCut: null,
    unfetched: false,
    redacted: 0,
  };
  type Piece = { line: ShownLine; alreadyCut: boolean };
  const expanded: Array<{ match: boolean; pieces: Piece[]; units: Unit[] }> = [];
  for (const r of records) {
    if (o.binaryOffset !== null && (r.absoluteOffset > o.binaryOffset || r.text.includes('\u0000'))) {
      if (r.match) out.binaryCut = o.binaryOffset;
      break;
    }
    const pieces = expand(r).filter((p) => o.ranges === null || inRanges(p.line.n, o.ranges));
    if (pieces.length === 0) continue;
    const shown = new Set(pieces.map((p) => p.line.n));
    const units = r.match ? matchUnits(r).filter((u) => shown.has(u.first)) : [];
    if (r.match && units.length === 0) continue;
    expanded.push({ match: r.match, pieces, units });
  }
  // Pass 1: which matches are shown. A match is a line where a submatch starts (a multi-line match spans
  // to the line where it ends), so the cap means the same whichever engine merged adjacent matches.
  const windows: Array<[number, number]> = [];
  let lastShownLine = Number.POSITIVE_INFINITY;
  outer: for (const e of expanded) {
    for (const u of e.units) {
      if (out.matches >= o.cap) {
        out.more = true;
        out.nextMatchLine = u.first;
        break outer;
      }
      out.matches++;
      windows.push([u.first - o.before, u.last + o.after]);
      if (out.matches === o.cap) lastShownLine = u.last;
    }
  }
  // Pass 2: match lines up to the last shown match, and context lines next to a shown match. Lines from
  // the first hidden match on belong to it, not to the shown match before it: its context is not shown
  // (issue 11 item 11: a context line after the hidden match was printed after a `...`).
  const hiddenFrom = out.nextMatchLine ?? Number.POSITIVE_INFINITY;
  const nearShown = (n: number) => n < hiddenFrom && windows.some(([a, z]) => n >= a && n <= z);
  for (const e of expanded) {
    for (const p of e.pieces) {
      if (e.match && p.line.n <= lastShownLine) {
        // a line of a shown match
      } else if (!nearShown(p.line.n)) {
        continue;
      } else if (e.match) {
        // a matching line past the cap inside a shown match's context: not shown (it would be a match)
        continue;
      }
      if (out.lines.length > 0 && p.line.n <= out.lines[out.lines.length - 1]!.n) continue;
      const whole = o.redactor ? o.redactor.line(p.line.n, p.line.text) : p.line.text;
      const { text, cut } = cutLine(whole, p.alreadyCut);
      out.lines.push({ ...p.line, text });
      if (cut) out.cutLines++;
    }
  }
  out.redacted = o.redactor?.count ?? 0;
  return out;
}

interface Unit {
  first: number;
  last: number;
}

/** The matches of a record as line spans: one per distinct starting line. */
function matchUnits(r: ToolRecord): Unit[] {
  const body = r.text.endsWith('\n') ? r.text.slice(0, -1) : r.text;
  if (!body.includes('\n') || r.submatches.length === 0) {
    const lines = body.split('\n').length;
    return [{ first: r.lineNumber, last: r.lineNumber + (r.submatches.length === 0 ? lines - 1 : 0) }];
  }
  // Byte offsets of line starts within the record.
  const bytes = Buffer.from(r.text, 'utf8');
  const starts: number[] = [0];
  for (let i = bytes.indexOf(10); i !== -1 && i < bytes.length - 1; i = bytes.indexOf(10, i + 1))
    starts.push(i + 1);
  const lineAt = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const units: Unit[] = [];
  for (const m of r.submatches) {
    const first = r.lineNumber + lineAt(m.start);
    const last = r.lineNumber + lineAt(Math.max(m.start, m.end - 1));
    const prev = units[units.length - 1];
    if (prev && prev.first === first) prev.last = Math.max(prev.last, last);
    else units.push({ first, last });
  }
  return units;
}

/** One record as lines: terminator and trailing whitespace dropped (lines are cut once shown, after redaction). */
function expand(r: ToolRecord): Array<{ line: ShownLine; alreadyCut: boolean }> {
  let text = r.text;
  if (text.endsWith('\n')) text = text.slice(0, -1);
  const parts = text.split('\n');
  return parts.map((part, k) => {
    const last = k === parts.length - 1;
    return {
      line: { n: r.lineNumber + k, text: part.trimEnd(), match: r.match },
      alreadyCut: last && r.truncated === true,
    };
  });
}

/** Cuts a line longer than MAX_LINE_BYTES (or one the searcher already cut) to fit, ending it in `...`. */
export function cutLine(text: string, alreadyCut: boolean): { text: string; cut: boolean } {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= MAX_LINE_BYTES && !alreadyCut) return { text, cut: false };
  if (bytes <= CUT_LINE_KEEP_BYTES) return { text: `${text}...`, cut: true };
  const buf = Buffer.from(text, 'utf8');
  const end = charBoundaryAtOrBefore(buf, 0, CUT_LINE_KEEP_BYTES);
  return { text: `${buf.toString('utf8', 0, end)}...`, cut: true };
}
