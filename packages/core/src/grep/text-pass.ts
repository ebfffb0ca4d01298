import * as path from 'node:path';
import {
  type EngineChoice,
  type SearchRequest,
  type SearchSeams,
  searchBatchesWithSeams,
} from '../engine/search.js';
import type { EngineName, SearchOutcome } from '../search/events.js';
import type { RawHit } from './rows.js';

/** What the text pass hands to the grep: hits in path order, and why it is short if it is. */
export interface TextPassResult {
  /** Each file's first matching lines (the request's `maxCount` of them at most), files in path order. */
  hits: RawHit[];
  /** More files matched than the cap let through. */
  more: boolean;
  /**
   * Files that matched, counted past the cap for as long as `countPastCapMs` let the engine run (their lines are not
   * read): the true number when `filesExact`, else a lower bound.
   */
  files: number;
  filesExact: boolean;
  outcome: SearchOutcome;
  engine: EngineName;
  /** Why the js engine ran after rg was tried (rg failed or was refused), if it did. */
  fallback?: string;
}

export interface TextPassOptions {
  /** The engine request (pattern, walk rules, caps); engine and deadline are the pass's business. */
  request: Omit<SearchRequest, 'engine' | 'deadlineMs' | 'timeoutMs'>;
  /** Its caller's test seams, forwarded (engine/search.ts SearchSeams). */
  seams?: SearchSeams;
  engine: EngineChoice;
  cap: number;
  /**
   * How long the engine may go on counting matching files once the cap is reached (bounded by `deadline`); 0 or
   * absent: it stops at the first file past the cap, and `files` is only a lower bound.
   */
  countPastCapMs?: number;
  deadline: number;
  now: () => number;
  /** The authoritative per-hit fence (canonical absolute path → sensitive). */
  sensitive: (abs: string) => boolean;
  root: string;
}

/**
 * The text pass: one engine run, the first `maxCount` matching lines per file (the grep asks 1, or its `perFile`), the lines of the first cap + 1
 * matching files only (the engine's detail horizon: on rg a count run, then those files' lines; rg's own JSON
 * would carry every matching line whole, and a minified bundle's line is megabytes), stopped once one file more
 * than the cap has matched (so "capped" is known, not guessed) — or, with `countPastCapMs`, once that much longer
 * has gone by counting the matching files past it (counted ends: no line is read). An rg that fails before finding anything is the
 * engine's to replace with the js engine (`auto` only); its summary says so, and so does `fallback`.
 */
export async function textPass(options: TextPassOptions): Promise<TextPassResult> {
  const hits: RawHit[] = [];
  let files = 0;
  let lastFile: string | undefined;
  let more = false;
  /** Counting past the cap stopped before the engine's end: `files` is a lower bound. */
  let cut = false;
  let countUntil = Number.POSITIVE_INFINITY;
  let outcome: SearchOutcome = 'complete';
  let ran: EngineName = options.engine === 'rg' ? 'rg' : 'js';
  let fallback: string | undefined;
  const remaining = options.deadline - options.now();
  if (remaining <= 0) return { hits, more, files, filesExact: false, outcome: 'timeout', engine: ran };
  const { exclude } = options.request;
  // Ends the count past the cap when its time is up even if no file more arrives to check the clock on.
  const stop = new AbortController();
  let stopTimer: NodeJS.Timeout | undefined;
  const batches = searchBatchesWithSeams({
    ...options.seams,
    ...options.request,
    // Sensitive files are left out by the walk, so none takes a place within the horizon.
    exclude: (abs) => options.sensitive(abs) || exclude?.(abs) === true,
    engine: options.engine,
    detailFiles: options.cap + 1,
    deadlineMs: remaining,
    signal: options.request.signal ? AbortSignal.any([options.request.signal, stop.signal]) : stop.signal,
  });
  try {
    outer: for await (const batch of batches) {
      for (const e of batch) {
        if (e.type === 'match' || (e.type === 'end' && e.counted)) {
          if (options.sensitive(path.join(options.root, e.path))) continue;
          // The cap is of files: a file's second line is not a file more.
          if (e.path !== lastFile) {
            lastFile = e.path;
            files++;
            if (files > options.cap && !more) {
              more = true;
              countUntil = Math.min(options.deadline, options.now() + (options.countPastCapMs ?? 0));
              stopTimer = setTimeout(() => stop.abort(), Math.max(0, countUntil - options.now()));
            }
            if (more && options.now() >= countUntil) {
              cut = true;
              break outer; // leaving the loop ends the engine (workers stopped, rg reaped)
            }
          }
          // An end only closes its file; a file counted past the horizon, or past the cap, has no line to show.
          if (e.type === 'end' || more) continue;
          hits.push({ file: e.path, line: e.lineNumber, text: e.text });
        } else if (e.type === 'summary') {
          ran = e.summary.engine;
          fallback = e.summary.fallback;
          // Past the cap only the count was left to finish: its being cut makes the count short, not the rows.
          if (more) cut ||= e.summary.outcome !== 'complete';
          else outcome = e.summary.outcome;
        }
      }
    }
  } finally {
    clearTimeout(stopTimer);
  }
  // An engine stopped by the count's time may end without a summary.
  if (stop.signal.aborted) cut = true;
  return {
    hits,
    more,
    files,
    filesExact: !cut && outcome === 'complete',
    outcome,
    engine: ran,
    ...(fallback ? { fallback } : {}),
  };
}
