import type { ChildProcess, SpawnOptions } from 'node:child_process';
import type { EngineName, SearchSummary } from '../search/events.js';
import type { SearcherConfig } from '../search/searcher.js';
import type { ByteWindows } from '../search/windows.js';
import type { WalkEntry, WalkOptions, WalkStats } from '../walk/walker.js';
import type { MatcherSpec } from './js/protocol.js';

/** The pattern as both engines need it: rg takes the (repaired) Rust syntax, js the translated RegExps. */
export interface PatternForEngines {
  /** Rust-syntax pattern after lenient repairs (what rg is given). */
  rust: string;
  fixedStrings: boolean;
  caseInsensitive: boolean;
  wordRegexp: boolean;
  multiline: boolean;
  /** The js translation. */
  spec: MatcherSpec;
}

/** One search, fully resolved: what every engine runs from. */
export interface EngineRun {
  pattern: PatternForEngines;
  walk: Omit<WalkOptions, 'deadline' | 'signal' | 'now'>;
  searcher: Omit<SearcherConfig, 'binary'>;
  maxFilesize: number;
  deadline?: number;
  signal?: AbortSignal;
  now: () => number;
  workers?: number;
  /** After this many files with matches, later files are only checked for a match (see `end.counted`). */
  detailFiles?: number;
  /** Test seam: how long a js-engine batch runs before it answers in part (default PARTIAL_ANSWER_MS). */
  partialAnswerMs?: number;
  /**
   * The files to search, already walked and narrowed (a content index's candidates): the engine reads these
   * instead of walking, and reports the walk's stats as given. `windows` (same order as `entries`) may say, per
   * file, which byte ranges hold all its matches: the js engine then reads only around them where that is
   * exact (search/windows.ts) and the file whole otherwise; the rg engine always reads files whole, given them
   * on its command line as named files (so only files that read the same named as walked: see
   * `IndexSelection.plainCandidates`), in batches of RG_LIST_ARGV_BYTES.
   */
  files?: { entries: WalkEntry[]; stats: WalkStats; windows?: ReadonlyArray<ByteWindows | undefined> };
  /** What the root `-` reads (the caller's standard input, read by the caller): reported as `<stdin>`. */
  stdinContent?: Uint8Array;
  /** Emit an `end` (without `begin`) for every searched file that has no match, too. */
  reportUnmatched?: boolean;
  /** With reportUnmatched, the rg engine counts matches rather than matching lines (--count-matches). */
  countMatches?: boolean;
  /** Seam: the rg engine's RG_HELD_OUTPUT_BYTES (tests make it small to take the streaming path). */
  rgHeldOutputBytes?: number;
  /** Seam: the rg engine's RG_LIST_ARGV_BYTES (tests make it small to run a list in many batches). */
  rgListArgvBytes?: number;
  /** Seam: the js engine's JS_FILE_WINDOW_BYTES (tests make it small to search files window by window). */
  fileWindowBytes?: number;
  /** Why this engine was chosen, reported in the summary. */
  engineReason: string;
  /** For the rg engine: the vetted binary, and whether the pattern goes through stdin. */
  rgPath?: string;
  patternChannel?: 'argv' | 'stdin';
  /** For the rg engine: negated case-insensitive globs it may prune by (`exclude` still decides). */
  rgExcludeIglobs?: string[];
  /**
   * For the rg engine: a content index vouched that no file of the walk exceeds `maxFilesize` (watched, every
   * size known), so ripgrep is not asked to check (--max-filesize costs it a stat per file: ~13 % of a scan of
   * the Linux tree). Only a scan the index declined gets it.
   */
  sizesWithinCap?: boolean;
  /** For the rg engine: ripgrep's --no-mmap (named files read in buffers; decides how binary ones report). */
  rgNoMmap?: boolean;
  spawnRg?: SpawnRg;
  /** SearchRequest.fencedIdentities: files read that are one of these are refused. */
  fencedIdentities?: ReadonlySet<string>;
}

/** How the rg engine starts its child (`child_process.spawn`'s shape). */
export type SpawnRg = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** A summary with nothing counted yet; each engine fills it in as it goes. */
export function emptySummary(engine: EngineName, engineReason: string): SearchSummary {
  return {
    engine,
    engineReason,
    outcome: 'complete',
    elapsedMs: 0,
    filesSearched: 0,
    filesWithMatch: 0,
    matches: 0,
    matchedLines: 0,
    bytesSearched: 0,
    skipped: { binary: 0, 'too-large': 0, unreadable: 0, 'not-a-file': 0 },
    missingRoots: [],
    errors: [],
  };
}

/**
 * The engine asked for cannot run here: no vetted ripgrep for `engine: "rg"`, or the ripgrep found could not be
 * started. With `engine: "auto"` the search runs on the js engine instead and its summary says why (`fallback`).
 */
export class EngineUnavailableError extends Error {
  readonly code = 'engine_unavailable';
  constructor(message: string) {
    super(message);
    this.name = 'EngineUnavailableError';
  }
}
