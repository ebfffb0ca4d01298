import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  COMPILED_PATTERNS_KEPT,
  JS_ENGINE_DEFAULT_DEADLINE_MS,
  MAX_READ_BYTES,
  NAMED_FILES_ONLY_MAX,
  NAMED_FILES_ONLY_MAX_BYTES,
  RG_LIST_MAX_SHARE,
} from '../limits.js';
import { type CompiledPattern, compilePattern } from '../match/index.js';
import { expandReplacement } from '../match/rg-patterns.js';
import type { SearchEvent, SearchSummary } from '../search/events.js';
import { type SearchMode, swapTerminatorChars, transcodes } from '../search/searcher.js';
import type { WalkOptions } from '../walk/walker.js';
import { searchContent } from './js/content-search.js';
import { runJsEngine } from './js/js-engine.js';
import { toMatcherSpec } from './js/protocol.js';
import { prewarmSearchWorker, searchWorkerStats } from './js/worker-pool.js';
import { resolveRipgrep } from './rg/resolve-rg.js';
import { runRgEngine } from './rg/rg-engine.js';
import {
  type EngineRun,
  EngineUnavailableError,
  emptySummary,
  type PatternForEngines,
  type SpawnRg,
} from './run.js';
import type { IndexSelection, IndexSelectRequest, IndexUse, SearchIndex } from './search-index.js';

export { EngineUnavailableError } from './run.js';

/** Which engine a search runs on: `auto` (a vetted ripgrep when one exists, else js), `js` or `rg`. */
export type EngineChoice = 'auto' | 'js' | 'rg';

/** The walk options a search passes through unchanged (documented on WalkOptions). */
type WalkChoices = Pick<
  WalkOptions,
  | 'hidden'
  | 'ignoreFiles'
  | 'requireGit'
  | 'parents'
  | 'globs'
  | 'globCaseInsensitive'
  | 'globBase'
  | 'globMode'
  | 'exclude'
  | 'skipDirs'
  | 'maxEntries'
  | 'maxDirs'
  | 'maxDepth'
  | 'followLinks'
  | 'fileTypes'
  | 'extraIgnoreFiles'
  | 'vcsIgnore'
  | 'dotIgnore'
>;

/** One content search. Defaults follow ripgrep's (no hidden files, ignore files honoured, no caps). */
export interface SearchRequest extends WalkChoices {
  pattern: string;
  /** Files or directories, as the caller spells them (output paths keep the spelling); default ['']: cwd, unprefixed. */
  paths?: string[];
  cwd?: string;

  fixedStrings?: boolean;
  caseInsensitive?: boolean;
  wordRegexp?: boolean;
  multiline?: boolean;
  /** Brace and parenthesis repair (see match/): default true. */
  lenient?: boolean;

  /** ripgrep -v: the lines that do not match are the matches. */
  invertMatch?: boolean;
  /** Binary files: 'auto' (ripgrep's default), 'search' (--binary), 'text' (-a: no detection). */
  binary?: 'auto' | 'search' | 'text';
  /** ripgrep -E: a WHATWG encoding label files are decoded from (a BOM still wins), or 'none' (raw bytes). */
  encoding?: string;
  /** Refuse a pattern that must match a NUL while binary detection is on (ripgrep's rule; `trawl rg`). */
  banNul?: boolean;
  /** ripgrep --null-data: NUL ends a line ('\n' is an ordinary character); binary detection is off. */
  nullData?: boolean;
  /** ripgrep --stop-on-nonmatch: a file ends at the first non-matching line after a matching one. */
  stopOnNonmatch?: boolean;
  /**
   * The content of the root `-` (ripgrep's standard input), read by the caller under its own size cap;
   * reported under the path `<stdin>`. Without it, `-` is a file of that name.
   */
  stdin?: Uint8Array;
  /** Also an `end` event (no `begin`, zero stats) for each searched file without a match. */
  reportUnmatched?: boolean;
  /**
   * In `count` mode, and with `reportUnmatched`: the count that matters is of matches, not matching lines
   * (ripgrep's --count-matches). `counted` ends past `detailFiles` always count lines.
   */
  countMatches?: boolean;

