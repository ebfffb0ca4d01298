import type { OutputFormat, Row, ShownFile } from './format.js';
import { renderRows } from './format.js';
import type { SearchOutput } from './input.js';
import { MAX_FILE_BYTES, MAX_LINE_BYTES, MAX_OUTPUT_BYTES, NOTE_MAX_NAMES } from './limits.js';
import { formatRanges, type LineRange } from './line-ranges.js';
import type { ShapedLines } from './shape.js';
import type { Notes, RunState } from './state.js';
import type { UnenteredDir } from './tree-view.js';
import type { PendingFile, SearchToolDetails, SearchToolResult } from './types.js';

/**
 * The text and details of one call: the page rendered, the pagination line, and every note about what a
 * cap hid, all within MAX_OUTPUT_BYTES (the notes are what must survive the byte cap).
 */
export interface ComposeInput {
  input: { skip: number; single: boolean; cap: number; format: OutputFormat; output: SearchOutput };
  page: ShownFile[];
  pageEntries: Array<{ file: PendingFile; shaped: ShapedLines; count?: number | null | undefined }>;
  state: RunState;
  notes: Notes;
  missingPaths: string[];
  notSearched: Array<{ path: string; reason: string }>;
  /** Directories the walk's rules did not enter that hold files (tree-view.ts). */
  unentered: UnenteredDir[];
  /** Targets actually searched (0 when every named target was refused). */
  searchedTargets: number;
  scopePath: string;
  searchPath: string;
  started: number;
  clock: () => number;
  deadlineMs: number;
}

