/**
 * How a {@link FileIndex} stays exact between full builds: a watcher per entered directory (up to a bound), mtime
 * polling of the directories without one, a short settle window that turns a burst of events into one rescan, and
 * a periodic full rebuild that corrects whatever was missed. Every timer runs on a {@link FreshnessClock}, so a test
 * fires a poll or a settle window by hand instead of waiting for one.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FileIndexOptions } from './file-index.js';
import {
  FILE_INDEX_FULL_REBUILD_MS,
  FILE_INDEX_MAX_WATCHED_DIRS,
  FILE_INDEX_POLL_MS,
  FILE_INDEX_SETTLE_MS,
  FILE_INDEX_UNWATCHED_REBUILD_MS,
  FILE_INDEX_YIELD_MS,
} from './limits.js';
import type { NameSearchFs, NameWatcher } from './types.js';

/** Timers: `after` runs once, `every` periodically; each returns its cancel. Real timers never hold the process. */
export interface FreshnessClock {
  after(ms: number, fire: () => unknown): () => void;
  every(ms: number, fire: () => unknown): () => void;
}

export const timerClock: FreshnessClock = {
  after(ms, fire) {
    const t = setTimeout(fire, ms);
    t.unref();
    return () => clearTimeout(t);
  },
  every(ms, fire) {
    const t = setInterval(fire, ms);
    t.unref();
    return () => clearInterval(t);
  },
};

/** What the freshness machinery needs of its index. */
export interface FreshnessHost {
  abs(rel: string): string;
  /** Directories the index has entered: each is watched or polled. */
  enteredDirs(): Iterable<string>;
  isEntered(rel: string): boolean;
  /** Applies the dirty directories ({@link IndexFreshness.takeDirty}), serialised with the index's other work. */
  applyDirty(): Promise<void>;
  /** A full rebuild, serialised likewise. */
  refresh(): Promise<void>;
}

/** The index's freshness settings (documented on {@link FileIndexOptions}) and its filesystem. */
export type FreshnessOptions = Pick<
  FileIndexOptions,
  'watch' | 'maxWatchedDirs' | 'pollMs' | 'fullRebuildMs' | 'settleMs' | 'yieldMs' | 'clock'
> & { fs: NameSearchFs };

export class IndexFreshness {
  /** Directory mtimes: the baseline polling compares against (recorded as directories are listed, see pollsAll). */
  readonly mtimes = new Map<string, number>();
  private readonly watchers = new Map<string, NameWatcher>();
  private readonly unwatched = new Set<string>();
  private watchExhausted = false;
  private readonly dirty = new Set<string>();
  private readonly clock: FreshnessClock;
  private cancelSettle: (() => void) | undefined;
  private cancelPoll: (() => void) | undefined;
  private cancelRebuild: (() => void) | undefined;
  private polling = false;
  private stopped = false;

  constructor(
    private readonly host: FreshnessHost,
    private readonly options: FreshnessOptions,
  ) {
    this.clock = options.clock ?? timerClock;
  }

  /** Watching is off, so every directory is polled: each one's mtime is recorded as it is listed. */
  get pollsAll(): boolean {
    return this.options.watch === false && (this.options.pollMs ?? FILE_INDEX_POLL_MS) > 0;
  }

  get watchedDirectories(): number {
    return this.watchers.size;
  }

  /** Starts the periodic full rebuild and the polling (after the first build). */
  start(): void {
    const watching = this.options.watch ?? true;
    const fullMs =
      this.options.fullRebuildMs ?? (watching ? FILE_INDEX_FULL_REBUILD_MS : FILE_INDEX_UNWATCHED_REBUILD_MS);
    if (fullMs > 0) this.cancelRebuild = this.clock.every(fullMs, () => this.host.refresh().catch(() => {}));
    const pollMs = this.options.pollMs ?? FILE_INDEX_POLL_MS;
    if (pollMs > 0) this.cancelPoll = this.clock.every(pollMs, () => this.poll());
  }

  stop(): void {
    this.stopped = true;
    this.cancelSettle?.();
    this.cancelPoll?.();
    this.cancelRebuild?.();
    this.cancelSettle = this.cancelPoll = this.cancelRebuild = undefined;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.unwatched.clear();
  }

  /** `rel` changed: rescan it once the settle window has passed. */
  markDirty(rel: string): void {
    if (this.stopped) return;
    this.dirty.add(rel);
    if (this.cancelSettle) return;
    this.cancelSettle = this.clock.after(this.options.settleMs ?? FILE_INDEX_SETTLE_MS, () => {
      this.cancelSettle = undefined;
      return this.host.applyDirty();
    });
  }