  /**
   * What each matching file reports (default `lines`): `lines` its lines (begin, match/context, end); `count`
   * only its counts, one `end` per matching file and no match event, in bounded memory on both engines (the rg
   * engine reads `rg --count`, never its JSON); `files-with-matches` one `end` per matching file, found at its
   * first match. In `count` mode an end's `stats.matchedLines` is exact (`stats.matches` with `countMatches`):
   * ripgrep prints one count per file, so the rg engine gives that one in both fields; the summary's totals of
   * both are exact on both engines.
   */
  mode?: SearchMode;
  beforeContext?: number;
  afterContext?: number;
  maxCount?: number;
  maxColumns?: number;
  maxFilesize?: number;
  /**
   * In `lines` mode: full events for the first N matching files in path order only; every later matching file is
   * counted (as in `count` mode: its matching lines exact, within `maxCount`) and reported as one `end` with
   * `counted: true`, so totals stay exact past the horizon and no line past it is read out. Both engines honour
   * it (the rg engine counts with `rg --count`, then reads the N files' lines with the walk's own binary rule).
   */
  detailFiles?: number;

  engine?: EngineChoice;
  /**
   * A content index of a directory holding the search's roots (`openIndex`, or a registry of several): it picks the files read, never
   * what is found; the summary's `index` says whether it was used and why. Searches through it run on the
   * js engine's warm workers (spawning rg costs more than an indexed answer); a broad pattern scans as usual.
   */
  index?: SearchIndex;
  /** A ripgrep binary to use instead of the bundled one / PATH (vetted all the same). */
  rgPath?: string;
  /** 'stdin' keeps the pattern off rg's argv (process listings); default 'argv'. */
  patternChannel?: 'argv' | 'stdin';
  /**
   * For the rg engine: `exclude` written as negated, case-insensitive globs (rg `--iglob`), so rg skips that work
   * during its walk. A hint only: `exclude` stays the rule, applied to rg's results after the fact.
   */
  rgExcludeIglobs?: string[];
  /**
   * For the rg engine: ripgrep's --no-mmap, so named binary files report as ripgrep's buffered reading does
   * (`trawl rg --no-mmap`; the js engine reports the NUL and the CLI's printer applies the rule).
   */
  rgNoMmap?: boolean;
  /**
   * Identities of fenced files with other names (SensitiveFence.fencedIdentities): a file read that is one of them
   * (a hard link in the tree to a credential file) is refused, by either engine, as its fenced path would be.
   */
  fencedIdentities?: ReadonlySet<string>;
  /**
   * Milliseconds from now; the search stops and says so when it passes. Unset: no deadline for rg (its regex
   * engine is linear), JS_ENGINE_DEFAULT_DEADLINE_MS for the js engine (a backtracking pattern can run for ever).
   */
  deadlineMs?: number;
  /**
   * @deprecated Use {@link SearchRequest.deadlineMs}: the same milliseconds under the name every other deadline
   * option in trawl uses. Kept because 0.1 exported it; read only when `deadlineMs` is unset.
   */
  timeoutMs?: number;
  signal?: AbortSignal;
  workers?: number;
  /**
   * Warm a search worker for the next named-files search when this one runs on rg (default true). A
   * one-shot process (the CLI) passes false: the worker would start, compete for the CPU, and never be used.
   */
  prewarmWorker?: boolean;
  now?: () => number;
}

/**
 * A search's seams for tests, kept off the public SearchRequest: a test (or a layer of core forwarding its own
 * caller's seam) passes them with searchWithSeams / searchBatchesWithSeams, which @trawl/core/engine does not export.
 */
export interface SearchSeams {
  /** How much rg output the rg engine holds before it streams instead (limits.ts RG_HELD_OUTPUT_BYTES). */
  rgHeldOutputBytes?: number;
  /** The argv bytes of one rg run over an index's candidate list (limits.ts RG_LIST_ARGV_BYTES). */
  rgListArgvBytes?: number;
  /** Above what size the js engine searches a walked file window by window (limits.ts). */
  fileWindowBytes?: number;
  /** Starts the rg child (tests observe its process). Default `child_process.spawn`. */
  spawnRg?: SpawnRg;
}

