import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { type DocumentKind, documentKindOf } from '../docs/extract.js';
import { type DocumentTextStore, documentIdentity, type StoredDocument } from '../docs/store.js';
import type {
  IndexSelection,
  IndexSelectRequest,
  IndexWalkOptions,
  IndexWalkRequest,
  SearchIndex,
} from '../engine/search-index.js';
import { createSensitiveFence, type SensitiveFence } from '../fence/index.js';
import { homeDir } from '../fence/root.js';
import { GREP_DOC_MAX_BYTES } from '../grep/limits.js';
import { descriptorIs, isWithin, openNoFollow } from '../util/fs-safety.js';
import { ensurePrivateDir, privateSubdir } from '../util/private-dir.js';
import type { PrunedEntry, WalkEntry } from '../walk/walker.js';
import { type Base, baseOf, evaluationOf } from './base.js';
import { type BuildProgress, type BuildResult, buildIndex, workerScriptUrl } from './build.js';
import { documentStoreFor } from './documents.js';
import {
  IndexFormatError,
  type LoadedIndex,
  openIndexFile,
  parseIndexHead,
  readIndexHead,
} from './format.js';
import { Freshness } from './freshness.js';
import type { IndexWorkerData } from './index-worker.js';
import { MERGE_OVERLAY_MIN_FILES, MERGE_OVERLAY_SHARE } from './limits.js';
import { checkRecords, type LoadCheck } from './load.js';
import { gramQuery } from './query.js';
import { selectFrom } from './selection.js';
import { scanTree } from './tree.js';
import { WalkCache, type WalkList } from './walk-cache.js';
import { absOf, type WatchDir } from './watch.js';

/** How a content index is opened: where it persists, whether it watches, its budgets and seams. */
export interface ContentIndexOptions {
  /** Where indexes live: `<dataDir>/content-index/<hash of the root>/index.bin`. */
  dataDir: string;
  /** Keep the index fresh with directory watchers (default true). Without them every search checks size+mtime. */
  watch?: boolean;
  /** Files and directories never read or listed (default: the sensitive-path fence of this HOME). */
  fence?: SensitiveFence;
  /** 'worker' (default): builds run in a worker thread; 'inline': in this thread (a CLI with nothing else to do). */
  buildIn?: 'worker' | 'inline';
  /** Rebuild even when a usable persisted index exists. */
  rebuild?: boolean;
  /** false: only load a persisted index, never build one (`trawl index --status`). Default true. */
  build?: boolean;
  /** What to do when a loaded index differs from the tree: 'overlay' (default) re-indexes the differences in memory; 'rebuild' writes a new index (`trawl index`). */
  onChanged?: 'overlay' | 'rebuild';
  onProgress?: (p: BuildProgress) => void;
  /** Extract the root's documents into its store once the index is ready (default true; content-index/documents.ts). */
  extractDocuments?: boolean;
  /** Called after each document the background extraction settles (`trawl index`'s progress line). */
  onDocumentProgress?: (p: DocumentExtractionStatus) => void;
  /** Bytes per indexed block (default INDEX_BLOCK_BYTES); tests use tiny blocks to put literals across boundaries. */
  blockBytes?: number;
  /** Seams for tests. */
  watchDir?: WatchDir;
  platform?: NodeJS.Platform;
  now?: () => number;
}

export type ContentIndexState = 'opening' | 'building' | 'ready' | 'failed' | 'closed';

/** The background extraction of the root's documents into its text store. */
export interface DocumentExtractionStatus {
  /** 'waiting' until the text index is ready; 'done' once every indexed document was visited. */
  state: 'waiting' | 'extracting' | 'done';
  /** Documents the index records (by extension), and of them the ones whose current version is stored. */
  total: number;
  stored: number;
  /** Of the stored, cut by a cap (partial text). */
  partial: number;
}

