import * as fs from 'node:fs';
import * as path from 'node:path';
import { RG_DETAIL_RESERVE_MAX_MS, RG_DETAIL_RESERVE_SHARE } from '../../limits.js';
import type { SearchEvent, SearchSummary } from '../../search/events.js';
import type { WalkEntry } from '../../walk/walker.js';
import { runJsEngine } from '../js/js-engine.js';
import { prewarmSearchWorker } from '../js/worker-pool.js';
import type { EngineRun } from '../run.js';

type Source = AsyncGenerator<SearchEvent[], void, undefined>;

/**
 * Whether the rg engine runs this search through a detail horizon (EngineRun.detailFiles): lines wanted of the
 * first files only. Standard input is searched whole (there is nothing to read again).
 */
export function detailHorizonApplies(run: EngineRun): boolean {
  return (
    run.detailFiles !== undefined &&
    run.searcher.mode === 'lines' &&
    !run.reportUnmatched &&
    run.stdinContent === undefined
  );
}

/**
 * The rg engine with a detail horizon: one `rg --count` run (a path and a number per file, in path order once the
 * engine has put it so) counts every matching file; the first `detailFiles` of them are then read for their lines
 * by the js engine's searcher, each with the rule its walk gives it (a walked file stops at a NUL, a named one is
 * searched; rg itself reads every file it is named as a named one), and the rest are reported as `counted` ends.
 * rg's JSON would carry every matching line of every file (a minified bundle's line is megabytes) to be thrown
 * away past the horizon. The summary is the count run's, so totals are rg's own.
 */
export async function* withDetailHorizon(run: EngineRun, rg: (run: EngineRun) => Source): Source {
  const horizon = run.detailFiles!;
  const counting: EngineRun = {
    ...run,
    // Context lines are not counted (ripgrep's -c -m N -A M would count matches inside the last one's context).
    searcher: { ...run.searcher, mode: 'count', beforeContext: 0, afterContext: 0 },
    countMatches: false,
    // Time is kept back for reading the detail files' lines after a count the deadline cut.
    ...(run.deadline !== undefined
      ? {
          deadline:
            run.deadline -
            Math.min(
              RG_DETAIL_RESERVE_MAX_MS,
              Math.max(0, run.deadline - run.now()) * RG_DETAIL_RESERVE_SHARE,
            ),
        }
      : {}),
  };
  delete counting.detailFiles;
  const detail: Array<SearchEvent & { type: 'end' }> = [];
  let flushed = false;
  const readDetail = async function* (): AsyncGenerator<SearchEvent[], SearchSummary | null, undefined> {
    flushed = true;
    if (detail.length === 0) return null;
    return yield* linesOf(run, detail);
  };
  let read: SearchSummary | null = null;
  const counted = rg(counting);
  // The first step runs the engine to its first wait, rg spawned. The lines are read by a worker, started after
  // the spawn (a thread booting while this process forks made the spawn ~15 ms slower) and warm when the count ends.
  const first = counted.next();
  if (horizon > 0) prewarmSearchWorker();
  for await (const batch of startedWith(first, counted)) {
    const out: SearchEvent[] = [];
    for (const e of batch) {
      if (e.type === 'end' && e.stats.matchedLines > 0) {
        if (!flushed && detail.length < horizon) {
          detail.push(e);
          continue;
        }
        if (!flushed) {
          if (out.length > 0) yield out.splice(0);
          read = yield* readDetail();
        }
        out.push({ ...e, counted: true });
      } else if (e.type === 'summary') {
        if (!flushed) {
          if (out.length > 0) yield out.splice(0);
          read = yield* readDetail();
        }
        out.push({ type: 'summary', summary: merged(e.summary, read) });
      } else out.push(e);
    }
    if (out.length > 0) yield out;
  }
}

/** `source` iterated from a `next()` already asked of it; left early, it is left too (as `for await` leaves it). */
async function* startedWith<T>(
  first: Promise<IteratorResult<T, void>>,
  source: AsyncGenerator<T, void, undefined>,
) {
  let done = false;
  try {
    for (let r = await first; !r.done; r = await source.next()) yield r.value;
    done = true;
  } finally {
    if (!done) await source.return();
  }
}

/**
 * The detail files' lines, through the js engine over exactly those files; a file it finds no match in after all
 * (changed since it was counted) keeps its counted end, so the page and the totals still agree.
 */
async function* linesOf(
  run: EngineRun,
  files: ReadonlyArray<SearchEvent & { type: 'end' }>,
): AsyncGenerator<SearchEvent[], SearchSummary | null, undefined> {
  // Judged again where each file is now, as the walk judges it (a named file's directory may have been swapped
  // for a link since rg counted it): one the exclusion refuses is left out, not read.
  const entries = files.map((f) => entryOf(run, f.path)).filter((e) => !run.walk.exclude?.(e.canon));
  const kept = new Set(entries.map((e) => e.path));
  const byPath = new Map<string, SearchEvent[]>();
  let summary: SearchSummary | null = null;
  const lines = runJsEngine({
    ...run,
    files: {
      entries,
      stats: { entries: entries.length, dirs: 0, files: entries.length, errors: [], missingRoots: [] },
    },
    detailFiles: undefined,
  });
  for await (const batch of lines)
    for (const e of batch) {
      if (e.type === 'summary') summary = e.summary;
      else {
        const list = byPath.get(e.path);
        if (list) list.push(e);
        else byPath.set(e.path, [e]);
      }
    }
  const out: SearchEvent[] = [];
  for (const f of files) {
    if (!kept.has(f.path)) continue;
    const read = byPath.get(f.path);
    if (read?.some((e) => e.type === 'end')) out.push(...read);
    else out.push(...(read ?? []), { ...f, counted: true });
  }
  if (out.length > 0) yield out;
  return summary;
}

/**
 * A file the count run reported, as the js engine reads it: named (a root itself) or walked, with the canonical
 * path its descriptor must read back as (its root's realpath and the names below it; with -L its own realpath).
 * A path that no longer resolves is given as it is: its read fails and says so.
 */
export function entryOf(run: EngineRun, spelled: string): WalkEntry {
  const w = run.walk;
  const abs = path.resolve(w.cwd, spelled);
  const explicit = w.roots.some((r) => r !== '' && path.resolve(w.cwd, r) === abs);
  let canon = abs;
  try {
    if (explicit || w.followLinks) canon = fs.realpathSync.native(abs);
    else {
      const root = w.roots
        .map((r) => path.resolve(w.cwd, r || '.'))
        .filter((r) => abs.startsWith(r.endsWith('/') ? r : `${r}/`))
        .sort((a, b) => b.length - a.length)[0];
      if (root !== undefined) canon = path.join(fs.realpathSync.native(root), path.relative(root, abs));
    }
  } catch {}
  return { path: spelled, abs, canon, explicit };
}

/** The count run's summary, with what reading the detail files added: its errors, and a deadline it met. */
function merged(counted: SearchSummary, read: SearchSummary | null): SearchSummary {
  if (!read) return counted;
  counted.errors.push(...read.errors);
  if (counted.outcome === 'complete' && read.outcome !== 'complete') counted.outcome = read.outcome;
  return counted;
}
