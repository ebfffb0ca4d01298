import type { LineRecord, SearchEvent, SearchSummary } from '@trawl/core/engine';
import { paint, RESET, type RgColors } from './rg-colors.js';

/** What `trawl rg` prints per file (ripgrep's output modes). */
export type RgOutputMode =
  | 'lines'
  | 'count'
  | 'count-matches'
  | 'files-with-matches'
  | 'files-without-match'
  | 'quiet';

/** Output options of `trawl rg`, mirroring ripgrep's printer flags. */
export interface RgPrintOptions {
  format: 'json' | 'plain';
  mode: RgOutputMode;
  lineNumbers: boolean;
  column: boolean;
  byteOffset: boolean;
  withFilename: boolean;
  heading: boolean;
  /** `-0`: a NUL after every path instead of its separator. */
  nullAfterPath: boolean;
  onlyMatching: boolean;
  /** -v: counts of matches are counts of (inverted) lines. */
  invert: boolean;
  /** `--vimgrep`: one line per match, `path:line:column:text`. */
  vimgrep: boolean;
  trim: boolean;
  /** `-r`: each match replaced by this template (`$1`, `${name}`, `$$`), expanded by `expand`. */
  replace?: (line: string, start: number, end: number) => string;
  /** ripgrep's --max-columns: lines longer than this many bytes are replaced by a notice. */
  maxColumns?: number;
  /** --max-columns-preview: such a line prints its first maxColumns characters and a notice instead. */
  maxColumnsPreview?: boolean;
  /** --path-separator: printed paths use this instead of '/' (not in JSON, as ripgrep). */
  pathSeparator?: string;
  /** --crlf: what the printer writes itself (paths, counts, -o pieces) ends with \r\n; lines keep their own. */
  crlf?: boolean;
  /**
   * --null-data: lines end with a NUL; what the printer writes itself (paths, counts, -o pieces, separators)
   * ends with one too, as ripgrep's does.
   */
  nullData?: boolean;
  /** --color: ripgrep's escape sequences for paths, numbers and matches; absent: plain text. */
  colors?: RgColors;
  /** `--include-zero`: counts are printed for files without a match too. */
  includeZero: boolean;
  /** -c counts matches, not matching lines: ripgrep's rule under -U for a pattern that can match a line end. */
  countMatchesOnly?: boolean;
  /** null: `--no-context-separator`. */
  contextSeparator: string | null;
  fieldMatchSeparator: string;
  fieldContextSeparator: string;
  contextRequested: boolean;
  /**
   * A few named files only (ripgrep memory-maps them): a NUL in the first 64 KiB makes a matching file
   * print only "binary file matches"; else lines print until the first reported line that holds a NUL.
   */
  namedBinaryRule: boolean;
  /** --binary: walked binary files are searched whole and said to match. */
  binarySearch: boolean;
}

/**
 * The size of ripgrep's first read buffer: where it looks for a NUL before printing anything. The same figure
 * as the core's BINARY_SNIFF_BYTES, held here because importing the searcher's module would load it for
 * `trawl --help` too (cli-startup.test.ts pins what --help loads).
 */
const BINARY_HEAD_BYTES = 64 * 1024;

type LineEvent = SearchEvent & { type: 'match' | 'context' };

/**
 * A submatch (or its part) on one physical line: its byte range within that line, and its match's column —
 * ripgrep counts it from the start of the record (a multi-line match's first line), on every line it spans.
 */
type Span = [start: number, end: number, column: number];

/** A piece of a printed line: plain text or a match (already replaced under -r). */
interface Segment {
  text: string;
  match: boolean;
}

/**
 * Turns engine events into ripgrep's output: `--json` (the JSON Lines schema of `rg --json`), the plain
 * `path:line:text` form (headings when stdout is a terminal) and the summary modes (`-c`, `-l`, …).
 * `print` returns the text to write; `matchedAny` says whether anything counted as a match for the exit
 * code, which for `--files-without-match` means a file was listed.
 */
