import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { createSensitiveFence, type SensitiveFence } from '../fence/index.js';
import { homeDir } from '../fence/root.js';
import { type FreshnessClock, IndexFreshness, parentOf } from './freshness.js';
import {
  FILE_INDEX_MAX_ENTRIES,
  FILE_INDEX_RANK_SLACK,
  FILE_INDEX_YIELD_MS,
  NAME_DEFAULT_LIMIT,
  NAME_LINK_RESOLVE_CONCURRENCY,
} from './limits.js';
import { prepareNameQuery } from './query.js';
import { NAME_SKIP_DIRS, NameAdmission, tccPruner, underDotDir } from './rules.js';
import { EntryStore, type RankedSlot } from './store.js';
import {
  compareRanked,
  type NameKinds,
  type NameResult,
  type NameSearchFs,
  type NameSearchOptions,
  nodeNameFs,
} from './types.js';

/** How a {@link FileIndex} walks, watches and refreshes its root, with the seams tests use. */
export interface FileIndexOptions {
  fs?: NameSearchFs;
  /** The sensitive-path fence (default: one anchored at the real HOME). */
  fence?: SensitiveFence;
  /** Entry cap (files + directories); reaching it marks the index truncated. */
  maxEntries?: number;
  /** Keep the index fresh with per-directory watchers (default true). */
  watch?: boolean;
  maxWatchedDirs?: number;
  /** mtime checks of unwatched directories; 0 disables. */
  pollMs?: number;
  /** Full rebuild period; 0 disables. Default: 5 min while watching, 30 s otherwise. */
  fullRebuildMs?: number;
  settleMs?: number;
  yieldMs?: number;
  /** HOME and platform, for the macOS consent-folder pruning of an index rooted at HOME. */
  home?: string;
  platform?: string;
  /** Prepare every entry's search object in the background after a build (default true). */
  warm?: boolean;
  /** Build progress (entries so far), called at every yield and when a build ends. */
  onProgress?: (progress: FileIndexProgress) => void;
  /** The timers of the settle window, the polling and the full rebuilds (a seam for tests; default real timers). */
  clock?: FreshnessClock;
  /**
   * Enter dot directories (skip directories aside) after everything else, while the index is under
   * {@link DOT_DIRS_ROOM} of its cap; what they hold is kept as dot files and never truncates the index (the
   * workbench; `trawl find` keeps the seed's rule: dot directories offered, not entered).
   */
  dotDirsLast?: boolean;
}

/** The share of the entry cap dot directories may fill (entered last): the rest is never taken from the project. */
export const DOT_DIRS_ROOM = 0.9;

export interface FileIndexProgress {
  phase: 'idle' | 'building' | 'ready' | 'stopped';
  entries: number;
  directories: number;
  /** Full builds completed. */
  builds: number;
}

interface WalkContext {
  store: EntryStore;
  /** Directory mtimes read just before each directory was listed (kept when directories are polled). */
  mtimes: Map<string, number> | undefined;
  links: string[];
  truncated: boolean;
  /** Directories newly entered by this walk (for watchers). */
  entered: string[];
}

/**
 * An in-memory name index of one canonical root: files and directories (empty ones too), dot files kept apart (a
 * search offers them when asked, `dotFiles`), dot directories offered but not entered, skip directories neither,
 * sensitive targets refused (symlinks resolved through the fence). Kept exact by per-directory watchers (or mtime polling where watching is unavailable) and
 * corrected by periodic full rebuilds; a result whose file vanished is dropped at search time.
 */
export class FileIndex {
  private store = new EntryStore();
  private isReady = false;
  private isTruncated = false;
  private phase: FileIndexProgress['phase'] = 'idle';
  private builds = 0;
  private building?: WalkContext;
  private stopped = false;
  private started = false;
  private readonly fs: NameSearchFs;
  private readonly fence: SensitiveFence;
  private readonly maxEntries: number;
  private readonly options: FileIndexOptions;
  private readonly freshness: IndexFreshness;
  private chain: Promise<void> = Promise.resolve();
  private checkCanonical: (p: string) => boolean = () => true;
  /** Some sensitive location lies under the root: entries need the (string) check. */
  private fenceInRoot = true;
  /** What is offered and entered (the consent-folder pruning is known once the root is). */
  private admit = new NameAdmission(NAME_SKIP_DIRS, null, true);
  private scratch = new Int32Array(0);
  private warming = false;

