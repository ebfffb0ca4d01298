import { isAscii, isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { BINARY_SNIFF_BYTES } from '../limits.js';
import { escapeLiteral, literalFinder } from '../match/literals.js';
import type { FileStats, LineRecord, Submatch } from './events.js';
import { charBoundaryAtOrBefore, utf8OffsetsOf, utf16IndicesToByteOffsets } from './utf8.js';

/** What the searcher needs of a compiled pattern (see match/compilePattern). */
export interface LineMatcher {
  /** Global + unicode; matches never cross '\n' unless `multiline`. */
  regex: RegExp;
  /** Equivalent to `regex` on pure-ASCII text, and faster. */
  asciiRegex: RegExp;
  required: { literals: string[]; caseInsensitive: boolean } | null;
  /** Selects the same lines as `regex`, more cheaply; spans still come from `regex`. */
  lineRegex?: RegExp;
  /** `lineRegex` for pure-ASCII text. */
  asciiLineRegex?: RegExp;
  /** For a pattern `X+Y…` (X one character, unbounded): X, sticky; spans are then sought from lineRegex hits. */
  leadAtom?: RegExp;
  multiline: boolean;
  /** Multiline and some match can hold '\n': matches on adjacent lines join into one block (as rg's). */
  matchesNewline?: boolean;
}

export type SearchMode = 'lines' | 'count' | 'files-with-matches';

/** The searcher's options for one buffer: mode, context lines, caps, binary handling, encoding, inversion. */
export interface SearcherConfig {
  mode: SearchMode;
  beforeContext: number;
  afterContext: number;
  /** Matching lines per file (ripgrep -m); undefined = no cap. */
  maxCount?: number;
  /** Line length cap in bytes; longer lines are cut at a character boundary and flagged. */
  maxColumns?: number;
  /**
   * 'quit': a NUL in the first 64 KiB skips the file and a later NUL ends the search before the line
   * holding it (ripgrep's rule for files found by walking). 'text': search everything, report the NUL offset
   * (ripgrep's JSON output for files named on the command line). 'convert': every NUL reads as a line end,
   * as ripgrep's --binary does for files it walks. 'none': no detection (-a).
   */
  binary: 'quit' | 'text' | 'convert' | 'none';
  /**
   * How the engines choose `binary` per file (ripgrep's flags): 'auto' — 'quit' for walked files, 'text'
   * for named ones (the default); 'search' — 'text' for all (--binary); 'none' — no detection (-a).
   */
  binaryDetection?: 'auto' | 'search' | 'none';
  /** ripgrep -v: report the lines that do not match (as matches without submatches). */
  invert?: boolean;
  /**
   * ripgrep -E: a WHATWG encoding label the file is decoded from (a byte-order mark still wins), or 'none'
   * for the raw bytes with no BOM sniffing. Unset: UTF-8 with BOM sniffing (ripgrep's auto).
   */
  encoding?: string;
  /**
   * ripgrep --null-data: NUL is the line terminator. The file's NUL and '\n' bytes are exchanged before the
   * search (every line rule then stays on '\n'; the pattern is compiled for it, see compilePattern) and back
   * in what is reported. Binary detection is off (the engines set 'none').
   */
  nullData?: boolean;
  /**
   * ripgrep --stop-on-nonmatch: the file ends at the first line that does not match after one that did (that
   * line is still read, so it can be after-context). Line mode only.
   */
  stopOnNonmatch?: boolean;
}

/** A reported line: a match (possibly without submatches, see collectSpans) or a context line. */
export type SearchLine = LineRecord & { type: 'match' | 'context' };

/** What {@link searchBuffer} found in one buffer: its lines (matches and context), counts and binary verdict. */
export interface FileResult {
  lines: SearchLine[];
  stats: FileStats;
  binaryOffset: number | null;
  /** The file was not searched at all because it is binary. */
  skippedBinary: boolean;
}

/**
 * The literals every match must contain, used twice: on raw bytes, to reject a file before decoding it,
 * and on the decoded text, to find the only lines worth running the regex on.
 */
export class Prefilter {
  private readonly needles: Buffer[] | null;
  private readonly folded: RegExp | null;
  /** Finds the literals in decoded text (global; case folded like `folded`). */
  readonly candidates: RegExp | null;
  private readonly longest: number;

  constructor(required: LineMatcher['required']) {
    this.needles = null;
    this.folded = null;
    this.candidates = null;
    this.longest = 0;
    if (!required || required.literals.length === 0 || required.literals.some((l) => l.length === 0)) return;
    this.longest = Math.max(...required.literals.map((l) => Buffer.byteLength(l, 'utf8')));
    this.candidates = literalFinder(required);
    if (!required.caseInsensitive) {
      this.needles = required.literals.map((l) => Buffer.from(l, 'utf8'));
    } else {
      // The literals already spell out every non-ASCII case variant; what is left is ASCII case folding,
      // done by a non-Unicode `i` regex over a latin1 view of the bytes (one char per byte). It also folds
      // latin1 letters, which can only let more files through, never fewer.
      const alternation = required.literals
        .map((l) => escapeLiteral(Buffer.from(l, 'utf8').toString('latin1')))
        .join('|');
      this.folded = new RegExp(alternation, 'i');
    }
  }

  get active(): boolean {
    return this.needles !== null || this.folded !== null;
  }

  /**
   * The literals as bytes, when a match is found by looking for them in the raw bytes (not case-folded, none
   * holding a newline); else null.
   */
  get byteNeedles(): readonly Buffer[] | null {
    return this.needles?.some((n) => n.includes(NEWLINE)) ? null : this.needles;
  }

  /** Bytes of the longest literal: a chunked scan must overlap chunks by one less than this. */
  get longestLiteralBytes(): number {
    return this.longest;
  }

  /** Could `buf[start, end)` hold a match? */
  mayMatch(buf: Buffer, end: number, start = 0): boolean {
    if (this.needles) {
      const view = start === 0 && end === buf.length ? buf : buf.subarray(start, end);
      for (const needle of this.needles) if (view.indexOf(needle) !== -1) return true;
      return false;
    }
    if (this.folded) return this.folded.test(buf.toString('latin1', start, end));
    return true;
  }
}

const NEWLINE = 10;

const EMPTY_STATS = (bytesSearched: number): FileStats => ({
  matches: 0,
  matchedLines: 0,
  bytesSearched,
  limitReached: false,
});

/**
 * Searches one file's bytes `buf[0, length)`. Pure: no I/O, no state between calls, so it runs the same in
 * a worker and in tests. Lines are decoded only when they are reported.
 */
export function searchBuffer(
  buf: Buffer,
  length: number,
  matcher: LineMatcher,
  prefilter: Prefilter,
  config: SearcherConfig,
): FileResult {
  const decoded =
    config.encoding === 'none' ? null : (decodeByBom(buf, length) ?? decodeAs(config.encoding, buf, length));
  if (decoded) {
    buf = decoded;
    length = decoded.length;
  }
  if (config.nullData) {
    buf = swapTerminatorBytes(buf.subarray(0, length));
    length = buf.length;
  }
  // The literal prefilter runs first: most files fail it, and then whether they are binary is moot.
  // Inverted, a file without the literals is all matches.
  if (length === 0 || (!config.invert && !prefilter.mayMatch(buf, length))) {
    return { lines: [], stats: EMPTY_STATS(length), binaryOffset: null, skippedBinary: false };
  }
  let end = length;
  let binaryOffset: number | null = null;
  const nul = length === buf.length ? buf.indexOf(0) : buf.subarray(0, length).indexOf(0);
  if (nul !== -1 && config.binary !== 'none' && !config.nullData) {
    binaryOffset = nul;
    if (config.binary === 'convert') {
      const copy = Buffer.from(buf.subarray(0, length));
      for (let i = nul; i !== -1; i = copy.indexOf(0, i + 1)) copy[i] = NEWLINE;
      buf = copy;
    }
    if (config.binary === 'quit') {
      if (nul < BINARY_SNIFF_BYTES) {
        return { lines: [], stats: EMPTY_STATS(0), binaryOffset, skippedBinary: true };
      }
      end = buf.lastIndexOf(NEWLINE, nul) + 1;
    }
  }
  if (end === 0) return { lines: [], stats: EMPTY_STATS(0), binaryOffset, skippedBinary: false };
  const view = end === buf.length ? buf : buf.subarray(0, end);
  if (config.mode === 'files-with-matches' && !config.invert && !matcher.multiline) {
    const first = firstMatchingLine(view, matcher, prefilter);
    if (first !== null) {
      const stats = first
        ? { matches: 1, matchedLines: 1, bytesSearched: end, limitReached: false }
        : EMPTY_STATS(end);
      return { lines: [], stats, binaryOffset, skippedBinary: false };
    }
  }
  const ascii = isAscii(view);
  const text = ascii ? buf.toString('latin1', 0, end) : buf.toString('utf8', 0, end);
  const file = new DecodedFile(buf, end, text, ascii, ascii || isUtf8(view));
  const regex = ascii ? matcher.asciiRegex : matcher.regex;
  const blocks = findMatchBlocks(file, regex, matcher, prefilter, config);
  const stats: FileStats = {
    matches: blocks.matches,
    // A multi-line block counts every line it spans, as ripgrep's statistics and -c do.
    matchedLines: matcher.multiline ? linesSpanned(file.text, blocks.list) : blocks.list.length,
    bytesSearched: end,
    limitReached: blocks.limitReached,
  };
  if (config.mode !== 'lines' || blocks.list.length === 0) {
    return { lines: [], stats, binaryOffset, skippedBinary: false };
  }
  return {
    lines: renderLines(file, blocks.list, blocks.contextLimit, config, blocks.contextSpans),
    stats,
    binaryOffset,
    skippedBinary: false,
  };
}

/** A decoded file with a cursor that maps line starts between chars and bytes in one forward pass. */
class DecodedFile {
  private cursorChar = 0;
  private cursorByte = 0;

  constructor(
    readonly buf: Buffer,
    readonly end: number,
    readonly text: string,
    readonly ascii: boolean,
    readonly validUtf8: boolean,
  ) {}

  /** Byte offset of a line start given as a char index (ascending calls are linear overall). */
  byteOfLineStart(charIndex: number): number {
    if (this.ascii) return charIndex;
    if (charIndex < this.cursorChar) {
      this.cursorChar = 0;
      this.cursorByte = 0;
    }
    // '\n' survives decoding one-to-one, so the k-th newline in the text is the k-th newline in the bytes.
    while (this.cursorChar < charIndex) {
      const nextChar = this.text.indexOf('\n', this.cursorChar);
      const nextByte = this.buf.indexOf(NEWLINE, this.cursorByte);
      if (nextChar === -1 || nextChar >= charIndex || nextByte === -1) break;
      this.cursorChar = nextChar + 1;
      this.cursorByte = nextByte + 1;
    }
    return this.cursorByte;
  }

  /** End (exclusive, after the terminator) of the line containing char `i`. */
  lineEndAfter(i: number): number {
    const nl = this.text.indexOf('\n', i);
    return nl === -1 ? this.text.length : nl + 1;
  }

  lineStartOf(i: number): number {
    return i === 0 ? 0 : this.text.lastIndexOf('\n', i - 1) + 1;
  }
}

/** A matched line (or, in multiline mode, a run of lines) with its submatches as char indices. */
interface MatchBlock {
  lineNumber: number;
  /** Char range of the whole lines, terminator included. */
  start: number;
  end: number;
  spans: Array<[number, number]>;
}

interface BlockList {
  list: MatchBlock[];
  matches: number;
  limitReached: boolean;
  /** When the per-file cap stopped the scan: no context line is emitted at or beyond this char index. */
  contextLimit: number;
  /** -v: the spans of the lines that do match, by line start; they are the context lines, and rg lists them. */
  contextSpans?: Map<number, Array<[number, number]>>;
}

/** Matching lines a file may report: one for files-with-matches, else ripgrep's -m (none: no cap). */
export function matchCap(config: Pick<SearcherConfig, 'mode' | 'maxCount'>): number {
  if (config.mode === 'files-with-matches') return 1;
  return config.maxCount ?? Number.POSITIVE_INFINITY;
}

function findMatchBlocks(
  file: DecodedFile,
  regex: RegExp,
  matcher: LineMatcher,
  prefilter: Prefilter,
  config: SearcherConfig,
): BlockList {
  const cap = matchCap(config);
  const out: BlockList = { list: [], matches: 0, limitReached: false, contextLimit: file.text.length };
  if (cap <= 0) return out;
  if (config.invert) {
    const matched: BlockList = { list: [], matches: 0, limitReached: false, contextLimit: file.text.length };
    const all = { ...config, mode: 'count' as const, afterContext: 0, invert: false };
    if (matcher.multiline) findMultilineBlocks(file, regex, matcher, all, Number.POSITIVE_INFINITY, matched);
    else findLineBlocks(file, regex, matcher, prefilter, all, Number.POSITIVE_INFINITY, matched);
    invertBlocks(file, matched.list, config, cap, out);
    if (!matcher.multiline) out.contextSpans = new Map(matched.list.map((b) => [b.start, b.spans]));
    return out;
  }
  if (matcher.multiline) findMultilineBlocks(file, regex, matcher, config, cap, out);
  else findLineBlocks(file, regex, matcher, prefilter, config, cap, out);
  return out;
}

/** ripgrep -v: every line outside the matching blocks is a match (without submatches), up to the cap. */
function invertBlocks(
  file: DecodedFile,
  matched: MatchBlock[],
  config: SearcherConfig,
  cap: number,
  out: BlockList,
): void {
  const text = file.text;
  let pos = 0;
  let lineNo = 1;
  let k = 0;
  let windowEnd = -1;
  while (pos < text.length) {
    const next = matched[k];
    if (next && next.start === pos) {
      if (config.stopOnNonmatch && out.list.length > 0) {
        out.contextLimit = Math.min(out.contextLimit, next.end);
        return;
      }
      lineNo += countNewlines(text, next.start, next.end);
      pos = next.end;
      k++;
      continue;
    }
    // Past the cap, ripgrep still reports the matches inside the last one's after-context (as without -v).
    if (out.list.length >= cap && windowEnd < 0) {
      windowEnd = endOfAfterContext(file, out.list.at(-1)!.end, afterContextAtCap(config));
      out.contextLimit = windowEnd;
    }
    if (windowEnd >= 0 && pos >= windowEnd) {
      out.limitReached = true;
      return;
    }
    const end = file.lineEndAfter(pos);
    out.list.push({ lineNumber: lineNo, start: pos, end, spans: [] });
    if (config.mode === 'files-with-matches') return;
    // With --null-data ripgrep 15 moves the window past each match found in it (measured): it runs on.
    if (windowEnd >= 0 && config.nullData) {
      windowEnd = endOfAfterContext(file, end, config.afterContext);
      out.contextLimit = windowEnd;
    }
    lineNo++;
    pos = end;
  }
}

/**
 * Line mode: find each line that matches, then its spans. A line is found through the required literals
 * when there are any (only lines holding one can match, so the regex runs on those lines alone), else
 * through the cheap line-selection regex, else the regex itself over the whole text.
 */
function findLineBlocks(
  file: DecodedFile,
  regex: RegExp,
  matcher: LineMatcher,
  prefilter: Prefilter,
  config: SearcherConfig,
  cap: number,
  out: BlockList,
): void {
  const text = file.text;
  const lineRegex = (file.ascii ? (matcher.asciiLineRegex ?? matcher.lineRegex) : matcher.lineRegex) ?? null;
  const candidates = prefilter.candidates;
  const finder = candidates ?? lineRegex ?? regex;
  // A finder hit only proves the line matches when it is the regex (or the line regex) itself.
  const verify = candidates ? (lineRegex ?? regex) : null;
  let lineNo = 1;
  let lineStart = 0;
  let pos = 0;
  let windowEnd = -1;
  while (pos < text.length) {
    finder.lastIndex = pos;
    const m = finder.exec(text);
    if (m === null) break;
    // A match right after the final '\n' sits on a line that does not exist (ripgrep agrees).
    if (m.index === text.length && (m.index === 0 || text.charCodeAt(m.index - 1) === NEWLINE)) break;
    const start = file.lineStartOf(m.index);
    const end = file.lineEndAfter(m.index);
    pos = end;
    if (verify) {
      verify.lastIndex = 0;
      if (!verify.test(text.slice(start, end))) continue;
    }
    if (config.stopOnNonmatch && out.list.length > 0 && start !== out.list.at(-1)!.end) break;
    if (windowEnd >= 0 && start >= windowEnd) {
      out.limitReached = true;
      return;
    }
    if (out.list.length >= cap && windowEnd < 0) {
      // Once the cap is reached, ripgrep still reports matches inside the last match's after-context.
      windowEnd = endOfAfterContext(file, out.list.at(-1)!.end, afterContextAtCap(config));
      out.contextLimit = windowEnd;
      // ripgrep 15 does not do so with --null-data (line mode only; -v and -U still do): they print as context.
      if (start >= windowEnd || config.nullData) {
        out.limitReached = true;
        return;
      }
    }
    lineNo += countNewlines(text, lineStart, start);
    lineStart = start;
    const block: MatchBlock = { lineNumber: lineNo, start, end, spans: [] };
    if (config.mode === 'files-with-matches') {
      // The line is proven (by the regex or the line regex, which select the same lines): no spans needed.
      out.matches++;
      out.list.push(block);
      return;
    }
    const seek = matcher.leadAtom && lineRegex ? { find: lineRegex, atom: matcher.leadAtom } : null;
    if (!collectSpans(regex, text, block, seek)) continue; // selected by the line regex but not matched: never, by contract
    out.matches += block.spans.length;
    out.list.push(block);
  }
  if (config.stopOnNonmatch && out.list.length > 0)
    out.contextLimit = Math.min(out.contextLimit, file.lineEndAfter(out.list.at(-1)!.end));
}

/**
 * Whether some line of `bytes` matches, found without decoding the file (files-with-matches: the first matching
 * line decides): each line holding a literal, in order, is decoded alone and tried as findLineBlocks tries it
 * (the line regex, else the regex, on the line with its terminator). '\n' is one byte and never inside a UTF-8
 * sequence, so a line decodes to the same text alone as within the file; an ASCII line may use the ASCII regexes
 * (they equal the others on ASCII text). Null when the literals cannot be looked for as bytes.
 */
function firstMatchingLine(bytes: Buffer, matcher: LineMatcher, prefilter: Prefilter): boolean | null {
  const needles = prefilter.byteNeedles;
  if (!needles) return null;
  // Per literal, its next occurrence at or after `from` (-1: none left).
  const next = needles.map(() => -2);
  let from = 0;
  for (;;) {
    let at = -1;
    for (let k = 0; k < needles.length; k++) {
      if (next[k]! !== -1 && next[k]! < from) next[k] = bytes.indexOf(needles[k]!, from);
      if (next[k]! !== -1 && (at === -1 || next[k]! < at)) at = next[k]!;
    }
    if (at === -1) return false;
    const start = bytes.lastIndexOf(NEWLINE, at) + 1;
    const nl = bytes.indexOf(NEWLINE, at);
    const end = nl === -1 ? bytes.length : nl + 1;
    const ascii = isAscii(bytes.subarray(start, end));
    const line = bytes.toString(ascii ? 'latin1' : 'utf8', start, end);
    const verify = ascii
      ? (matcher.asciiLineRegex ?? matcher.lineRegex ?? matcher.asciiRegex)
      : (matcher.lineRegex ?? matcher.regex);
    verify.lastIndex = 0;
    if (verify.test(line)) return true;
    if (end === bytes.length) return false;
    from = end;
  }
}

/** Multiline mode: the regex runs over the whole text; a block is the run of lines a match touches. */
function findMultilineBlocks(
  file: DecodedFile,
  regex: RegExp,
  matcher: LineMatcher,
  config: SearcherConfig,
  cap: number,
  out: BlockList,
): void {
  const text = file.text;
  const list = out.list;
  let lineNo = 1;
  let lineStart = 0;
  const advanceTo = (charIndex: number) => {
    lineNo += countNewlines(text, lineStart, charIndex);
    lineStart = file.lineStartOf(charIndex);
  };
  regex.lastIndex = 0;
  let current: MatchBlock | null = null;
  let prevEnd = -1;
  let windowEnd = -1;
  for (;;) {
    const m = regex.exec(text);
    if (m === null) break;
    const idx = m.index;
    const len = m[0].length;
    if (len === 0) {
      regex.lastIndex = nextCodePointIndex(text, idx);
      // Rust's iterator never yields an empty match where the previous match ended.
      if (idx === prevEnd) continue;
    }
    // The empty match at the very end of the text: after a final '\n' it would sit on a line that does not
    // exist; without one, it makes the last line a match with no submatch (see collectSpans).
    const atTextEnd = idx === text.length;
    if (atTextEnd && (idx === 0 || text.charCodeAt(idx - 1) === NEWLINE)) break;
    prevEnd = idx + len;
    const joins =
      current !== null &&
      (idx < current.end ||
        (atTextEnd && idx === current.end) ||
        (matcher.matchesNewline === true && !atTextEnd && file.lineStartOf(idx) === current.end));
    if (current && joins) {
      if (atTextEnd) break;
      current.spans.push([idx, idx + len]);
      out.matches++;
      current.end = Math.max(current.end, file.lineEndAfter(Math.max(idx, idx + len - 1)));
      continue;
    }
    if (windowEnd >= 0 && idx >= windowEnd) {
      out.limitReached = true;
      break;
    }
    if (list.length >= cap && windowEnd < 0) {
      windowEnd = endOfAfterContext(file, current!.end, afterContextAtCap(config));
      out.contextLimit = windowEnd;
      if (idx >= windowEnd) {
        out.limitReached = true;
        break;
      }
    }
    advanceTo(idx);
    current = {
      lineNumber: lineNo,
      start: lineStart,
      end: file.lineEndAfter(len > 0 ? idx + len - 1 : idx),
      spans: [],
    };
    if (!atTextEnd) {
      current.spans.push([idx, idx + len]);
      out.matches++;
    }
    list.push(current);
    if (config.mode === 'files-with-matches') break;
  }
}

/**
 * The lines after the last match within the cap whose matches ripgrep still reports (as matches, not context):
 * its after-context, none for -l (which stops at the first match).
 */
export function afterContextAtCap(config: Pick<SearcherConfig, 'mode' | 'afterContext'>): number {
  return config.mode === 'files-with-matches' ? 0 : config.afterContext;
}

/** Char index just past the `n`-th line after `from` (a line start). */
function endOfAfterContext(file: DecodedFile, from: number, n: number): number {
  let end = from;
  for (let k = 0; k < n && end < file.text.length; k++) end = file.lineEndAfter(end);
  return end;
}

/**
 * Spans of `regex` within one line. Returns whether the line matches at all: on a last line without a
 * terminator, an empty match at the very end makes the line a match (ripgrep's searcher finds it) but is
 * not listed as a submatch (ripgrep's printer drops it), so a match can have no submatches.
 */
function collectSpans(
  regex: RegExp,
  text: string,
  block: MatchBlock,
  seek: { find: RegExp; atom: RegExp } | null,
): boolean {
  const line = text.slice(block.start, block.end);
  if (seek) return seekSpans(regex, line, block, seek.find, seek.atom);
  return plainSpans(regex, line, block, 0, block.end === text.length && !line.endsWith('\n'));
}

/** Spans by running the regex along the line from `from`. */
function plainSpans(
  regex: RegExp,
  line: string,
  block: MatchBlock,
  from: number,
  lastLineUnterminated: boolean,
): boolean {
  regex.lastIndex = from;
  let matched = false;
  let prevEnd = -1;
  for (;;) {
    const m = regex.exec(line);
    if (m === null) break;
    const idx = m.index;
    const len = m[0].length;
    if (len === 0) {
      regex.lastIndex = nextCodePointIndex(line, idx);
      if (idx === prevEnd) continue;
      if (idx === line.length) {
        // After a terminator this position is the next line's start; at the end of the text, see above.
        matched ||= lastLineUnterminated;
        break;
      }
    }
    prevEnd = idx + len;
    block.spans.push([block.start + idx, block.start + idx + len]);
    matched = true;
  }
  return matched;
}

/**
 * Spans of a pattern `X+Y…` (leadAtom X) in one line, in linear time: each leftmost hit of the line regex
 * (`XY…`) is moved back to the start of its run of X, where the full regex, anchored, gives the match
 * (see leadingRepeatAtom). Plain `exec` would retry `X+` from every position of a long run (quadratic on
 * minified code). The full regex never matches empty here (X+ takes at least one character).
 */
function seekSpans(regex: RegExp, line: string, block: MatchBlock, find: RegExp, atom: RegExp): boolean {
  const exact = stickyTwin(regex);
  let pos = 0;
  for (;;) {
    find.lastIndex = pos;
    const hit = find.exec(line);
    if (hit === null) break;
    let s = hit.index;
    while (s > pos) {
      const back = s - 2 >= pos && isLowSurrogate(line.charCodeAt(s - 1)) ? 2 : 1;
      atom.lastIndex = s - back;
      if (!atom.test(line) || atom.lastIndex !== s) break;
      s -= back;
    }
    exact.lastIndex = s;
    const m = exact.exec(line);
    if (m === null || m[0].length === 0) {
      // Not expected (the argument above); take the plain route from here rather than lose a match.
      return plainSpans(regex, line, block, pos, false) || block.spans.length > 0;
    }
    block.spans.push([block.start + s, block.start + s + m[0].length]);
    pos = s + m[0].length;
  }
  return block.spans.length > 0;
}

const stickyTwins = new WeakMap<RegExp, RegExp>();

/** `regex` anchored (sticky instead of global), made once per regex. */
function stickyTwin(regex: RegExp): RegExp {
  let twin = stickyTwins.get(regex);
  if (!twin) {
    twin = new RegExp(regex.source, regex.flags.replace('g', 'y'));
    stickyTwins.set(regex, twin);
  }
  return twin;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function nextCodePointIndex(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? i + 2 : i + 1;
}

/** Expands match blocks into match and context records, merging overlapping context windows. */
function renderLines(
  file: DecodedFile,
  blocks: MatchBlock[],
  contextLimit: number,
  config: SearcherConfig,
  contextSpans?: Map<number, Array<[number, number]>>,
): SearchLine[] {
  const out: SearchLine[] = [];
  const text = file.text;
  // Char index up to which lines have been emitted, and the number of the next line there.
  let emittedEnd = 0;
  let emittedLineNo = 1;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    // Before-context: up to B lines above the block, never re-emitting a line.
    const before: number[] = [];
    let s = block.start;
    while (before.length < config.beforeContext && s > emittedEnd) {
      s = file.lineStartOf(s - 1);
      before.unshift(s);
    }
    for (let k = 0; k < before.length; k++) {
      const ls = before[k]!;
      out.push(
        makeRecord(
          'context',
          file,
          ls,
          file.lineEndAfter(ls),
          block.lineNumber - before.length + k,
          contextSpans?.get(ls) ?? [],
          config,
        ),
      );
    }
    out.push(makeRecord('match', file, block.start, block.end, block.lineNumber, block.spans, config));
    emittedEnd = block.end;
    emittedLineNo = block.lineNumber + countNewlines(text, block.start, block.end);
    // After-context: up to A lines below, stopping where the next block starts.
    const nextStart = b + 1 < blocks.length ? blocks[b + 1]!.start : contextLimit;
    for (let k = 0; k < config.afterContext && emittedEnd < nextStart && emittedEnd < text.length; k++) {
      const le = file.lineEndAfter(emittedEnd);
      out.push(
        makeRecord(
          'context',
          file,
          emittedEnd,
          le,
          emittedLineNo,
          contextSpans?.get(emittedEnd) ?? [],
          config,
        ),
      );
      emittedEnd = le;
      emittedLineNo++;
    }
  }
  return out;
}

function linesSpanned(text: string, blocks: MatchBlock[]): number {
  let n = 0;
  for (const b of blocks)
    n += countNewlines(text, b.start, b.end) + (text.charCodeAt(b.end - 1) === NEWLINE ? 0 : 1);
  return n;
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function makeRecord(
  type: SearchLine['type'],
  file: DecodedFile,
  start: number,
  end: number,
  lineNumber: number,
  spans: Array<[number, number]>,
  config: SearcherConfig,
): SearchLine {
  const byteStart = file.byteOfLineStart(start);
  const byteEnd = file.ascii ? end : end >= file.text.length ? file.end : file.byteOfLineStart(end);
  let submatches: Submatch[];
  let invalidBytes: Uint8Array | null = null;
  if (file.ascii) {
    submatches = spans.map(([a, z]) => ({ start: a - start, end: z - start }));
  } else if (file.validUtf8) {
    const offsets = utf8OffsetsOf(file.text, start, spans.flat());
    submatches = spans.map((_, k) => ({ start: offsets[2 * k]!, end: offsets[2 * k + 1]! }));
  } else {
    // Lossy lines: one U+FFFD may stand for 1–3 raw bytes, so map indices by re-walking the raw bytes.
    const raw = file.buf.subarray(byteStart, byteEnd);
    if (!isUtf8(raw)) invalidBytes = raw;
    const offsets = utf16IndicesToByteOffsets(
      raw,
      spans.flatMap(([a, z]) => [a - start, z - start]),
    );
    submatches = spans.map((_, k) => ({ start: offsets[2 * k]!, end: offsets[2 * k + 1]! }));
  }
  const record: SearchLine = { type, lineNumber, absoluteOffset: byteStart, text: '', submatches };
  let cutEnd = byteEnd;
  if (config.maxColumns !== undefined && byteEnd - byteStart > config.maxColumns) {
    cutEnd = charBoundaryAtOrBefore(file.buf, byteStart, byteStart + config.maxColumns);
    record.truncated = true;
  }
  if (file.ascii) record.text = file.text.slice(start, cutEnd);
  else
    record.text =
      cutEnd === byteEnd ? file.text.slice(start, end) : file.buf.toString('utf8', byteStart, cutEnd);
  if (invalidBytes) record.bytes = new Uint8Array(invalidBytes.subarray(0, cutEnd - byteStart));
  if (config.nullData) {
    record.text = swapTerminatorChars(record.text);
    if (record.bytes) record.bytes = swapTerminatorBytes(Buffer.from(record.bytes));
  }
  return record;
}

/** A copy of `bytes` with NUL and '\n' exchanged (--null-data; the exchange is its own inverse). */
function swapTerminatorBytes(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = out.indexOf(0); i !== -1; i = out.indexOf(0, i + 1)) out[i] = NEWLINE;
  for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) out[i] = 0;
  return out;
}

