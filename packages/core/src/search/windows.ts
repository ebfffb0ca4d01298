import { BINARY_SNIFF_BYTES } from '../limits.js';
import {
  afterContextAtCap,
  type FileResult,
  type LineMatcher,
  matchCap,
  type Prefilter,
  type SearcherConfig,
  type SearchLine,
  searchBuffer,
  startsWithBom,
} from './searcher.js';

/**
 * Windowed search: a file searched only where a caller (a content index) says its matches can be — byte ranges
 * that hold every match's required literal — with the same answer as searching the whole file.
 *
 * Why it is exact. In line mode every match lies in one line, and every match holds one of the pattern's
 * required literals (match/literals.ts), so every matching line contains a byte of some range. Each range is
 * widened to whole lines, then by the context lines asked for, and overlapping regions are merged; each region is
 * then searched as a file of its own. The pattern's line-mode regexes treat a line start like the text's start
 * (`^`, `\A`, look-behinds see a non-word either way), so a region finds exactly the whole search's matches
 * inside it; its margins hold every context line its matches get, and no line of one region is the context of
 * another's match (their margins would overlap: merged). Line numbers come from the newlines before each region
 * (counted by the caller's hint or by reading), byte offsets from the region's start. The per-file cap runs
 * across regions as it runs down the file: past it, one more match anywhere later only sets `limitReached`.
 *
 * Where a window cannot be exact the answer is `'whole'` and the caller searches the whole file: multiline
 * patterns (a match may span lines outside any range), -v (every line outside a range matches), --null-data
 * (lines end at NUL, not at the newlines the windows were widened to), a byte-order
 * mark or another encoding (offsets are of the decoded text), a NUL byte the binary rule would act on, a
 * file that is not the one the ranges describe, or regions that would cover most of the file anyway.
 */

/** The byte ranges of a file that hold every match, as a content index knows them. */
export interface ByteWindows {
  /** [start, end) pairs, ascending and disjoint, in bytes of the file. */
  ranges: readonly number[];
  /** The file the ranges describe: another size or mtime means they say nothing (the file is searched whole). */
  size: number;
  mtimeMs: number;
  /** Newlines before each range's start, when the caller knows them (else they are counted by reading). */
  newlinesBefore?: readonly number[];
  /** The caller knows the file holds no NUL byte (else the searcher reads it all to know, when it matches). */
  noNul?: boolean;
}

/** How a windowed search reads its file: positional reads of the open file, and what it is. */
export interface WindowReader {
  size: number;
  mtimeMs: number;
  /** Reads up to `length` bytes at `position` into `buf` at `offset`; returns the bytes read (0 at the end). */
  read(buf: Buffer, offset: number, length: number, position: number): number;
}

/** Regions past this share of the file: a whole search reads no more and skips the bookkeeping. */
const MAX_WINDOWED_SHARE = 0.5;
const SCAN_CHUNK = 64 * 1024;
/** Looking for a line's ends starts with small reads: most lines are short. */
const LINE_CHUNK = 4 * 1024;
const NEWLINE = 10;

/** Whether a search with this matcher and configuration can be answered from windows at all. */
export function windowable(matcher: LineMatcher, config: SearcherConfig): boolean {
  return (
    !matcher.multiline &&
    !config.invert &&
    !config.nullData &&
    // --stop-on-nonmatch needs the line after each match, which a window may not hold.
    !config.stopOnNonmatch &&
    config.encoding === undefined &&
    (config.maxCount === undefined || config.maxCount > 0)
  );
}

/**
 * The search of a file through its windows, or `'whole'` when only a whole search is exact (see above).
 * `scratch` is a buffer the caller reuses between files (grown and returned as `scratch` when too small).
 */