export class RgPrinter {
  private readonly started = process.hrtime.bigint();
  private fileStarted = 0n;
  private bytesPrinted = 0;
  private fileBytesPrinted = 0;
  private printedAnyGroup = false;
  /** The lines of a file whose binary rule needs its end (see `holdsFiles`); empty when streaming. */
  private fileBuffer: LineEvent[] = [];
  /** The current file's path as printed, whether its group has begun, and its last printed line number. */
  private filePath = '';
  private fileOpen = false;
  private lastLine = -1;
  /** Lines printed since the printer was made: a seam for tests that pin streaming (lines leave before `end`). */
  linesPrinted = 0;
  matchedAny = false;

  /** What ends what the printer writes itself. */
  private readonly eol: string;
  /** What ends a line of a searched file. */
  private readonly term: string;

  constructor(private readonly o: RgPrintOptions) {
    this.term = o.nullData ? '\0' : '\n';
    this.eol = o.nullData ? '\0' : o.crlf ? '\r\n' : '\n';
  }

  print(event: SearchEvent): string {
    return this.o.format === 'json' ? this.json(event) : this.plain(event);
  }

  private json(e: SearchEvent): string {
    let out = '';
    switch (e.type) {
      case 'begin':
        this.fileStarted = process.hrtime.bigint();
        this.fileBytesPrinted = 0;
        out = `${JSON.stringify({ type: 'begin', data: { path: textOrBytes(e.path) } })}\n`;
        break;
      case 'match':
      case 'context': {
        // The line's bytes once, not once per submatch (a minified line can hold thousands).
        const raw = e.submatches.length > 0 ? lineBytes(e) : null;
        out = `${JSON.stringify({
          type: e.type,
          data: {
            path: textOrBytes(e.path),
            lines: e.bytes ? { bytes: Buffer.from(e.bytes).toString('base64') } : { text: e.text },
            line_number: e.lineNumber,
            absolute_offset: e.absoluteOffset,
            submatches: e.submatches.map((s) => ({
              match: submatchText(raw!, e.bytes !== undefined, s.start, s.end),
              // -r with --json: each submatch also says what it would be replaced by.
              ...(this.o.replace && e.type === 'match'
                ? {
                    replacement: {
                      text: this.o.replace(e.text, charIndex(raw!, s.start), charIndex(raw!, s.end)),
                    },
                  }
                : {}),
              start: s.start,
              end: s.end,
            })),
          },
        })}\n`;
        break;
      }
      case 'end':
        if (e.stats.matchedLines === 0) return '';
        this.matchedAny = true;
        // ripgrep counts what it printed for the file (begin and lines), not the end message itself.
        return `${JSON.stringify({
          type: 'end',
          data: {
            path: textOrBytes(e.path),
            binary_offset: e.binaryOffset,
            stats: {
              elapsed: duration(process.hrtime.bigint() - this.fileStarted),
              searches: 1,
              searches_with_match: 1,
              bytes_searched: e.stats.bytesSearched,
              bytes_printed: this.fileBytesPrinted,
              matched_lines: e.stats.matchedLines,
              matches: e.stats.matches,
            },
          },
        })}\n`;
      case 'summary':
        return `${JSON.stringify({
          data: {
            elapsed_total: duration(process.hrtime.bigint() - this.started),
            stats: summaryStats(e.summary, this.bytesPrinted),
          },
          type: 'summary',
        })}\n`;
      default:
        return '';
    }
    const n = Buffer.byteLength(out);
    this.fileBytesPrinted += n;
    this.bytesPrinted += n;
    return out;
  }

  /**
   * Whether a file's lines wait for its `end`: only where the binary rule needs the whole file — a named
   * file (a NUL in its first 64 KiB means no line prints) and --binary (lines after the NUL are dropped).
   * A walked file streams: the searcher (either engine) stops before a NUL, so every line it reports prints,
   * and a NUL in the first 64 KiB skips the file before any line is reported.
   */
  private get holdsFiles(): boolean {
    return this.o.namedBinaryRule || this.o.binarySearch;
  }

