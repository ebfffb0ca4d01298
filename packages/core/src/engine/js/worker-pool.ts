import { Worker } from 'node:worker_threads';
import { IDLE_SEARCH_WORKER_MS, MAX_IDLE_SEARCH_WORKERS, WORKER_YOUNG_GENERATION_MB } from '../../limits.js';
import { coreScriptUrl } from '../../util/package-files.js';
import type { FromWorker, ToWorker } from './protocol.js';

/**
 * Search workers kept warm between searches. Starting a worker and loading the searcher into it costs
 * 40–80 ms on this machine kind — more than a whole search of one file — so a long-lived process (MCP
 * server, `trawl serve`, an agent host calling the library) pays it once. An idle worker never keeps
 * the process alive and leaves after IDLE_SEARCH_WORKER_MS, unless a host holds it (`keepSearchWorkersWarm`).
 *
 * A worker serves one search at a time (a lease). A lease is returned only when no request of its
 * search is still in flight; a worker stopped mid-search (deadline, abort) is terminated instead, which
 * is the only way to stop a RegExp stuck inside one `exec` call. Every lease starts with a `setup`
 * message, so no state of an earlier search (pattern, mode) survives into the next.
 */
export interface WorkerLease {
  post(message: ToWorker, transfer?: ArrayBuffer[]): void;
  /** Back to the pool: only when every request posted has been answered. */
  release(): void;
  /** Terminated (a request may still be running in it). */
  discard(): void;
}

export interface LeaseHandlers {
  onMessage(message: FromWorker): void;
  /** The worker failed or exited; the lease is already void. */
  onError(error: Error): void;
}

interface PooledWorker {
  worker: Worker;
  handlers: LeaseHandlers | null;
  idleTimer: NodeJS.Timeout | null;
}

const idle: PooledWorker[] = [];
/** `batches`: batch messages posted (each a round trip to a worker thread). */
const stats = { started: 0, reused: 0, discarded: 0, batches: 0 };
/** Idle workers kept without expiry, per holder (see keepSearchWorkersWarm). */
const holds = new Set<{ workers: number }>();

/** How many workers were started, reused and terminated, and batches posted, so far (tests and benchmarks read this). */
export function searchWorkerStats(): Readonly<typeof stats> & { idle: number } {
  return { ...stats, idle: idle.length };
}

/**
 * Keeps up to `workers` idle search workers (and starts one now if none is idle) until the returned function is
 * called: they do not leave after IDLE_SEARCH_WORKER_MS. For a long-lived server whose client pauses between
 * calls for minutes (an agent thinking): its next search would otherwise start a worker first (40–150 ms). Idle
 * workers still never keep the process alive.
 */
export function keepSearchWorkersWarm(workers = 1): () => void {
  const hold = { workers: Math.max(0, Math.min(workers, MAX_IDLE_SEARCH_WORKERS)) };
  holds.add(hold);
  settleExpiry();
  if (hold.workers > 0) prewarmSearchWorker();
  return () => {
    if (holds.delete(hold)) settleExpiry();
  };
}

/** How many idle workers are kept without expiry. */
function kept(): number {
  let n = 0;
  for (const h of holds) n = Math.max(n, h.workers);
  return n;
}

export function leaseSearchWorker(handlers: LeaseHandlers): WorkerLease {
  const warm = idle.shift();
  if (warm) stats.reused++;
  const pooled = warm ?? start();
  if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
  pooled.idleTimer = null;
  if (warm) settleExpiry();
  const lease: LeaseHandlers = { ...handlers };
  pooled.handlers = lease;
  pooled.worker.ref();
  // The lease is live while the worker still serves these handlers (a crash or exit voids it).
  const live = () => pooled.handlers === lease;
  return {
    post(message, transfer) {
      if (!live()) return;
      if (message.type === 'batch') stats.batches++;
      pooled.worker.postMessage(message, transfer);
    },
    release() {
      if (!live()) return;
      pooled.handlers = null;
      park(pooled);
    },
    discard() {
      if (!live()) return;
      pooled.handlers = null;
      stats.discarded++;
      void pooled.worker.terminate();
    },
  };
}

/**
 * Starts a worker and parks it idle, unless one is idle already: the next search that would use a warm
 * worker finds one. It never keeps the process alive.
 */
export function prewarmSearchWorker(): void {
  if (idle.length > 0) return;
  park(start());
}

function start(): PooledWorker {
  stats.started++;
  const pooled: PooledWorker = {
    worker: newWorker(),
    handlers: null,
    idleTimer: null,
  };
  pooled.worker.on('message', (msg: FromWorker) => pooled.handlers?.onMessage(msg));
  const fail = (err: Error) => {
    forget(pooled);
    // A kept worker that died leaves its place to the next idle one.
    settleExpiry();
    const h = pooled.handlers;
    pooled.handlers = null;
    h?.onError(err);
  };
  pooled.worker.on('error', fail);
  pooled.worker.on('exit', (code) => fail(new Error(`search worker exited (code ${code})`)));
  return pooled;
}

let execArgv: string[] | null = null;

/**
 * The host's Node flags, less the main script's own (`-e CODE`, `--input-type`, `-p`), which would make
 * a worker run or refuse the wrong code. Flags a worker cannot take (per-process ones such as
 * --expose-gc) are refused as a whole; then the worker starts without any.
 */
const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB };

function newWorker(): Worker {
  if (execArgv === null) {
    execArgv = [];
    const argv = process.execArgv;
    for (let k = 0; k < argv.length; k++) {
      const a = argv[k]!;
      if (a === '-e' || a === '--eval' || a === '-p' || a === '--print') k++;
      else if (!/^--(input-type|eval|print)(=|$)/.test(a)) execArgv.push(a);
    }
  }
  try {
    return new Worker(workerScriptUrl(), { execArgv, resourceLimits: WORKER_RESOURCE_LIMITS });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
    execArgv = [];
    return new Worker(workerScriptUrl(), { execArgv, resourceLimits: WORKER_RESOURCE_LIMITS });
  }
}

function park(pooled: PooledWorker): void {
  if (idle.length >= MAX_IDLE_SEARCH_WORKERS) {
    stats.discarded++;
    void pooled.worker.terminate();
    return;
  }
  pooled.worker.unref();
  // Most recently parked first: leased first (it is the warmest), and kept first.
  idle.unshift(pooled);
  settleExpiry();
}

/**
 * The first kept() idle workers never expire; each other one leaves IDLE_SEARCH_WORKER_MS after it was parked
 * (or after the hold that kept it ended).
 */
function settleExpiry(): void {
  const keep = kept();
  for (const [k, pooled] of idle.entries()) {
    if (k < keep) {
      if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
      pooled.idleTimer = null;
    } else if (!pooled.idleTimer) {
      pooled.idleTimer = setTimeout(() => {
        forget(pooled);
        void pooled.worker.terminate();
      }, IDLE_SEARCH_WORKER_MS);
      pooled.idleTimer.unref();
    }
  }
}

function forget(pooled: PooledWorker): void {
  const k = idle.indexOf(pooled);
  if (k !== -1) idle.splice(k, 1);
  if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
  pooled.idleTimer = null;
}

/** The compiled worker script (util/package-files.ts: dist/'s, or a bundle's own). */
function workerScriptUrl(): URL {
  return coreScriptUrl('engine/js/search-worker.js');
}