/** A request with test seams (searchWithSeams). */
export type SeamedSearchRequest = SearchRequest & SearchSeams;

const NO_SEAMS: SearchSeams = {};

/** The request's deadline in milliseconds from now: `deadlineMs`, else the deprecated `timeoutMs`. */
export function deadlineMsOf(request: Pick<SearchRequest, 'deadlineMs' | 'timeoutMs'>): number | undefined {
  return request.deadlineMs ?? request.timeoutMs;
}

/**
 * Runs a search and streams its events, ending with one `summary`. The pattern is compiled up front, so
 * an invalid pattern throws a `PatternError` before anything runs; an engine that was asked for by name
 * but cannot run throws `EngineUnavailableError`.
 */
export function search(request: SearchRequest): AsyncGenerator<SearchEvent, void, undefined> {
  return flatten(batchesOf(request, NO_SEAMS));
}

/** `search` with test seams (SearchSeams). */
export function searchWithSeams(request: SeamedSearchRequest): AsyncGenerator<SearchEvent, void, undefined> {
  return flatten(batchesOf(request, request));
}

async function* flatten(
  batches: AsyncGenerator<SearchEvent[], void, undefined>,
): AsyncGenerator<SearchEvent, void, undefined> {
  for await (const batch of batches) yield* batch;
}

/**
 * `search`, in the batches the engine produces them: one await per batch instead of one per event, for
 * consumers that handle many events (a printer of a million lines).
 */
export function searchBatches(request: SearchRequest): AsyncGenerator<SearchEvent[], void, undefined> {
  return batchesOf(request, NO_SEAMS);
}

/** `searchBatches` with test seams (SearchSeams). */
export function searchBatchesWithSeams(
  request: SeamedSearchRequest,
): AsyncGenerator<SearchEvent[], void, undefined> {
  return batchesOf(request, request);
}

/** The search's batches; the seams are read from `seams` only (a public caller's request cannot set one). */
function batchesOf(
  request: SearchRequest,
  seams: SearchSeams,
): AsyncGenerator<SearchEvent[], void, undefined> {
  if (request.index && answersThroughIndex(request)) {
    // The engine is chosen only if the index does not answer: vetting rg costs more than an indexed answer.
    const began = (request.now ?? Date.now)();
    const { run, compiled } = prepareRun(request, seams, 'js for the index', began);
    return throughIndex(request.index, request, compiled, run, () =>
      prepareRun(request, seams, undefined, began),
    );
  }
  const prepared = prepareRun(request, seams);
  const { run, engine, compiled } = prepared;
  if (run.stdinContent && engine === 'js') return withStdinFirst(request, seams, run, compiled);
  if (!request.index) return startEngine(prepared);
  return throughIndex(request.index, request, compiled, run, () => prepared);
}

/** What a search runs: the run, the engine chosen for it, and whether js may stand in for a failed rg. */
interface Prepared {
  run: EngineRun;
  engine: 'js' | 'rg';
  /** `engine: "auto"` chose rg: if it fails before finding anything, the js engine runs instead. */
  mayFallBack: boolean;
}

/** Runs the chosen engine; `sizesVouched`: an index vouched that no walked file exceeds the size cap. */
function startEngine(p: Prepared, sizesVouched = false): AsyncGenerator<SearchEvent[], void, undefined> {
  if (p.engine === 'js') return runJsEngine(p.run);
  return orJs(runRgEngine(sizesVouched ? { ...p.run, sizesWithinCap: true } : p.run), p);
}

/**
 * rg's events, or — when `auto` chose it and it failed before finding anything (it could not be started, or
 * exited with an error of its own and no match) — the js engine's over the same files, its summary saying why
 * (`fallback`). Only the first batch is looked at: once rg has reported something it is the answer.
 */