  constructor(
    readonly root: string,
    options: FileIndexOptions = {},
  ) {
    this.options = options;
    this.fs = options.fs ?? nodeNameFs;
    this.fence = options.fence ?? createSensitiveFence();
    this.maxEntries = options.maxEntries ?? FILE_INDEX_MAX_ENTRIES;
    this.freshness = new IndexFreshness(
      {
        abs: (rel) => this.abs(rel),
        enteredDirs: () => this.store.enteredDirs(),
        isEntered: (rel) => this.store.isEntered(rel),
        applyDirty: () => this.enqueue(() => this.applyDirty()),
        refresh: () => this.refresh(),
      },
      { ...options, fs: this.fs },
    );
  }

  get ready(): boolean {
    return this.isReady;
  }

  get truncated(): boolean {
    return this.isTruncated;
  }

  /**
   * Equal values mean the same set of entries (no change, no rebuild in between): what a cache of answers is
   * keyed on. Row metadata (size, mtime) is read at search time and is not covered.
   */
  get generation(): string {
    return `${this.builds}:${this.store.changes}`;
  }

  /** Live entries. */
  get size(): number {
    return this.store.live;
  }

  /** True while the refresh machinery (watchers, timers) runs. */
  get refreshing(): boolean {
    return this.started && !this.stopped;
  }

  get watchedDirectories(): number {
    return this.freshness.watchedDirectories;
  }

  get progress(): FileIndexProgress {
    const s = this.building?.store ?? this.store;
    return { phase: this.phase, entries: s.live, directories: s.enteredCount, builds: this.builds };
  }

  /**
   * Builds the index (resolves when it is searchable) and starts keeping it fresh. Rejects when the root is not a
   * readable directory or is itself sensitive; a rejected start leaves no timers or watchers behind.
   */
  async start(): Promise<void> {
    if (this.started) throw new Error('FileIndex already started');
    this.started = true;
    try {
      const real = await this.fs.realpath(this.root);
      if (real !== this.root) throw new Error(`FileIndex root must be canonical: ${this.root}`);
      if (!(await this.fs.stat(this.root)).isDirectory()) throw new Error(`not a directory: ${this.root}`);
      if (this.fence.isSensitiveCanonical(this.root))
        throw new Error('FileIndex root is a sensitive location');
      this.checkCanonical = this.fence.canonicalCheckerFor(this.root);
      this.fenceInRoot = this.fence.containsSensitive(this.root);
      this.admit = new NameAdmission(
        NAME_SKIP_DIRS,
        tccPruner(this.root, this.options.home ?? homeDir(), this.options.platform ?? process.platform),
        true, // kept, and offered by search only when asked
        false,
        this.options.dotDirsLast === true,
      );
      await this.rebuild();
      if (this.stopped) return;
      this.isReady = true;
      this.freshness.start();
      await this.freshness.sync();
    } catch (err) {
      this.stop();
      throw err;
    }
  }

  /** Stops watching and refreshing; entries stay searchable. */
  stop(): void {
    this.stopped = true;
    this.phase = 'stopped';
    this.freshness.stop();
  }

  /** A full rebuild now (serialised with incremental updates). */
  refresh(): Promise<void> {
    return this.enqueue(async () => {
      await this.rebuild();
      await this.freshness.sync();
    });
  }

  /** Resolves once changes already reported to the index have been applied (tests, benchmarks). */
  async settled(): Promise<void> {
    if (this.freshness.cutSettle()) void this.enqueue(() => this.applyDirty());
    await this.chain;
  }