  private plain(e: SearchEvent): string {
    switch (e.type) {
      case 'begin':
        this.fileBuffer = [];
        this.filePath = this.o.pathSeparator ? e.path.replaceAll('/', this.o.pathSeparator) : e.path;
        this.fileOpen = false;
        this.lastLine = -1;
        return '';
      case 'match':
      case 'context':
        if (this.o.mode !== 'lines') return '';
        if (this.holdsFiles) {
          this.fileBuffer.push(e);
          return '';
        }
        return (this.fileOpen ? '' : this.openGroup(this.filePath, true)) + this.line(this.filePath, e);
      case 'end': {
        const lines = this.fileBuffer;
        this.fileBuffer = [];
        return this.file(e, lines);
      }
      default:
        return '';
    }
  }

  /** What begins a file's output: the separator from the previous file's, and its heading if asked for. */
  private openGroup(p: string, heading: boolean): string {
    const o = this.o;
    let out = '';
    // ripgrep's single-threaded form (--sort path): the gap is a line terminator; its parallel printer writes '\n'.
    if (o.heading && this.printedAnyGroup) out += this.eol;
    else if (!o.heading && this.printedAnyGroup && o.contextRequested && o.contextSeparator !== null)
      out += `${o.contextSeparator}${this.eol}`;
    this.printedAnyGroup = true;
    this.fileOpen = true;
    if (heading && o.heading && o.withFilename) {
      const painted = this.paint('path', p);
      out += o.nullAfterPath ? `${painted}\0` : `${painted}${this.eol}`;
    }
    return out;
  }

  /** One reported line of the current file, after a context separator if lines were skipped before it. */
  private line(p: string, line: LineEvent): string {
    const o = this.o;
    let out = '';
    if (
      this.lastLine !== -1 &&
      line.lineNumber > this.lastLine + 1 &&
      o.contextRequested &&
      o.contextSeparator !== null
    )
      out += `${o.contextSeparator}${this.eol}`;
    this.lastLine = line.lineNumber + countOf(line.text, this.term) - (line.text.endsWith(this.term) ? 1 : 0);
    this.linesPrinted++;
    return out + this.record(p, line);
  }

  private pathField(path: string, sep: string): string {
    return this.o.nullAfterPath ? `${this.paint('path', path)}\0` : `${this.paint('path', path)}${sep}`;
  }

  private paint(kind: 'path' | 'line' | 'column', text: string): string {
    return paint(this.o.colors, kind, text);
  }

  private file(e: SearchEvent & { type: 'end' }, lines: LineEvent[]): string {
    const o = this.o;
    const p = o.pathSeparator ? e.path.replaceAll('/', o.pathSeparator) : e.path;
    const painted = this.paint('path', p);
    const matched = e.stats.matchedLines > 0;
    switch (o.mode) {
      case 'quiet':
        if (matched) this.matchedAny = true;
        return '';
      case 'files-with-matches':
        if (!matched) return '';
        this.matchedAny = true;
        return o.nullAfterPath ? `${painted}\0` : `${painted}${this.eol}`;
      case 'files-without-match':
        if (matched) return '';
        this.matchedAny = true;
        return o.nullAfterPath ? `${painted}\0` : `${painted}${this.eol}`;
      case 'count':
      case 'count-matches': {
        // A walked file found binary after its first match: ripgrep had to read it all, saw the NUL, and
        // suppresses the count (-l and -q stop at the first match and never see it).
        if (e.binaryOffset !== null && !o.namedBinaryRule && !o.binarySearch) return '';
        if (matched) this.matchedAny = true;
        const n =
          (o.mode === 'count' && !o.countMatchesOnly) || o.invert ? e.stats.matchedLines : e.stats.matches;
        if (n === 0 && !o.includeZero) return '';
        return o.withFilename ? `${this.pathField(p, ':')}${n}${this.eol}` : `${n}${this.eol}`;
      }
    }
    if (!matched) return '';
    this.matchedAny = true;
    if (this.fileOpen) {
      // Streamed: the lines are out; a walked file's late NUL adds ripgrep's notice.
      return e.binaryOffset !== null ? this.binaryNotice(p, e.binaryOffset, true) : '';
    }
    const binary = this.binaryCut(e, lines);
    // A walked file (not held) that matched before its NUL but reported no line: only the warning prints.
    const stopped = !this.holdsFiles;
    if (binary && binary.keep === 0)
      return this.openGroup(p, false) + this.binaryNotice(p, binary.offset, stopped);
    let out = this.openGroup(p, true);
    const upto = binary ? binary.keep : lines.length;
    for (let k = 0; k < upto; k++) out += this.line(p, lines[k]!);
    if (binary) out += this.binaryNotice(p, binary.offset, stopped);
    return out;
  }