/** What `trawl index --status` prints and `/api/health`-like surfaces report. */
export interface ContentIndexStatus {
  root: string;
  state: ContentIndexState;
  /** Why the state is what it is (a failure, why a rebuild ran). */
  reason: string;
  files: number;
  textBytes: number;
  indexBytes: number;
  /** Distinct (hashed) grams in the base. */
  grams: number;
  builtAt: number | null;
  /** Files that differed from the persisted index when it was loaded (null: built, not loaded). */
  changedSinceBuild: number | null;
  /** Files re-indexed in memory since the base was built, and files changed but not re-indexed yet. */
  overlayFiles: number;
  pendingFiles: number;
  watchedDirs: number;
  /** 'events': watchers vouch for every file; 'stat': each search checks size+mtime (and why). */
  freshness: 'events' | 'stat';
  freshnessReason: string;
  /** Approximate bytes this index holds in memory. */
  residentBytes: number;
  progress?: BuildProgress;
  lastBuild?: BuildResult;
  /** The documents' extraction into the text store (absent when it is off). */
  documents?: DocumentExtractionStatus;
}

/** `<dataDir>/content-index/<sha256(root)>`: one directory per canonical root. */
export function indexDirFor(dataDir: string, root: string): string {
  return path.join(dataDir, 'content-index', createHash('sha256').update(root).digest('hex').slice(0, 24));
}

/**
 * A live gram index of one directory tree: a persisted base (format.ts) plus an in-memory overlay of the
 * files changed since, kept exact by directory watchers. It picks the files a search reads and never changes
 * what the search finds: a file it cannot vouch for is searched.
 *
 * This class is the index's lifecycle (open, load or build, lose and rebuild, merge, close, documents) and the
 * front door a search asks; the concerns it composes live beside it: freshness.ts (watchers, the barrier, what
 * changed since the base), walk-cache.ts (a search's walk, kept while nothing structural changes) and
 * selection.ts (which walked files a search must read).
 *
 * Walks. A search's own walk decides which files it covers (ignore rules, hidden-ness, globs: the index
 * records every file below the root).
 */
export class ContentIndex implements SearchIndex {
  readonly root: string;
  readonly dir: string;
  private state: ContentIndexState = 'opening';
  private reason = '';
  private base: Base | null = null;
  private readonly fresh: Freshness;
  private readonly walks: WalkCache;
  private readonly exclude: (abs: string) => boolean;
  private readonly fence: SensitiveFence;
  private readonly now: () => number;
  /** Start-up, or the rebuild that replaces a base lost on disk (see `lose`). */
  private ready: Promise<void>;
  private progress: BuildProgress | undefined;
  private changedSinceBuild: number | null = null;
  private lastBuild: BuildResult | undefined;
  private background: Promise<void> | null = null;
  private merging = false;
  private building: Worker | null = null;
  private loading: Worker | null = null;
  private documents: DocumentTextStore | null = null;
  private docStatus: DocumentExtractionStatus = { state: 'waiting', total: 0, stored: 0, partial: 0 };
  private extracting: Promise<void> | null = null;

  constructor(
    root: string,
    private readonly options: ContentIndexOptions,
  ) {
    this.root = root;
    this.dir = indexDirFor(options.dataDir, root);
    this.now = options.now ?? Date.now;
    this.fence = options.fence ?? createSensitiveFence();
    // The data directory is never indexed (the barrier's own events would read as changes to the tree).
    const fenced = this.fence.canonicalCheckerFor(root);
    const data = path.resolve(options.dataDir);
    this.exclude = (abs) => fenced(abs) || abs === data || abs.startsWith(`${data}/`);
    this.walks = new WalkCache(root, this.exclude);
    this.fresh = new Freshness(
      {
        root,
        dir: this.dir,
        exclude: this.exclude,
        base: () => this.base,
        isClosed: () => this.isClosed,
        onChange: () => this.scheduleBackground(),
        onDistrust: () => this.walks.clear(),
      },
      {
        watch: options.watch ?? true,
        now: this.now,
        ...(options.watchDir ? { watchDir: options.watchDir } : {}),
        ...(options.platform ? { platform: options.platform } : {}),
      },
    );
    this.ready = this.open();
    this.ready.catch(() => {});
  }

