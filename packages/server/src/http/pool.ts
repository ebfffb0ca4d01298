import { Worker } from 'node:worker_threads';
import { AdmissionQueue } from './admission.js';
import { POOL_ADMIT_MS, POOL_IDLE_MS, POOL_MAX_WAITING, POOL_WORKER_HEAP_MB } from './limits.js';
import { endWorker } from './worker-end.js';

/** Named tasks: what each takes and what it answers (the server's is `ServerTasks` in tasks.ts). */
export type TaskTable<T> = { [K in keyof T]: { payload: unknown; result: unknown } };

/** Runs the named tasks of a table somewhere other than the event loop (a worker pool), or inline for tests. */
export interface TaskRunner<T extends TaskTable<T>> {
  run<K extends keyof T & string>(
    task: K,
    payload: T[K]['payload'],
    options?: RunOptions,
  ): Promise<T[K]['result']>;
}

/** Per-call bounds. */
export interface RunOptions {
  /**
   * Wait for a worker at most this long (below the pool's own admission wait): a call with a deadline of its own
   * is answered busy rather than admitted with no time left.
   */
  admitMs?: number;
}

/** No worker claimed the call within the admission wait (or too many were already waiting). */
export class PoolBusyError extends Error {
  readonly code = 'path_probe_busy';
  constructor(readonly pool: string) {
    super(`${pool} pool busy`);
    this.name = 'PoolBusyError';
  }
}

/** A claimed call ran past the pool's execution ceiling; its worker was terminated. */
export class PoolTimeoutError extends Error {
  readonly code = 'path_probe_timeout';
  constructor(
    readonly pool: string,
    readonly task: string,
  ) {
    super(`${pool} pool: ${task} ran past its execution ceiling`);
    this.name = 'PoolTimeoutError';
  }
}

/** The task threw inside the worker, or the worker died under it: a bug, never a caller's doing. */
export class TaskFailedError extends Error {
  constructor(
    readonly task: string,
    message: string,
  ) {
    super(`${task}: ${message}`);
    this.name = 'TaskFailedError';
  }
}

/** Message to a pool worker. */
export interface TaskMessage {
  id: number;
  task: string;
  payload: unknown;
}
/** Asks a pool worker to release what it holds (its PDF extractor children) and exit. */
export interface EndMessage {
  end: true;
}
/** Message from a pool worker. */
export type TaskReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export interface WorkerPoolOptions {
  /** Name for errors and logs (`probe`, `transfer`). */
  name: string;
  /** The worker script (a module that answers {@link TaskMessage}s with {@link TaskReply}s). */
  script: URL;
  workerData?: unknown;
  /** Workers at most (started on demand). */
  size: number;
  admitMs?: number;
  maxWaiting?: number;
  /** A claimed call running longer than this is presumed wedged: the worker is terminated. */
  execCeilingMs: number;
  idleMs?: number;
  /** How long a worker asked to end may take before it is terminated (default POOL_END_GRACE_MS). */
  endGraceMs?: number;
  heapMb?: number;
  /** Operational log (worker crashes, terminations). */
  log?: (line: string) => void;
}

interface Job {
  id: number;
  task: string;
  payload: unknown;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  execTimer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  job?: Job;
  /** Terminated (or crashed) but not yet exited: it keeps its place so a thread stuck in the kernel stays counted. */
  leaving: boolean;
  idleTimer?: NodeJS.Timeout;
  /** The thread is running: a job's execution ceiling starts now, not while a new worker is still starting. */
  online: boolean;
  /** Arms the ceiling of the job dispatched before the thread was online. */
  onOnline?: () => void;
}

/**
 * A bounded pool of worker threads with an admission wait (decision 3 of docs/architecture.md): a call is dispatched to an idle
 * worker, or a new one while under `size`, or waits up to `admitMs` for one to free up; a call not claimed by then
 * (or beyond `maxWaiting`) is withdrawn with {@link PoolBusyError}. A claimed call runs to completion unless it
 * passes the execution ceiling, which terminates its worker. Saturating a pool degrades only the calls that use it.
 */
export class WorkerPool<T extends TaskTable<T>> implements TaskRunner<T> {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private closed = false;
  private readonly admitMs: number;
  private readonly idleMs: number;
  private readonly waiting: AdmissionQueue<Job>;

  constructor(private readonly options: WorkerPoolOptions) {
    this.admitMs = options.admitMs ?? POOL_ADMIT_MS;
    this.waiting = new AdmissionQueue(options.maxWaiting ?? POOL_MAX_WAITING);
    this.idleMs = options.idleMs ?? POOL_IDLE_MS;
  }

  run<K extends keyof T & string>(
    task: K,
    payload: T[K]['payload'],
    options: RunOptions = {},
  ): Promise<T[K]['result']> {
    const admitMs = Math.min(this.admitMs, options.admitMs ?? Number.POSITIVE_INFINITY);
    return new Promise<T[K]['result']>((resolve, reject) => {
      if (this.closed) {
        reject(new PoolBusyError(this.options.name));
        return;
      }
      const job: Job = { id: this.nextId++, task, payload, resolve: resolve as (v: unknown) => void, reject };
      const slot = this.idleSlot() ?? (this.slots.length < this.options.size ? this.spawn() : undefined);
      if (slot) {
        this.dispatch(slot, job);
        return;
      }
      const refuse = () => reject(new PoolBusyError(this.options.name));
      if (!this.waiting.wait(job, admitMs, refuse)) refuse();
    });
  }

