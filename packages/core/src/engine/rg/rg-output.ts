/**
 * The rg engine's output decoding: rg's `--json` messages and its `--count` records (with its statistics) as our
 * events, one file block at a time, and its stderr lines as errors. The command lines that ask for them are built
 * in rg-argv.ts.
 */
import type { Readable } from 'node:stream';
import { RG_FILE_PART_BYTES } from '../../limits.js';
import type { LineRecord, SearchEvent, SearchOutcome, SearchSummary } from '../../search/events.js';
import { charBoundaryAtOrBefore } from '../../search/utf8.js';
import type { EngineRun } from '../run.js';
import { NAMED_DASH } from './rg-argv.js';

/**
 * What one file produced, or a part of it (a file with a lot of output comes in parts of about
 * RG_FILE_PART_BYTES, in order, the first holding its `begin`), so files can be put in walk order.
 */
export interface FileBlock {
  path: string;
  /** Its root's place among the roots (a candidate list's files are its roots: its place in the list). */
  rootIndex: number;
  events: SearchEvent[];
  /** Size of rg's output for it: what holding it costs, roughly. */
  bytes: number;
  /** This part continues the file of the part before it. */
  continued?: true;
  /** More of this file follows in the next part. */
  more?: true;
  /** A named file rg read through a descriptor judged where it is (held-files.ts): no filter is asked again. */
  judged?: true;
}

/** How one rg run ended: killed by the deadline or an abort, or complete. */
export interface RgControl {
  outcome: SearchOutcome;
  /**
   * Count mode: files rg's statistics say matched that its count list left out. ripgrep's `--count` leaves out a
   * walked file whose NUL it met after a match (its lines output reports the matches before the NUL).
   */
  unlisted?: number;
}

/** Reads one rg run's stdout as file blocks, spelling each path as the caller's (see `outputSpelling`). */
export type OutputReader = (
  stdout: Readable,
  spell: (rgPath: string) => string,
  run: EngineRun,
  summary: SearchSummary,
  stopped: () => boolean,
  control: RgControl,
) => AsyncGenerator<FileBlock, void, undefined>;

/**
 * `--count --with-filename --null --stats`: records `PATH\0COUNT\n` (`PATH\0COUNT\0` with --null-data), then rg's statistics as text. A path
 * never holds a NUL and the statistics never do, so what is left without one at the end is the
 * statistics (absent if rg was killed). The one count per file stands in both of an end's counts (SearchRequest
 * `mode`); the statistics give both totals exactly, and replace the sums when rg ran to its end.
 */
export const readCounts: OutputReader = async function* (stdout, spell, run, summary, stopped, control) {
  let rest: Buffer = Buffer.alloc(0);
  const summed = { matches: 0, lines: 0, files: 0 };
  for await (const chunk of stdout as AsyncIterable<Buffer>) {
    if (stopped()) continue; // drain what was buffered before the kill
    const buf = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (;;) {
      const nul = buf.indexOf(0, start);
      // --null-data ends every record with a NUL instead (the statistics still use '\n').
      const eol = nul === -1 ? -1 : buf.indexOf(run.searcher.nullData ? 0 : 10, nul + 1);
      if (eol === -1) break;
      const p = spell(buf.toString('utf8', start, nul));
      // With -m1 (files-with-matches) rg stopped at the first matching line: the count is 1.
      const n = Number(buf.toString('utf8', nul + 1, eol));
      start = eol + 1;
      yield {
        path: p,
        rootIndex: 0,
        bytes: eol - nul + p.length,
        events: [
          {
            type: 'end',
            path: p,
            binaryOffset: null,
            stats: { matches: n, matchedLines: n, bytesSearched: 0, limitReached: false },
          },
        ],
      };
      if (n === 0) continue;
      summary.filesWithMatch++;
      summary.matches += n;
      summary.matchedLines += n;
      summed.matches += n;
      summed.lines += n;
      summed.files++;
    }
    rest = buf.subarray(start);
  }
  if (stopped()) return;
  const stats = rest.toString('utf8');
  const stat = (what: string) => {
    const m = new RegExp(`^(\\d+) ${what}$`, 'm').exec(stats);
    return m ? Number(m[1]) : null;
  };
  summary.filesSearched += stat('files searched') ?? 0;
  summary.bytesSearched += stat('bytes searched') ?? 0;
  // files-with-matches stopped each file at its first match: its sums (one a file) are what it knows.
  if (run.searcher.mode === 'files-with-matches' && !run.reportUnmatched) return;
  const matches = stat('matches');
  const lines = stat('matched lines');
  if (matches !== null) summary.matches += matches - summed.matches;
  if (lines !== null) summary.matchedLines += lines - summed.lines;
  const files = stat('files contained matches');
  if (files !== null && files > summed.files && !run.reportUnmatched) control.unlisted = files - summed.files;
};

