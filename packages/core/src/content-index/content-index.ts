import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { type DocumentKind, documentKindOf } from '../docs/extract.js';
import { type DocumentTextStore, documentIdentity, type StoredDocument } from '../docs/store.js';
import { createSensitiveFence, type SensitiveFence } from '../fence/index.js';
import { homeDir } from '../fence/root.js';
import { GREP_DOC_MAX_BYTES } from '../grep/limits.js';
import type { RequiredLiterals } from '../match/index.js';
import type { ByteWindows } from '../search/windows.js';
import { descriptorIs, isWithin, openNoFollow } from '../util/fs-safety.js';
import { ensurePrivateDir, privateSubdir } from '../util/private-dir.js';
import {
  type PrunedEntry,
  type WalkEntry,
  Walker,
  type WalkOptions,
  type WalkStats,
} from '../walk/walker.js';
import { blockRanges } from './blocks.js';
import { type BuildProgress, type BuildResult, buildIndex, workerScriptUrl } from './build.js';
import { documentStoreFor } from './documents.js';
import {
  FLAG_NUL,
  FLAG_RACY,
  FLAG_UNINDEXED,
  IndexFormatError,
  type LoadedIndex,
  openIndexFile,
  parseIndexHead,
  readIndexHead,
} from './format.js';
import type { IndexWorkerData } from './index-worker.js';
import {
  BARRIER_TIMEOUT_MS,
  MAX_CACHED_WALKS,
  MAX_CANDIDATE_BYTE_SHARE,
  MAX_CANDIDATE_FILE_SHARE,
  MAX_WATCHED_DIRS,
  MERGE_OVERLAY_MIN_FILES,
  MERGE_OVERLAY_SHARE,
  MIN_BYTES_FOR_SHARE_RULE,
  MIN_FILES_FOR_SHARE_RULE,
  REINDEX_PER_SEARCH,
  WINDOWED_MIN_BLOCKS,
} from './limits.js';
import { checkRecords, type LoadCheck } from './load.js';
import { FileReindexer, type OverlayFile } from './overlay.js';
import { evaluateBlocks, type GramQuery, gramQuery, setSatisfies } from './query.js';
import type { SearchIndex } from './registry.js';
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

/** How a search used the index (the summary says it). */
export interface IndexUse {
  used: boolean;
  reason: string;
  /** Files the search read, of the files its walk yields. */
  candidates?: number;
  files?: number;
  /** Of the candidates, the large files handed to the searcher with the byte ranges that hold their matches. */
  windowed?: number;
}

export interface IndexSelection {
  use: IndexUse;
  /**
   * When used: the files to search, in walk order, and the walk's own report; per file (same order), the byte
   * ranges that hold all its matches when the index knows them (large base files), else undefined.
   */
  walk?: { entries: WalkEntry[]; stats: WalkStats; windows?: Array<ByteWindows | undefined> };
  /**
   * When it declines for a scan: every walked file is known, from the index's own records, to be at most the
   * request's `maxFilesize` bytes. Set only while the watchers vouch for the tree and every changed file's size is
   * known; a scan may then skip the size check per file (ripgrep's --max-filesize costs it a stat per file).
   */
  withinSizeCap?: true;
  /**
   * When it declines for a scan while the watchers vouch for the tree: its candidates all the same (walk order,
   * the request's exclusions applied, as `walk` would hold them) if every one is known, from the index's records,
   * to hold no NUL byte and to be at most `maxFilesize` bytes. Such files read the same as named files (ripgrep
   * given them on its command line: no binary detection to differ, no size check to skip), so a reader of named
   * files over this list finds what the scan finds. `bytes`: what they hold, of `totalBytes` walked.
   */
  plainCandidates?: { entries: WalkEntry[]; stats: WalkStats; bytes: number; totalBytes: number };
}

/** What a search asks of the index. */
export interface IndexSelectRequest {
  walk: Omit<WalkOptions, 'deadline' | 'signal' | 'now'>;
  required: RequiredLiterals | null;
  maxFilesize: number;
  deadline?: number;
  signal?: AbortSignal;
  now?: () => number;
}

