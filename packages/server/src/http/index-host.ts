import { Worker } from 'node:worker_threads';
import type { CanonicalRoot } from '@trawl/core/fence';
import type { NameResult } from '@trawl/core/names';
import { builtScriptUrl } from '../built-script.js';
import {
  INDEX_HOST_HEAP_MB,
  INDEX_MAX_PENDING,
  INDEX_SEARCH_WAIT_MS,
  RUNTIME_INDEXED_PROJECTS_MAX,
} from './limits.js';
import { PoolBusyError, TaskFailedError } from './pool.js';
import type { FenceConfig } from './tasks.js';

export type IndexHostRequest =
  | { type: 'acquire'; root: string }
  | { type: 'release'; root: string }
  | { type: 'search'; id: number; root: string; query: string; limit: number; kinds: string };

export type IndexHostReply =
  | { type: 'status'; root: string; ready: boolean; truncated: boolean; entries: number; error?: string }
  | { type: 'result'; id: number; results: NameResult[]; entries: number }
  | { type: 'result'; id: number; unusable: true }
  | { type: 'result'; id: number; error: string };

export interface IndexStatus {
  ready: boolean;
  truncated: boolean;
  entries: number;
  error?: string;
}

/** What /api/file-search needs of the indexes: their state, and a search of one. */
export interface IndexProvider {
  status(root: CanonicalRoot): IndexStatus | undefined;
  /** Rows from the root's index, or `undefined` when it cannot serve (not ready, truncated, gone): walk instead. */
  search(
    root: CanonicalRoot,
    query: string,
    limit: number,
    kinds: string,
  ): Promise<{ results: NameResult[]; entries: number } | undefined>;
  /** Index a project opened at runtime too (the provider bounds how many it keeps). */
  openProject?(root: CanonicalRoot): void;
}

export interface IndexHostOptions {
  fence: FenceConfig;
  heapMb?: number;
  searchWaitMs?: number;
  /** Runtime-opened projects indexed at once (default `RUNTIME_INDEXED_PROJECTS_MAX`; 0: none). */
  runtimeProjects?: number;
  log?: (line: string) => void;
}

interface Pending {
  resolve: (v: { results: NameResult[]; entries: number } | undefined) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The FileIndexes of the known projects, hosted on one worker thread (index-worker.ts). The event loop keeps a
 * mirror of each index's state (pushed every second and on every change) to choose the fast path without a
 * round trip; a search the host cannot serve answers `undefined` and the caller walks instead.
 */
export class IndexHost implements IndexProvider {
  private worker: Worker | undefined;
  private readonly roots = new Set<string>();
  /** The command line's projects: indexed for the server's life. */
  private readonly kept = new Set<string>();
  /** Projects opened at runtime, least recently opened first. */
  private readonly opened = new Set<string>();
  private readonly statuses = new Map<string, IndexStatus>();
  private readonly settled = new Map<string, Array<(s: IndexStatus) => void>>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: IndexHostOptions) {}

  /** Indexes a canonical root (a command-line project) for the server's life. */
  keep(root: CanonicalRoot): void {
    this.kept.add(root);
    this.opened.delete(root);
    this.acquire(root);
  }

  /**
   * Indexes a canonical root opened at runtime; past the cap the least recently opened one is released (its
   * searches walk again). A kept root is already indexed.
   */
  openProject(root: CanonicalRoot): void {
    const max = this.options.runtimeProjects ?? RUNTIME_INDEXED_PROJECTS_MAX;
    if (this.kept.has(root) || max <= 0) return;
    this.opened.delete(root);
    this.opened.add(root);
    this.acquire(root);
    for (const old of this.opened) {
      if (this.opened.size <= max) break;
      this.opened.delete(old);
      this.release(old);
    }
  }

  /** The root's first state that is ready or failed (tests and logs wait on it instead of polling). */
  whenSettled(root: string): Promise<IndexStatus> {
    const s = this.statuses.get(root);
    if (s && (s.ready || s.error)) return Promise.resolve(s);
    return new Promise((resolve) => {
      this.settled.set(root, [...(this.settled.get(root) ?? []), resolve]);
    });
  }

  private acquire(root: string): void {
    if (this.roots.has(root)) return;
    this.roots.add(root);
    this.ensureWorker().postMessage({ type: 'acquire', root } satisfies IndexHostRequest);
  }

  private release(root: string): void {
    if (!this.roots.delete(root)) return;
    this.statuses.delete(root);
    this.worker?.postMessage({ type: 'release', root } satisfies IndexHostRequest);
  }

  status(root: string): IndexStatus | undefined {
    return this.statuses.get(root);
  }

  search(
    root: string,
    query: string,
    limit: number,
    kinds: string,
  ): Promise<{ results: NameResult[]; entries: number } | undefined> {
    const s = this.statuses.get(root);
    if (!s?.ready || s.truncated || !this.worker || this.pending.size >= INDEX_MAX_PENDING) {
      return Promise.resolve(undefined);
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new PoolBusyError('index'));
      }, this.options.searchWaitMs ?? INDEX_SEARCH_WAIT_MS);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
      this.worker!.postMessage({ type: 'search', id, root, query, limit, kinds } satisfies IndexHostRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.resolve(undefined);
      this.pending.delete(id);
    }
    const w = this.worker;
    this.worker = undefined;
    await w?.terminate().catch(() => {});
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(builtScriptUrl('index-worker.js', import.meta.url), {
      workerData: this.options.fence,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? INDEX_HOST_HEAP_MB },
    });
    worker.unref();
    worker.on('message', (msg: IndexHostReply) => this.onMessage(msg));
    worker.on('error', (err) => this.options.log?.(`index host failed: ${err.message}`));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.statuses.clear();
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.resolve(undefined);
        this.pending.delete(id);
      }
      if (this.closed) return;
      // Rebuild every index on a fresh host; meanwhile searches walk.
      const roots = [...this.roots];
      this.roots.clear();
      for (const r of roots) this.acquire(r);
    });
    this.worker = worker;
    return worker;
  }

  private onMessage(msg: IndexHostReply): void {
    if (msg.type === 'status') {
      // A status can trail a release (an acquire that finished after it): a released root has no state.
      if (!this.roots.has(msg.root)) return;
      const status: IndexStatus = {
        ready: msg.ready,
        truncated: msg.truncated,
        entries: msg.entries,
        ...(msg.error ? { error: msg.error } : {}),
      };
      this.statuses.set(msg.root, status);
      if (msg.error) this.options.log?.(`index of ${msg.root} unavailable: ${msg.error}`);
      const waiting = this.settled.get(msg.root);
      if (waiting && (status.ready || status.error)) {
        this.settled.delete(msg.root);
        for (const w of waiting) w(status);
      }
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    clearTimeout(p.timer);
    if ('results' in msg) p.resolve({ results: msg.results, entries: msg.entries });
    else if ('error' in msg) p.reject(new TaskFailedError('index-search', msg.error));
    else p.resolve(undefined);
  }
}