export function compose(c: ComposeInput): SearchToolResult {
  const { skip, single, cap, format, output } = c.input;
  const lines = output === 'content';
  const s = c.state;
  const totalExact = !s.timedOut;
  const seconds = formatSeconds(c.deadlineMs);

  // Notes about caps and skipped content, in a fixed order after the pagination line.
  const capNotes: string[] = [];
  const limited = lines ? c.pageEntries.filter((e) => e.shaped.more) : [];
  const continuation = (e: { file: PendingFile; shaped: ShapedLines }, from: number | null) => {
    const ranges = continueRanges(e.file.ranges, from ?? lastLine(e.shaped) + 1);
    return ranges ? `"${e.file.display}:${ranges}"` : null;
  };
  const rest = (e: { shaped: ShapedLines }) =>
    e.shaped.totalMatches === undefined ? null : e.shaped.totalMatches - e.shaped.matches;
  if (single && limited.length === 1) {
    const e = limited[0]!;
    const next = continuation(e, e.shaped.nextMatchLine);
    const total = e.shaped.totalMatches;
    capNotes.push(
      `Showing the first ${cap} ${total !== undefined ? `of ${total} ` : ''}matching ${cap === 1 && total === undefined ? 'line' : 'lines'} of this file; ${total !== undefined ? `${rest(e)} more follow${rest(e) === 1 ? 's' : ''}` : 'more follow'}${next ? `: search ${next} for the rest` : ''}.`,
    );
  } else if (limited.length > 0) {
    // Each file once: its continuation selector names it (the path was printed twice before), with what is left.
    const list = limited.map((e) => {
      const where = continuation(e, e.shaped.nextMatchLine) ?? e.file.display;
      const more = rest(e);
      return more === null ? where : `${where} (${more} more)`;
    });
    capNotes.push(
      `Only the first ${cap} matching ${cap === 1 ? 'line' : 'lines'} per file ${cap === 1 ? 'is' : 'are'} shown; for the rest, search ${listNames(list)}.`,
    );
  }
  const unfetched = lines ? c.pageEntries.filter((e) => e.shaped.unfetched).map((e) => e.file.display) : [];
  if (unfetched.length > 0) {
    capNotes.push(
      `The deadline came before the lines of ${unfetched.length === 1 ? 'this file' : `these ${unfetched.length} files`} were fetched (shown by name only): ${listNames(unfetched)}. Search ${unfetched.length === 1 ? 'it' : 'them'} by name for the lines.`,
    );
  }
  const cutLines = c.pageEntries.reduce((n, e) => n + e.shaped.cutLines, 0);
  if (cutLines > 0) {
    capNotes.push(
      `${cutLines} line${cutLines === 1 ? '' : 's'} longer than ${MAX_LINE_BYTES} bytes ${cutLines === 1 ? 'was' : 'were'} cut (shown ending in "...").`,
    );
  }
  for (const b of s.binaryCuts)
    capNotes.push(`${b.path}: binary data from byte ${b.offset} on was not searched.`);
  const tailNotes = [...c.notes.all];
  if (s.walkedTooLarge.length > 0) {
    tailNotes.push(
      `Not searched (larger than ${MAX_FILE_BYTES / (1024 * 1024)} MiB): ${listNames(s.walkedTooLarge)}`,
    );
  }
  // Unique: the engine reports an unreadable file both as skipped and among its errors.
  if (s.unreadable.length > 0) tailNotes.push(`Could not read: ${listNames(unique(s.unreadable))}`);
  if (s.engineErrors.length > 0) tailNotes.push(`The search engine reported: ${listNames(s.engineErrors)}`);

  const timeoutNote = s.timedOut ? `Search stopped at the ${seconds} deadline: results are partial.` : null;
  const totalText = totalExact ? `${s.total}` : `at least ${s.total}`;

  const details: SearchToolDetails = {
    scopePath: c.scopePath,
    searchPath: c.searchPath,
    matchCount: 0,
    fileCount: c.page.length,
    files: c.page.map((f) => f.display),
    fileMatches:
      output === 'files'
        ? []
        : c.pageEntries.map((e) => ({
            path: e.file.display,
            count: output === 'count' ? (e.count ?? 0) : e.shaped.lines.filter((l) => l.match).length,
          })),
    output,
    ...(output === 'count' ? { totalMatches: s.matchedLines } : {}),
    totalFiles: s.total,
    totalFilesExact: totalExact,
    skip,
    truncated: false,
    outcome: s.timedOut ? 'timeout' : 'complete',
    ...(s.engine ? { engine: s.engine } : {}),
    elapsedMs: c.clock() - c.started,
    ...(c.missingPaths.length > 0 ? { missingPaths: c.missingPaths } : {}),
    ...(c.notSearched.length > 0 ? { notSearched: c.notSearched } : {}),
    ...(c.unentered.length > 0 ? { unentered: c.unentered } : {}),
    notes: [],
  };
  details.matchCount = details.fileMatches.reduce((n, f) => n + f.count, 0);
  if (limited.length > 0) {
    details.perFileLimitReached = cap;
    details.perFileLimited = limited.map((e) => ({
      path: e.file.display,
      nextLine: e.shaped.nextMatchLine,
      ...(e.shaped.totalMatches !== undefined ? { totalMatches: e.shaped.totalMatches } : {}),
    }));
  }
  if (cutLines > 0) details.linesTruncated = true;

  if (c.page.length === 0) {
    let head: string;
    if (s.total > 0 && skip >= s.total && totalExact) {
      head = `No more results: ${s.total} file${s.total === 1 ? '' : 's'} matched; skip=${skip} is past the end.`;
    } else if (s.total > 0) {
      head = `No matches on this page: at least ${s.total} files matched before the ${seconds} deadline and skip=${skip} is past them.`;
    } else if (s.timedOut) {
      head = `No matches found before the ${seconds} deadline: the search did not finish.`;
    } else if (c.searchedTargets === 0) {
      head = 'Nothing was searched.';
    } else {
      head = 'No matches found';
    }
    const notes = [...capNotes, ...tailNotes];
    details.notes = notes;
    details.truncated = s.timedOut;
    const text = [head, ...notes].join('\n');
    return { text: fitNotes(text), details };
  }

  const rows = lines ? renderRows(c.page, { single, format }) : listRows(c.pageEntries, output);
  const pageEnd = skip + c.page.length;
  const moreFiles = !single && (s.total > pageEnd || s.timedOut);

  // The byte cap: rows are cut at a line boundary so that the text, the pagination line and every note
  // fit in MAX_OUTPUT_BYTES together (the notes are what must survive).
  const build = (cut: CutInfo | null): { text: string; notes: string[]; nextSkip: number | undefined } => {
    const notes: string[] = [];
    let nextSkip: number | undefined;
    if (timeoutNote) notes.push(timeoutNote);
    let pagination: string | null = null;
    if (cut) {
      const cutFile = c.pageEntries[cut.file]!;
      if (cut.file === 0 || cut.fileStarted) {
        const from = (cut.lastLine ?? 0) + 1;
        const next = continueRanges(cutFile.file.ranges, from);
        notes.push(
          `Output cut at ${MAX_OUTPUT_BYTES / 1024} KiB inside ${cutFile.file.display}${cut.lastLine ? ` after line ${cut.lastLine}` : ''}${next ? `: search "${cutFile.file.display}:${next}" for the rest of it` : ''}.`,
        );
        nextSkip = skip + cut.file + 1;
      } else {
        nextSkip = skip + cut.file;
      }
      if (!single && (s.total > nextSkip || s.timedOut)) {
        pagination = `Output cut at ${MAX_OUTPUT_BYTES / 1024} KiB: showing files ${skip + 1}-${skip + cut.file + (cut.fileStarted ? 1 : 0)} of ${totalText}. Use skip=${nextSkip} to continue, or narrow paths/pattern.`;
      } else {
        nextSkip = undefined;
      }
    } else if (moreFiles) {
      nextSkip = pageEnd;
      pagination = `Showing files ${skip + 1}-${pageEnd} of ${totalText}. Use skip=${pageEnd} for the next page, or narrow paths/pattern.`;
    } else if (!single && skip > 0) {
      // The last page says so too: an agent paging on must not guess whether it saw everything.
      pagination = `Showing files ${skip + 1}-${pageEnd} of ${totalText}: the last page.`;
    }
    notes.push(...capNotes, ...tailNotes);
    const body = (cut ? rows.slice(0, cut.rows) : rows).map((r) => r.text).join('\n');
    const parts = [body];
    if (output === 'count') {
      const n = s.matchedLines;
      parts.push(
        `${totalExact ? '' : 'At least '}${n} matching line${n === 1 ? '' : 's'} in ${totalText} file${s.total === 1 ? '' : 's'}${moreFiles || cut ? ' (all pages)' : ''}.`,
      );
    }
    if (pagination) parts.push(pagination);
    if (notes.length > 0) parts.push(notes.join('\n'));
    return { text: parts.join('\n\n'), notes, nextSkip };
  };

  let out = build(null);
  let cut: CutInfo | null = null;
  if (Buffer.byteLength(out.text, 'utf8') > MAX_OUTPUT_BYTES) {
    // Reserve room for the tail as it will be with a cut, then cut rows to fit; shrink until it does.
    let budget =
      MAX_OUTPUT_BYTES - (Buffer.byteLength(build(cutAt(rows, 1)).text, 'utf8') - rowBytes(rows, 1)) - 64;
    for (;;) {
      cut = cutAt(rows, rowsWithin(rows, Math.max(0, budget)));
      out = build(cut);
      if (Buffer.byteLength(out.text, 'utf8') <= MAX_OUTPUT_BYTES || cut.rows === 0) break;
      budget -= Buffer.byteLength(out.text, 'utf8') - MAX_OUTPUT_BYTES + 16;
    }
  }

  if (cut) details.byteLimitReached = true;
  if (out.nextSkip !== undefined) details.nextSkip = out.nextSkip;
  if (moreFiles) details.fileLimitReached = s.pageSize;
  details.notes = out.notes;
  details.truncated = moreFiles || limited.length > 0 || cutLines > 0 || cut !== null || s.timedOut;
  return { text: fitNotes(out.text), details };
}