export function searchWindows(
  reader: WindowReader,
  windows: ByteWindows,
  matcher: LineMatcher,
  prefilter: Prefilter,
  config: SearcherConfig,
  scratch: { buf: Buffer },
): FileResult | 'whole' {
  const size = reader.size;
  if (
    !windowable(matcher, config) ||
    size !== windows.size ||
    reader.mtimeMs !== windows.mtimeMs ||
    windows.ranges.length === 0
  )
    return 'whole';
  const binaryRule = config.binary !== 'none';
  if (scratch.buf.length < BINARY_SNIFF_BYTES) scratch.buf = Buffer.allocUnsafe(BINARY_SNIFF_BYTES);
  const head = scratch.buf;
  const headLength = readFully(reader, head, 0, Math.min(size, BINARY_SNIFF_BYTES), 0);
  if (startsWithBom(head, headLength)) return 'whole';
  if (binaryRule && head.subarray(0, headLength).indexOf(0) !== -1) return 'whole';

  const regions = regionsOf(reader, windows.ranges, config);
  let covered = 0;
  for (let i = 0; i < regions.length; i += 2) covered += regions[i + 1]! - regions[i]!;
  if (covered > size * MAX_WINDOWED_SHARE) return 'whole';

  const cap = matchCap(config);
  // Regions are searched as files with no BOM sniffing ('none': the file's head was checked above) and no
  // binary rule (a NUL in a region sends the file to a whole search below).
  const regionConfig: SearcherConfig = { ...config, binary: 'none', encoding: 'none' };
  const found: Array<{ region: number; lines: SearchLine[] }> = [];
  let matches = 0;
  let matchedLines = 0;
  let limitReached = false;
  let capped = false;
  for (let r = 0; r < regions.length; r += 2) {
    const start = regions[r]!;
    const end = regions[r + 1]!;
    const buf = readRegion(reader, scratch, start, end);
    if (binaryRule && buf.indexOf(0) !== -1) return 'whole';
    if (capped) {
      // Past the cap: one match further down only says the cap cut the file short.
      const more = searchBuffer(buf, buf.length, matcher, prefilter, {
        ...regionConfig,
        mode: 'files-with-matches',
      });
      if (more.stats.matchedLines > 0) {
        limitReached = true;
        break;
      }
      continue;
    }
    const res = searchBuffer(buf, buf.length, matcher, prefilter, {
      ...regionConfig,
      ...(cap === Number.POSITIVE_INFINITY ? {} : { maxCount: cap - matchedLines }),
    });
    matches += res.stats.matches;
    matchedLines += res.stats.matchedLines;
    if (res.lines.length > 0) found.push({ region: r, lines: res.lines });
    if (res.stats.limitReached) {
      limitReached = true;
      break;
    }
    if (matchedLines >= cap) {
      if (config.mode === 'files-with-matches') break;
      capped = true;
    }
  }

  if (matchedLines > 0) {
    // A file with matches is reported: its line numbers, and whether a NUL anywhere changes the answer.
    const needNul = binaryRule && windows.noNul !== true;
    const hinted = windows.newlinesBefore !== undefined;
    const starts = found.map((f) => regions[f.region]!);
    const counted =
      needNul || (found.length > 0 && !hinted) ? scanFile(reader, scratch, starts, needNul) : null;
    if (counted === 'nul') return 'whole';
    for (let f = 0; f < found.length; f++) {
      const start = regions[found[f]!.region]!;
      const before = counted ? counted[f]! : newlinesBeforeFromHint(reader, windows, start);
      for (const line of found[f]!.lines) {
        line.lineNumber += before;
        line.absoluteOffset += start;
      }
    }
  }
  return {
    lines: found.flatMap((f) => f.lines),
    stats: { matches, matchedLines, bytesSearched: size, limitReached },
    binaryOffset: null,
    skippedBinary: false,
  };
}

/**
 * The regions to search, as [start, end) pairs: each range widened to the lines it touches, then by the
 * context asked for, merged where they overlap or touch.
 */
function regionsOf(reader: WindowReader, ranges: readonly number[], config: SearcherConfig): number[] {
  const size = reader.size;
  // After-context also bounds what a capped count counts (searcher.ts: the matches in the last one's context).
  const before = config.mode === 'lines' ? config.beforeContext : 0;
  const after = afterContextAtCap(config);
  const out: number[] = [];
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    const s = Math.min(ranges[i]!, size);
    const e = Math.min(ranges[i + 1]!, size);
    if (e <= s) continue;
    const start = lineStartAbove(reader, s, before);
    const end = lineEndBelow(reader, e - 1, after);
    if (out.length > 0 && start <= out[out.length - 1]!) {
      out[out.length - 1] = Math.max(out[out.length - 1]!, end);
    } else out.push(start, end);
  }
  return out;
}

