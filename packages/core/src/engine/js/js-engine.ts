import { setImmediate as yieldToLoop } from 'node:timers/promises';
import {
  DEFAULT_WORKERS,
  PARTIAL_ANSWER_MS,
  REORDER_WINDOW_BATCHES,
  SECOND_WORKER_MIN_FILES,
  WALK_SLICE_MS,
  WORKER_BATCH_FILES,
  WORKER_FIRST_BATCH_FILES,
} from '../../limits.js';
import type { SearchEvent, SearchOutcome, SearchSummary, SkipReason } from '../../search/events.js';
import { type WalkEntry, Walker } from '../../walk/walker.js';
import { type EngineRun, emptySummary } from '../run.js';
import type { BatchResults, FileOutcome, FileTask, ToWorker, WorkerSetup } from './protocol.js';
import { leaseSearchWorker, type WorkerLease } from './worker-pool.js';

/** Batches a worker may hold at once: one being searched, one waiting, so it never idles. */
const BATCHES_PER_WORKER = 2;

interface WorkerSlot {
  lease: WorkerLease;
  inFlight: Map<number, FileTask[]>;
  /** Output sent and not yet emitted, shared with the worker (see WorkerSetup.outputCredit). */
  credit: Int32Array;
}

/**
 * The js engine: the caller's thread walks (in time slices) and hands batches of files to worker threads,
 * which read and search them; results are re-ordered by walk sequence so output order never depends
 * on scheduling. A deadline or abort terminates the workers, which is the only way to stop a regex
 * that is stuck inside one `exec` call.
 */
