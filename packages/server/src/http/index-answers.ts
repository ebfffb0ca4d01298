import type { NameResult } from '@trawl/core/names';
import { INDEX_ANSWER_CACHE_MAX, INDEX_ANSWER_TTL_MS } from './limits.js';

export interface IndexAnswer {
  results: NameResult[];
  entries: number;
}

interface Entry {
  generation: string;
  at: number;
  answer: Promise<IndexAnswer | undefined>;
}

/**
 * Recent index answers on the index host, so the one thread that holds the indexes does not rank the same query
 * again while nothing changed: pickers in several tabs, a retyped or backspaced query, and identical searches in
 * flight at once (they share one ranking). An answer is reused only while its index's generation is unchanged
 * (no entry added or removed, no rebuild) and for at most {@link INDEX_ANSWER_TTL_MS}, which bounds how stale a
 * row's size and mtime (read at search time) can be. Least recently used answers go first past
 * {@link INDEX_ANSWER_CACHE_MAX}.
 */
export class IndexAnswers {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly ttlMs = INDEX_ANSWER_TTL_MS,
    private readonly max = INDEX_ANSWER_CACHE_MAX,
  ) {}

  /** The answer for this search: a fresh one from `compute`, or one computed at the same generation lately. */
  get(
    key: { root: string; query: string; limit: number; kinds: string },
    generation: string,
    compute: () => Promise<IndexAnswer | undefined>,
  ): Promise<IndexAnswer | undefined> {
    const k = `${key.root}\0${key.query}\0${key.limit}\0${key.kinds}`;
    const t = this.now();
    const hit = this.entries.get(k);
    if (hit) {
      this.entries.delete(k);
      if (hit.generation === generation && t - hit.at < this.ttlMs) {
        this.entries.set(k, hit);
        return hit.answer;
      }
    }
    const answer = compute();
    const entry: Entry = { generation, at: t, answer };
    this.entries.set(k, entry);
    // A failed or unusable answer is not kept.
    answer.then(
      (a) => {
        if (a === undefined && this.entries.get(k) === entry) this.entries.delete(k);
      },
      () => {
        if (this.entries.get(k) === entry) this.entries.delete(k);
      },
    );
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return answer;
  }
}