/** `text` with NUL and '\n' exchanged (--null-data). */
export function swapTerminatorChars(text: string): string {
  return text.replace(/[\0\n]/g, (c) => (c === '\n' ? '\0' : '\n'));
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * ripgrep's `--encoding auto`: a UTF-8 byte-order mark is dropped and UTF-16 with a BOM is transcoded to
 * UTF-8 before anything else looks at the bytes (offsets are then those of the transcoded text, as rg's).
 */
function decodeByBom(buf: Buffer, length: number): Buffer | null {
  if (length < 2) return null;
  const b0 = buf[0];
  const b1 = buf[1];
  if (length >= 3 && b0 === UTF8_BOM[0] && b1 === UTF8_BOM[1] && buf[2] === UTF8_BOM[2])
    return buf.subarray(3, length);
  if (b0 === 0xff && b1 === 0xfe)
    return Buffer.from(buf.toString('utf16le', 2, length - (length % 2)), 'utf8');
  if (b0 === 0xfe && b1 === 0xff) {
    const swapped = Buffer.from(buf.subarray(2, length - (length % 2)));
    swapped.swap16();
    return Buffer.from(swapped.toString('utf16le'), 'utf8');
  }
  return null;
}

/** Whether -E names an encoding other than UTF-8: the file's bytes then say nothing of its text. */
export function transcodes(encoding: string | undefined): boolean {
  return encoding !== undefined && encoding !== 'none' && decoderFor(encoding).encoding !== 'utf-8';
}

const decoders = new Map<string, TextDecoder>();
function decoderFor(label: string): TextDecoder {
  let d = decoders.get(label);
  if (!d) {
    d = new TextDecoder(label);
    decoders.set(label, d);
  }
  return d;
}

/** The file as UTF-8 from the encoding -E names (offsets are then the transcoded text's, as ripgrep's). */
function decodeAs(encoding: string | undefined, buf: Buffer, length: number): Buffer | null {
  if (!transcodes(encoding)) return null;
  return Buffer.from(decoderFor(encoding!).decode(buf.subarray(0, length)), 'utf8');
}

/** Whether a file's first bytes are a UTF-16 byte-order mark (its literals are then not in its raw bytes). */
export function startsWithUtf16Bom(buf: Buffer, length: number): boolean {
  return length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff));
}

/** Whether a file starts with any byte-order mark (UTF-8 or UTF-16): its text is then not its bytes. */
export function startsWithBom(buf: Buffer, length: number): boolean {
  return (
    (length >= 3 && buf[0] === UTF8_BOM[0] && buf[1] === UTF8_BOM[1] && buf[2] === UTF8_BOM[2]) ||
    startsWithUtf16Bom(buf, length)
  );
}