export async function* runJsEngine(run: EngineRun): AsyncGenerator<SearchEvent[], void, undefined> {
  const started = run.now();
  const walker = run.files
    ? { entries: () => run.files!.entries.values(), stats: run.files.stats }
    : new Walker({ ...run.walk, deadline: run.deadline, signal: run.signal });
  const entries = walker.entries();
  const setup: WorkerSetup = {
    matcher: run.pattern.spec,
    config: run.searcher,
    maxFilesize: run.maxFilesize,
    partialAnswerMs: run.partialAnswerMs ?? PARTIAL_ANSWER_MS,
    ...(run.reportUnmatched ? { reportUnmatched: true } : {}),
    ...(run.detailFiles !== undefined ? { detailFiles: run.detailFiles } : {}),
    ...(run.fileWindowBytes !== undefined ? { fileWindowBytes: run.fileWindowBytes } : {}),
    ...(run.fencedIdentities?.size ? { fencedIdentities: [...run.fencedIdentities] } : {}),
  };
  const maxWorkers = Math.max(1, run.workers ?? DEFAULT_WORKERS);

  const slots: WorkerSlot[] = [];
  // Answers by batch id; batches are emitted in id order, which is walk order.
  const ready = new Map<number, BatchResults>();
  // Parts of batches still being searched, not emitted yet (a batch may answer in parts; see
  // BatchResults), and how many of each batch's files the parts so far covered.
  const parts = new Map<number, BatchResults>();
  const covered = new Map<number, number>();
  let nextBatchToEmit = 0;
  let seqCount = 0; // files handed out so far
  let batchId = 0;
  const paths: string[] = [];
  let walkDone = false;
  let filesWalked = 0;
  let stop: SearchOutcome | null = null;
  let budgetHit = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };

  const summary = emptySummary('js', run.engineReason);
  // Counts only (count, files-with-matches): a matching file is one `end`, as on the rg engine.
  const lineMode = run.searcher.mode === 'lines';

  // Files that come in parts whose first part was counted whole (past run.detailFiles): their later parts are dropped.
  const countedWhole = new Set<number>();
  // Which worker's credit each batch's output counts against.
  const creditOf = new Map<number, Int32Array>();
  /** Emits an answer and gives its output's credit back to the worker that sent it. */
  const take = (id: number, answer: BatchResults): SearchEvent[] => {
    const credit = creditOf.get(id);
    if (credit && answer.outputUnits) {
      Atomics.sub(credit, 0, answer.outputUnits);
      Atomics.notify(credit, 0);
    }
    return emitBatch(answer, paths, summary, lineMode ? run.detailFiles : 'counts', countedWhole);
  };

  const spawn = () => {
    const outputCredit = new SharedArrayBuffer(4);
    const slot: WorkerSlot = {
      credit: new Int32Array(outputCredit),
      inFlight: new Map(),
      lease: leaseSearchWorker({
        onMessage: (msg) => {
          if (msg.type !== 'results' || !slot.inFlight.has(msg.batch)) return;
          const merged = joinAnswers(parts.get(msg.batch), msg);
          if (msg.partial !== undefined) {
            parts.set(msg.batch, merged);
            covered.set(msg.batch, msg.partial);
            // The batch next in walk order can be emitted part by part.
            if (msg.batch === nextBatchToEmit) notify();
            return;
          }
          parts.delete(msg.batch);
          covered.delete(msg.batch);
          slot.inFlight.delete(msg.batch);
          ready.set(msg.batch, merged);
          notify();
        },
        onError: (err) => {
          // A crashed worker: its unfinished files are reported unreadable; the search goes on without it.
          for (const [id, tasks] of slot.inFlight) {
            const answered = parts.get(id);
            const done = covered.get(id) ?? 0;
            parts.delete(id);
            covered.delete(id);
            const outcomes: FileOutcome[] = tasks.slice(done).map((t) => ({
              seq: t.seq,
              skip: 'unreadable',
              code: 'EWORKER',
              message: `search worker failed: ${err.message}`,
            }));
            ready.set(
              id,
              joinAnswers(answered, {
                type: 'results',
                batch: id,
                outcomes,
                searched: 0,
                bytesSearched: 0,
                binary: 0,
              }),
            );
          }
          slot.inFlight.clear();
          slots.splice(slots.indexOf(slot), 1);
          notify();
        },
      }),
    };
    slot.lease.post({ type: 'setup', setup: { ...setup, outputCredit } } satisfies ToWorker);
    slots.push(slot);
  };

  const onAbort = () => {
    stop ??= 'aborted';
    notify();
  };
  run.signal?.addEventListener('abort', onAbort, { once: true });
  if (run.signal?.aborted) stop = 'aborted';
  const timer =
    run.deadline !== undefined
      ? setTimeout(
          () => {
            stop ??= 'timeout';
            notify();
          },
          Math.max(0, run.deadline - run.now()),
        )
      : null;

  // Past the detail horizon files are counted (exactly, as in count mode), not read out line by line.
  let counting = run.searcher.mode !== 'lines';
  const switchToCountingIfPastHorizon = () => {
    if (counting || run.detailFiles === undefined || summary.filesWithMatch < run.detailFiles) return;
    counting = true;
    setup.config = { ...setup.config, mode: 'count', beforeContext: 0, afterContext: 0 };
    for (const s of slots) s.lease.post({ type: 'mode', mode: 'count' } satisfies ToWorker);
  };

  let sliceStart = run.now();
  // Small first batches let a walk's first results arrive early. A list given whole (an index's candidates) goes
  // in full batches at once: each batch is a round trip to a worker, and a caller of such a search (the tool)
  // waits for all of it anyway.
  const firstBatchFiles = run.files ? WORKER_BATCH_FILES : WORKER_FIRST_BATCH_FILES;
  const nextBatch = (): FileTask[] => {
    const size = batchId < 2 * maxWorkers ? firstBatchFiles : WORKER_BATCH_FILES;
    const batch: FileTask[] = [];
    while (batch.length < size) {
      const step = entries.next();
      if (step.done) {
        walkDone = true;
        break;
      }
      const e: WalkEntry = step.value;
      const windows = run.files?.windows?.[filesWalked];
      filesWalked++;
      batch.push({
        seq: seqCount++,
        abs: e.abs,
        canon: e.canon,
        explicit: e.explicit,
        ...(windows ? { windows } : {}),
      });
      paths.push(e.path);
      // A walk yields the thread when its slice is spent; a list given whole costs nothing to batch, and a batch
      // cut by the clock would be one more round trip to a worker (more of them the more loaded the machine).
      if (!run.files && run.now() - sliceStart > WALK_SLICE_MS) break;
    }
    return batch;
  };

  // Nothing to read (a content index found no candidate): no worker is leased or set up for it.
  if (run.files && run.files.entries.length === 0) walkDone = true;
  try {
    if (stop === null && !walkDone) spawn();
    while (stop === null) {
      // Hand out work while some worker has room.
      while (!walkDone && stop === null) {
        if (slots.length < maxWorkers && filesWalked >= SECOND_WORKER_MIN_FILES) spawn();
        const slot = slots.find((s) => s.inFlight.size < BATCHES_PER_WORKER);
        if (!slot) break;
        // Answers wait here until every earlier batch is in; one slow batch must not let the others run
        // far ahead and pile up results (the window bounds the memory of a search with huge output).
        if (batchId - nextBatchToEmit >= REORDER_WINDOW_BATCHES) break;
        const batch = nextBatch();
        if (batch.length > 0) {
          const id = batchId++;
          slot.inFlight.set(id, batch);
          creditOf.set(id, slot.credit);
          slot.lease.post({ type: 'batch', batch: id, files: batch } satisfies ToWorker);
        }
        if (run.now() - sliceStart > WALK_SLICE_MS) {
          await yieldToLoop();
          sliceStart = run.now();
        }
      }
      const walkStop = walker.stats.stoppedBy;
      if (walkStop === 'deadline') stop ??= 'timeout';
      else if (walkStop === 'aborted') stop ??= 'aborted';
      // A spent walk budget ends the walk, not the search: files already found are still searched.
      else if (walkStop) budgetHit = true;
      // Emit whatever is next in walk order: finished batches, and what the next one answered so far.
      for (;;) {
        const part = parts.get(nextBatchToEmit);
        if (part) {
          parts.delete(nextBatchToEmit);
          yield take(nextBatchToEmit, part);
          switchToCountingIfPastHorizon();
          // More of it may have come in while the consumer held us at the yield (its wake-up was spent):
          // look again before waiting, or a worker waiting for credit would wait for ever.
          continue;
        }
        const answer = ready.get(nextBatchToEmit);
        if (!answer) break;
        ready.delete(nextBatchToEmit);
        const events = take(nextBatchToEmit, answer);
        creditOf.delete(nextBatchToEmit);
        nextBatchToEmit++;
        yield events;
        switchToCountingIfPastHorizon();
      }
      if (stop !== null) break;
      if (walkDone && nextBatchToEmit === batchId) break;
      if (slots.length === 0) spawn();
      // While the consumer held us at a yield, every batch in flight may have come back (and been
      // emitted above): then nothing would ever wake us, so go hand out more work instead of waiting.
      if (!slots.some((s) => s.inFlight.size > 0)) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      sliceStart = run.now();
    }
    if (stop !== null) {
      // Partial results: what arrived without a gap before it, in walk order — whole batches, then the searched
      // part of the first unfinished one. Whatever a later batch found is dropped: the deadline cut the tail of
      // the walk (path order), so the files reported are the first ones and a next page continues after them.
      for (let id = nextBatchToEmit; ; id++) {
        const answer = ready.get(id);
        if (answer) {
          yield take(id, answer);
          continue;
        }
        const part = parts.get(id);
        if (part) yield take(id, part);
        break;
      }
    }
  } finally {
    if (timer) clearTimeout(timer);
    run.signal?.removeEventListener('abort', onAbort);
    // A worker with nothing in flight goes back to the pool; one still busy (deadline, abort, a consumer
    // that stopped reading) may be stuck in a regex, so it is terminated.
    for (const s of slots) {
      if (s.inFlight.size === 0) s.lease.release();
      else s.lease.discard();
    }
  }
  summary.outcome = stop ?? (budgetHit ? 'walk-budget' : 'complete');
  summary.missingRoots = walker.stats.missingRoots;
  summary.errors.unshift(...walker.stats.errors);
  summary.elapsedMs = run.now() - started;
  yield [{ type: 'summary', summary }];
}