  /**
   * ripgrep's rule for a named binary file (see `namedBinaryRule`): how many of its reported lines print
   * before the notice, and the NUL the notice names. null when the file prints as text.
   */
  private binaryCut(
    e: SearchEvent & { type: 'end' },
    lines: LineEvent[],
  ): { keep: number; offset: number } | null {
    if (e.binaryOffset === null) return null;
    if (e.binaryOffset < BINARY_HEAD_BYTES) return { keep: 0, offset: e.binaryOffset };
    if (!this.o.namedBinaryRule) {
      // A walked file whose NUL comes after the first buffer (held under --binary): the lines before it
      // print, then ripgrep's notice — that the file matches, or (streamed) that it stopped there.
      let keep = 0;
      while (
        keep < lines.length &&
        lines[keep]!.absoluteOffset + Buffer.byteLength(lines[keep]!.text) <= e.binaryOffset
      )
        keep++;
      return { keep, offset: e.binaryOffset };
    }
    for (let k = 0; k < lines.length; k++) {
      const line = lines[k]!;
      const nul = line.text.indexOf('\0');
      if (nul !== -1) {
        return { keep: k, offset: line.absoluteOffset + Buffer.byteLength(line.text.slice(0, nul)) };
      }
    }
    return null;
  }

  /** ripgrep's notice for a binary file that matched; `stopped`: a walked file it stopped searching at the NUL. */
  private binaryNotice(path: string, offset: number, stopped = false): string {
    const what = stopped ? 'WARNING: stopped searching binary file after match' : 'binary file matches';
    const where = `${what} (found "\\0" byte around offset ${offset})\n`;
    return this.o.withFilename ? `${this.paint('path', path)}: ${where}` : where;
  }

  /** One reported record: each of its lines (a multi-line match prints every line it spans, numbered). */
  private record(path: string, line: LineEvent): string {
    const isMatch = line.type === 'match';
    const parts = splitLines(line.text, this.term);
    if (this.o.replace && isMatch && parts.length > 1 && !this.o.vimgrep && line.submatches.length > 0)
      return this.replacedBlock(path, line);
    let out = '';
    let offset = line.absoluteOffset;
    // A match's lines all carry the column of its first submatch (ripgrep's rule for multi-line matches).
    const first = line.submatches[0];
    const recordColumn = isMatch && first ? first.start + 1 : null;
    let lineStartByte = 0; // within the record
    for (let k = 0; k < parts.length; k++) {
      const text = parts[k]!;
      const bytes = Buffer.byteLength(text);
      const lineEndByte = lineStartByte + bytes;
      // The submatches (or their parts) on this physical line, as byte ranges within it.
      const spans: Span[] = [];
      // --vimgrep prints a match once, on the line where it starts.
      const starts: number[] = [];
      for (const s of line.submatches) {
        const a = Math.max(s.start, lineStartByte);
        const z = Math.min(s.end, lineEndByte);
        const startsHere = s.start >= lineStartByte && s.start < lineEndByte;
        if (a < z || (s.start === s.end && startsHere))
          spans.push([a - lineStartByte, z - lineStartByte, s.start + 1]);
        if (startsHere) starts.push(s.start - lineStartByte);
      }
      out += this.physicalLine(
        path,
        line.lineNumber + k,
        offset,
        text,
        spans,
        starts,
        isMatch,
        recordColumn,
        line.submatches.length === 0,
      );
      offset += bytes;
      lineStartByte = lineEndByte;
    }
    return out;
  }

  /** What precedes a printed line: path, line number, column, byte offset, as asked for. */
  private prefix(path: string, lineNumber: number, sep: string, col: number | null, byte: number): string {
    const o = this.o;
    let p = '';
    if (o.withFilename && !o.heading) p += this.pathField(path, sep);
    if (o.lineNumbers) p += `${this.paint('line', String(lineNumber))}${sep}`;
    if (o.column && col !== null) p += `${this.paint('column', String(col))}${sep}`;
    if (o.byteOffset) p += `${this.paint('column', String(byte))}${sep}`;
    return p;
  }

