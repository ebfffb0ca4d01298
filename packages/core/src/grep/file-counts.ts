import * as path from 'node:path';
import {
  type EngineChoice,
  type SearchRequest,
  type SearchSeams,
  searchBatchesWithSeams,
} from '../engine/search.js';
import { escapeGlob } from '../glob/glob.js';
import { GREP_COUNT_GLOB_CHARS } from './limits.js';

/** What the count run needs: the text pass's own request (pattern, walk rules, fence), and the files to count. */
export interface FileCountOptions {
  /** The text pass's engine request; its globs are replaced by the files', its mode by `count`. */
  request: Omit<SearchRequest, 'engine' | 'deadlineMs' | 'timeoutMs'>;
  /** Its caller's test seams, forwarded (engine/search.ts SearchSeams). */
  seams?: SearchSeams;
  /** Paths relative to the root, as the text pass reported them. */
  files: readonly string[];
  engine: EngineChoice;
  deadline: number;
  now: () => number;
  /** The authoritative per-hit fence (canonical absolute path → sensitive). */
  sensitive: (abs: string) => boolean;
  root: string;
}

/**
 * How many lines match in each of `files`: a count-mode run of the text pass's request over exactly those files,
 * for the rows of a `perFile` grep whose first lines did not hold all of a file's matches. The files are picked by
 * root-anchored escaped globs, not named: a named file is opened whatever it has become (a link is followed), and
 * globs keep the walk's own rules (no link followed, the same binary and size rules, the index's selection) — so a
 * file counts as the text pass read it. Batched so no rg argv outgrows GREP_COUNT_GLOB_CHARS; stopped by the
 * deadline, after which the files not yet counted are absent from the answer (their counts are unknown).
 */
export async function countMatchingLines(options: FileCountOptions): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  // Counted whole: the text pass stopped each file at its first lines.
  const { maxCount: _shown, exclude, ...request } = options.request;
  for (const batch of globBatches(options.files)) {
    const remaining = options.deadline - options.now();
    if (remaining <= 0) break;
    const batches = searchBatchesWithSeams({
      ...options.seams,
      ...request,
      exclude: (abs) => options.sensitive(abs) || exclude?.(abs) === true,
      globs: batch,
      globMode: 'filter',
      mode: 'count',
      engine: options.engine,
      deadlineMs: remaining,
    });
    for await (const events of batches) {
      for (const e of events) {
        if (e.type !== 'end' || options.sensitive(path.join(options.root, e.path))) continue;
        counts.set(e.path, e.stats.matchedLines);
      }
    }
  }
  return counts;
}

/** The files as root-anchored literal globs, in runs of at most GREP_COUNT_GLOB_CHARS characters each. */
function* globBatches(files: readonly string[]): Generator<string[], void, undefined> {
  let batch: string[] = [];
  let chars = 0;
  for (const f of files) {
    const glob = `/${escapeGlob(f)}`;
    if (batch.length > 0 && chars + glob.length > GREP_COUNT_GLOB_CHARS) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(glob);
    chars += glob.length;
  }
  if (batch.length > 0) yield batch;
}