async function* orJs(
  rg: AsyncGenerator<SearchEvent[], void, undefined>,
  p: Prepared,
): AsyncGenerator<SearchEvent[], void, undefined> {
  let first: IteratorResult<SearchEvent[], void>;
  let failure: string | null = null;
  try {
    first = await rg.next();
    const only = first.done ? undefined : first.value;
    const summary = only?.length === 1 && only[0]!.type === 'summary' ? only[0]!.summary : null;
    const fatal = summary?.filesWithMatch === 0 ? summary.errors.find((e) => e.code === 'ERG') : undefined;
    if (fatal) failure = fatal.message;
  } catch (err) {
    if (!p.mayFallBack || !(err instanceof EngineUnavailableError)) throw err;
    failure = err.message;
    first = { done: true, value: undefined };
  }
  if (failure === null || !p.mayFallBack) {
    if (!first.done) yield first.value;
    yield* rg;
    return;
  }
  const fallback = `rg failed: ${failure}`;
  const run: EngineRun = {
    ...p.run,
    engineReason: `auto: ${fallback}`,
    // The js engine's own default deadline holds when the caller set none (a backtracking pattern).
    deadline: p.run.deadline ?? p.run.now() + JS_ENGINE_DEFAULT_DEADLINE_MS,
  };
  for await (const batch of runJsEngine(run)) {
    const last = batch.at(-1);
    if (last?.type === 'summary') last.summary.fallback = fallback;
    yield batch;
  }
}

/**
 * What runs when the index declines: rg over its candidate list when the scan would be rg's and the index
 * handed the list back (every candidate reads the same named as walked); the scan otherwise. rg reads a list of
 * a minority of the tree's files at a fraction of its scan's cost (no walk, no ignore rules, fewer bytes).
 */