  /**
   * `-r` on a match that spans lines (-U): ripgrep replaces over the whole block and prints what results as
   * its lines, numbered from the block's first (`-U -r X 'foo.*\ncccc'` over two lines prints one); with -o,
   * each replaced match, split at its line ends.
   */
  private replacedBlock(path: string, line: LineEvent): string {
    const o = this.o;
    const replace = o.replace!;
    const raw = Buffer.from(line.text, 'utf8');
    const sep = o.fieldMatchSeparator;
    const column = line.submatches[0]!.start + 1;
    let out = '';
    if (o.onlyMatching) {
      for (const s of line.submatches) {
        if (s.start === s.end) continue;
        const ca = charIndex(raw, s.start);
        const pieces = replace(line.text, ca, charIndex(raw, s.end)).split(this.term);
        const firstLine = line.lineNumber + countOf(line.text.slice(0, ca), this.term);
        pieces.forEach((piece, k) => {
          const shown = this.render(
            [{ text: o.trim ? trimStart(piece) : piece, match: true }],
            true,
            [0],
            true,
          );
          out += `${this.prefix(path, firstLine + k, sep, s.start + 1, line.absoluteOffset + s.start)}${shown}${this.eol}`;
        });
      }
      return out;
    }
    const segments: Segment[] = [];
    let at = 0;
    for (const s of line.submatches) {
      const ca = charIndex(raw, s.start);
      const cz = charIndex(raw, s.end);
      if (ca > at) segments.push({ text: line.text.slice(at, ca), match: false });
      segments.push({ text: replace(line.text, ca, cz), match: true });
      at = cz;
    }
    const body = line.text.endsWith(this.term) ? line.text.slice(0, -1) : line.text;
    if (at < body.length) segments.push({ text: body.slice(at), match: false });
    const lines: Segment[][] = [[]];
    for (const g of segments) {
      g.text.split(this.term).forEach((t, k) => {
        if (k > 0) lines.push([]);
        if (t !== '') lines.at(-1)!.push({ text: t, match: g.match });
      });
    }
    let offset = line.absoluteOffset;
    lines.forEach((segs, k) => {
      const starts: number[] = [];
      let n = 0;
      for (const g of segs) {
        if (g.match) starts.push(n);
        n += g.text.length;
      }
      if (o.trim && segs[0]) segs[0] = { ...segs[0], text: trimStart(segs[0].text) };
      const shown = this.render(segs, true, starts);
      out += `${this.prefix(path, line.lineNumber + k, sep, column, offset)}${shown}${this.term}`;
      offset += Buffer.byteLength(segs.map((g) => g.text).join('')) + 1;
    });
    return out;
  }

  private physicalLine(
    path: string,
    lineNumber: number,
    offset: number,
    rawText: string,
    spans: Span[],
    starts: number[],
    isMatch: boolean,
    recordColumn: number | null,
    noSubmatches: boolean,
  ): string {
    const o = this.o;
    const sep = isMatch ? o.fieldMatchSeparator : o.fieldContextSeparator;
    const text = rawText.endsWith(this.term) ? rawText.slice(0, -1) : rawText;
    const textBytes = Buffer.from(text, 'utf8');
    const prefix = (col: number | null, byte: number) => this.prefix(path, lineNumber, sep, col, byte);
    // A match without submatches (-v; an anchor ripgrep's printer cannot find again) prints whole, even with -o.
    const toChar = charIndexer(textBytes, text);
    if (o.onlyMatching && isMatch && !noSubmatches) {
      let out = '';
      // Where each match starts in the line (UTF-16 units), once per line: every piece's preview reads them.
      const spanChars = o.colors ? null : spans.map(([x]) => toChar(x));
      for (const [a, z, column] of spans) {
        if (a === z) continue;
        let piece = textBytes.subarray(a, Math.min(z, textBytes.length)).toString('utf8');
        if (o.replace) piece = o.replace(text, toChar(a), toChar(z));
        if (o.trim) piece = trimStart(piece);
        // ripgrep previews a piece as if it were the line: the matches it says are left are those of the
        // line whose start (counted from the line's start) falls between the cut and the piece's length —
        // except in colour, where it counts the piece alone.
        const lineStarts = spanChars ? spanChars.filter((x) => x < piece.length) : [0];
        out += `${prefix(column, offset + a)}${this.render([{ text: piece, match: true }], true, lineStarts, true)}${this.eol}`;
      }
      return out;
    }
    if (o.vimgrep && isMatch && !noSubmatches) {
      let out = '';
      // One line per match; the colours mark that match only.
      for (const a of starts) {
        const own = spans.filter(([x]) => x === a).slice(0, 1);
        out += `${prefix(a + 1, offset)}${this.shown(text, toChar, o.colors ? own : spans, true)}${this.term}`;
      }
      return out;
    }
    // A match's column is its record's (see record); a context line's is its first submatch's (under -v).
    const col = isMatch ? recordColumn : spans.length > 0 ? spans[0]![2] : null;
    return `${prefix(col, offset)}${this.shown(text, toChar, spans, isMatch)}${this.term}`;
  }

