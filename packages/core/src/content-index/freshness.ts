import * as fs from 'node:fs';
import * as path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { privateSubdir } from '../util/private-dir.js';
import { type Base, markStale, setStale } from './base.js';
import { IgnoreFilesWatch } from './ignore-watch.js';
import { BARRIER_TIMEOUT_MS, MAX_WATCHED_DIRS, REINDEX_PER_SEARCH } from './limits.js';
import type { LoadCheck } from './load.js';
import { FileReindexer, type OverlayFile } from './overlay.js';
import { NEVER_ENTERED, scanTree, type TreeScan } from './tree.js';
import {
  absOf,
  type IndexWatcher,
  inotifyQueueLimit,
  joinRel,
  nodeWatchDir,
  type WatchDir,
  watchingTrustworthy,
} from './watch.js';

const IGNORE_FILE_NAMES = new Set(['.gitignore', '.ignore', '.rgignore', '.git']);

/** What the freshness side needs of the index it keeps fresh. */
export interface FreshnessHost {
  readonly root: string;
  /** The index's directory (its `barrier/` subdirectory is the barrier's). */
  readonly dir: string;
  /** Paths never indexed nor watched (the fence, the data directory). */
  readonly exclude: (abs: string) => boolean;
  /** The base whose records changes make stale (null while there is none). */
  base(): Base | null;
  isClosed(): boolean;
  /** Something changed: re-index it in the background. */
  onChange(): void;
  /** The watchers can no longer vouch for the tree: kept walks are void. */
  onDistrust(): void;
}

/** How the index is kept fresh: whether it watches, and the seams tests use. */
export interface FreshnessOptions {
  watch: boolean;
  watchDir?: WatchDir;
  platform?: NodeJS.Platform;
  now: () => number;
}

/**
 * What changed in the tree since the base was built, and whether the index can vouch for that knowledge.
 *
 * Every `fs.watch` shares libuv's one inotify queue, so before answering, a search writes a marker into a watched
 * directory of its own and waits for that event (the barrier, `sync`): every change made before the search began
 * has then been delivered and marked. Changed files are candidates until re-indexed into the overlay. Where the
 * watchers cannot be trusted (not Linux, the watch limit, a burst large enough to have overflowed inotify's queue,
 * a barrier that does not come back) `trusted` is false and each search checks size, mtime and inode of every
 * walked file (selection.ts).
 *
 * `generation` counts structural changes (a file or directory created, deleted or renamed, an ignore file edited):
 * a walk kept from an earlier generation is stale (walk-cache.ts).
 */
export class Freshness {
  /** Files re-indexed in memory since the base was built. */
  readonly overlay = new Map<string, OverlayFile>();
  /** Files (or directories) changed since last re-indexed, with the event sequence of their last change. */
  private readonly dirty = new Map<string, number>();
  /** Per path, the event sequence of its last change or re-index (to keep what a merge did not see). */
  private readonly changedAt = new Map<string, number>();
  /** Directories to list again (a nameless event, a broken watch). */
  private readonly relist = new Set<string>();
  private seq = 0;
  private structural = 0;
  private readonly watchers = new Map<string, IndexWatcher>();
  private gitDirs = new Set<string>();
  private trust: boolean;
  private why: string;
  private barrierWatcher: IndexWatcher | null = null;
  private barrierSeq = 0;
  private readonly barrierWaiters = new Map<number, () => void>();
  private burst = 0;
  private readonly burstLimit = Math.floor(inotifyQueueLimit() / 2);
  private readonly reindexer: FileReindexer;
  private readonly watchDir: WatchDir;
  private readonly ignoreWatch: IgnoreFilesWatch;

  constructor(
    private readonly host: FreshnessHost,
    options: FreshnessOptions,
  ) {
    this.watchDir = options.watchDir ?? nodeWatchDir;
    // Its events share the tree watchers' queue: they count toward a burst that may have overflowed it.
    this.ignoreWatch = new IgnoreFilesWatch(host.root, (dir, onEvent, onError) =>
      this.watchDir(
        dir,
        (kind, name) => {
          this.countBurst();
          onEvent(kind, name);
        },
        onError,
      ),
    );
    this.reindexer = new FileReindexer(options.now);
    this.trust = options.watch && watchingTrustworthy(options.platform);
    this.why = !options.watch
      ? 'watching disabled'
      : this.trust
        ? 'directory watchers'
        : `no trustworthy directory watching on ${options.platform ?? process.platform}`;
  }

  /** Whether the watchers vouch for the tree (else each search checks what it walks). */
  get trusted(): boolean {
    return this.trust;
  }

  /** Why the index is (or is not) trusted: 'directory watchers', or what made it stop. */
  get trustReason(): string {
    return this.why;
  }

  /** Structural changes seen so far (see the class comment). */
  get generation(): number {
    return this.structural;
  }

  /** The sequence number of the last change marked. */
  get sequence(): number {
    return this.seq;
  }

  /** Changed paths not re-indexed yet. */
  get pendingCount(): number {
    return this.dirty.size;
  }