  /** Resolves when the index answers searches (or has failed: searches then scan, and status says why). */
  whenReady(): Promise<void> {
    return this.ready.catch(() => {});
  }

  status(): ContentIndexStatus {
    const b = this.base;
    let resident = 0;
    if (b) resident += b.data.residentBytes + b.data.paths.length * 64 + b.stale.byteLength;
    for (const o of this.fresh.overlay.values()) resident += 64 + (o.grams?.byteLength ?? 0);
    resident += this.walks.residentBytes();
    return {
      root: this.root,
      state: this.state,
      reason: this.reason,
      files: b?.data.paths.length ?? 0,
      textBytes: b?.data.textBytes ?? 0,
      indexBytes: b?.data.fileBytes ?? 0,
      grams: b?.data.postings.grams ?? 0,
      builtAt: b?.data.builtAt ?? null,
      changedSinceBuild: this.changedSinceBuild,
      overlayFiles: this.fresh.overlay.size,
      pendingFiles: this.fresh.pendingCount,
      watchedDirs: this.fresh.watchedDirs,
      freshness: this.fresh.trusted ? 'events' : 'stat',
      freshnessReason: this.fresh.trustReason,
      residentBytes: resident,
      ...(this.progress && this.state !== 'ready' ? { progress: this.progress } : {}),
      ...(this.lastBuild ? { lastBuild: this.lastBuild } : {}),
      ...(this.options.extractDocuments !== false ? { documents: { ...this.docStatus } } : {}),
    };
  }

  private get isClosed(): boolean {
    return this.state === 'closed';
  }

  async close(): Promise<void> {
    this.state = 'closed';
    // The store outlives the index in this thread (a reopened index shares it); what it learned is written now.
    await this.documents?.flush().catch(() => {});
    this.fresh.close();
    if (this.building) await this.building.terminate();
    if (this.loading) await this.loading.terminate();
    this.base?.data.release();
    this.base = null;
    this.walks.clear();
  }

  /**
   * The root's document text store, persisted beside this index (content-index/documents.ts), made on first use; a
   * search of any directory under the root shares it. Undefined once closed or when the data directory is refused.
   */
  documentsFor(root: string): DocumentTextStore | undefined {
    if (this.isClosed || !isWithin(root, this.root)) return undefined;
    if (!this.documents) {
      try {
        this.documents = documentStoreFor(this.options.dataDir, this.root, this.fence);
      } catch {
        return undefined;
      }
    }
    return this.documents;
  }

  /** Resolves when the background extraction now under way (if any) has visited every document. */
  async whenDocumentsExtracted(): Promise<void> {
    await this.whenReady();
    while (this.extracting) await this.extracting;
  }

  /**
   * After the text index is ready: every document the base records whose current version the store lacks is read
   * (no-follow, judged by its real path, within GREP_DOC_MAX_BYTES) and extracted whole, one at a time, so the
   * searches that follow find it stored. A search meanwhile extracts what it needs itself.
   */
  private extractDocumentsLater(): void {
    if (this.options.extractDocuments === false || this.extracting || this.isClosed) return;
    this.extracting = this.extractDocuments()
      .catch(() => {})
      .finally(() => {
        this.extracting = null;
      });
  }

  private async extractDocuments(): Promise<void> {
    const store = this.documentsFor(this.root);
    const base = this.base;
    if (!store || !base) return;
    await store.ready();
    const docs: Array<{ abs: string; kind: DocumentKind }> = [];
    for (const rel of base.data.paths) {
      const kind = documentKindOf(rel);
      const abs = absOf(this.root, rel);
      if (kind !== null && !this.exclude(abs)) docs.push({ abs, kind });
    }
    this.docStatus = { state: 'extracting', total: docs.length, stored: 0, partial: 0 };
    for (const { abs, kind } of docs) {
      if (this.isClosed || this.base !== base) return;
      const doc = await extractOne(store, abs, kind);
      if (doc) {
        this.docStatus.stored++;
        if (doc.partial) this.docStatus.partial++;
      }
      this.options.onDocumentProgress?.({ ...this.docStatus });
      await yieldToLoop();
    }
    this.docStatus.state = 'done';
    this.options.onDocumentProgress?.({ ...this.docStatus });
  }