  private shown(
    text: string,
    toChar: (byteOffset: number) => number,
    spans: Span[],
    isMatch: boolean,
  ): string {
    const o = this.o;
    const segments: Segment[] = [];
    // Where each match starts in what is shown (UTF-16 units): --max-columns-preview counts those it cut off.
    const starts: number[] = [];
    let at = 0;
    let shownLength = 0;
    const push = (t: string, match: boolean) => {
      segments.push({ text: t, match });
      shownLength += t.length;
    };
    for (const [a, z] of spans) {
      const ca = toChar(a);
      const cz = toChar(z);
      if (ca > at) push(text.slice(at, ca), false);
      if (isMatch) starts.push(shownLength);
      push(o.replace && isMatch ? o.replace(text, ca, cz) : text.slice(ca, cz), true);
      at = cz;
    }
    push(text.slice(at), false);
    if (o.trim) {
      let cut = 0;
      while (segments.length > 0) {
        const first = segments[0]!;
        const trimmed = trimStart(first.text);
        cut += first.text.length - trimmed.length;
        first.text = trimmed;
        if (trimmed !== '') break;
        segments.shift();
      }
      for (let k = 0; k < starts.length; k++) starts[k]! -= cut;
    }
    return this.render(segments, isMatch, starts);
  }

  /** Whether ripgrep prints this line match by match (which changes its -M notices). */
  private get matchByMatch(): boolean {
    const o = this.o;
    return o.column || o.replace !== undefined || o.vimgrep || (o.colors?.match ?? null) !== null;
  }

  /**
   * `-M`: a line longer than the cap (in bytes) is replaced by ripgrep's notice (printing match by match, it
   * counts the matches); with --max-columns-preview its first cap characters print, then a notice — of the
   * matches past them when printing match by match (--column, -r, --vimgrep, colours). Then the colours.
   */
  private render(segments: Segment[], isMatch: boolean, starts: number[], piece = false): string {
    const o = this.o;
    const cap = o.maxColumns;
    const full = segments.map((g) => g.text).join('');
    if (cap === undefined || cap === 0 || Buffer.byteLength(full) <= cap)
      return this.colored(segments, isMatch);
    if (!o.maxColumnsPreview) {
      if (!isMatch) return '[Omitted long context line]';
      return this.matchByMatch
        ? `[Omitted long line with ${starts.length} matches]`
        : '[Omitted long matching line]';
    }
    let end = 0;
    for (let n = 0; n < cap && end < full.length; n++) end += (full.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
    const kept: Segment[] = [];
    let left = end;
    for (const g of segments) {
      if (left <= 0) break;
      kept.push(g.text.length <= left ? g : { text: g.text.slice(0, left), match: g.match });
      left -= g.text.length;
    }
    const preview = this.colored(kept, isMatch);
    if (!isMatch || !(piece || this.matchByMatch)) return `${preview} [... omitted end of long line]`;
    const more = starts.filter((x) => x >= end).length;
    return `${preview} [... ${more} more match${more === 1 ? '' : 'es'}]`;
  }

  /**
   * The segments with ripgrep's colours: each match reset, set, written and reset; with a highlight spec a
   * matching line is set in it first and after each match (without a reset there), and reset at its end.
   */
  private colored(segments: Segment[], isMatch: boolean): string {
    const c = this.o.colors;
    if (!c || (c.match === null && c.highlight === null)) return segments.map((g) => g.text).join('');
    const highlight = isMatch ? c.highlight : null;
    let out = highlight !== null ? `${RESET}${highlight}` : '';
    // Adjacent matches are coloured as one (ripgrep merges them; -o still prints them apart).
    for (let k = 0; k < segments.length; k++) {
      const g = segments[k]!;
      if (!g.match || c.match === null) {
        out += g.text;
        continue;
      }
      let t = g.text;
      while (segments[k + 1]?.match) t += segments[++k]!.text;
      if (t !== '') out += `${RESET}${c.match}${t}${RESET}${highlight ?? ''}`;
    }
    return highlight !== null ? `${out}${RESET}` : out;
  }
}

/** The physical lines of a record's text, each with its terminator (the last may lack one). */
function splitLines(text: string, term: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = text.indexOf(term); i !== -1 && i < text.length - 1; i = text.indexOf(term, start)) {
    out.push(text.slice(start, i + 1));
    start = i + 1;
  }
  out.push(text.slice(start));
  return out;
}

