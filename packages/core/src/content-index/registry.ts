import * as path from 'node:path';
import type { DocumentTextStore } from '../docs/store.js';
import type {
  IndexSelection,
  IndexSelectRequest,
  IndexWalkOptions,
  IndexWalkRequest,
  SearchIndex,
} from '../engine/search-index.js';
import { isWithin } from '../util/fs-safety.js';
import type { PrunedEntry, WalkEntry } from '../walk/walker.js';
import type { ContentIndex, ContentIndexStatus } from './content-index.js';

/**
 * The indexes of a long-lived process (one per root of `trawl mcp` or `trawl serve`). A search goes to the
 * index whose root holds all of its roots; with none, it scans and says so.
 */
export class ContentIndexRegistry implements SearchIndex {
  private readonly indexes = new Map<string, ContentIndex>();

  add(index: ContentIndex): ContentIndex {
    const known = this.indexes.get(index.root);
    if (known) {
      void index.close();
      return known;
    }
    this.indexes.set(index.root, index);
    return index;
  }

  get(root: string): ContentIndex | undefined {
    return this.indexes.get(root);
  }

  /** The index whose root holds every absolute path given (the deepest such root). */
  covering(absPaths: readonly string[]): ContentIndex | undefined {
    let best: ContentIndex | undefined;
    for (const index of this.indexes.values()) {
      const r = index.root;
      const holds = absPaths.every((p) => isWithin(p, r));
      if (holds && (!best || r.length > best.root.length)) best = index;
    }
    return best;
  }

  select(req: IndexSelectRequest): Promise<IndexSelection> {
    const index = this.coveringWalk(req.walk);
    if (!index)
      return Promise.resolve({ use: { used: false, reason: 'no index covers the searched paths' } });
    return index.select(req);
  }

  prepareWalk(req: IndexWalkRequest): Promise<boolean> {
    return this.coveringWalk(req.walk)?.prepareWalk(req) ?? Promise.resolve(false);
  }

  documentsFor(root: string): DocumentTextStore | undefined {
    return this.covering([root])?.documentsFor(root);
  }

  extractingDocuments(root: string): boolean {
    return this.covering([root])?.status().documents?.state === 'extracting';
  }

  walkEntries(req: IndexWalkRequest): Promise<WalkEntry[] | null> {
    return this.coveringWalk(req.walk)?.walkEntries(req) ?? Promise.resolve(null);
  }

  walkPruned(req: IndexWalkRequest): Promise<{ pruned: readonly PrunedEntry[]; dirs: number } | null> {
    return this.coveringWalk(req.walk)?.walkPruned(req) ?? Promise.resolve(null);
  }

  private coveringWalk(walk: IndexWalkOptions): ContentIndex | undefined {
    return this.covering(walk.roots.map((r) => path.resolve(walk.cwd, r === '' ? '.' : r)));
  }

  status(): ContentIndexStatus[] {
    return [...this.indexes.values()].map((i) => i.status());
  }

  async close(): Promise<void> {
    await Promise.all([...this.indexes.values()].map((i) => i.close()));
    this.indexes.clear();
  }
}
