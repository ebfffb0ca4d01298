import type { LineRecord, SearchEvent, SearchSummary } from '@trawl/core/engine';

/** Output options of `trawl rg`, mirroring ripgrep's printer flags. */
export interface RgPrintOptions {
  format: 'json' | 'plain';
  mode: 'lines' | 'count' | 'files-with-matches';
  lineNumbers: boolean;
  withFilename: boolean;
  heading: boolean;
  /** ripgrep's --max-columns: lines longer than this many bytes are replaced by a notice. */
  maxColumns?: number;
  contextRequested: boolean;
}

/**
 * Turns engine events into ripgrep's output: `--json` (the JSON Lines schema of `rg --json`) or the
 * plain `path:line:text` form (headings when stdout is a terminal). Returns text chunks to write.
 */
export class RgPrinter {
  private readonly started = process.hrtime.bigint();
  private bytesPrinted = 0;
  private lastLineNumber = -1;
  private printedAnyGroup = false;
  private fileBuffer: Array<SearchEvent & { type: 'match' | 'context' }> = [];

  constructor(private readonly o: RgPrintOptions) {}

  print(event: SearchEvent): string {
    const out = this.o.format === 'json' ? this.json(event) : this.plain(event);
    this.bytesPrinted += Buffer.byteLength(out);
    return out;
  }

  private json(e: SearchEvent): string {
    switch (e.type) {
      case 'begin':
        return `${JSON.stringify({ type: 'begin', data: { path: textOrBytes(e.path) } })}\n`;
      case 'match':
      case 'context': {
        // The line's bytes once, not once per submatch (a minified line can hold thousands).
        const raw = e.submatches.length > 0 ? lineBytes(e) : null;
        return `${JSON.stringify({
          type: e.type,
          data: {
            path: textOrBytes(e.path),
            lines: e.bytes ? { bytes: Buffer.from(e.bytes).toString('base64') } : { text: e.text },
            line_number: e.lineNumber,
            absolute_offset: e.absoluteOffset,
            submatches: e.submatches.map((s) => ({
              match: submatchText(raw!, e.bytes !== undefined, s.start, s.end),
              start: s.start,
              end: s.end,
            })),
          },
        })}\n`;
      }
      case 'end':
        return `${JSON.stringify({
          type: 'end',
          data: {
            path: textOrBytes(e.path),
            binary_offset: e.binaryOffset,
            stats: {
              elapsed: duration(0n),
              searches: 1,
              searches_with_match: 1,
              bytes_searched: e.stats.bytesSearched,
              bytes_printed: 0,
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
  }

  private plain(e: SearchEvent): string {
    const o = this.o;
    switch (e.type) {
      case 'begin':
        this.fileBuffer = [];
        this.lastLineNumber = -1;
        return '';
      case 'match':
      case 'context':
        this.fileBuffer.push(e);
        return '';
      case 'end': {
        const lines = this.fileBuffer;
        this.fileBuffer = [];
        if (o.mode === 'files-with-matches') return `${e.path}\n`;
        if (o.mode === 'count')
          return o.withFilename ? `${e.path}:${e.stats.matchedLines}\n` : `${e.stats.matchedLines}\n`;
        let out = '';
        if (o.heading && this.printedAnyGroup) out += '\n';
        else if (!o.heading && this.printedAnyGroup && o.contextRequested) out += '--\n';
        this.printedAnyGroup = true;
        if (
          e.binaryOffset !== null &&
          lines.some((l) => l.absoluteOffset + Buffer.byteLength(l.text) > e.binaryOffset!)
        ) {
          // ripgrep's rule for a named binary file: say it matches, print none of its bytes.
          const where = `binary file matches (found "\\0" byte around offset ${e.binaryOffset})\n`;
          return out + (o.withFilename ? `${e.path}: ${where}` : where);
        }
        if (o.heading && o.withFilename) out += `${e.path}\n`;
        for (const line of lines) out += this.plainLine(e.path, line);
        return out;
      }
      default:
        return '';
    }
  }

  private plainLine(path: string, line: SearchEvent & LineRecord): string {
    const o = this.o;
    const isMatch = line.type === 'match';
    let out = '';
    if (this.lastLineNumber !== -1 && line.lineNumber > this.lastLineNumber + 1 && o.contextRequested) {
      out += '--\n';
    }
    this.lastLineNumber = line.lineNumber + countNewlines(line.text) - (line.text.endsWith('\n') ? 1 : 0);
    const sep = isMatch ? ':' : '-';
    let prefix = '';
    if (o.withFilename && !o.heading) prefix += `${path}${sep}`;
    if (o.lineNumbers) prefix += `${line.lineNumber}${sep}`;
    let text = line.text.replace(/\r?\n$/, '');
    if (o.maxColumns !== undefined && Buffer.byteLength(text) > o.maxColumns) {
      text = isMatch
        ? `[Omitted long line with ${line.submatches.length} matches]`
        : '[Omitted long context line]';
    }
    return `${out}${prefix}${text}\n`;
  }
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
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