function charIndex(bytes: Buffer, byteOffset: number): number {
  return bytes.subarray(0, byteOffset).toString('utf8').length;
}

/**
 * `charIndex` for one line (`bytes` encodes `text`): the identity when every byte is one UTF-16 unit (ASCII —
 * minified code, where a line holds thousands of matches and decoding its prefix per match was quadratic).
 */
function charIndexer(bytes: Buffer, text: string): (byteOffset: number) => number {
  return bytes.length === text.length ? (b) => b : (b) => charIndex(bytes, b);
}

/** ripgrep's --trim: ASCII whitespace at the start of the line. */
function trimStart(s: string): string {
  return s.replace(/^[ \t\n\v\f\r]+/, '');
}

function countOf(s: string, term: string): number {
  let n = 0;
  for (let i = s.indexOf(term); i !== -1; i = s.indexOf(term, i + 1)) n++;
  return n;
}

function textOrBytes(s: string): { text: string } {
  return { text: s };
}

function lineBytes(line: LineRecord): Buffer {
  return line.bytes ? Buffer.from(line.bytes) : Buffer.from(line.text, 'utf8');
}

function submatchText(
  raw: Buffer,
  lossy: boolean,
  start: number,
  end: number,
): { text: string } | { bytes: string } {
  const slice = raw.subarray(start, end);
  return lossy && !Buffer.from(slice.toString('utf8'), 'utf8').equals(slice)
    ? { bytes: slice.toString('base64') }
    : { text: slice.toString('utf8') };
}

function duration(ns: bigint): { secs: number; nanos: number; human: string } {
  const secs = Number(ns / 1_000_000_000n);
  const nanos = Number(ns % 1_000_000_000n);
  return { secs, nanos, human: `${(Number(ns) / 1e9).toFixed(6)}s` };
}

function summaryStats(s: SearchSummary, bytesPrinted: number) {
  return {
    bytes_printed: bytesPrinted,
    bytes_searched: s.bytesSearched,
    elapsed: duration(BigInt(Math.round(s.elapsedMs * 1e6))),
    matched_lines: s.matchedLines,
    matches: s.matches,
    searches: s.filesSearched,
    searches_with_match: s.filesWithMatch,
  };
}

/** `--stats` in ripgrep's plain form. */
export function plainStats(s: SearchSummary, bytesPrinted: number, elapsedSecs: number): string {
  return (
    `\n${s.matchedLines} matched lines\n${s.filesWithMatch} files contained matches\n${s.filesSearched} files searched\n` +
    `${bytesPrinted} bytes printed\n${s.bytesSearched} bytes searched\n` +
    `${elapsedSecs.toFixed(6)} seconds spent searching\n${elapsedSecs.toFixed(6)} seconds\n`
  );
}