  /**
   * The best entries for `query`, as result rows, in ranking order. Every returned row was stat'd just
   * now (size, mtime, and proof that it still exists); symlinked entries are re-checked against the fence.
   */
  async search(query: string, options: NameSearchOptions = {}): Promise<NameResult[]> {
    const limit = Math.max(1, options.limit ?? NAME_DEFAULT_LIMIT);
    const kinds = options.kinds ?? 'all';
    for (let attempt = 0; attempt < 4; attempt++) {
      const ranked = this.rank(query, {
        ...options,
        limit: limit + FILE_INDEX_RANK_SLACK,
        kinds,
        page: limit,
      });
      const store = this.store;
      const rows = await Promise.all(ranked.map((r) => this.materialize(store, r)));
      const kept: { r: RankedSlot; row: NameResult }[] = [];
      let vanished = 0;
      for (let i = 0; i < ranked.length; i++) {
        const row = rows[i];
        if (row === 'gone') vanished++;
        else if (row) kept.push({ r: ranked[i]!, row });
      }
      if (vanished > 0 && kept.length < limit && ranked.length === limit + FILE_INDEX_RANK_SLACK) continue;
      kept.sort((a, b) => compareRanked(a.r, b.r) || a.r.slot - b.r.slot);
      return kept.slice(0, limit).map((k) => k.row);
    }
    return [];
  }

  /** The ranking alone (no stat, no existence check): slots in order, for benchmarks and diagnostics. */
  rank(query: string, options: NameSearchOptions & { page?: number } = {}): RankedSlot[] {
    const limit = Math.max(1, options.limit ?? NAME_DEFAULT_LIMIT);
    const kinds: NameKinds = options.kinds ?? 'all';
    const store = this.store;
    const dotFiles = options.dotFiles === true;
    if (options.scorer)
      return store.rankWith(options.scorer, query.trim().toLowerCase(), kinds, limit, dotFiles);
    const q = prepareNameQuery(query);
    if (!q) return [];
    if (this.scratch.length < store.length) this.scratch = new Int32Array(store.length + 1024);
    return store.rank(q, kinds, limit, this.scratch, options.page ?? limit, dotFiles);
  }

  /** Every live entry (relative path and kind), in index order: diagnostics, benchmarks, exports. */
  *entries(): IterableIterator<{ rel: string; kind: 'file' | 'dir' }> {
    const store = this.store;
    for (let i = 0; i < store.length; i++) {
      const rel = store.relOf(i);
      if (rel !== undefined) yield { rel, kind: store.isDir(i) ? 'dir' : 'file' };
    }
  }

  /** Relative path of a ranked slot. */
  relOf(slot: number): string | undefined {
    return this.store.relOf(slot);
  }

  private abs(rel: string): string {
    if (rel === '') return this.root;
    return this.root.endsWith('/') ? this.root + rel : `${this.root}/${rel}`;
  }

  private async materialize(store: EntryStore, r: RankedSlot): Promise<NameResult | 'gone' | null> {
    if (store.relOf(r.slot) === undefined) return 'gone';
    const t = store.target(r.slot);
    const path = this.abs(t.rel);
    if (store.isLink(r.slot) && (await this.fence.isSensitive(path))) return null;
    try {
      const st = this.fs.statSync(path);
      const isDir = st.isDirectory();
      if (isDir !== t.isDir || (!isDir && !st.isFile())) {
        this.freshness.markDirty(parentOf(t.rel));
        return 'gone';
      }
      r.mtimeMs = st.mtimeMs;
      return {
        path,
        name: t.rel.slice(t.nameStart),
        kind: isDir ? 'dir' : 'file',
        size: isDir ? 0 : st.size,
        mtime: Math.floor(st.mtimeMs / 1000),
      };
    } catch {
      // gone (or unreadable): drop it now, rescan its directory
      if (store === this.store) store.remove(t.rel);
      this.freshness.markDirty(parentOf(t.rel));
      return 'gone';
    }
  }

  /** Prepares search objects in the background, a slice at a time, so the first searches do not pay for them. */
  private scheduleWarm(): void {
    if (this.warming || this.options.warm === false) return;
    this.warming = true;
    const step = () => {
      if (
        this.stopped ||
        this.store.warm(performance.now() + (this.options.yieldMs ?? FILE_INDEX_YIELD_MS))
      ) {
        this.warming = false;
        return;
      }
      setImmediate(step);
    };
    setImmediate(step);
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.chain.then(task, task);
    this.chain = next.catch(() => {});
    return next;
  }