  /** Directories watched. */
  get watchedDirs(): number {
    return this.watchers.size;
  }

  /** Whether `rel` changed and is not re-indexed yet. */
  isPending(rel: string): boolean {
    return this.dirty.has(rel);
  }

  /** Watches the barrier directory and every directory of the tree; returns the walk (null: not watching). */
  startWatching(): TreeScan | null {
    const { dir } = this.host;
    privateSubdir(dir, ['barrier']);
    for (const f of fs.readdirSync(path.join(dir, 'barrier')))
      fs.rmSync(path.join(dir, 'barrier', f), { force: true });
    try {
      this.barrierWatcher = this.watchDir(
        path.join(dir, 'barrier'),
        (_kind, name) => this.onBarrier(name),
        (err) => this.distrust(`barrier watcher failed: ${err.message}`),
      );
    } catch (err) {
      this.distrust(`cannot watch the barrier directory: ${(err as Error).message}`);
      return null;
    }
    const tree = scanTree(this.host.root, this.host.exclude, (rel) => this.watch(rel));
    this.gitDirs = new Set(tree.gitDirs);
    if (tree.truncated) this.distrust('the tree exceeds the watch budget');
    return tree;
  }

  /**
   * Marks what differs between the tree (a walk made after the watchers were set up) and the loaded base:
   * files the records no longer describe, files new to the base, racily clean ones (re-read, not counted),
   * files gone. Returns how many files differ.
   */
  applyCheck(base: Base, tree: TreeScan, check: LoadCheck): number {
    this.gitDirs = new Set(tree.gitDirs);
    let changed = 0;
    const seen = new Uint8Array(base.data.paths.length);
    for (const rel of tree.files) {
      const id = base.idOf.get(rel);
      if (id === undefined) {
        this.markChanged(rel);
        changed++;
      } else seen[id] = 1;
    }
    for (const id of check.changed) {
      if (!seen[id] || base.stale[id]) continue;
      this.markChanged(base.data.paths[id]!);
      changed++;
    }
    for (const id of check.racy) if (seen[id] && !base.stale[id]) this.markChanged(base.data.paths[id]!);
    for (let id = 0; id < seen.length; id++) if (!seen[id]) setStale(base, id); // gone
    return changed;
  }

  /** A new base: what is changed or re-indexed now is stale in it. */
  markStaleIn(base: Base): void {
    for (const rel of this.dirty.keys()) markStale(base, rel);
    for (const rel of this.overlay.keys()) markStale(base, rel);
  }

  /** A base built from sequence `startSeq` on is swapped in: what changed before it began is in it. */
  forgetBefore(startSeq: number): void {
    for (const [rel, s] of this.dirty) if (s < startSeq) this.dirty.delete(rel);
    for (const rel of [...this.overlay.keys()])
      if ((this.changedAt.get(rel) ?? 0) < startSeq) this.overlay.delete(rel);
    for (const [rel, s] of this.changedAt) if (s < startSeq) this.changedAt.delete(rel);
  }

  /** Marks `rel` changed: a candidate of every search until re-indexed. */
  markChanged(rel: string): void {
    this.markChangedQuiet(rel);
    this.host.onChange();
  }

  /**
   * Lets the watchers catch up with everything that happened before this call, then re-indexes a bounded
   * number of changed files. Returns whether the watchers can vouch for the tree.
   */
  async sync(): Promise<boolean> {
    if (this.trust && this.barrierWatcher) {
      const n = ++this.barrierSeq;
      const marker = path.join(this.host.dir, 'barrier', `b-${n}`);
      let timer: NodeJS.Timeout | undefined;
      const arrived = await new Promise<boolean>((resolve) => {
        this.barrierWaiters.set(n, () => resolve(true));
        timer = setTimeout(() => resolve(false), BARRIER_TIMEOUT_MS);
        try {
          fs.writeFileSync(marker, '');
        } catch (err) {
          this.distrust(`cannot write the barrier: ${(err as Error).message}`);
          resolve(false);
        }
      });
      clearTimeout(timer);
      this.barrierWaiters.delete(n);
      fs.rmSync(marker, { force: true });
      if (!arrived) this.distrust('a barrier did not come back in time');
    }
    // The burst check runs after the events it counts; let it run before trusting them.
    if (this.burst > 0) await yieldToLoop();
    this.reindex(REINDEX_PER_SEARCH);
    return this.trust;
  }