/** One answer from two consecutive parts of a batch's answer. */
function joinAnswers(earlier: BatchResults | undefined, later: BatchResults): BatchResults {
  if (!earlier) return later;
  return {
    ...later,
    outcomes: [...earlier.outcomes, ...later.outcomes],
    searched: earlier.searched + later.searched,
    bytesSearched: earlier.bytesSearched + later.bytesSearched,
    binary: earlier.binary + later.binary,
    outputUnits: (earlier.outputUnits ?? 0) + (later.outputUnits ?? 0),
  };
}

/** A worker's answer as events, in walk order; the summary is updated as they are made. */
function emitBatch(
  answer: BatchResults,
  paths: string[],
  summary: SearchSummary,
  /** The detail horizon, or 'counts': the search reports counts only (an `end` a file). */
  detailFiles: number | 'counts' | undefined,
  countedWhole: Set<number>,
): SearchEvent[] {
  summary.filesSearched += answer.searched;
  summary.bytesSearched += answer.bytesSearched;
  summary.skipped.binary += answer.binary;
  const out: SearchEvent[] = [];
  for (const o of answer.outcomes) {
    emit(o, paths[o.seq]!, summary, out, detailFiles, countedWhole);
    // A file that comes in parts keeps its path until its last part.
    if (!('more' in o && o.more)) paths[o.seq] = '';
  }
  return out;
}