  /** Ends a pending settle window early; true when one was pending (its directories are still dirty). */
  cutSettle(): boolean {
    if (!this.cancelSettle) return false;
    this.cancelSettle();
    this.cancelSettle = undefined;
    return true;
  }

  /** The dirty directories, shallowest first, and none left dirty. */
  takeDirty(): string[] {
    const dirs = [...this.dirty].sort((a, b) => depth(a) - depth(b));
    this.dirty.clear();
    return dirs;
  }

  /** The baseline after a full build replaced the index's entries. */
  replaceMtimes(listed: ReadonlyMap<string, number>): void {
    this.mtimes.clear();
    for (const [k, v] of listed) this.mtimes.set(k, v);
  }

  /** Directories removed from the index: no watcher, no poll, no baseline. */
  forget(dirs: Iterable<string>): void {
    for (const d of dirs) {
      this.watchers.get(d)?.close();
      this.watchers.delete(d);
      this.unwatched.delete(d);
      this.mtimes.delete(d);
    }
  }

  /** Watches every entered directory (up to the bound); the rest are polled by mtime. */
  async sync(): Promise<void> {
    if (this.stopped) return;
    const host = this.host;
    for (const [rel, w] of this.watchers) {
      if (!host.isEntered(rel)) {
        w.close();
        this.watchers.delete(rel);
      }
    }
    for (const rel of this.unwatched) if (!host.isEntered(rel)) this.unwatched.delete(rel);
    const watching = this.options.watch ?? true;
    const polling = (this.options.pollMs ?? FILE_INDEX_POLL_MS) > 0;
    if (!watching && !polling) return; // a one-shot index: nothing keeps it fresh
    const max = this.options.maxWatchedDirs ?? FILE_INDEX_MAX_WATCHED_DIRS;
    let slice = performance.now();
    for (const rel of [...host.enteredDirs()]) {
      if (this.stopped) return;
      if (this.watchers.has(rel)) continue;
      if (!watching || this.watchExhausted || this.watchers.size >= max) {
        if (!this.unwatched.has(rel) && !this.mtimes.has(rel)) this.recordMtime(rel);
        this.unwatched.add(rel);
        continue;
      }
      try {
        const w = this.options.fs.watch(
          host.abs(rel),
          (event) => {
            if (event === 'rename') this.markDirty(rel);
          },
          () => {
            this.watchers.get(rel)?.close();
            this.watchers.delete(rel);
            this.markDirty(rel);
            this.markDirty(parentOf(rel));
          },
        );
        this.watchers.set(rel, w);
        this.unwatched.delete(rel);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOSPC' || code === 'EMFILE') this.watchExhausted = true;
        if (!this.mtimes.has(rel)) this.recordMtime(rel);
        this.unwatched.add(rel);
      }
      if (performance.now() - slice >= (this.options.yieldMs ?? FILE_INDEX_YIELD_MS)) {
        await yieldToLoop();
        slice = performance.now();
      }
    }
  }

  /** A baseline for a directory that lost (or never had) a watcher; a change before it lands waits for a rebuild. */
  private recordMtime(rel: string): void {
    try {
      this.mtimes.set(rel, this.options.fs.statSync(this.host.abs(rel)).mtimeMs);
    } catch {
      this.markDirty(parentOf(rel));
    }
  }

  /** mtime check of the directories without a watcher. */
  private async poll(): Promise<void> {
    if (this.polling || this.stopped || this.unwatched.size === 0) return;
    this.polling = true;
    try {
      const dirs = [...this.unwatched];
      for (let i = 0; i < dirs.length; i += 64) {
        await Promise.all(
          dirs.slice(i, i + 64).map(async (rel) => {
            let m: number;
            try {
              m = (await this.options.fs.stat(this.host.abs(rel))).mtimeMs;
            } catch {
              this.markDirty(parentOf(rel));
              return;
            }
            const seen = this.mtimes.get(rel);
            this.mtimes.set(rel, m);
            if (seen !== undefined && seen !== m) this.markDirty(rel);
          }),
        );
      }
    } finally {
      this.polling = false;
    }
  }
}

/** The directory holding `rel` (`''` = the root). */
export function parentOf(rel: string): string {
  const cut = rel.lastIndexOf('/');
  return cut < 0 ? '' : rel.slice(0, cut);
}

function depth(rel: string): number {
  if (rel === '') return 0;
  let d = 1;
  for (let i = 0; i < rel.length; i++) if (rel.charCodeAt(i) === 47) d++;
  return d;
}