/** The start of the line holding byte `pos`, moved up `extra` more lines (0 at the top). */
function lineStartAbove(reader: WindowReader, pos: number, extra: number): number {
  let want = extra + 1; // newlines to pass going up: the one ending the line above `pos`, then `extra` more
  let at = pos; // bytes [0, at) are still to look at
  let chunk = Buffer.allocUnsafe(Math.max(1, Math.min(LINE_CHUNK, pos)));
  while (at > 0) {
    if (at !== pos && chunk.length < SCAN_CHUNK) chunk = Buffer.allocUnsafe(chunk.length * 2);
    const from = Math.max(0, at - chunk.length);
    const n = readFully(reader, chunk, 0, at - from, from);
    for (let i = n - 1; i >= 0; ) {
      const nl = chunk.lastIndexOf(NEWLINE, i);
      if (nl === -1) break;
      if (--want === 0) return from + nl + 1;
      i = nl - 1;
    }
    at = from;
  }
  return 0;
}

/** The end (after its newline, or the file's end) of the line holding byte `pos`, moved down `extra` lines. */
function lineEndBelow(reader: WindowReader, pos: number, extra: number): number {
  const size = reader.size;
  let want = extra + 1;
  let at = pos;
  let chunk = Buffer.allocUnsafe(Math.min(LINE_CHUNK, Math.max(1, size - pos)));
  while (at < size) {
    if (at !== pos && chunk.length < SCAN_CHUNK) chunk = Buffer.allocUnsafe(chunk.length * 2);
    const n = readFully(reader, chunk, 0, Math.min(chunk.length, size - at), at);
    if (n === 0) break;
    for (let i = 0; i < n; ) {
      const nl = chunk.indexOf(NEWLINE, i);
      if (nl === -1 || nl >= n) break;
      if (--want === 0) return at + nl + 1;
      i = nl + 1;
    }
    at += n;
  }
  return size;
}

function readRegion(reader: WindowReader, scratch: { buf: Buffer }, start: number, end: number): Buffer {
  const length = end - start;
  if (scratch.buf.length < length) scratch.buf = Buffer.allocUnsafe(Math.max(length, scratch.buf.length * 2));
  const n = readFully(reader, scratch.buf, 0, length, start);
  return scratch.buf.subarray(0, n);
}

function readFully(
  reader: WindowReader,
  buf: Buffer,
  offset: number,
  length: number,
  position: number,
): number {
  let done = 0;
  while (done < length) {
    const n = reader.read(buf, offset + done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

/**
 * One pass over the file: the newlines before each of `starts` (ascending), and whether a NUL is anywhere
 * (when `nul` asks; then the whole file is read, else only up to the last start).
 */
function scanFile(
  reader: WindowReader,
  scratch: { buf: Buffer },
  starts: readonly number[],
  nul: boolean,
): number[] | 'nul' {
  const size = reader.size;
  const stopAt = nul ? size : (starts[starts.length - 1] ?? 0);
  const out: number[] = [];
  if (scratch.buf.length < SCAN_CHUNK) scratch.buf = Buffer.allocUnsafe(SCAN_CHUNK);
  const buf = scratch.buf;
  let k = 0;
  let lines = 0;
  for (let at = 0; at < stopAt; ) {
    const n = readFully(reader, buf, 0, Math.min(SCAN_CHUNK, stopAt - at), at);
    if (n === 0) break;
    if (nul && buf.subarray(0, n).indexOf(0) !== -1) return 'nul';
    const chunkEnd = at + n;
    while (k < starts.length && starts[k]! <= chunkEnd) {
      out.push(lines + countNewlines(buf, 0, starts[k]! - at));
      k++;
    }
    lines += countNewlines(buf, 0, n);
    at = chunkEnd;
  }
  while (k < starts.length) {
    out.push(lines);
    k++;
  }
  return out;
}

/**
 * Newlines before `start` (a region start) from the caller's count at the start of the region's first range:
 * the region was widened upwards from it, over [start, rangeStart).
 */
function newlinesBeforeFromHint(reader: WindowReader, windows: ByteWindows, start: number): number {
  const { ranges, newlinesBefore } = windows;
  let i = 0;
  while (i + 2 < ranges.length && ranges[i]! < start) i += 2;
  const rangeStart = Math.max(start, ranges[i]!);
  const gap = Buffer.allocUnsafe(rangeStart - start);
  return newlinesBefore![i / 2]! - countNewlines(gap, 0, readFully(reader, gap, 0, gap.length, start));
}

/** The newline bytes in buf[from, to). */
export function countNewlines(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = buf.indexOf(NEWLINE, from); i !== -1 && i < to; i = buf.indexOf(NEWLINE, i + 1)) n++;
  return n;
}