  /** Starts one worker ahead of the first call (it stays: one per pool never retires). */
  warm(): void {
    if (!this.closed && this.slots.length === 0) this.spawn();
  }

  /** Calls answered busy (admission wait or queue bound), for diagnostics and benchmarks. */
  get busyRejections(): number {
    return this.waiting.refusals;
  }

  /** Live workers, busy ones, and calls waiting for admission. */
  stats(): { workers: number; busy: number; waiting: number; leaving: number } {
    return {
      workers: this.slots.length,
      busy: this.slots.filter((s) => s.job).length,
      waiting: this.waiting.length,
      leaving: this.slots.filter((s) => s.leaving).length,
    };
  }

  /** Withdraws waiting calls and ends every worker. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.drain()) job.reject(new PoolBusyError(this.options.name));
    await Promise.all(this.slots.map((s) => this.end(s)));
  }

  /**
   * Ends a worker: it is asked to release what it holds and exit (child processes it started are reaped by its own
   * thread, or they would stay zombies until this process exits), and terminated if it has not within the grace.
   */
  private async end(slot: Slot): Promise<void> {
    clearTimeout(slot.idleTimer);
    slot.leaving = true;
    await endWorker(slot.worker, { end: true } satisfies EndMessage, this.options.endGraceMs);
  }

  private idleSlot(): Slot | undefined {
    return this.slots.find((s) => !s.job && !s.leaving);
  }

  private spawn(): Slot {
    const worker = new Worker(this.options.script, {
      workerData: this.options.workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? POOL_WORKER_HEAP_MB },
    });
    worker.unref();
    const slot: Slot = { worker, leaving: false, online: false };
    this.slots.push(slot);
    worker.once('online', () => {
      slot.online = true;
      const arm = slot.onOnline;
      slot.onOnline = undefined;
      arm?.();
    });
    worker.on('message', (msg: TaskReply) => this.onReply(slot, msg));
    worker.on('error', (err) => {
      this.options.log?.(`${this.options.name} pool: worker failed: ${err.message}`);
      slot.leaving = true;
      this.fail(slot, new TaskFailedError(slot.job?.task ?? 'worker', err.message));
    });
    worker.on('exit', () => {
      slot.leaving = true;
      this.fail(slot, new TaskFailedError(slot.job?.task ?? 'worker', 'worker exited'));
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      clearTimeout(slot.idleTimer);
      this.pump();
    });
    return slot;
  }

  private dispatch(slot: Slot, job: Job): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    slot.job = job;
    // The ceiling bounds the task's run, so it starts when the thread does: a replacement worker's start-up
    // (seconds on a loaded machine) must not turn the next task into a timeout.
    const arm = () => {
      if (slot.job !== job) return;
      job.execTimer = setTimeout(() => {
        if (slot.job !== job) return;
        this.options.log?.(
          `${this.options.name} pool: ${job.task} ran past ${this.options.execCeilingMs} ms; terminating its worker`,
        );
        slot.job = undefined;
        slot.leaving = true;
        job.reject(new PoolTimeoutError(this.options.name, job.task));
        void slot.worker.terminate().catch(() => {});
      }, this.options.execCeilingMs);
      job.execTimer.unref();
    };
    if (slot.online) arm();
    else slot.onOnline = arm;
    slot.worker.postMessage({ id: job.id, task: job.task, payload: job.payload } satisfies TaskMessage);
  }

  private onReply(slot: Slot, msg: TaskReply): void {
    const job = slot.job;
    if (!job || job.id !== msg.id) return;
    clearTimeout(job.execTimer);
    slot.job = undefined;
    if (msg.ok) job.resolve(msg.value);
    else job.reject(new TaskFailedError(job.task, msg.error));
    if (slot.leaving) return;
    this.pump(slot);
  }

  private fail(slot: Slot, err: Error): void {
    const job = slot.job;
    if (!job) return;
    clearTimeout(job.execTimer);
    slot.job = undefined;
    job.reject(err);
  }

  /** Hands the oldest waiting call to `slot` (or to any free or new worker), or lets an extra worker retire. */
  private pump(slot?: Slot): void {
    while (this.waiting.length > 0) {
      const target =
        (slot && !slot.job && !slot.leaving ? slot : undefined) ??
        this.idleSlot() ??
        (this.slots.length < this.options.size && !this.closed ? this.spawn() : undefined);
      if (!target) return;
      this.dispatch(target, this.waiting.next()!);
      slot = undefined;
    }
    if (slot && !slot.job && !slot.leaving && this.slots.length > 1) {
      slot.idleTimer = setTimeout(() => {
        if (slot.job || slot.leaving || this.slots.length <= 1) return;
        void this.end(slot);
      }, this.idleMs);
      slot.idleTimer.unref();
    }
  }
}