  /** Re-indexes up to `max` changed paths in memory (files into the overlay, new directories watched). */
  reindex(max: number): void {
    if (!this.host.base()) return;
    let done = 0;
    for (const [rel, s] of this.dirty) {
      if (done++ >= max) break;
      this.dirty.delete(rel);
      const abs = absOf(this.host.root, rel);
      if (rel !== '' && this.host.exclude(abs)) {
        this.overlay.delete(rel);
        continue;
      }
      let st: fs.Stats | null = null;
      try {
        st = fs.lstatSync(abs);
      } catch {
        st = null;
      }
      if (st?.isDirectory()) {
        // A directory created, or one whose watch broke or overflowed: listed again, everything below it
        // changed. An attribute change of a watched one needs nothing.
        if (!this.watchers.has(rel) || this.relist.has(rel)) this.adoptDirectory(rel);
        this.relist.delete(rel);
        continue;
      }
      if (!st?.isFile()) {
        this.overlay.delete(rel);
        this.dropWatchersBelow(rel);
        continue;
      }
      const file = this.reindexer.read(abs);
      if (file === 'gone') this.overlay.delete(rel);
      else {
        this.overlay.set(rel, file);
        this.changedAt.set(rel, s);
      }
    }
  }

  /**
   * What the ignore files a walk reads that no tree watcher sees (above the root, `.git/info/exclude`) look like
   * now (ignore-watch.ts: they are watched). Only asked while trusted: an untrusted index keeps no walk.
   */
  ignoreSignature(parents: boolean): string {
    return this.trust ? this.ignoreWatch.signature(parents, this.gitDirs) : 'untrusted';
  }

  /** Stops watching; a search waiting on the barrier goes on. */
  close(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.barrierWatcher?.close();
    this.barrierWatcher = null;
    for (const resolve of this.barrierWaiters.values()) resolve();
    this.barrierWaiters.clear();
    this.ignoreWatch.close();
  }

  private watch(rel: string): void {
    if (!this.trust || this.watchers.has(rel)) return;
    if (this.watchers.size >= MAX_WATCHED_DIRS) {
      this.distrust(`more than ${MAX_WATCHED_DIRS} directories`);
      return;
    }
    try {
      const w = this.watchDir(
        absOf(this.host.root, rel),
        (kind, name) => this.onEvent(rel, kind, name),
        () => {
          // The directory went away (or the watch broke): its parent's listing says which.
          this.watchers.get(rel)?.close();
          this.watchers.delete(rel);
          this.relist.add(rel);
          this.markChanged(rel);
          this.structural++;
        },
      );
      this.watchers.set(rel, w);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return; // gone already: its parent saw that
      this.distrust(
        code === 'ENOSPC'
          ? 'inotify watch limit reached (ENOSPC)'
          : `cannot watch: ${(err as Error).message}`,
      );
    }
  }

  private onEvent(dirRel: string, kind: 'rename' | 'change', name: string | null): void {
    if (this.host.isClosed()) return;
    this.countBurst();
    if (name === null) {
      this.relist.add(dirRel);
      this.markChanged(dirRel);
      this.structural++;
      return;
    }
    if (kind === 'rename' || IGNORE_FILE_NAMES.has(name)) this.structural++;
    if (NEVER_ENTERED.has(name)) {
      // Not entered, not indexed: only whether it exists matters (ignore rules read `.git/info/exclude`).
      this.gitDirs.add(dirRel);
      return;
    }
    this.markChanged(joinRel(dirRel, name));
  }

  /** A burst as large as half of inotify's queue may have overflowed it, and libuv would not say so. */
  private countBurst(): void {
    if (this.burst++ === 0) {
      setImmediate(() => {
        if (this.burst >= this.burstLimit)
          this.distrust(`an event burst of ${this.burst} may have overflowed inotify's queue`);
        this.burst = 0;
      });
    }
  }

  private distrust(reason: string): void {
    if (!this.trust) return;
    this.trust = false;
    this.why = reason;
    this.ignoreWatch.close();
    this.host.onDistrust();
  }

  private onBarrier(name: string | null): void {
    if (name === null) {
      for (const resolve of this.barrierWaiters.values()) resolve();
      this.barrierWaiters.clear();
      return;
    }
    const m = /^b-(\d+)$/.exec(name);
    if (!m) return;
    const n = Number(m[1]);
    for (const [k, resolve] of this.barrierWaiters) {
      if (k <= n) {
        resolve();
        this.barrierWaiters.delete(k);
      }
    }
  }

  /** A directory created (or re-listed): watch it and everything below; its files are changed files. */
  private adoptDirectory(rel: string): void {
    const abs = absOf(this.host.root, rel);
    const sub = scanTree(abs, this.host.exclude, (d) => this.watch(joinRel(rel, d).replace(/\/$/, '')));
    for (const g of sub.gitDirs) this.gitDirs.add(joinRel(rel, g).replace(/\/$/, ''));
    for (const f of sub.files) this.markChangedQuiet(joinRel(rel, f));
    this.structural++;
  }

  private markChangedQuiet(rel: string): void {
    const s = ++this.seq;
    this.dirty.set(rel, s);
    this.changedAt.set(rel, s);
    const base = this.host.base();
    if (base) markStale(base, rel);
  }

  private dropWatchersBelow(rel: string): void {
    if (!this.watchers.has(rel)) return;
    const prefix = `${rel}/`;
    for (const [d, w] of this.watchers) {
      if (d === rel || d.startsWith(prefix)) {
        w.close();
        this.watchers.delete(d);
      }
    }
  }
}