/**
 * `--json`: one message a line (begin, match, context, end, summary), translated into our events. A file
 * is passed on in parts of about RG_FILE_PART_BYTES of rg's output, so none is held whole.
 */
export const readJson: OutputReader = async function* (stdout, spell, run, summary, stopped) {
  let current: FileBlock | null = null;
  for await (const line of jsonLines(stdout)) {
    if (stopped()) continue; // drain what was buffered before the kill
    if (current) current.bytes += line.length;
    const msg = parseLine(line);
    if (!msg) continue;
    switch (msg.type) {
      case 'begin':
        current = {
          path: spell(decodeData(msg.data.path).text),
          rootIndex: 0,
          events: [],
          bytes: line.length,
        };
        current.events.push({ type: 'begin', path: current.path });
        break;
      case 'match':
      case 'context':
        if (!current) break;
        current.events.push({ type: msg.type, path: current.path, ...toLineRecord(msg.data, run) });
        if (current.bytes >= RG_FILE_PART_BYTES) {
          const part: FileBlock = { ...current, more: true };
          yield part;
          current = { path: current.path, rootIndex: 0, events: [], bytes: 0, continued: true };
        }
        break;
      case 'end': {
        if (!current) break;
        const st = msg.data.stats ?? {};
        const matchedLines = st.matched_lines ?? 0;
        current.events.push({
          type: 'end',
          path: current.path,
          binaryOffset: msg.data.binary_offset ?? null,
          stats: {
            matches: st.matches ?? 0,
            matchedLines,
            bytesSearched: st.bytes_searched ?? 0,
            limitReached: run.searcher.maxCount !== undefined && matchedLines >= run.searcher.maxCount,
          },
        });
        summary.filesWithMatch++;
        summary.matches += st.matches ?? 0;
        summary.matchedLines += matchedLines;
        yield current;
        current = null;
        break;
      }
      case 'summary': {
        const st = msg.data.stats ?? {};
        summary.filesSearched += st.searches ?? 0;
        summary.bytesSearched += st.bytes_searched ?? 0;
        break;
      }
    }
  }
};

/**
 * How rg's paths are given back. Paths under a root spelled '' come back as `./x`: given back as `x`. A file
 * named `-` is given to rg as `./-` (`-` alone is standard input to it): given back as `-`. Decided once per run,
 * not per path (a candidate list has thousands of roots).
 */
export function outputSpelling(
  roots: readonly string[],
  named: { dash: boolean } | null,
): (rgPath: string) => string {
  if (named) return named.dash ? (p) => (p === NAMED_DASH ? '-' : p) : (p) => p;
  if (roots.includes('') && !roots.includes('.')) return (p) => (p.startsWith('./') ? p.slice(2) : p);
  return (p) => p;
}

/** rg reports per-file problems on stderr as `rg: PATH: MESSAGE (os error N)`; keep them as errors. */
export function collectErrors(
  stderr: string,
  summary: SearchSummary,
  code: number | null,
  /** A held file's `/dev/fd/N` → its spelling. */
  spelling?: ReadonlyMap<string, string>,
): void {
  for (const line of stderr.split('\n')) {
    if (!line.trim()) continue;
    const e = parseRgError(line);
    if (e) {
      e.path = spelling?.get(e.path) ?? e.path;
      if (e.code === 'ENOENT' && summary.missingRoots.includes(e.path)) continue;
      summary.errors.push(e);
      if (e.code === 'EACCES' || e.code === 'EPERM') summary.skipped.unreadable++;
    } else if (code === 2 && !/^No files were searched/.test(line) && !/^Running with --debug/.test(line)) {
      summary.errors.push({ path: '', code: 'ERG', message: line.replace(/^rg: /, '') });
    }
  }
}