interface Base {
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

interface WalkList {
  key: string;
  generation: number;
  signature: string;
  entries: WalkEntry[];
  /** Root-relative path per entry, and its base id (-1: not in the base). */
  rels: string[];
  ids: Int32Array;
  stats: WalkStats;
  /** What the walk's rules left out (the walker's pruned entries), for answers that name them (walkPruned). */
  pruned: PrunedEntry[];
  /** The base `ids` are of (a base swapped in meanwhile makes the list unusable). */
  base: Base;
  /**
   * Per base id, its position in `entries` (-1: not walked), or null when a file was walked twice (overlapping
   * roots): a select then visits every entry. Positions of entries not in the base, and the recorded bytes of
   * the walked base files.
   */
  posOf: Int32Array | null;
  unknown: Int32Array;
  baseBytes: number;
  /** The largest recorded size among the walk's base files (as recorded when the walk was listed). */
  baseLargest: number;
}

/** What a select picked: walk positions in walk order, per position its windows, and the bytes counted. */
interface Picked {
  positions: number[];
  windows: Array<ByteWindows | undefined>;
  pickedBytes: number;
  totalBytes: number;
  /** Every walked file's size is known and at most the search's cap (select's `withinSizeCap`). */
  withinSize: boolean;
  /** Every picked file is known to hold no NUL and to be within the cap (watched only; see `plainCandidates`). */
  allPlain: boolean;
  /** `positions` (and `windows` with them) are in walk order; else they are put in it when a list is made. */
  ordered: boolean;
}

/** Size caps whose always-searched lists a base keeps (searches use one or two: the tool's, the engine's). */
const MAX_SIZE_CAPS_KEPT = 4;

const IGNORE_FILE_NAMES = new Set(['.gitignore', '.ignore', '.rgignore', '.git']);

/** `<dataDir>/content-index/<sha256(root)>`: one directory per canonical root. */
export function indexDirFor(dataDir: string, root: string): string {
  return path.join(dataDir, 'content-index', createHash('sha256').update(root).digest('hex').slice(0, 24));
}

/**
 * A live gram index of one directory tree: a persisted base (format.ts) plus an in-memory overlay of the
 * files changed since, kept exact by directory watchers. It picks the files a search reads and never changes
 * what the search finds: a file it cannot vouch for is searched.
 *
 * Freshness. Every `fs.watch` shares libuv's one inotify queue, so before answering, a search writes a marker
 * into a watched directory of its own and waits for that event (the barrier): every change made before the
 * search began has then been delivered and marked. Changed files are candidates until re-indexed. Where the
 * watchers cannot be trusted (not Linux, the watch limit, a burst large enough to have overflowed inotify's
 * queue, a barrier that does not come back) each search checks size, mtime and inode of every walked file.
 *
 * Walks. A search's own walk decides which files it covers (ignore rules, hidden-ness, globs: the index
 * records every file below the root). The walk is cached per set of walk options while the watchers see no
 * structural change (a file or directory created, deleted or renamed, an ignore file edited) and the ignore
 * files above the root and in `.git/info/exclude` keep their size and mtime.
 */
export class ContentIndex implements SearchIndex {
  readonly root: string;
  readonly dir: string;
  private state: ContentIndexState = 'opening';
  private reason = '';
  private base: Base | null = null;
  private readonly overlay = new Map<string, OverlayFile>();
  /** Files (or directories) changed since last re-indexed, with the event sequence of their last change. */
  private readonly dirty = new Map<string, number>();
  /** Event sequence of each path's last change (to keep what a merge did not see). */
  private seq = 0;
  private generation = 0;
  private readonly watchers = new Map<string, IndexWatcher>();
  private gitDirs = new Set<string>();
  private trusted: boolean;
  private trustReason: string;
  private readonly walks = new Map<string, WalkList>();
  private readonly reindexer: FileReindexer;
  private readonly exclude: (abs: string) => boolean;
  private readonly fence: SensitiveFence;
  private readonly watchDir: WatchDir;
  private readonly now: () => number;
  /** Start-up, or the rebuild that replaces a base lost on disk (see `lose`). */
  private ready: Promise<void>;
  private progress: BuildProgress | undefined;
  private changedSinceBuild: number | null = null;
  private lastBuild: BuildResult | undefined;
  private barrierWatcher: IndexWatcher | null = null;
  private barrierSeq = 0;
  private readonly barrierWaiters = new Map<number, () => void>();
  private burst = 0;
  private readonly burstLimit = Math.floor(inotifyQueueLimit() / 2);
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
    this.watchDir = options.watchDir ?? nodeWatchDir;
    this.reindexer = new FileReindexer(this.now);
    const watching = options.watch ?? true;
    this.trusted = watching && watchingTrustworthy(options.platform);
    this.trustReason = !watching
      ? 'watching disabled'
      : this.trusted
        ? 'directory watchers'
        : `no trustworthy directory watching on ${options.platform ?? process.platform}`;
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
    for (const o of this.overlay.values()) resident += 64 + (o.grams?.byteLength ?? 0);
    for (const w of this.walks.values()) resident += w.entries.length * 160;
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
      overlayFiles: this.overlay.size,
      pendingFiles: this.dirty.size,
      watchedDirs: this.watchers.size,
      freshness: this.trusted ? 'events' : 'stat',
      freshnessReason: this.trustReason,
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
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.barrierWatcher?.close();
    this.barrierWatcher = null;
    for (const resolve of this.barrierWaiters.values()) resolve();
    this.barrierWaiters.clear();
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
      let tree = this.trusted ? this.startWatching() : null;
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
        const changed = this.applyCheck(tree, loaded.check!);
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
    const startSeq = this.seq;
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
    for (const [rel, s] of this.dirty) if (s < startSeq) this.dirty.delete(rel);
    for (const rel of [...this.overlay.keys()])
      if ((this.changedAt.get(rel) ?? 0) < startSeq) this.overlay.delete(rel);
    for (const [rel, s] of this.changedAt) if (s < startSeq) this.changedAt.delete(rel);
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
  private readonly changedAt = new Map<string, number>();
  /** Directories to list again (a nameless event, a broken watch). */
  private readonly relist = new Set<string>();

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
    const idOf = new Map<string, number>();
    for (let i = 0; i < data.paths.length; i++) idOf.set(data.paths[i]!, i);
    const base: Base = {
      data,
      idOf,
      stale: new Uint8Array(data.paths.length),
      staleIds: [],
      always: new Map(),
    };
    for (const rel of this.dirty.keys()) markStale(base, rel);
    for (const rel of this.overlay.keys()) markStale(base, rel);
    // Lists are read only within a synchronous evaluation (select), never across an await: no search is
    // reading the old base's file when it is let go.
    this.base?.data.release();
    this.base = base;
    this.walks.clear();
  }