function emit(
  o: FileOutcome,
  path: string,
  summary: SearchSummary,
  out: SearchEvent[],
  detailFiles: number | 'counts' | undefined,
  countedWhole: Set<number>,
): void {
  if ('leftOut' in o) return;
  if ('skip' in o) {
    summary.skipped[o.skip]++;
    if (o.skip === 'unreadable') summary.errors.push({ path, code: o.code, message: o.message });
    out.push({ type: 'skip', path, reason: o.skip as SkipReason, message: o.message });
    return;
  }
  const r = o.result; // already counted as searched by the worker
  const end = () => out.push({ type: 'end', path, binaryOffset: r.binaryOffset, stats: r.stats });
  if (o.more || o.continued) {
    // A file in parts: `begin` with the first, its stats (whole only in the last part: a file searched window by
    // window learns them as it goes) counted with the last. Past the detail horizon it is counted whole.
    if (!o.continued) {
      if (typeof detailFiles === 'number' && summary.filesWithMatch >= detailFiles) countedWhole.add(o.seq);
      else out.push({ type: 'begin', path });
    }
    const counted = countedWhole.has(o.seq);
    if (!counted) for (const line of r.lines) out.push({ ...line, path });
    if (o.more) return;
    countedWhole.delete(o.seq);
    summary.filesWithMatch++;
    summary.matches += r.stats.matches;
    summary.matchedLines += r.stats.matchedLines;
    if (counted) out.push({ type: 'end', path, binaryOffset: r.binaryOffset, stats: r.stats, counted: true });
    else end();
    return;
  }
  if (r.stats.matchedLines === 0) {
    // Asked for (reportUnmatched): a searched file without a match is an `end` alone.
    end();
    return;
  }
  summary.filesWithMatch++;
  summary.matches += r.stats.matches;
  summary.matchedLines += r.stats.matchedLines;
  if (detailFiles === 'counts') {
    end();
    return;
  }
  if (typeof detailFiles === 'number' && summary.filesWithMatch > detailFiles) {
    out.push({ type: 'end', path, binaryOffset: r.binaryOffset, stats: r.stats, counted: true });
    return;
  }
  out.push({ type: 'begin', path });
  for (const line of r.lines) out.push({ ...line, path });
  end();
}
