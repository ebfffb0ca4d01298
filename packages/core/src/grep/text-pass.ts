import * as path from 'node:path';
import { type EngineChoice, type SearchRequest, searchBatches } from '../engine/search.js';
import type { EngineName, SearchOutcome } from '../search/events.js';
import type { RawHit } from './rows.js';

/** What the text pass hands to the grep: hits in path order, and why it is short if it is. */
export interface TextPassResult {
  /** Each file's first matching lines (the request's `maxCount` of them at most), files in path order. */
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
 * The text pass: one engine run, the first `maxCount` matching lines per file (the grep asks 1, or its `perFile`), the lines of the first cap + 1
 * matching files only (the engine's detail horizon: on rg a count run, then those files' lines; rg's own JSON
 * would carry every matching line whole, and a minified bundle's line is megabytes), stopped once one file more
 * than the cap has matched (so "capped" is known, not guessed). An rg that fails before finding anything is the
 * engine's to replace with the js engine (`auto` only); its summary says so, and so does `fallback`.
 */
export async function textPass(options: TextPassOptions): Promise<TextPassResult> {
  const hits: RawHit[] = [];
  let files = 0;
  let lastFile: string | undefined;
  let more = false;
  let outcome: SearchOutcome = 'complete';
  let ran: EngineName = options.engine === 'rg' ? 'rg' : 'js';
  let fallback: string | undefined;
  const remaining = options.deadline - options.now();
  if (remaining <= 0) return { hits, more, outcome: 'timeout', engine: ran };
  const { exclude } = options.request;
  const batches = searchBatches({
    ...options.request,
    // Sensitive files are left out by the walk, so none takes a place within the horizon.
    exclude: (abs) => options.sensitive(abs) || exclude?.(abs) === true,
    engine: options.engine,
    detailFiles: options.cap + 1,
    deadlineMs: remaining,
  });
  outer: for await (const batch of batches) {
    for (const e of batch) {
      if (e.type === 'match' || (e.type === 'end' && e.counted)) {
        if (options.sensitive(path.join(options.root, e.path))) continue;
        // The cap is of files: a file's second line is not a file more.
        if (e.path !== lastFile) {
          if (files >= options.cap) {
            more = true;
            break outer; // leaving the loop ends the engine (workers stopped, rg reaped)
          }
          files++;
          lastFile = e.path;
        }
        // An end only closes its file; a file counted past the horizon has no line to show.
        if (e.type === 'end') continue;
        hits.push({ file: e.path, line: e.lineNumber, text: e.text });
      } else if (e.type === 'summary') {
        outcome = e.summary.outcome;
        ran = e.summary.engine;
        fallback = e.summary.fallback;
      }
    }
  }
  return { hits, more, outcome, engine: ran, ...(fallback ? { fallback } : {}) };
}