  // ---- opening and building -----------------------------------------------------------------------------------

  /**
   * Start-up. A persisted index is read and checksummed in a worker while this thread sets up the watchers
   * (one walk of the tree); then the worker stats every indexed file, so whatever changes after that is an
   * event. Until the differences are marked the index is not ready: searches scan.
   */
  private async open(): Promise<void> {
    try {
      // The data directory must be this account's alone and its subdirectories real ones (util/private-dir.ts).
      ensurePrivateDir(this.options.dataDir);
      privateSubdir(this.options.dataDir, path.relative(this.options.dataDir, this.dir).split(path.sep));
      clearDeadWriters(this.dir);
      const load = this.options.rebuild ? null : this.loadBase(true);
      if (this.options.rebuild) this.reason = 'rebuilt: asked to';
      let tree = this.fresh.trusted ? this.fresh.startWatching() : null;
      let loaded: { data: LoadedIndex; check: LoadCheck | null } | null = null;
      if (load) {
        tree ??= scanTree(this.root, this.exclude);
        try {
          loaded = await load.stat();
        } catch (err) {
          if (!(err instanceof IndexFormatError)) throw err;
          this.reason = `rebuilt: ${err.message}`;
        }
      }
      if (this.isClosed) {
        loaded?.data.release();
        return;
      }
      if (loaded && tree) {
        this.setBase(loaded.data);
        const changed = this.fresh.applyCheck(this.base!, tree, loaded.check!);
        this.walks.clear();
        this.changedSinceBuild = changed;
        this.reason = `loaded; ${changed} changed file(s) re-indexed`;
        const rebuild = this.options.onChanged === 'rebuild' ? changed > 0 : this.overlayTooLarge(changed);
        if (rebuild && this.options.build !== false) {
          this.reason = `rebuilt: ${changed} files changed since the index was built`;
          await this.rebuildBase();
        }
      } else if (this.options.build === false) {
        throw new Error(this.reason.replace(/^rebuilt: /, ''));
      } else {
        await this.rebuildBase();
      }
      if (this.isClosed) return;
      this.state = 'ready';
      this.scheduleBackground();
      this.extractDocumentsLater();
    } catch (err) {
      if (this.state !== 'closed') {
        this.state = 'failed';
        this.reason = (err as Error).message;
      }
      throw err;
    }
  }

  /**
   * Reads the persisted index (checksummed) and, after `stat()` is called, checks its records against the
   * tree (`withCheck`). In a worker unless builds run inline (a CLI with nothing else to do).
   */
  private loadBase(withCheck: boolean): {
    stat(): Promise<{ data: LoadedIndex; check: LoadCheck | null }>;
  } {
    // Opened here, before anything is read: the tables checked and the lists read later are the same file's
    // even if a new index is renamed over it meanwhile. The worker reads through this descriptor (a worker's
    // own descriptors are closed when it ends).
    let fd: number;
    try {
      fd = openIndexFile(this.dir);
    } catch (err) {
      return { stat: () => Promise.reject(err) };
    }
    if (this.options.buildIn === 'inline') {
      return {
        stat: async () => {
          try {
            const data = parseIndexHead(readIndexHead(fd), this.root, true);
            return { data, check: withCheck ? checkRecords(this.root, data) : null };
          } catch (err) {
            fs.closeSync(fd);
            throw err;
          }
        },
      };
    }
    const worker = new Worker(workerScriptUrl(), {
      workerData: { task: 'load', root: this.root, fd, stat: withCheck } satisfies IndexWorkerData,
    });
    this.loading = worker;
    let settled = false;
    const result = new Promise<{ data: LoadedIndex; check: LoadCheck | null }>((resolve, reject) => {
      const fail = (err: Error) => {
        if (!settled) fs.closeSync(fd); // nothing was handed over: the file is still this thread's alone
        settled = true;
        reject(err);
      };
      worker.on(
        'message',
        (m: {
          type: string;
          buffer?: ArrayBuffer;
          fileBytes?: number;
          mtimeMs?: number;
          check?: LoadCheck;
          message?: string;
        }) => {
          if (m.type === 'loaded' && m.buffer && m.fileBytes !== undefined && m.mtimeMs !== undefined) {
            const head = { head: Buffer.from(m.buffer), fd, fileBytes: m.fileBytes, mtimeMs: m.mtimeMs };
            try {
              // Checked whole by the worker; every structural check runs again on the views made here.
              const data = parseIndexHead(head, this.root, false);
              settled = true;
              resolve({ data, check: m.check ?? null });
            } catch (err) {
              fail(err as Error);
            }
          } else if (m.type === 'unusable') fail(new IndexFormatError(m.message ?? 'unusable'));
          else if (m.type === 'failed') fail(new Error(`index load failed: ${m.message}`));
        },
      );
      worker.on('error', fail);
      worker.on('exit', () => {
        if (this.loading === worker) this.loading = null;
        fail(new Error('index load stopped'));
      });
    });
    result.catch(() => {});
    return {
      stat: () => {
        if (withCheck) worker.postMessage('stat');
        return result;
      },
    };
  }

