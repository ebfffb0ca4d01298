/**
 * The one event stream both engines produce, modelled on `rg --json` (begin, match, context, end, summary; skip is
 * ours), so consumers never know which engine ran. Offsets are bytes, as ripgrep's are.
 */

/** One match within a `match` event's text: `[start, end)`, in bytes. */
export interface Submatch {
  /** Byte offset within `text` (for a multiline match, within the first line's start). */
  start: number;
  end: number;
}

/** One line of a match or context event: number, byte offset, text and submatch spans. */
export interface LineRecord {
  lineNumber: number;
  /** Byte offset of the first line's start within the file. */
  absoluteOffset: number;
  /**
   * The line (or, for a multiline match, the lines) including the line terminator, decoded as UTF-8
   * with U+FFFD for invalid bytes; cut at a character boundary when `truncated`.
   */
  text: string;
  /** Submatches, byte offsets into the (untruncated) line; empty for context lines. */
  submatches: Submatch[];
  /** `text` was cut to the line-length cap (`maxColumns`, in bytes). */
  truncated?: boolean;
  /** The raw bytes when they are not valid UTF-8 (ripgrep prints these as `{"bytes": base64}`). */
  bytes?: Uint8Array;
}

/** Per-file counts carried by an `end` event. */
export interface FileStats {
  /** Submatches found (for a capped file, those within the cap). */
  matches: number;
  matchedLines: number;
  bytesSearched: number;
  /** The per-file match cap stopped the search while more matches remained. */
  limitReached: boolean;
}

export type SkipReason = 'binary' | 'too-large' | 'unreadable' | 'not-a-file';

/** One event of a search, shaped as `rg --json`'s: begin, match, context, end, skip (a file not searched), summary. */
export type SearchEvent =
  | { type: 'begin'; path: string }
  | ({ type: 'match'; path: string } & LineRecord)
  | ({ type: 'context'; path: string } & LineRecord)
  /**
   * `counted`: the file matched after the request's `detailFiles` horizon, so it was counted, not reported
   * line by line (no lines; its stats are those of a count-mode search: see `SearchRequest.mode`).
   */
  | { type: 'end'; path: string; binaryOffset: number | null; stats: FileStats; counted?: true }
  /** A file that was not searched, reported for files the caller named and for read errors. */
  | { type: 'skip'; path: string; reason: SkipReason; message: string }
  | { type: 'summary'; summary: SearchSummary };

export type EngineName = 'js' | 'rg';

/** How a search ended. Anything but 'complete' means the results are partial, and says why. */
export type SearchOutcome = 'complete' | 'timeout' | 'aborted' | 'walk-budget';

/** The last event of a search: totals, elapsed time and how it ended (complete, timeout, cut, …). */
export interface SearchSummary {
  engine: EngineName;
  /** Why this engine ran (e.g. "rg unavailable: …", "requested"). */
  engineReason: string;
  outcome: SearchOutcome;
  elapsedMs: number;
  filesSearched: number;
  filesWithMatch: number;
  matches: number;
  matchedLines: number;
  bytesSearched: number;
  /** Files passed over, by reason (walked binary files are counted here, not reported one by one). */
  skipped: Record<SkipReason, number>;
  /** Roots that do not exist. */
  missingRoots: string[];
  /** Errors met on the way (unreadable directories and files); the search went on. */
  errors: Array<{ path: string; code: string; message: string }>;
  /**
   * Present when the search was given a content index: whether the index picked the files read (then
   * `filesSearched` counts those, of `files` the walk yielded) or the search scanned, and why; `windowed`: of
   * the files read, the large ones read only around the byte ranges the index said hold their matches.
   */
  index?: { used: boolean; reason: string; candidates?: number; files?: number; windowed?: number };
  /** Present when `engine: "auto"` tried ripgrep and it failed before finding anything: why (the js engine ran). */
  fallback?: string;
}