  private async rebuild(): Promise<void> {
    const ctx: WalkContext = {
      store: new EntryStore(),
      mtimes: this.freshness.pollsAll ? new Map() : undefined,
      links: [],
      truncated: false,
      entered: [],
    };
    this.building = ctx;
    this.phase = 'building';
    try {
      await this.walkFrom(ctx, '');
      if (this.stopped) return;
      await this.resolveLinks(ctx);
      if (this.stopped) return;
      this.store = ctx.store;
      this.isTruncated = ctx.truncated;
      this.scheduleWarm();
      if (ctx.mtimes) this.freshness.replaceMtimes(ctx.mtimes);
      this.builds++;
    } finally {
      this.building = undefined;
      if (!this.stopped) this.phase = 'ready';
      this.options.onProgress?.(this.progress);
    }
  }

  /** Walks `startRel` (an entered directory) and everything below it into `ctx.store`, yielding periodically. */
  private async walkFrom(ctx: WalkContext, startRel: string): Promise<void> {
    const store = ctx.store;
    const yieldMs = this.options.yieldMs ?? FILE_INDEX_YIELD_MS;
    const stack = [startRel];
    // Dot directories wait until everything else is in; inside one, everything is entered in turn.
    const later: string[] = [];
    let hidden = underDotDir(`${startRel}/`, startRel.length + 1);
    const limit = () => (hidden ? Math.floor(this.maxEntries * DOT_DIRS_ROOM) : this.maxEntries);
    let slice = performance.now();
    for (;;) {
      if (stack.length === 0) {
        if (hidden || later.length === 0) break;
        hidden = true;
        stack.push(...later.splice(0).reverse());
      }
      if (ctx.truncated || this.stopped) return;
      const rel = stack.pop()!;
      let entries: ReturnType<NameSearchFs['readdirSync']>;
      try {
        if (ctx.mtimes) ctx.mtimes.set(rel, this.fs.statSync(this.abs(rel)).mtimeMs);
        entries = this.fs.readdirSync(this.abs(rel));
      } catch {
        continue;
      }
      store.enter(rel);
      ctx.entered.push(rel);
      const fenced = this.fenceInRoot;
      for (const e of entries) {
        const name = e.name;
        if (e.isDirectory()) {
          if (!this.admit.dir(rel, name)) continue;
          const childRel = rel === '' ? name : `${rel}/${name}`;
          if (fenced && this.checkCanonical(this.abs(childRel))) continue;
          if (store.live >= limit()) {
            // Full of the project's own entries: truncated. Dot directories only stop where the room ends.
            if (!hidden) ctx.truncated = true;
            return;
          }
          store.addChild(rel, name, true, false);
          if (this.admit.enters(name) || (hidden && this.admit.defers(name))) stack.push(childRel);
          else if (this.admit.defers(name)) later.push(childRel);
        } else if (e.isFile()) {
          if (!this.admit.file(name)) continue;
          if (fenced && this.checkCanonical(this.abs(rel === '' ? name : `${rel}/${name}`))) continue;
          if (store.live >= limit()) {
            if (!hidden) ctx.truncated = true;
            return;
          }
          store.addChild(rel, name, false, false);
        } else if (e.isSymbolicLink()) {
          if (!this.admit.link(rel, name)) continue;
          ctx.links.push(rel === '' ? name : `${rel}/${name}`);
        }
      }
      if (performance.now() - slice >= yieldMs) {
        this.options.onProgress?.(this.progress);
        await yieldToLoop();
        slice = performance.now();
      }
    }
  }