  /** Builds a new base and swaps it in; changes seen while it was built stay in the overlay. */
  private async rebuildBase(): Promise<void> {
    const startSeq = this.fresh.sequence;
    if (this.state !== 'ready') this.state = 'building';
    const result = await this.runBuild();
    if (this.isClosed) return;
    this.lastBuild = result;
    const { data } = await this.loadBase(false).stat();
    if (this.isClosed) {
      data.release();
      return;
    }
    // What changed after the build began may be missing from it: keep those in the overlay (or pending).
    this.fresh.forgetBefore(startSeq);
    this.setBase(data);
  }

  /**
   * The base's file no longer holds what was checked (truncated or rewritten in place): let go of it and
   * rebuild in the background. Searches scan meanwhile; `whenReady` waits for the new base.
   */
  private lose(reason: string): void {
    if (this.state !== 'ready') return;
    this.state = 'building';
    this.reason = `rebuilding: ${reason}`;
    this.base?.data.release();
    this.base = null;
    this.walks.clear();
    // After any merge under way (it would swap in a base of its own meanwhile).
    const pending = this.background ?? Promise.resolve();
    this.ready = pending.then(async () => {
      try {
        await this.rebuildBase();
        if (this.isClosed) return;
        this.state = 'ready';
        this.reason = `rebuilt: ${reason}`;
        this.scheduleBackground();
        this.extractDocumentsLater();
      } catch (err) {
        if (this.isClosed) return;
        this.state = 'failed';
        this.reason = `rebuild failed: ${(err as Error).message}`;
        throw err;
      }
    });
    this.ready.catch(() => {});
  }

  /** Per path, the event sequence of its last change or re-index. */

  private runBuild(): Promise<BuildResult> {
    const onProgress = (p: BuildProgress) => {
      this.progress = p;
      this.options.onProgress?.(p);
    };
    if (this.options.buildIn === 'inline') {
      return buildIndex(this.root, this.dir, this.exclude, {
        onProgress,
        now: this.now,
        ...(this.options.blockBytes !== undefined ? { blockBytes: this.options.blockBytes } : {}),
      });
    }
    return new Promise((resolve, reject) => {
      const data: IndexWorkerData = {
        task: 'build',
        root: this.root,
        dir: this.dir,
        fence: { home: homeDir(), extra: [...this.fence.targets] },
        ...(this.options.blockBytes !== undefined ? { blockBytes: this.options.blockBytes } : {}),
      };
      const worker = new Worker(workerScriptUrl(), { workerData: data });
      this.building = worker;
      let settled = false;
      worker.on(
        'message',
        (m: { type: string; progress?: BuildProgress; result?: BuildResult; message?: string }) => {
          if (m.type === 'progress' && m.progress) onProgress(m.progress);
          else if (m.type === 'done' && m.result) {
            settled = true;
            resolve(m.result);
          } else if (m.type === 'failed') {
            settled = true;
            reject(new Error(`index build failed: ${m.message}`));
          }
        },
      );
      worker.on('error', (err) => {
        settled = true;
        reject(err);
      });
      worker.on('exit', () => {
        this.building = null;
        if (!settled) reject(new Error('index build stopped'));
      });
    });
  }