/** Names only (`path`) or counts (`path:N`, as rg -c), one row per file. */
function listRows(
  entries: ReadonlyArray<{ file: PendingFile; count?: number | null | undefined }>,
  output: SearchOutput,
): Row[] {
  return entries.map((e, k) => ({
    text: output === 'count' ? `${e.file.display}:${e.count ?? 0}` : e.file.display,
    file: k,
  }));
}

interface CutInfo {
  /** Rows kept. */
  rows: number;
  /** Page index of the file the cut falls in (the first file not shown in full). */
  file: number;
  /** Some of that file's lines are shown. */
  fileStarted: boolean;
  lastLine: number | null;
}

function cutAt(rows: readonly Row[], keep: number): CutInfo {
  const next = rows[keep];
  const file = next ? next.file : (rows[rows.length - 1]?.file ?? 0);
  let lastLine: number | null = null;
  let started = false;
  for (let k = keep - 1; k >= 0 && rows[k]!.file === file; k--) {
    if (rows[k]!.line !== undefined) {
      lastLine ??= rows[k]!.line!;
      started = true;
    }
  }
  // A cut between a file's heading and its first line, or before its heading: nothing of it is shown.
  return { rows: started ? keep : firstRowOf(rows, file, keep), file, fileStarted: started, lastLine };
}

function firstRowOf(rows: readonly Row[], file: number, keep: number): number {
  let k = keep;
  while (k > 0 && rows[k - 1]!.file === file) k--;
  // Drop a trailing blank separator too.
  while (k > 0 && rows[k - 1]!.text === '') k--;
  return k;
}

function rowBytes(rows: readonly Row[], n: number): number {
  let b = 0;
  for (let k = 0; k < n && k < rows.length; k++) b += Buffer.byteLength(rows[k]!.text, 'utf8') + 1;
  return b;
}

/** How many leading rows fit in `budget` bytes (each row plus its newline). */
function rowsWithin(rows: readonly Row[], budget: number): number {
  let used = 0;
  let k = 0;
  for (; k < rows.length; k++) {
    const b = Buffer.byteLength(rows[k]!.text, 'utf8') + 1;
    if (used + b > budget) break;
    used += b;
  }
  return k;
}

/** A last resort for notes alone beyond the cap (thousands of names are already shortened). */
function fitNotes(text: string): string {
  if (Buffer.byteLength(text, 'utf8') <= MAX_OUTPUT_BYTES) return text;
  const buf = Buffer.from(text, 'utf8');
  let end = MAX_OUTPUT_BYTES - 32;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return `${buf.toString('utf8', 0, end)}\n[cut at ${MAX_OUTPUT_BYTES / 1024} KiB]`;
}

function lastLine(shaped: ShapedLines): number {
  return shaped.lines[shaped.lines.length - 1]?.n ?? 0;
}

/** The selector that continues a file's search from line `from` within its ranges, or null when none remain. */
function continueRanges(ranges: LineRange[] | null, from: number): string | null {
  if (ranges === null) return `${from}-`;
  const rest = ranges
    .filter((r) => r.end >= from)
    .map((r) => ({ start: Math.max(r.start, from), end: r.end }));
  return rest.length > 0 ? formatRanges(rest) : null;
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

export function listNames(names: readonly string[]): string {
  if (names.length <= NOTE_MAX_NAMES) return names.join(', ');
  return `${names.slice(0, NOTE_MAX_NAMES).join(', ')} and ${names.length - NOTE_MAX_NAMES} more`;
}

export function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