function afterDecline(
  p: Prepared,
  selection: IndexSelection,
  use: IndexUse,
): { source: AsyncGenerator<SearchEvent[], void, undefined>; use: IndexUse } {
  const list = selection.plainCandidates;
  if (
    p.engine === 'rg' &&
    list &&
    // Reported files are checked to be where the walk found them, reached by no link (rg-engine.ts).
    !p.run.walk.followLinks &&
    list.entries.length <= list.stats.files * RG_LIST_MAX_SHARE &&
    list.bytes <= list.totalBytes * RG_LIST_MAX_SHARE
  ) {
    const files = list.entries.length;
    const reason = `index: ${files} of ${list.stats.files} files may match (${mb(list.bytes)} of ${mb(list.totalBytes)} MB): rg reads the list`;
    return {
      source: orJs(runRgEngine({ ...p.run, files: { entries: list.entries, stats: list.stats } }), {
        ...p,
        run: { ...p.run, files: { entries: list.entries, stats: list.stats } },
      }),
      use: { used: true, reason, candidates: files, files: list.stats.files },
    };
  }
  return { source: startEngine(p, selection.withinSizeCap === true), use };
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

/** Whether the index may answer (rg asked for by name never does; standard input is never indexed). */
function answersThroughIndex(request: SearchRequest): boolean {
  return request.engine !== 'rg' && !(request.stdin && (request.paths ?? []).includes('-'));
}

/** The path standard input is reported under, as ripgrep's. */
export const STDIN_PATH = '<stdin>';

/**
 * The js engine with `-` among the roots: standard input is searched first, in a worker as any content the
 * caller holds (searchContent: the deadline still holds), then the other roots; one summary for all.
 */
async function* withStdinFirst(
  request: SearchRequest,
  seams: SearchSeams,
  run: EngineRun,
  compiled: CompiledPattern,
): AsyncGenerator<SearchEvent[], void, undefined> {
  const began = run.now();
  const content = Buffer.from(run.stdinContent!);
  const r = await searchContent(
    content,
    compiled,
    // Standard input counts as a named file (ripgrep's rule): binary detection only with --binary/-a.
    { ...run.searcher, binary: run.searcher.binaryDetection === 'none' ? 'none' : 'text' },
    run.deadline ?? Number.POSITIVE_INFINITY,
    run.signal,
  );
  const events: SearchEvent[] = [];
  const found = { files: 1, withMatch: 0, matches: 0, lines: 0, bytes: content.length };
  if (r && (r.stats.matchedLines > 0 || run.reportUnmatched)) {
    if (r.stats.matchedLines > 0) {
      events.push({ type: 'begin', path: STDIN_PATH });
      for (const line of r.lines) events.push({ ...line, path: STDIN_PATH });
      found.withMatch = 1;
      found.matches = r.stats.matches;
      found.lines = r.stats.matchedLines;
    }
    events.push({ type: 'end', path: STDIN_PATH, binaryOffset: r.binaryOffset, stats: r.stats });
  }
  if (events.length > 0) yield events;
  const rest = (request.paths ?? []).filter((p) => p !== '-');
  let summary: SearchSummary;
  if (rest.length > 0) {
    let last: SearchSummary | null = null;
    for await (const batch of batchesOf({ ...request, paths: rest, stdin: undefined }, seams)) {
      const tail = batch.at(-1);
      if (tail?.type === 'summary') {
        last = tail.summary;
        batch.pop();
      }
      if (batch.length > 0) yield batch;
    }
    summary = last!;
  } else {
    summary = emptySummary('js', run.engineReason);
  }
  if (r === null && summary.outcome === 'complete')
    summary.outcome = run.signal?.aborted ? 'aborted' : 'timeout';
  summary.filesSearched += found.files;
  summary.filesWithMatch += found.withMatch;
  summary.matches += found.matches;
  summary.matchedLines += found.lines;
  summary.bytesSearched += found.bytes;
  summary.elapsedMs = run.now() - began;
  yield [{ type: 'summary', summary }];
}

/**
 * Why the index cannot narrow this search, or null. It answers which files' raw bytes may hold a required
 * literal: inverted, a file without the literals is all matches; reporting files without a match, every file
 * is reported; with --null-data the literals are of the swapped text; with -E other than UTF-8 they are of the
 * decoded text.
 */
function indexUnfit(run: EngineRun): string | null {
  if (run.searcher.invert) return '-v: a file without the literals matches everywhere';
  if (run.reportUnmatched) return 'every searched file is reported, matching or not';
  if (run.searcher.nullData) return '--null-data: the literals are not the file bytes';
  if (transcodes(run.searcher.encoding))
    return `-E ${run.searcher.encoding}: the literals are not the file bytes`;
  return null;
}

function selectRequestOf(run: EngineRun, compiled: CompiledPattern): IndexSelectRequest {
  return {
    walk: run.walk,
    required: compiled.required,
    maxFilesize: run.maxFilesize,
    ...(run.deadline !== undefined ? { deadline: run.deadline } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
    now: run.now,
  };
}

/**
 * A search given an index: the index narrows the walk to the files that may match, and the js engine reads
 * those; when it declines (not ready, no literal, a broad pattern, rg asked for) the search runs as without it,
 * or rg reads the index's candidate list (`afterDecline`). Either way the summary says which path ran and why.
 */
async function* throughIndex(
  index: SearchIndex,
  request: SearchRequest,
  compiled: CompiledPattern,
  run: EngineRun,
  /** The run of the engine chosen (rg or js) for a scan. */
  prepare: () => Prepared,
): AsyncGenerator<SearchEvent[], void, undefined> {
  const began = run.now();
  const unfit = request.engine === 'rg' ? 'engine rg was asked for' : indexUnfit(run);
  let use: IndexUse = { used: false, reason: unfit ?? '' };
  let source: AsyncGenerator<SearchEvent[], void, undefined>;
  if (unfit === null) {
    const selection = await index.select(selectRequestOf(run, compiled));
    if (selection.walk) {
      use = selection.use;
      source = runJsEngine({ ...run, files: selection.walk, engineReason: use.reason });
    } else {
      ({ source, use } = afterDecline(prepare(), selection, selection.use));
    }
  } else {
    source = startEngine(prepare());
  }
  for await (const batch of source) {
    const last = batch[batch.length - 1];
    if (last?.type === 'summary') {
      last.summary.index = use;
      last.summary.elapsedMs = run.now() - began;
    }
    yield batch;
  }
}

/**
 * A request resolved into what the engines run from. With `'js for the index'` the engine is not chosen
 * (no rg is looked for or vetted): the run is the js engine's, as an index's candidates are read by it.
 */
function prepareRun(
  request: SearchRequest,
  seams: SearchSeams,
  forIndex?: 'js for the index',
  /** When the search began (its deadline counts from then); default now. */
  began?: number,
): Prepared & { compiled: CompiledPattern } {
  const compiled = compiledFor(request.pattern, {
    ...patternOptionsOf(request),
    banNul: (request.banNul ?? false) && request.binary !== 'text' && !request.nullData,
  });
  const cwd = path.resolve(request.cwd ?? process.cwd());
  const roots = request.paths && request.paths.length > 0 ? request.paths : [''];
  const now = request.now ?? Date.now;
  const deadlineMs = deadlineMsOf(request);
  const choice = request.engine ?? 'auto';
  let engine: 'js' | 'rg' = 'js';
  let engineReason = 'requested';
  let rgPath: string | undefined;
  // Nothing to walk: a warm worker searches a few named files in a few milliseconds, where starting rg
  // alone takes 25–40 ms on this machine kind — but starting a worker takes 45–70 ms. So rg, and a worker
  // is warmed for the next such search (a long-lived process: MCP, server, agent host).
  const namedOnly = !forIndex && choice === 'auto' && namesOnlyFiles(roots, cwd);
  if (forIndex) {
    engineReason = 'js: reads the index candidates';
  } else if (namedOnly && searchWorkerStats().idle > 0) {
    engineReason = 'auto: named files only, warm worker';
  } else if (choice !== 'js') {
    if (namedOnly && request.prewarmWorker !== false) prewarmSearchWorker();
    const { rg, rejected } = resolveRipgrep({
      ...(request.rgPath !== undefined ? { configured: request.rgPath } : {}),
      searchRoots: roots.map((r) => path.resolve(cwd, r || '.')),
    });
    if (rg) {
      engine = 'rg';
      rgPath = rg.path;
      engineReason =
        choice === 'rg' ? `requested (${rg.source} ${rg.path})` : `auto: ${rg.source} ${rg.path}`;
    } else if (choice === 'rg') {
      throw new EngineUnavailableError(`no usable ripgrep: ${rejected.join('; ') || 'none found'}`);
    } else {
      engineReason = `auto: no usable ripgrep${rejected.length ? ` (${rejected.join('; ')})` : ''}`;
    }
  }
  const run: EngineRun = {
    pattern: patternForEngines(request, compiled),
    walk: walkOf(request),
    searcher: {
      mode: request.mode ?? 'lines',
      ...(request.invertMatch ? { invert: true } : {}),
      ...(request.stopOnNonmatch ? { stopOnNonmatch: true } : {}),
      ...(request.encoding !== undefined ? { encoding: request.encoding } : {}),
      ...(request.nullData
        ? { nullData: true, binaryDetection: 'none' as const }
        : request.binary && request.binary !== 'auto'
          ? { binaryDetection: request.binary === 'text' ? ('none' as const) : ('search' as const) }
          : {}),
      beforeContext: request.beforeContext ?? 0,
      afterContext: request.afterContext ?? 0,
      ...(request.maxCount !== undefined ? { maxCount: request.maxCount } : {}),
      ...(request.maxColumns !== undefined ? { maxColumns: request.maxColumns } : {}),
    },
    // The js engine reads a file whole; nothing larger than MAX_READ_BYTES is read by either engine.
    maxFilesize: Math.min(request.maxFilesize ?? MAX_READ_BYTES, MAX_READ_BYTES),
    ...(deadlineMs !== undefined
      ? { deadline: (began ?? now()) + deadlineMs }
      : engine === 'js'
        ? { deadline: (began ?? now()) + JS_ENGINE_DEFAULT_DEADLINE_MS }
        : {}),
    ...(request.signal ? { signal: request.signal } : {}),
    now,
    ...(request.workers !== undefined ? { workers: request.workers } : {}),
    ...(request.detailFiles !== undefined ? { detailFiles: request.detailFiles } : {}),
    engineReason,
    ...(request.reportUnmatched ? { reportUnmatched: true } : {}),
    ...(request.countMatches ? { countMatches: true } : {}),
    ...(seams.rgHeldOutputBytes !== undefined ? { rgHeldOutputBytes: seams.rgHeldOutputBytes } : {}),
    ...(seams.rgListArgvBytes !== undefined ? { rgListArgvBytes: seams.rgListArgvBytes } : {}),
    ...(seams.fileWindowBytes !== undefined ? { fileWindowBytes: seams.fileWindowBytes } : {}),
    ...(request.stdin && roots.includes('-') ? { stdinContent: request.stdin } : {}),
    ...(rgPath ? { rgPath } : {}),
    // Standard input carries the searched content then, not the pattern.
    patternChannel: request.stdin && roots.includes('-') ? 'argv' : (request.patternChannel ?? 'argv'),
    ...(request.rgExcludeIglobs ? { rgExcludeIglobs: request.rgExcludeIglobs } : {}),
    ...(request.rgNoMmap ? { rgNoMmap: true } : {}),
    ...(seams.spawnRg ? { spawnRg: seams.spawnRg } : {}),
    ...(request.fencedIdentities?.size ? { fencedIdentities: request.fencedIdentities } : {}),
  };
  return { run, engine, compiled, mayFallBack: engine === 'rg' && choice === 'auto' };
}

const compiledPatterns = new Map<string, CompiledPattern>();

/**
 * `compilePattern`, remembered for the last few patterns (COMPILED_PATTERNS_KEPT). The engine only reads what
 * it compiled (the literals, the sources handed to the workers): never runs its RegExps on this thread, so
 * searches can share one. A pattern that fails to compile is not kept (it throws each time).
 */
function compiledFor(pattern: string, options: Parameters<typeof compilePattern>[1]): CompiledPattern {
  const key = JSON.stringify([pattern, options]);
  let compiled = compiledPatterns.get(key);
  if (compiled) compiledPatterns.delete(key);
  else compiled = compilePattern(pattern, options);
  compiledPatterns.set(key, compiled);
  if (compiledPatterns.size > COMPILED_PATTERNS_KEPT)
    compiledPatterns.delete(compiledPatterns.keys().next().value!);
  return compiled;
}

/**
 * The walk a search of `request` makes, as it asks an index for it: its paths (none: the working directory)
 * under its walk rules.
 */
export function walkOf(request: Omit<SearchRequest, 'pattern'>): EngineRun['walk'] {
  const roots = request.paths && request.paths.length > 0 ? request.paths : [''];
  return walkOptionsOf(request, roots, path.resolve(request.cwd ?? process.cwd()));
}

/** The walk a request asks for, with ripgrep's defaults filled in. */
export function walkOptionsOf(
  request: Omit<SearchRequest, 'pattern'>,
  roots: string[],
  cwd: string,
): EngineRun['walk'] {
  return {
    roots,
    cwd,
    hidden: request.hidden ?? false,
    ignoreFiles: request.ignoreFiles ?? true,
    requireGit: request.requireGit ?? true,
    parents: request.parents ?? true,
    globs: request.globs ?? [],
    globCaseInsensitive: request.globCaseInsensitive ?? false,
    globBase: request.globBase ?? 'cwd',
    globMode: request.globMode ?? 'override',
    ...(request.exclude ? { exclude: request.exclude } : {}),
    ...(request.skipDirs ? { skipDirs: request.skipDirs } : {}),
    ...(request.maxEntries !== undefined ? { maxEntries: request.maxEntries } : {}),
    ...(request.maxDirs !== undefined ? { maxDirs: request.maxDirs } : {}),
    ...(request.maxDepth !== undefined ? { maxDepth: request.maxDepth } : {}),
    ...(request.followLinks ? { followLinks: true } : {}),
    ...(request.fileTypes ? { fileTypes: request.fileTypes } : {}),
    ...(request.extraIgnoreFiles ? { extraIgnoreFiles: request.extraIgnoreFiles } : {}),
    ...(request.vcsIgnore === false ? { vcsIgnore: false } : {}),
    ...(request.dotIgnore === false ? { dotIgnore: false } : {}),
  };
}

/**
 * Whether every root is an existing regular file (a search with no directory to walk) and they are small
 * enough together that a warm worker beats starting rg (whose regex engine is faster on big inputs).
 */
function namesOnlyFiles(roots: readonly string[], cwd: string): boolean {
  if (roots.length > NAMED_FILES_ONLY_MAX) return false;
  let bytes = 0;
  for (const r of roots) {
    if (r === '') return false;
    try {
      const st = fs.statSync(path.resolve(cwd, r));
      if (!st.isFile()) return false;
      bytes += st.size;
    } catch {
      return false;
    }
  }
  return bytes <= NAMED_FILES_ONLY_MAX_BYTES;
}

function patternForEngines(request: SearchRequest, compiled: CompiledPattern): PatternForEngines {
  return {
    rust: request.fixedStrings ? request.pattern : compiled.effectivePattern,
    fixedStrings: request.fixedStrings ?? false,
    caseInsensitive: request.caseInsensitive ?? false,
    wordRegexp: request.wordRegexp ?? false,
    multiline: request.multiline ?? false,
    spec: toMatcherSpec(compiled),
  };
}

/**
 * ripgrep's `-r`: a function that gives the replacement for the match at `[start, end)` (char indices) of
 * a reported line, with the request's own pattern supplying the capture groups.
 */
export function replacerFor(
  request: Pick<
    SearchRequest,
    'pattern' | 'fixedStrings' | 'caseInsensitive' | 'wordRegexp' | 'multiline' | 'lenient' | 'nullData'
  >,
  template: string,
): (line: string, start: number, end: number) => string {
  const compiled = compilePattern(request.pattern, { ...patternOptionsOf(request), captures: true });
  const withGroups = compiled.captureRegex ?? compiled.regex;
  const sticky = new RegExp(withGroups.source, withGroups.flags.replace('g', 'y'));
  // --null-data: the regex is of the swapped text (see prepare), and so are the groups it captures.
  const swap = request.nullData ? swapTerminatorChars : null;
  return (line, start, end) => {
    sticky.lastIndex = start;
    const m = sticky.exec(swap ? swap(line) : line);
    if (m && m.index === start && m[0].length === end - start)
      return expandReplacement(template, swap ? unswapGroups(m, swap) : m);
    // A match that only made sense across lines (-U): the template without groups but the whole match.
    const whole = Object.assign([line.slice(start, end)], {
      index: start,
      input: line,
    }) as unknown as RegExpExecArray;
    return expandReplacement(template, whole);
  };
}

function unswapGroups(m: RegExpExecArray, swap: (t: string) => string): RegExpExecArray {
  const back = (g: string | undefined) => (g === undefined ? g : swap(g));
  return Object.assign(m.map(back), {
    index: m.index,
    input: m.input,
    groups: m.groups && Object.fromEntries(Object.entries(m.groups).map(([k, v]) => [k, back(v)])),
  }) as unknown as RegExpExecArray;
}

/**
 * Whether the request's pattern, under -U, can match a line end. ripgrep's `-c` then counts matches, not
 * matching lines (a match spanning two lines counts once).
 */
export function patternMatchesNewline(
  request: Pick<
    SearchRequest,
    'pattern' | 'fixedStrings' | 'caseInsensitive' | 'wordRegexp' | 'multiline' | 'lenient' | 'nullData'
  >,
): boolean {
  return compilePattern(request.pattern, patternOptionsOf(request)).matchesNewline === true;
}

function patternOptionsOf(
  request: Pick<
    SearchRequest,
    'fixedStrings' | 'caseInsensitive' | 'wordRegexp' | 'multiline' | 'lenient' | 'nullData'
  >,
) {
  return {
    ...(request.nullData ? { nullData: true } : {}),
    fixedStrings: request.fixedStrings ?? false,
    caseInsensitive: request.caseInsensitive ?? false,
    wordRegexp: request.wordRegexp ?? false,
    multiline: request.multiline ?? false,
    lenient: request.lenient ?? true,
  };
}
