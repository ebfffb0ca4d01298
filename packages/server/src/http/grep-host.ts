import { Worker } from 'node:worker_threads';
import type { ContentIndexStatus, DocumentTextStoreStats } from '@trawl/core/content-index';
import type { CanonicalRoot } from '@trawl/core/fence';
import { builtScriptUrl } from '../built-script.js';
import { AdmissionQueue } from './admission.js';
import {
  GREP_HOST_EXEC_CEILING_MS,
  GREP_HOST_HEAP_MB,
  GREP_HOST_MAX_ACTIVE,
  GREP_HOST_MAX_WAITING,
} from './limits.js';
import { PoolBusyError, PoolTimeoutError, TaskFailedError } from './pool.js';
import type { FenceConfig, GrepPayloadTask, GrepTaskResult } from './tasks.js';
import { endWorker } from './worker-end.js';

/** What the grep host's thread starts with (plain data: it crosses to the worker). */
export interface GrepHostData {
  fence: FenceConfig;
  dataDir: string;
  /** The roots to index (the command line's projects, judged by the root policy). */
  roots: readonly CanonicalRoot[];
}

/** An index's status as the host reports it: with its document text store's counters once the store is made. */
export interface HostedIndexStatus extends ContentIndexStatus {
  documentStore?: DocumentTextStoreStats;
}

/** Loop → host. */
export type GrepHostRequest = { type: 'grep'; id: number; task: GrepPayloadTask } | { type: 'end' };

/** Host → loop. `unusable`: the host cannot answer this root through an index (the caller scans instead). */
export type GrepHostReply =
  | { type: 'status'; statuses: HostedIndexStatus[] }
  | { type: 'result'; id: number; result: GrepTaskResult }
  | { type: 'result'; id: number; unusable: string }
  | { type: 'result'; id: number; error: string };

export interface GrepHostOptions extends GrepHostData {
  /** Greps running on the host at once (each is mostly waiting on the engine's readers). */
  maxActive?: number;
  /** Greps waiting for one of those places; more are answered busy at once. */
  maxWaiting?: number;
  /** A grep the host has not answered within this long is presumed wedged: the host is restarted. */
  execCeilingMs?: number;
  heapMb?: number;
  /** The host's script (tests run one that installs seams, see grep-host-thread.ts). */
  script?: URL;
  log?: (line: string) => void;
}

interface Job {
  id: number;
  task: GrepPayloadTask;
  resolve: (v: GrepTaskResult | undefined) => void;
  reject: (e: Error) => void;
  execTimer?: NodeJS.Timeout;
}

/**
 * `trawl serve`'s content indexes and the greps through them, on one worker thread (grep-host-thread.ts): the index's
 * selection, the engine's file lists, the document pass and the rows never run on the event loop. Admission is
 * bounded like a pool's (decision 3 of docs/architecture.md): `maxActive` greps run at once, up to `maxWaiting`
 * wait at most their `admitMs`, anything beyond is {@link PoolBusyError}. The loop keeps a mirror of every index's status (pushed
 * on change and every second) to route a grep without a round trip.
 */
