import type { CompiledPattern } from '../../match/index.js';
import { type LinearProgram, linearRegExp } from '../../match/linear.js';
import type { SkipReason } from '../../search/events.js';
import type { FileResult, LineMatcher, SearcherConfig } from '../../search/searcher.js';
import type { ByteWindows } from '../../search/windows.js';

/** A compiled pattern in a form that crosses the worker boundary (RegExps do not survive cloning). */
export interface MatcherSpec {
  regex: { source: string; flags: string };
  asciiRegex: { source: string; flags: string };
  lineRegex?: { source: string; flags: string };
  asciiLineRegex?: { source: string; flags: string };
  leadAtom?: { source: string; flags: string };
  required: { literals: string[]; caseInsensitive: boolean } | null;
  multiline: boolean;
  matchesNewline?: boolean;
  /** The linear-time program standing in for both regexes (patterns V8 could backtrack on forever). */
  linear?: LinearProgram;
}

export function toMatcherSpec(compiled: CompiledPattern): MatcherSpec {
  const plain = (r: RegExp) => ({ source: r.source, flags: r.flags });
  return {
    regex: plain(compiled.regex),
    asciiRegex: plain(compiled.asciiRegex),
    ...(compiled.lineRegex ? { lineRegex: plain(compiled.lineRegex) } : {}),
    ...(compiled.asciiLineRegex ? { asciiLineRegex: plain(compiled.asciiLineRegex) } : {}),
    ...(compiled.leadAtom ? { leadAtom: plain(compiled.leadAtom) } : {}),
    required: compiled.required,
    multiline: compiled.multiline,
    ...(compiled.matchesNewline ? { matchesNewline: true } : {}),
    ...(compiled.linear ? { linear: compiled.linear } : {}),
  };
}

/** The worker side of {@link toMatcherSpec}: the RegExps again. */
export function fromMatcherSpec(spec: MatcherSpec): LineMatcher {
  const linear = spec.linear;
  const re = (r: { source: string; flags: string }) =>
    linear ? linearRegExp(linear, new RegExp(r.source, r.flags)) : new RegExp(r.source, r.flags);
  return {
    regex: re(spec.regex),
    asciiRegex: re(spec.asciiRegex),
    ...(spec.lineRegex ? { lineRegex: re(spec.lineRegex) } : {}),
    ...(spec.asciiLineRegex ? { asciiLineRegex: re(spec.asciiLineRegex) } : {}),
    ...(spec.leadAtom ? { leadAtom: re(spec.leadAtom) } : {}),
    required: spec.required,
    multiline: spec.multiline,
    ...(spec.matchesNewline ? { matchesNewline: true } : {}),
  };
}

/** Why a file larger than the size cap was not searched, worded alike by both engines. */
export function tooLargeMessage(maxFilesize: number): string {
  return `larger than ${maxFilesize} bytes`;
}

export interface WorkerSetup {
  matcher: MatcherSpec;
  config: Omit<SearcherConfig, 'binary'>;
  /** Files larger than this are not read (reported as too-large). */
  maxFilesize: number;
  /** A batch busy longer than this answers with what it has (PARTIAL_ANSWER_MS unless a test sets it). */
  partialAnswerMs: number;
  /** Files larger than this are searched in windows of this size where that is exact (JS_FILE_WINDOW_BYTES). */
  fileWindowBytes?: number;
  /** Answer for every searched file, not only those with matches (--files-without-match, --include-zero). */
  reportUnmatched?: boolean;
  /**
   * The search's detail horizon (EngineRun.detailFiles): once this worker itself has found that many matching
   * files, every later file it reads is past the horizon (its batches are in walk order), so it counts from then
   * on, as the engine's `mode` message would have it do a round trip later.
   */
  detailFiles?: number;
  /**
   * One Int32: output this worker has sent and the consumer not yet taken (OUTPUT_LINE_OVERHEAD units). The
   * worker adds what it sends and waits while it is past WORKER_OUTPUT_CREDIT; the engine subtracts as it emits.
   */
  outputCredit?: SharedArrayBuffer;
  /** Identities of fenced files with other names (SensitiveFence.fencedIdentities): such a file is not read. */
  fencedIdentities?: string[];
}

export interface FileTask {
  seq: number;
  abs: string;
  /** Where the walk found it (WalkEntry.canon): the opened descriptor must read back as this, else it is not searched. */
  canon: string;
  explicit: boolean;
  /** Byte ranges that hold all the file's matches (EngineRun.files.windows): read around them where exact. */
  windows?: ByteWindows;
}

/**
 * A searched file, or a skipped one. A file with a lot of output comes in several outcomes of the same `seq`,
 * in order, each with some of its lines (and the whole file's stats): `more` on all but the last,
 * `continued` on all but the first.
 */
export type FileOutcome =
  | { seq: number; result: FileResult; more?: true; continued?: true }
  | { seq: number; skip: SkipReason; code: string; message: string }
  /** A walked file that is another name of a fenced file: left out unnamed, as the walk leaves the fenced path out. */
  | { seq: number; leftOut: true };

/**
 * What a search worker is told. Every lease begins with `setup`; `batch` asks for files to be read and
 * searched, `content` for bytes the caller already holds (archive members, virtual resources), searched
 * with `binary` as given; `mode` switches later batches of a `lines` search to counting.
 */
export type ToWorker =
  | { type: 'setup'; setup: WorkerSetup }
  | { type: 'batch'; batch: number; files: FileTask[] }
  | { type: 'content'; batch: number; content: Uint8Array; binary: SearcherConfig['binary'] }
  | { type: 'mode'; mode: 'count' };

export type FromWorker = BatchResults | ContentResult;

/**
 * A batch's answer: only files with something to report travel back; the rest are counted. A slow batch
 * is answered in parts, in file order: `partial` is how many of its files the answers so far cover; the
 * part without it ends the batch.
 */
export interface BatchResults {
  type: 'results';
  batch: number;
  partial?: number;
  outcomes: FileOutcome[];
  searched: number;
  bytesSearched: number;
  binary: number;
  /** The output in `outcomes`, in the units of WorkerSetup.outputCredit. */
  outputUnits?: number;
}

export interface ContentResult {
  type: 'content';
  batch: number;
  result: FileResult;
}