  private setBase(data: LoadedIndex): void {
    const base = baseOf(data);
    this.fresh.markStaleIn(base);
    // Lists are read only within a synchronous evaluation (select), never across an await: no search is
    // reading the old base's file when it is let go.
    this.base?.data.release();
    this.base = base;
    this.walks.clear();
  }

  private overlayTooLarge(n = this.fresh.overlay.size + this.fresh.pendingCount): boolean {
    const files = this.base?.data.paths.length ?? 0;
    return n >= MERGE_OVERLAY_MIN_FILES && n >= files * MERGE_OVERLAY_SHARE;
  }

  /** Re-indexes what is pending in the background, in slices; folds a large overlay into a new base. */
  private scheduleBackground(): void {
    if (this.background || this.state !== 'ready') return;
    this.background = (async () => {
      try {
        while (this.fresh.pendingCount > 0 && this.state === 'ready') {
          await yieldToLoop();
          this.fresh.reindex(64);
        }
        if (this.state === 'ready' && !this.merging && this.overlayTooLarge()) {
          this.merging = true;
          try {
            await this.rebuildBase();
          } finally {
            this.merging = false;
          }
        }
      } catch (err) {
        this.reason = `background re-index failed: ${(err as Error).message}`;
      } finally {
        this.background = null;
      }
    })();
  }

  // ---- answering ------------------------------------------------------------------------------------------------

  /**
   * The files a search must read: its walk (cached while nothing structural changed), narrowed to those whose
   * content may hold one of the pattern's required literals. Anything the index cannot vouch for is kept.
   * Says why when the search should scan instead.
   */
  async select(req: IndexSelectRequest): Promise<IndexSelection> {
    const scan = (reason: string): IndexSelection => ({ use: { used: false, reason } });
    if (this.state !== 'ready' || !this.base)
      return scan(`index ${this.state}${this.reason ? `: ${this.reason}` : ''}`);
    const query = gramQuery(req.required);
    if (query.kind === 'all') return scan(query.reason);
    const unusable = this.rootsUnusable(req.walk);
    if (unusable !== null) return scan(unusable);
    const trusted = await this.fresh.sync();
    if (!this.base || this.state !== 'ready') return scan(`index ${this.state}`);
    const list = await this.walkList(req, trusted);
    if (list === null) return scan('the walk stopped (deadline, abort or budget)');
    const base = this.base;
    if (list.base !== base) return scan('the index was replaced during the walk');
    let evaluation: ReturnType<typeof evaluationOf>;
    try {
      if (!base.data.intact()) throw new IndexFormatError('the index file was changed in place');
      evaluation = evaluationOf(base, query);
    } catch (err) {
      // The lists are read from the file (pread, not mmap: a truncated file fails a read, never faults).
      const reason = (err as Error).message;
      this.lose(reason);
      return scan(`index rebuilding: ${reason}`);
    }
    return selectFrom(list, evaluation, query, req, this.fresh, trusted, this.fresh.trustReason);
  }

  /**
   * Lists the walk `req` asks for and keeps it as a select would, so that the first search with the same walk
   * options does not walk the tree (~0.5 s on the Linux tree). A long-lived process calls it once the index is
   * ready, for the walks its searches will ask for. Returns whether the list is kept (not when the index is not
   * ready, the watchers cannot vouch for the tree, the walk stopped, or a root is not under this index).
   */
  async prepareWalk(req: IndexWalkRequest): Promise<boolean> {
    if (this.state !== 'ready' || !this.base || this.rootsUnusable(req.walk) !== null) return false;
    const trusted = await this.fresh.sync();
    if (!trusted || !this.base || this.state !== 'ready') return false;
    const list = await this.walkList(req, trusted);
    return list !== null && this.walks.keeps(list);
  }