export class GrepHost {
  private worker: Worker | undefined;
  private statusList: HostedIndexStatus[] = [];
  private readonly watchers: Array<{
    root: string;
    until: (s: HostedIndexStatus) => boolean;
    resolve: (s: HostedIndexStatus) => void;
  }> = [];
  private readonly active = new Map<number, Job>();
  private readonly waiting: AdmissionQueue<Job>;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: GrepHostOptions) {
    this.waiting = new AdmissionQueue(options.maxWaiting ?? GREP_HOST_MAX_WAITING);
    if (options.roots.length > 0) this.ensureWorker();
  }

  /** Every index's last status as the host reported it. */
  statuses(): readonly HostedIndexStatus[] {
    return this.statusList;
  }

  /** The status of the deepest index whose root holds `root`, if any. */
  covering(root: string): ContentIndexStatus | undefined {
    let best: ContentIndexStatus | undefined;
    for (const s of this.statusList) {
      const r = s.root;
      if (
        (root === r || root.startsWith(r.endsWith('/') ? r : `${r}/`)) &&
        (!best || r.length > best.root.length)
      )
        best = s;
    }
    return best;
  }

  /** Resolves with the root's index status once it is ready or failed (tests and logs wait on it, never poll). */
  whenSettled(root: string): Promise<HostedIndexStatus> {
    return this.whenStatus(root, isSettled);
  }

  /** Resolves with the first status of the root's index (reported from now on, or the last one) that `until` accepts. */
  whenStatus(root: string, until: (s: HostedIndexStatus) => boolean): Promise<HostedIndexStatus> {
    const s = this.statusList.find((x) => x.root === root);
    if (s && until(s)) return Promise.resolve(s);
    return new Promise((resolve) => this.watchers.push({ root, until, resolve }));
  }

  /** Greps answered busy, for diagnostics and benchmarks. */
  get busyRejections(): number {
    return this.waiting.refusals;
  }

  /** Greps running, and waiting for admission. */
  stats(): { active: number; waiting: number } {
    return { active: this.active.size, waiting: this.waiting.length };
  }

  /**
   * Runs a grep through the index covering its root. `undefined`: no index of this root is ready (or the host went
   * away under it): the caller scans. Busy past admission → {@link PoolBusyError}; a grep not answered within the
   * execution ceiling → {@link PoolTimeoutError} (and the host is restarted).
   */
  grep(task: GrepPayloadTask, options: { admitMs?: number } = {}): Promise<GrepTaskResult | undefined> {
    if (this.closed || !this.worker || this.covering(task.root)?.state !== 'ready')
      return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, task, resolve, reject };
      const max = this.options.maxActive ?? GREP_HOST_MAX_ACTIVE;
      if (this.active.size < max) {
        this.dispatch(job);
        return;
      }
      const refuse = () => reject(new PoolBusyError('grep'));
      if (!this.waiting.wait(job, options.admitMs ?? Number.POSITIVE_INFINITY, refuse)) refuse();
    });
  }

  /** Withdraws waiting greps, asks the host to close its indexes, and ends it (terminated after a grace). */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.drain()) job.resolve(undefined);
    const w = this.worker;
    this.worker = undefined;
    this.abandon();
    if (w) await endWorker(w, { type: 'end' } satisfies GrepHostRequest);
  }

  private dispatch(job: Job): void {
    const worker = this.worker;
    if (!worker) {
      job.resolve(undefined);
      return;
    }
    this.active.set(job.id, job);
    const ceiling = this.options.execCeilingMs ?? GREP_HOST_EXEC_CEILING_MS;
    job.execTimer = setTimeout(() => {
      if (this.active.get(job.id) !== job) return;
      this.active.delete(job.id);
      job.reject(new PoolTimeoutError('grep', 'grep'));
      this.options.log?.(`grep host: a grep ran past ${ceiling} ms; restarting the host`);
      // Its indexes load again from disk; meanwhile greps scan on the transfer pool.
      void worker.terminate().catch(() => {});
    }, ceiling);
    job.execTimer.unref();
    worker.postMessage({ type: 'grep', id: job.id, task: job.task } satisfies GrepHostRequest);
  }

  private pump(): void {
    const max = this.options.maxActive ?? GREP_HOST_MAX_ACTIVE;
    while (this.waiting.length > 0 && this.active.size < max) this.dispatch(this.waiting.next()!);
  }

  /** Greps in flight on a host that went away: answered `undefined` (the caller scans). */
  private abandon(): void {
    for (const job of this.active.values()) {
      clearTimeout(job.execTimer);
      job.resolve(undefined);
    }
    this.active.clear();
  }

  private ensureWorker(): void {
    const worker = new Worker(this.options.script ?? builtScriptUrl('grep-host-worker.js', import.meta.url), {
      workerData: {
        fence: this.options.fence,
        dataDir: this.options.dataDir,
        roots: this.options.roots,
      } satisfies GrepHostData,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? GREP_HOST_HEAP_MB },
    });
    worker.unref();
    worker.on('message', (msg: GrepHostReply) => this.onMessage(msg));
    worker.on('error', (err) => this.options.log?.(`grep host failed: ${err.message}`));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.statusList = [];
      this.abandon();
      for (const job of this.waiting.drain()) job.resolve(undefined);
      if (!this.closed) this.ensureWorker();
    });
    this.worker = worker;
  }

  private onMessage(msg: GrepHostReply): void {
    if (msg.type === 'status') {
      this.statusList = msg.statuses;
      for (let i = this.watchers.length - 1; i >= 0; i--) {
        const w = this.watchers[i]!;
        const s = msg.statuses.find((x) => x.root === w.root);
        if (s && w.until(s)) {
          this.watchers.splice(i, 1);
          w.resolve(s);
        }
      }
      return;
    }
    const job = this.active.get(msg.id);
    if (!job) return;
    this.active.delete(msg.id);
    clearTimeout(job.execTimer);
    if ('result' in msg) job.resolve(msg.result);
    else if ('unusable' in msg) job.resolve(undefined);
    else job.reject(new TaskFailedError('grep', msg.error));
    this.pump();
  }
}

function isSettled(s: ContentIndexStatus): boolean {
  return s.state === 'ready' || s.state === 'failed' || s.state === 'closed';
}