/** One of rg's per-path error lines (`rg: PATH: MESSAGE (os error N)`) as an error with its errno name. */
export function parseRgError(line: string): { path: string; code: string; message: string } | null {
  const m = /^(?:rg: )?(.*?): (.*?) \(os error (\d+)\)$/.exec(line);
  if (!m) return null;
  return { path: m[1]!, code: OS_ERRORS[Number(m[3])] ?? `E${m[3]}`, message: m[2]! };
}

const OS_ERRORS: Record<number, string> = {
  1: 'EPERM',
  2: 'ENOENT',
  13: 'EACCES',
  20: 'ENOTDIR',
  21: 'EISDIR',
  40: 'ELOOP',
};

interface RgData {
  text?: string;
  bytes?: string;
}

interface RgMessage {
  type: 'begin' | 'match' | 'context' | 'end' | 'summary';
  // biome-ignore lint/suspicious/noExplicitAny: rg's JSON is validated field by field where it is read
  data: any;
}

function parseLine(line: string): RgMessage | null {
  try {
    const msg = JSON.parse(line) as RgMessage;
    return typeof msg === 'object' && msg !== null && typeof msg.type === 'string' ? msg : null;
  } catch {
    return null;
  }
}

/** rg sends non-UTF-8 paths and lines as base64 `bytes`; decode those lossily and keep the raw form. */
function decodeData(d: RgData | undefined): { text: string; bytes?: Uint8Array } {
  if (!d) return { text: '' };
  if (typeof d.text === 'string') return { text: d.text };
  const raw = Buffer.from(d.bytes ?? '', 'base64');
  return { text: raw.toString('utf8'), bytes: new Uint8Array(raw) };
}

function toLineRecord(
  data: {
    lines?: RgData;
    line_number?: number;
    absolute_offset?: number;
    submatches?: Array<{ start: number; end: number }>;
  },
  run: EngineRun,
): LineRecord {
  const decoded = decodeData(data.lines);
  let submatches = (data.submatches ?? []).map((s) => ({ start: s.start, end: s.end }));
  if (submatches.some((s) => s.start === s.end)) {
    // rg reports empty matches at every byte, even inside a multi-byte character; the js engine (and the
    // contract) only at character boundaries.
    const raw = decoded.bytes ?? Buffer.from(decoded.text, 'utf8');
    submatches = submatches.filter(
      (s) => s.start !== s.end || s.start >= raw.length || (raw[s.start]! & 0xc0) !== 0x80,
    );
  }
  const record: LineRecord = {
    lineNumber: data.line_number ?? 0,
    absoluteOffset: data.absolute_offset ?? 0,
    text: decoded.text,
    submatches,
  };
  if (decoded.bytes) record.bytes = decoded.bytes;
  const cap = run.searcher.maxColumns;
  // Measured before any encoding: most lines are under the cap and need no buffer.
  if (cap !== undefined && (decoded.bytes?.length ?? Buffer.byteLength(decoded.text, 'utf8')) > cap) {
    const raw = decoded.bytes ? Buffer.from(decoded.bytes) : Buffer.from(decoded.text, 'utf8');
    const cut = charBoundaryAtOrBefore(raw, 0, cap);
    record.text = raw.toString('utf8', 0, cut);
    record.truncated = true;
    if (record.bytes) record.bytes = record.bytes.slice(0, cut);
  }
  return record;
}

/** rg's stdout as lines, read only as fast as they are taken (no line is held twice). */
async function* jsonLines(stdout: Readable): AsyncGenerator<string, void, undefined> {
  let rest = '';
  stdout.setEncoding('utf8');
  for await (const chunk of stdout as AsyncIterable<string>) {
    const text = rest + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      yield text.slice(start, nl);
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  if (rest) yield rest;
}