  /**
   * The entries of the walk `req` asks for, from the kept list when one is (listed once, then kept while nothing
   * structural changes), for a pass that reads files by kind (grep's document pass) without walking the tree per
   * search. Only while the watchers vouch for the tree (the list is then exact); null otherwise: the caller walks.
   * The request's own `exclude` is not applied (the list is shared): the caller applies it.
   */
  async walkEntries(req: IndexWalkRequest): Promise<WalkEntry[] | null> {
    if (this.state !== 'ready' || !this.base || this.rootsUnusable(req.walk) !== null) return null;
    const trusted = await this.fresh.sync();
    if (!trusted || !this.base || this.state !== 'ready') return null;
    return (await this.walkList(req, trusted))?.entries ?? null;
  }

  /**
   * What the rules of the walk `req` asks for left out (skipped, ignored, hidden: the walker's pruned entries), from
   * the kept list, with the directories the walk listed: an answer that names what it did not enter (tool/explain.ts)
   * does not walk the tree again per search. As `walkEntries`: only while the watchers vouch for the tree, else
   * null; the request's own `exclude` is not applied.
   */
  async walkPruned(req: IndexWalkRequest): Promise<{ pruned: readonly PrunedEntry[]; dirs: number } | null> {
    if (this.state !== 'ready' || !this.base || this.rootsUnusable(req.walk) !== null) return null;
    const trusted = await this.fresh.sync();
    if (!trusted || !this.base || this.state !== 'ready') return null;
    const list = await this.walkList(req, trusted);
    return list ? { pruned: list.pruned, dirs: list.stats.dirs } : null;
  }

  /** The search's walk, kept while the watchers vouch that nothing structural changed (walk-cache.ts). */
  private walkList(req: IndexWalkRequest, trusted: boolean): Promise<WalkList | null> {
    return this.walks.list(req, {
      trusted,
      signature: this.fresh.ignoreSignature(req.walk.parents ?? true),
      generation: () => this.fresh.generation,
      base: () => this.base,
    });
  }

  /** Why the index cannot answer for these walk roots (outside it, unresolvable, through a link), or null. */
  private rootsUnusable(walk: IndexWalkOptions): string | null {
    for (const root of walk.roots) {
      const abs = path.resolve(walk.cwd, root === '' ? '.' : root);
      if (abs !== this.root && !abs.startsWith(`${this.root}/`))
        return `${root || '.'} is outside the indexed root`;
      let real: string;
      try {
        real = fs.realpathSync.native(abs);
      } catch {
        return `${root || '.'} cannot be resolved`;
      }
      if (real !== abs) return `${root || '.'} goes through a symbolic link`;
    }
    return null;
  }
}

/** Temporary files of writers that died mid-write (kill -9): the rename never happened, so they are garbage. */
function clearDeadWriters(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /\.tmp-(\d+)-/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    let alive = pid === process.pid;
    if (!alive) {
      try {
        process.kill(pid, 0);
        alive = true;
      } catch (err) {
        alive = (err as NodeJS.ErrnoException).code === 'EPERM';
      }
    }
    if (!alive) fs.rmSync(`${dir}/${name}`, { force: true });
  }
}

/** One document into the store unless its current version is there; its stored text, or null (unreadable, cut by time). */
async function extractOne(
  store: DocumentTextStore,
  abs: string,
  kind: DocumentKind,
): Promise<StoredDocument | null> {
  let fd: number;
  try {
    fd = openNoFollow(abs);
  } catch {
    return null;
  }
  try {
    if (!descriptorIs(fd, abs)) return null;
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > GREP_DOC_MAX_BYTES) return null;
    const identity = documentIdentity(fd);
    const known = store.get(abs, identity);
    if (known) return known;
    const bytes = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < st.size) {
      const n = fs.readSync(fd, bytes, got, st.size - got, null);
      if (n === 0) return null;
      got += n;
    }
    const { doc, cutByDeadline } = await store.extract(kind, bytes, abs, identity);
    return cutByDeadline || !store.has(abs, identity) ? null : doc;
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}