  /** Symlinked entries: offered only when the fence clears their resolved target; never entered. */
  private async resolveLinks(ctx: WalkContext): Promise<void> {
    const links = ctx.links.splice(0);
    let next = 0;
    const worker = async () => {
      while (next < links.length) {
        const rel = links[next++]!;
        const abs = this.abs(rel);
        if (await this.fence.isSensitive(abs)) continue;
        let st: Awaited<ReturnType<NameSearchFs['stat']>>;
        try {
          st = await this.fs.stat(abs);
        } catch {
          continue;
        }
        const kind = this.admit.linkTarget(rel.slice(rel.lastIndexOf('/') + 1), st);
        if (kind === null) continue;
        const isDir = kind === 'dir';
        if (!ctx.store.isEntered(parentOf(rel))) continue; // parent removed meanwhile
        if (ctx.store.live >= this.maxEntries) {
          ctx.truncated = true;
          return;
        }
        ctx.store.add(rel, isDir, true);
      }
    };
    await Promise.all(Array.from({ length: Math.min(NAME_LINK_RESOLVE_CONCURRENCY, links.length) }, worker));
  }

  // ---- applying changes (freshness.ts decides when) ------------------------------------------------------------

  private async applyDirty(): Promise<void> {
    if (this.stopped || !this.isReady) return;
    const dirs = this.freshness.takeDirty();
    const ctx: WalkContext = {
      store: this.store,
      mtimes: this.freshness.pollsAll ? this.freshness.mtimes : undefined,
      links: [],
      truncated: false,
      entered: [],
    };
    for (const rel of dirs) {
      if (!this.store.isEntered(rel)) continue; // already gone with an ancestor
      this.rescan(ctx, rel);
    }
    // new subdirectories found by the rescans
    const fresh = ctx.entered.splice(0);
    for (const rel of fresh) {
      if (ctx.truncated) break;
      await this.walkFrom(ctx, rel);
    }
    await this.resolveLinks(ctx);
    if (ctx.truncated) this.isTruncated = true;
    await this.freshness.sync();
  }

  /** Re-reads one entered directory and applies the difference to the store. */
  private rescan(ctx: WalkContext, rel: string): void {
    const store = this.store;
    let entries: ReturnType<NameSearchFs['readdirSync']>;
    try {
      if (ctx.mtimes) ctx.mtimes.set(rel, this.fs.statSync(this.abs(rel)).mtimeMs);
      entries = this.fs.readdirSync(this.abs(rel));
    } catch {
      if (rel === '') {
        for (const k of store.childNames('')) this.dropTree(k);
      } else {
        this.dropTree(rel);
        this.freshness.markDirty(parentOf(rel));
      }
      return;
    }
    const before = new Set(store.childNames(rel));
    for (const e of entries) {
      const name = e.name;
      const childRel = rel === '' ? name : `${rel}/${name}`;
      const known = store.kindOf(childRel);
      before.delete(name);
      if (e.isDirectory()) {
        if (!this.admit.dir(rel, name) || this.checkCanonical(this.abs(childRel))) {
          if (known) this.dropTree(childRel);
          continue;
        }
        if (known === 'dir' && !isLinkAt(store, childRel)) continue;
        if (known) this.dropTree(childRel);
        if (store.live >= this.maxEntries) {
          ctx.truncated = true;
          continue;
        }
        store.add(childRel, true, false);
        if (this.admit.enters(name)) ctx.entered.push(childRel);
      } else if (e.isFile()) {
        if (!this.admit.file(name) || this.checkCanonical(this.abs(childRel))) {
          if (known) this.dropTree(childRel);
          continue;
        }
        if (known === 'file' && !isLinkAt(store, childRel)) continue;
        if (known) this.dropTree(childRel);
        if (store.live >= this.maxEntries) {
          ctx.truncated = true;
          continue;
        }
        store.add(childRel, false, false);
      } else if (e.isSymbolicLink()) {
        if (known) this.dropTree(childRel); // re-resolve: the target may have changed
        if (this.admit.link(rel, name)) ctx.links.push(childRel);
      } else if (known) {
        this.dropTree(childRel);
      }
    }
    for (const name of before) this.dropTree(rel === '' ? name : `${rel}/${name}`);
  }

  private dropTree(rel: string): void {
    this.freshness.forget(this.store.remove(rel));
  }
}

function isLinkAt(store: EntryStore, rel: string): boolean {
  const s = store.slotOf(rel);
  return s !== undefined && store.isLink(s);
}