  /**
   * Marks what differs between the tree (a walk made after the watchers were set up) and the loaded base:
   * files the records no longer describe, files new to the base, racily clean ones (re-read, not counted),
   * files gone. Returns how many files differ.
   */
  private applyCheck(tree: TreeScan, check: LoadCheck): number {
    const b = this.base!;
    this.gitDirs = new Set(tree.gitDirs);
    let changed = 0;
    const seen = new Uint8Array(b.data.paths.length);
    for (const rel of tree.files) {
      const id = b.idOf.get(rel);
      if (id === undefined) {
        this.markChanged(rel);
        changed++;
      } else seen[id] = 1;
    }
    for (const id of check.changed) {
      if (!seen[id] || b.stale[id]) continue;
      this.markChanged(b.data.paths[id]!);
      changed++;
    }
    for (const id of check.racy) if (seen[id] && !b.stale[id]) this.markChanged(b.data.paths[id]!);
    for (let id = 0; id < seen.length; id++) if (!seen[id]) setStale(b, id); // gone
    this.walks.clear();
    return changed;
  }

  private overlayTooLarge(n = this.overlay.size + this.dirty.size): boolean {
    const files = this.base?.data.paths.length ?? 0;
    return n >= MERGE_OVERLAY_MIN_FILES && n >= files * MERGE_OVERLAY_SHARE;
  }

  // ---- watching -------------------------------------------------------------------------------------------------

  /** Watches the barrier directory and every directory of the tree; returns the walk (null: not watching). */
  private startWatching(): TreeScan | null {
    privateSubdir(this.dir, ['barrier']);
    for (const f of fs.readdirSync(path.join(this.dir, 'barrier')))
      fs.rmSync(path.join(this.dir, 'barrier', f), { force: true });
    try {
      this.barrierWatcher = this.watchDir(
        path.join(this.dir, 'barrier'),
        (_kind, name) => this.onBarrier(name),
        (err) => this.distrust(`barrier watcher failed: ${err.message}`),
      );
    } catch (err) {
      this.distrust(`cannot watch the barrier directory: ${(err as Error).message}`);
      return null;
    }
    const tree = scanTree(this.root, this.exclude, (rel) => this.watch(rel));
    this.gitDirs = new Set(tree.gitDirs);
    if (tree.truncated) this.distrust('the tree exceeds the watch budget');
    return tree;
  }

