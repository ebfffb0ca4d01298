import { FLAG_UNINDEXED, type LoadedIndex } from './format.js';
import { evaluateBlocks, type GramQuery } from './query.js';

/**
 * The base an index answers from: a persisted index (format.ts) loaded, with which of its records no longer
 * describe their file. The freshness side (freshness.ts) marks records stale; selection (selection.ts) reads them.
 */
export interface Base {
  /** Its tables in memory, its lists read from its open file (released when the base is replaced). */
  data: LoadedIndex;
  idOf: Map<string, number>;
  /** Base ids whose record no longer describes the file (changed, re-indexed, deleted)… */
  stale: Uint8Array;
  /** …and the same ids as a list (a select visits the changed files, not every file, to find them). */
  staleIds: number[];
  /** Per size cap, made on first use: the files a select takes whatever their content (see `alwaysSearched`). */
  always: Map<number, Int32Array>;
  /** The last query evaluated on this base, and what it gave (read only: see `evaluationOf`). */
  lastEvaluation?: { key: string; result: ReturnType<typeof evaluateBlocks> };
}

/** Size caps whose always-searched lists a base keeps (searches use one or two: the tool's, the engine's). */
const MAX_SIZE_CAPS_KEPT = 4;

/** A loaded index as a base, with no record stale yet. */
export function baseOf(data: LoadedIndex): Base {
  const idOf = new Map<string, number>();
  for (let i = 0; i < data.paths.length; i++) idOf.set(data.paths[i]!, i);
  return { data, idOf, stale: new Uint8Array(data.paths.length), staleIds: [], always: new Map() };
}

/** Marks the record of `rel` stale, if the base has one. */
export function markStale(base: Base, rel: string): void {
  const id = base.idOf.get(rel);
  if (id !== undefined) setStale(base, id);
  // A directory: everything below it may have changed too (rare: a directory event without a name).
}

/** Marks record `id` stale. */
export function setStale(base: Base, id: number): void {
  if (base.stale[id]) return;
  base.stale[id] = 1;
  base.staleIds.push(id);
}

/**
 * The query evaluated on the base's lists, remembered for the next select of the same query: an agent call
 * that finds nothing asks again with ignore rules off (the tool's check for hidden matches), and a base's lists
 * never change. Callers only read the result.
 */
export function evaluationOf(base: Base, query: GramQuery): ReturnType<typeof evaluateBlocks> {
  const key = JSON.stringify(query);
  if (base.lastEvaluation?.key !== key)
    base.lastEvaluation = { key, result: evaluateBlocks(base.data, query) };
  return base.lastEvaluation.result;
}

/**
 * The base files a select takes whatever their content: not indexed (too large to index, unreadable when
 * built), or larger than the search's size cap (the searcher reports them as skipped). One pass per size cap
 * a base is asked with (searches use one or two), kept with the base.
 */
export function alwaysSearched(base: Base, maxFilesize: number): Int32Array {
  let ids = base.always.get(maxFilesize);
  if (!ids) {
    const r = base.data.records;
    const out: number[] = [];
    for (let id = 0; id < base.data.paths.length; id++) if (takenWhatever(r, id, maxFilesize)) out.push(id);
    ids = Int32Array.from(out);
    if (base.always.size >= MAX_SIZE_CAPS_KEPT) base.always.clear();
    base.always.set(maxFilesize, ids);
  }
  return ids;
}

/** Whether a base file is searched whatever its content: not indexed, or larger than the search's size cap. */
export function takenWhatever(records: Float64Array, id: number, maxFilesize: number): boolean {
  return (records[id * 4 + 3]! & FLAG_UNINDEXED) !== 0 || records[id * 4]! > maxFilesize;
}
