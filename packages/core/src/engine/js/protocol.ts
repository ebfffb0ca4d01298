import type { SkipReason } from '../../search/events.js';
import type { FileResult, SearcherConfig } from '../../search/searcher.js';

/** A compiled pattern in a form that crosses the worker boundary (RegExps do not survive cloning). */
export interface MatcherSpec {
  regex: { source: string; flags: string };
  asciiRegex: { source: string; flags: string };
  lineRegex?: { source: string; flags: string };
  asciiLineRegex?: { source: string; flags: string };
  required: { literals: string[]; caseInsensitive: boolean } | null;
  multiline: boolean;
}

export interface WorkerSetup {
  matcher: MatcherSpec;
  config: Omit<SearcherConfig, 'binary'>;
  /** Files larger than this are not read (reported as too-large). */
  maxFilesize: number;
}

export interface FileTask {
  seq: number;
  abs: string;
  explicit: boolean;
}

export type FileOutcome =
  | { seq: number; result: FileResult }
  | { seq: number; skip: SkipReason; code: string; message: string };

export type ToWorker =
  | { type: 'batch'; batch: number; files: FileTask[] }
  | { type: 'mode'; mode: SearcherConfig['mode'] };

/** A batch's answer: only files with something to report travel back; the rest are counted. */
export interface FromWorker {
  type: 'results';
  batch: number;
  outcomes: FileOutcome[];
  searched: number;
  bytesSearched: number;
  binary: number;
}