  private watch(rel: string): void {
    if (!this.trusted || this.watchers.has(rel)) return;
    if (this.watchers.size >= MAX_WATCHED_DIRS) {
      this.distrust(`more than ${MAX_WATCHED_DIRS} directories`);
      return;
    }
    try {
      const w = this.watchDir(
        absOf(this.root, rel),
        (kind, name) => this.onEvent(rel, kind, name),
        () => {
          // The directory went away (or the watch broke): its parent's listing says which.
          this.watchers.get(rel)?.close();
          this.watchers.delete(rel);
          this.relist.add(rel);
          this.markChanged(rel);
          this.generation++;
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
    if (this.isClosed) return;
    this.countBurst();
    if (name === null) {
      this.relist.add(dirRel);
      this.markChanged(dirRel);
      this.generation++;
      return;
    }
    if (kind === 'rename' || IGNORE_FILE_NAMES.has(name)) this.generation++;
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
    if (!this.trusted) return;
    this.trusted = false;
    this.trustReason = reason;
    this.walks.clear();
  }

  private markChanged(rel: string): void {
    const s = ++this.seq;
    this.dirty.set(rel, s);
    this.changedAt.set(rel, s);
    if (this.base) markStale(this.base, rel);
    this.scheduleBackground();
  }

  // ---- the barrier ----------------------------------------------------------------------------------------------

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

  /**
   * Lets the watchers catch up with everything that happened before this call, then re-indexes a bounded
   * number of changed files. Returns whether the watchers can vouch for the tree.
   */
  async sync(): Promise<boolean> {
    if (this.trusted && this.barrierWatcher) {
      const n = ++this.barrierSeq;
      const marker = path.join(this.dir, 'barrier', `b-${n}`);
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
    return this.trusted;
  }

  /** Re-indexes up to `max` changed paths in memory (files into the overlay, new directories watched). */
  private reindex(max: number): void {
    if (!this.base) return;
    let done = 0;
    for (const [rel, s] of this.dirty) {
      if (done++ >= max) break;
      this.dirty.delete(rel);
      const abs = absOf(this.root, rel);
      if (rel !== '' && this.exclude(abs)) {
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

  /** A directory created (or re-listed): watch it and everything below; its files are changed files. */
  private adoptDirectory(rel: string): void {
    const abs = absOf(this.root, rel);
    const sub = scanTree(abs, this.exclude, (d) => this.watch(joinRel(rel, d).replace(/\/$/, '')));
    for (const g of sub.gitDirs) this.gitDirs.add(joinRel(rel, g).replace(/\/$/, ''));
    for (const f of sub.files) this.markChangedQuiet(joinRel(rel, f));
    this.generation++;
  }

  private markChangedQuiet(rel: string): void {
    const s = ++this.seq;
    this.dirty.set(rel, s);
    this.changedAt.set(rel, s);
    if (this.base) markStale(this.base, rel);
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

  /** Re-indexes what is pending in the background, in slices; folds a large overlay into a new base. */
  private scheduleBackground(): void {
    if (this.background || this.state !== 'ready') return;
    this.background = (async () => {
      try {
        while (this.dirty.size > 0 && this.state === 'ready') {
          await yieldToLoop();
          this.reindex(64);
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
    const trusted = await this.sync();
    if (!this.base || this.state !== 'ready') return scan(`index ${this.state}`);
    const list = await this.walkList(req, trusted);
    if (list === null) return scan('the walk stopped (deadline, abort or budget)');
    const base = this.base;
    if (list.base !== base) return scan('the index was replaced during the walk');
    let evaluation: ReturnType<typeof evaluateBlocks>;
    try {
      if (!base.data.intact()) throw new IndexFormatError('the index file was changed in place');
      evaluation = evaluationOf(base, query);
    } catch (err) {
      // The lists are read from the file (pread, not mmap: a truncated file fails a read, never faults).
      const reason = (err as Error).message;
      this.lose(reason);
      return scan(`index rebuilding: ${reason}`);
    }
    const { files: bits, blocks: ks } = evaluation;
    const picked =
      trusted && list.posOf
        ? this.pickWatched(list, list.posOf, bits, ks, query, req.maxFilesize)
        : this.pickChecked(list, bits, ks, query, req.maxFilesize, trusted);
    const { totalBytes, pickedBytes } = picked;
    const { entries } = list;
    const n = entries.length;
    const count = picked.positions.length;
    const use: IndexUse = { used: true, reason: '', candidates: count, files: n };
    const rootsAbs = req.walk.roots.map((r) => path.resolve(req.walk.cwd, r === '' ? '.' : r));
    const excluded = req.walk.exclude ? dirMemo(rootsAbs, req.walk.exclude) : null;
    const out: WalkEntry[] = [];
    const windows: Array<ByteWindows | undefined> = [];
    let windowed = 0;
    // Put in walk order only for a list handed back (a declined broad search hands none, mostly).
    const candidates = () => {
      const { positions, windows: pickedWindows } = picked.ordered
        ? picked
        : inWalkOrder(picked.positions, picked.windows);
      for (let k = 0; k < count; k++) {
        const e = entries[positions[k]!]!;
        // Judged where the file is (its canonical path, as the walk judges it), not as spelled.
        if (excluded?.(e.canon)) continue;
        out.push(e);
        const w = pickedWindows[k];
        windows.push(w);
        if (w) windowed++;
      }
    };
    const stats = () => ({
      ...list.stats,
      errors: [...list.stats.errors],
      missingRoots: [...list.stats.missingRoots],
    });
    if (
      (n >= MIN_FILES_FOR_SHARE_RULE || totalBytes >= MIN_BYTES_FOR_SHARE_RULE) &&
      (count > n * MAX_CANDIDATE_FILE_SHARE ||
        (pickedBytes > totalBytes * MAX_CANDIDATE_BYTE_SHARE && pickedBytes >= MIN_BYTES_FOR_SHARE_RULE))
    ) {
      const declined = scan(`${count} of ${n} files may match: a scan is faster`);
      if (picked.withinSize) declined.withinSizeCap = true;
      if (picked.allPlain) {
        candidates();
        declined.plainCandidates = { entries: out, stats: stats(), bytes: pickedBytes, totalBytes };
      }
      return declined;
    }
    candidates();
    use.candidates = out.length;
    if (windowed > 0) use.windowed = windowed;
    use.reason = `index: ${out.length} of ${n} files may match${windowed > 0 ? `, ${windowed} read through windows` : ''} (${trusted ? 'watched' : `size+mtime checked: ${this.trustReason}`})`;
    return {
      use,
      walk: { entries: out, stats: stats(), ...(windowed > 0 ? { windows } : {}) },
    };
  }

  /**
   * Lists the walk `req` asks for and keeps it as a select would, so that the first search with the same walk
   * options does not walk the tree (~0.5 s on the Linux tree). A long-lived process calls it once the index is
   * ready, for the walks its searches will ask for. Returns whether the list is kept (not when the index is not
   * ready, the watchers cannot vouch for the tree, the walk stopped, or a root is not under this index).
   */
  async prepareWalk(req: Pick<IndexSelectRequest, 'walk' | 'deadline' | 'signal' | 'now'>): Promise<boolean> {
    if (this.state !== 'ready' || !this.base || this.rootsUnusable(req.walk) !== null) return false;
    const trusted = await this.sync();
    if (!trusted || !this.base || this.state !== 'ready') return false;
    const list = await this.walkList(req, trusted);
    return list !== null && this.walks.get(list.key) === list;
  }

  /**
   * The entries of the walk `req` asks for, from the kept list when one is (listed once, then kept while nothing
   * structural changes), for a pass that reads files by kind (grep's document pass) without walking the tree per
   * search. Only while the watchers vouch for the tree (the list is then exact); null otherwise: the caller walks.
   * The request's own `exclude` is not applied (the list is shared): the caller applies it.
   */
  async walkEntries(
    req: Pick<IndexSelectRequest, 'walk' | 'deadline' | 'signal' | 'now'>,
  ): Promise<WalkEntry[] | null> {
    if (this.state !== 'ready' || !this.base || this.rootsUnusable(req.walk) !== null) return null;
    const trusted = await this.sync();
    if (!trusted || !this.base || this.state !== 'ready') return null;
    return (await this.walkList(req, trusted))?.entries ?? null;
  }

  /**
   * What the rules of the walk `req` asks for left out (skipped, ignored, hidden: the walker's pruned entries), from
   * the kept list, with the directories the walk listed: an answer that names what it did not enter (tool/explain.ts)
   * does not walk the tree again per search. As `walkEntries`: only while the watchers vouch for the tree, else
   * null; the request's own `exclude` is not applied.
   */
  async walkPruned(
    req: Pick<IndexSelectRequest, 'walk' | 'deadline' | 'signal' | 'now'>,
  ): Promise<{ pruned: readonly PrunedEntry[]; dirs: number } | null> {
    if (this.state !== 'ready' || !this.base || this.rootsUnusable(req.walk) !== null) return null;
    const trusted = await this.sync();
    if (!trusted || !this.base || this.state !== 'ready') return null;
    const list = await this.walkList(req, trusted);
    return list ? { pruned: list.pruned, dirs: list.stats.dirs } : null;
  }

  /** Why the index cannot answer for these walk roots (outside it, unresolvable, through a link), or null. */
  private rootsUnusable(walk: IndexSelectRequest['walk']): string | null {
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

  /**
   * The candidates when the watchers vouch for the tree, in O(candidates + changed files): the base files the
   * query picked, those it cannot judge by content (not indexed, past the size cap), and every file changed
   * since the base, each judged by its overlay entry. Same answer as `pickChecked`, without visiting the walk.
   */
  private pickWatched(
    list: WalkList,
    posOf: Int32Array,
    bits: Uint8Array,
    ks: Uint32Array | null,
    query: GramQuery,
    maxFilesize: number,
  ): Picked {
    const base = list.base;
    const r = base.data.records;
    const positions: number[] = [];
    const windows: Array<ByteWindows | undefined> = [];
    let pickedBytes = 0;
    let totalBytes = list.baseBytes;
    // A stale file counts with its recorded size here too: too cautious at worst (its new size is judged below).
    let withinSize = list.baseLargest <= maxFilesize;
    let allPlain = true;
    const take = (id: number) => {
      const p = posOf[id]!;
      if (p < 0 || base.stale[id]) return;
      const w = ks ? this.windowsOf(id, ks, bits, maxFilesize, true) : undefined;
      positions.push(p);
      windows.push(w);
      pickedBytes += w ? windowBytes(w) : r[id * 4]!;
      if ((r[id * 4 + 3]! & (FLAG_NUL | FLAG_UNINDEXED)) !== 0 || r[id * 4]! > maxFilesize) allPlain = false;
    };
    forEachSet(bits, take);
    for (const id of alwaysSearched(base, maxFilesize)) if (!bits[id]) take(id);
    const judge = (p: number) => {
      const { candidate, size, sized, plain } = this.judgeChanged(
        list.rels[p]!,
        list.entries[p]!.abs,
        query,
        maxFilesize,
        true,
      );
      totalBytes += size;
      if (!sized || size > maxFilesize) withinSize = false;
      if (candidate) {
        positions.push(p);
        windows.push(undefined);
        pickedBytes += size;
        if (!plain) allPlain = false;
      }
    };
    for (const id of base.staleIds) {
      const p = posOf[id]!;
      if (p < 0) continue;
      totalBytes -= r[id * 4]!;
      judge(p);
    }
    for (const p of list.unknown) judge(p);
    return { positions, windows, pickedBytes, totalBytes, withinSize, allPlain, ordered: false };
  }

  /**
   * The candidates by visiting every walked file: when the watchers cannot vouch for the tree (each base file's
   * size, mtime and inode are checked), or when the walk yielded a file twice.
   */
  private pickChecked(
    list: WalkList,
    bits: Uint8Array,
    ks: Uint32Array | null,
    query: GramQuery,
    maxFilesize: number,
    trusted: boolean,
  ): Picked {
    const base = list.base;
    const r = base.data.records;
    const positions: number[] = [];
    // Per picked file, the byte ranges that hold its matches when the searcher may read only those.
    const windows: Array<ByteWindows | undefined> = [];
    // What the candidates cost to read: a windowed file counts its windows, not its size.
    let pickedBytes = 0;
    let totalBytes = 0;
    const { ids, rels, entries } = list;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      let candidate: boolean;
      let size: number;
      if (id >= 0 && !base.stale[id]) {
        size = r[id * 4]!;
        candidate = bits[id] === 1 || takenWhatever(r, id, maxFilesize);
        if (
          !candidate &&
          !trusted &&
          !this.statMatches(
            entries[i]!.abs,
            size,
            r[id * 4 + 1]!,
            r[id * 4 + 2]!,
            (r[id * 4 + 3]! & FLAG_RACY) !== 0,
          )
        ) {
          candidate = true;
          this.markChanged(rels[i]!);
        }
      } else {
        ({ candidate, size } = this.judgeChanged(rels[i]!, entries[i]!.abs, query, maxFilesize, trusted));
      }
      totalBytes += size;
      if (candidate) {
        const w = ks && id >= 0 ? this.windowsOf(id, ks, bits, maxFilesize, trusted) : undefined;
        positions.push(i);
        windows.push(w);
        pickedBytes += w ? windowBytes(w) : size;
      }
    }
    // Unwatched (or a walk holding a file twice): sizes and contents are not vouched for.
    return { positions, windows, pickedBytes, totalBytes, withinSize: false, allPlain: false, ordered: true };
  }

  /**
   * The byte ranges of a large base file that hold every match (its blocks where a literal may start), or
   * undefined when the file is read whole: small, changed since the base, not indexed, or past the size cap.
   */
  private windowsOf(
    id: number,
    ks: Uint32Array,
    bits: Uint8Array,
    maxFilesize: number,
    trusted: boolean,
  ): ByteWindows | undefined {
    const base = this.base!;
    if (id < 0 || base.stale[id] || bits[id] !== 1) return undefined;
    const r = base.data.records;
    const size = r[id * 4]!;
    const d = base.data;
    // Unwatched, a racy record may describe other bytes than those indexed with the same size and mtime (the
    // searcher checks those two): read whole. Watched, a change since would have made the record stale.
    // A file holding a NUL is binary to the searcher (it would read it all to place the NUL): read whole.
    const unsure = FLAG_UNINDEXED | FLAG_NUL | (trusted ? 0 : FLAG_RACY);
    if (size < WINDOWED_MIN_BLOCKS * d.blockBytes || size > maxFilesize || (r[id * 4 + 3]! & unsure) !== 0)
      return undefined;
    const ranges = blockRanges(d.firstBlock, d.blocks, ks, id, d.blockBytes, size);
    if (ranges.length === 0) return undefined;
    return {
      ranges,
      size,
      mtimeMs: r[id * 4 + 1]!,
      newlinesBefore: newlinesBefore(d.newlines, d.firstBlock[id]!, d.blockBytes, ranges),
      noNul: true,
    };
  }

  /** A file changed since the base: judged by its overlay entry when it has one, else searched. */
  private judgeChanged(
    rel: string,
    abs: string,
    query: GramQuery,
    maxFilesize: number,
    trusted: boolean,
  ): { candidate: boolean; size: number; sized: boolean; plain: boolean } {
    // `sized`: the size is the file's as the overlay last read it (false when not known: pending, or unreadable: -1).
    // `plain`: its indexed bytes, that size, hold no NUL and are within the cap (see `plainCandidates`).
    if (this.dirty.has(rel)) return { candidate: true, size: 0, sized: false, plain: false };
    const o = this.overlay.get(rel);
    if (!o || o.grams === null || o.size > maxFilesize)
      return { candidate: true, size: o?.size ?? 0, sized: o !== undefined && o.size >= 0, plain: false };
    if (!trusted && !this.statMatches(abs, o.size, o.mtimeMs, o.ino, o.racy)) {
      this.markChanged(rel);
      return { candidate: true, size: o.size, sized: true, plain: false };
    }
    return { candidate: setSatisfies(o.grams, query), size: o.size, sized: true, plain: !o.nul };
  }

  private statMatches(abs: string, size: number, mtimeMs: number, ino: number, racy: boolean): boolean {
    if (racy) return false;
    try {
      const st = fs.lstatSync(abs);
      return st.size === size && st.mtimeMs === mtimeMs && st.ino === ino;
    } catch {
      return false;
    }
  }

  /** The search's walk, from the cache when the watchers vouch that nothing structural changed. */
  private async walkList(
    req: Pick<IndexSelectRequest, 'walk' | 'deadline' | 'signal' | 'now'>,
    trusted: boolean,
  ): Promise<WalkList | null> {
    const w = req.walk;
    const key = JSON.stringify([
      w.roots,
      w.cwd,
      w.hidden,
      w.ignoreFiles,
      w.requireGit,
      w.parents,
      w.globs,
      w.globCaseInsensitive,
      w.globBase,
      w.globMode,
      w.skipDirs ? [...w.skipDirs].sort() : null,
      w.maxEntries,
      w.maxDirs,
      w.maxDepth,
      w.fileTypes,
      w.vcsIgnore,
      w.dotIgnore,
    ]);
    const signature = this.ignoreSignature(w.parents ?? true);
    const cached = this.walks.get(key);
    if (trusted && cached && cached.generation === this.generation && cached.signature === signature) {
      // Least recently used last.
      this.walks.delete(key);
      this.walks.set(key, cached);
      return cached;
    }
    const generation = this.generation;
    const now = req.now ?? Date.now;
    // The index's own exclusions (the fence) shape the cached walk; the request's are applied per search. Without
    // links followed, a walk of this root stays in it: a canonical path elsewhere is a directory on the way swapped
    // for a link since `rootsUnusable` looked (a named `d/key` that now reads `~/.ssh/key`), and the reader's
    // descriptor would read back as that path (util/fs-safety.ts), so it is left out here.
    const outside = w.followLinks ? () => false : (canon: string) => !isWithin(canon, this.root);
    const pruned: PrunedEntry[] = [];
    const walker = new Walker({
      ...w,
      exclude: (canon) => outside(canon) || this.exclude(canon),
      onPruned: (e) => pruned.push(e),
      ...(req.deadline !== undefined ? { deadline: req.deadline } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      now,
    });
    const entries: WalkEntry[] = [];
    const rels: string[] = [];
    const base = this.base!;
    const idList: number[] = [];
    // Links followed lead where the watchers do not look, and an extra ignore file may sit outside the tree.
    let cacheable = trusted && !w.followLinks && !(w.extraIgnoreFiles?.length ?? 0);
    const prefix = `${this.root}/`;
    let slice = now();
    for (const e of walker.entries()) {
      const rel = e.abs === this.root ? '' : e.abs.startsWith(prefix) ? e.abs.slice(prefix.length) : null;
      entries.push(e);
      rels.push(rel ?? '');
      idList.push(rel === null ? -1 : (base.idOf.get(rel) ?? -1));
      // A walk into what the watchers do not see (`.git`) is searched in full and never cached.
      if (cacheable && rel !== null && underNeverEntered(rel)) cacheable = false;
      if ((entries.length & 1023) === 0 && now() - slice > 8) {
        await yieldToLoop();
        slice = now();
      }
    }
    if (walker.stats.stoppedBy) return null;
    const ids = Int32Array.from(idList);
    const r = base.data.records;
    let posOf: Int32Array | null = new Int32Array(base.data.paths.length).fill(-1);
    const unknown: number[] = [];
    let baseBytes = 0;
    let baseLargest = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (id < 0) unknown.push(i);
      else if (posOf && posOf[id] === -1) {
        posOf[id] = i;
        baseBytes += r[id * 4]!;
        if (r[id * 4]! > baseLargest) baseLargest = r[id * 4]!;
      } else posOf = null; // walked twice (overlapping roots): selects visit every entry
    }
    const list: WalkList = {
      key,
      generation,
      signature,
      entries,
      rels,
      ids,
      stats: walker.stats,
      pruned,
      base,
      posOf,
      unknown: Int32Array.from(unknown),
      baseBytes,
      baseLargest,
    };
    // Anything structural that happened while walking makes the list unfit to keep (it is still exact
    // for this search: those paths are marked changed and searched).
    if (cacheable && generation === this.generation && this.base === base) {
      this.walks.set(key, list);
      if (this.walks.size > MAX_CACHED_WALKS) this.walks.delete(this.walks.keys().next().value!);
    }
    return list;
  }

  /** Size and mtime of the ignore files a walk reads that no watcher sees: above the root, `.git/info/exclude`. */
  private ignoreSignature(parents: boolean): string {
    const parts: string[] = [];
    const sig = (p: string) => {
      let st: fs.Stats | undefined;
      try {
        st = fs.statSync(p, { throwIfNoEntry: false });
      } catch {
        st = undefined; // ENOTDIR (`.git` is a file in a worktree), EACCES: read as absent, as the walk does
      }
      parts.push(st ? `${st.size}:${st.mtimeMs}:${st.ino}` : '-');
    };
    if (parents) {
      for (let d = path.dirname(this.root); ; d = path.dirname(d)) {
        for (const f of ['.gitignore', '.ignore', '.rgignore', '.git', '.git/info/exclude'])
          sig(path.join(d, f));
        if (path.dirname(d) === d) break;
      }
    }
    for (const g of [...this.gitDirs].sort()) sig(path.join(absOf(this.root, g), '.git/info/exclude'));
    return parts.join('|');
  }
}

/** Picked positions (and their windows) sorted into walk order. */
function inWalkOrder(
  positions: number[],
  windows: Array<ByteWindows | undefined>,
): Pick<Picked, 'positions' | 'windows'> {
  const order = positions.map((_, k) => k).sort((a, b) => positions[a]! - positions[b]!);
  return { positions: order.map((k) => positions[k]!), windows: order.map((k) => windows[k]) };
}

/**
 * The query evaluated on the base's lists, remembered for the next select of the same query: an agent call
 * that finds nothing asks again with ignore rules off (the tool's check for hidden matches), and a base's lists
 * never change. Callers only read the result.
 */
function evaluationOf(base: Base, query: GramQuery): ReturnType<typeof evaluateBlocks> {
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
function alwaysSearched(base: Base, maxFilesize: number): Int32Array {
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
function takenWhatever(records: Float64Array, id: number, maxFilesize: number): boolean {
  return (records[id * 4 + 3]! & FLAG_UNINDEXED) !== 0 || records[id * 4]! > maxFilesize;
}

/** Calls `f` with every index of a 0/1 byte map holding 1, skipping zeros four bytes at a time. */
function forEachSet(bits: Uint8Array, f: (i: number) => void): void {
  const whole = bits.byteOffset % 4 === 0 ? bits.length >>> 2 : 0;
  const words = new Uint32Array(bits.buffer, bits.byteOffset, whole);
  for (let w = 0; w < whole; w++) {
    if (words[w] === 0) continue;
    for (let i = w * 4; i < w * 4 + 4; i++) if (bits[i]) f(i);
  }
  for (let i = whole * 4; i < bits.length; i++) if (bits[i]) f(i);
}

function windowBytes(w: ByteWindows): number {
  let n = 0;
  for (let i = 0; i < w.ranges.length; i += 2) n += w.ranges[i + 1]! - w.ranges[i]!;
  return n;
}

/**
 * The newlines before each range's start (ranges start on block boundaries), from the per-block counts of
 * the file whose first block id is `first`.
 */
function newlinesBefore(
  newlines: Uint32Array,
  first: number,
  blockBytes: number,
  ranges: readonly number[],
): number[] {
  const out: number[] = [];
  let n = 0;
  let k = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    const upTo = ranges[i]! / blockBytes;
    for (; k < upTo; k++) n += newlines[first + k]!;
    out.push(n);
  }
  return out;
}

/** Temporary files of writers that died mid-write (kill -9): the rename never happened, so they are garbage. */
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

function markStale(base: Base, rel: string): void {
  const id = base.idOf.get(rel);
  if (id !== undefined) setStale(base, id);
  // A directory: everything below it may have changed too (rare: a directory event without a name).
}

function setStale(base: Base, id: number): void {
  if (base.stale[id]) return;
  base.stale[id] = 1;
  base.staleIds.push(id);
}

function underNeverEntered(rel: string): boolean {
  for (const part of rel.split('/')) if (NEVER_ENTERED.has(part)) return true;
  return false;
}

/**
 * The request's exclusion applied as its walk applies it: to the file and to every directory from its search
 * root down (the walk prunes an excluded directory with everything below it). Paths are canonical: the roots
 * were checked to be free of links.
 */
function dirMemo(roots: readonly string[], exclude: (abs: string) => boolean): (abs: string) => boolean {
  const stopAt = new Set(roots);
  const memo = new Map<string, boolean>();
  const dirExcluded = (dir: string): boolean => {
    let v = memo.get(dir);
    if (v === undefined) {
      const parent = path.dirname(dir);
      v = exclude(dir) || (!stopAt.has(dir) && parent !== dir && dirExcluded(parent));
      memo.set(dir, v);
    }
    return v;
  };
  return (abs) => exclude(abs) || (!stopAt.has(abs) && dirExcluded(path.dirname(abs)));
}
