import * as path from 'node:path';
import {
  type EngineChoice,
  EngineUnavailableError,
  type SearchRequest,
  searchBatches,
} from '../engine/search.js';
import type { EngineName, SearchOutcome } from '../search/events.js';
import type { RawHit } from './rows.js';

/** What the text pass hands to the grep: hits in path order, and why it is short if it is. */
export interface TextPassResult {
  hits: RawHit[];
  /** More files matched than the cap let through. */
  more: boolean;
  outcome: SearchOutcome;
  engine: EngineName;
  /** Why the js engine ran after rg was tried (rg failed or was refused), if it did. */
  fallback?: string;
}

export interface TextPassOptions {
  /** The engine request (pattern, walk rules, caps); engine and deadline are the pass's business. */
  request: Omit<SearchRequest, 'engine' | 'deadlineMs' | 'timeoutMs'>;
  engine: EngineChoice;
  cap: number;
  deadline: number;
  now: () => number;
  /** The authoritative per-hit fence (canonical absolute path → sensitive). */
  sensitive: (abs: string) => boolean;
  root: string;
}

/**
 * The text pass: one engine run, first matching line per file (`maxCount: 1`), stopped once one file more than the
 * cap has matched (so "capped" is known, not guessed). An rg that cannot run, or exits with an error before finding
 * anything, is "no verdict": the js engine runs instead, inside the same deadline — unless rg was asked for by name.
 */
export async function textPass(options: TextPassOptions): Promise<TextPassResult> {
  if (options.engine === 'js') return run(options, 'js');
  try {
    const result = await run(options, options.engine);
    if (result.engine === 'rg' && result.failure && result.hits.length === 0 && options.engine === 'auto')
      return { ...(await run(options, 'js')), fallback: `rg failed: ${result.failure}` };
    return result;
  } catch (err) {
    if (options.engine === 'rg' || !isEngineFailure(err)) throw err;
    return { ...(await run(options, 'js')), fallback: `rg failed: ${(err as Error).message}` };
  }
}

/** Errors that mean "rg did not run" (the pattern was valid: it compiled before any engine started). */
function isEngineFailure(err: unknown): boolean {
  return (
    err instanceof EngineUnavailableError || (err instanceof Error && err.message.startsWith('cannot run rg'))
  );
}

/**
 * rg's way: rg lists the matching files (`--count --max-count 1`: a path a line), and the js engine's searcher reads
 * the first matching line of the first cap + 1 of them. rg's own `--json` carries every matched line whole — a
 * minified bundle's line is megabytes — so listing is a fraction of the output to parse (28 MB of JSON for 2 891
 * files of the npm corpus, 111 KB of paths), and the lines are read for at most the rows the answer can hold. Both
 * engines then share the line reading (one searcher, one binary rule); the file set is rg's. Where the engine ran
 * js after all (no usable rg), its own lines pass answers instead.
 */
async function run(
  options: TextPassOptions,
  engine: EngineChoice,
): Promise<TextPassResult & { failure?: string }> {
  if (engine === 'js' || options.request.index) return runLines(options, engine);
  const listed: string[] = [];
  let more = false;
  let outcome: SearchOutcome = 'complete';
  let ran: EngineName = 'rg';
  let failure: string | undefined;
  const remaining = options.deadline - options.now();
  if (remaining <= 0) return { hits: [], more, outcome: 'timeout', engine: ran };
  const listing = searchBatches({
    ...options.request,
    mode: 'files-with-matches',
    engine,
    deadlineMs: remaining,
  });
  outer: for await (const batch of listing) {
    for (const e of batch) {
      if (e.type === 'end' && e.stats.matches > 0) {
        if (options.sensitive(path.join(options.root, e.path))) continue;
        if (listed.length >= options.cap) {
          more = true;
          break outer; // leaving the loop ends the engine (rg reaped)
        }
        listed.push(e.path);
      } else if (e.type === 'summary') {
        outcome = e.summary.outcome;
        ran = e.summary.engine;
        const fatal = e.summary.errors.find((x) => x.code === 'ERG');
        if (fatal) failure = fatal.message;
      }
    }
  }
  if (ran === 'js') return runLines(options, 'js');
  if (listed.length === 0) return { hits: [], more, outcome, engine: ran, ...(failure ? { failure } : {}) };
  const lines = await runLines({ ...options, request: { ...options.request, paths: listed } }, 'js');
  const byPath = new Map(lines.hits.map((h) => [h.file, h]));
  const hits = listed.flatMap((p) => byPath.get(p) ?? []);
  if (lines.outcome !== 'complete' && outcome === 'complete') outcome = lines.outcome;
  return { hits, more, outcome, engine: ran, ...(failure ? { failure } : {}) };
}

/** One engine run in lines mode: the first matching line of each file, in path order. */
async function runLines(
  options: TextPassOptions,
  engine: EngineChoice,
): Promise<TextPassResult & { failure?: string }> {
  const hits: RawHit[] = [];
  let more = false;
  let outcome: SearchOutcome = 'complete';
  let ran: EngineName = engine === 'rg' ? 'rg' : 'js';
  let failure: string | undefined;
  const remaining = options.deadline - options.now();
  if (remaining <= 0) return { hits, more, outcome: 'timeout', engine: ran };
  const batches = searchBatches({ ...options.request, engine, deadlineMs: remaining });
  outer: for await (const batch of batches) {
    for (const e of batch) {
      if (e.type === 'match') {
        if (options.sensitive(path.join(options.root, e.path))) continue;
        if (hits.length >= options.cap) {
          more = true;
          break outer; // leaving the loop ends the engine (workers stopped, rg already reaped)
        }
        hits.push({ file: e.path, line: e.lineNumber, text: e.text });
      } else if (e.type === 'summary') {
        outcome = e.summary.outcome;
        ran = e.summary.engine;
        const fatal = e.summary.errors.find((x) => x.code === 'ERG');
        if (fatal) failure = fatal.message;
      }
    }
  }
  return { hits, more, outcome, engine: ran, ...(failure ? { failure } : {}) };
}
