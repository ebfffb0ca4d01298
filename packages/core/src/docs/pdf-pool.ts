import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { corePackageDir } from '../util/package-files.js';
import {
  PDF_CHILD_DATA_HEADROOM_MB,
  PDF_CHILD_START_MS,
  PDF_POOL_DOCS_PER_CHILD,
  PDF_POOL_IDLE_MS,
  PDF_POOL_RECYCLE_RSS_MB,
  PDF_POOL_SIZE,
  PDF_RSS_POLL_MS,
} from './limits.js';
import type { ExtractResult, SegmentSink } from './types.js';

/** One document's bounds inside a warm child (the heap and memory ceilings are the child's, fixed when it starts). */
export interface PdfJob {
  bytes: Buffer;
  sink: SegmentSink;
  heapMb: number;
  maxRssMb: number;
  maxPages: number;
  maxChars: number;
  /** Wall time this document may take in a child, from when a child takes it. */
  wallMs: number;
  /**
   * How long the caller can wait for a child to start or free up (its remaining deadline, in ms); the document's
   * own wall time is also cut to what is left of it then. Default: `wallMs` (waiting counts against the document).
   */
  waitMs?: number;
}

export interface PdfPoolOptions {
  /** Children at most (each thread that greps has its own pool; a thread runs one grep at a time). */
  size?: number;
  /** Documents a child serves before it is replaced (pdf.js caches and fragmentation are left behind with it). */
  docsPerChild?: number;
  /** A child idle this long is ended (so a pool costs nothing between searches). */
  idleMs?: number;
  /** A child not ready this long after it was started is ended. */
  startMs?: number;
  /** A child whose resident set is above this after a document is replaced rather than kept warm. */
  recycleRssMb?: number;
  /** The child's script (tests substitute a child that misbehaves on purpose). */
  script?: string;
}

/** What the pool has done, for tests and benchmarks. */
export interface PdfPoolStats {
  /** Children started since the pool was made. */
  started: number;
  /** Children ended by a ceiling (memory, time, protocol) or found dead. */
  killed: number;
  /** Children ended because they served their share, grew, or idled. */
  retired: number;
  /** Process ids of the live children. */
  pids: number[];
  /** Documents handed to a child that was already warm. */
  warmDocs: number;
}

type Msg = {
  ready?: true;
  doc?: number;
  page?: number;
  text?: string;
  end?: string;
  error?: string;
  message?: string;
};

/** One warm child: starting → idle ⇄ busy → dead. */
class PdfChild {
  readonly proc: ChildProcess;
  state: 'starting' | 'idle' | 'busy' | 'dead' = 'starting';
  docs = 0;
  /** Set while a document is out: the line handler and the death handler for it. */
  onLine?: (msg: Msg) => void;
  onDeath?: (why: string) => void;
  death?: string;
  /** Settles when the process has exited and this thread has reaped it. */
  readonly exited: Promise<void>;
  private readonly startTimer: NodeJS.Timeout;
  private watchdog?: NodeJS.Timeout;

  constructor(
    readonly heapMb: number,
    /** The RSS ceiling: the child's own watchdog's, and this thread's for its documents. */
    readonly maxRssMb: number,
    /** The pool's generation it belongs to (a closed pool starts no successor for it). */
    readonly generation: number,
    script: string,
    startMs: number,
    private readonly changed: () => void,
  ) {
    // No environment and no argument but the ceilings; documents arrive over stdin.
    const [command, ...args] = [
      ...kernelLimits(heapMb, maxRssMb),
      process.execPath,
      `--max-old-space-size=${heapMb}`,
      script,
      `--max-rss-mb=${maxRssMb}`,
    ];
    this.proc = spawn(command!, args, {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: {},
      windowsHide: true,
    });
    this.exited = new Promise((resolve) => {
      this.proc.once('close', () => resolve());
      this.proc.once('error', () => resolve());
    });
    this.proc.stdin!.on('error', () => {});
    const lines = createInterface({ input: this.proc.stdout!, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (line) => this.line(line));
    this.proc.on('close', (code, signal) =>
      this.died(signal ? `signal:${signal}` : code === 0 ? 'exit:0' : `exit:${code}`),
    );
    this.proc.on('error', () => this.died('spawn'));
    this.startTimer = setTimeout(() => this.kill('start'), startMs);
    this.startTimer.unref();
    this.watch(maxRssMb);
    this.hold(false);
  }

  /** Keeps this process alive for the child (a document is out) or not (idle, or warming with no one waiting). */
  hold(on: boolean): void {
    const handles = [this.proc, this.proc.stdin, this.proc.stdout] as Array<{
      ref(): void;
      unref(): void;
    } | null>;
    for (const h of handles) if (h) on ? h.ref() : h.unref();
  }

  /**
   * Reads the child's resident set every few ms; above `maxRssMb` it is killed (typed arrays live off the V8 heap).
   * The child's own watchdog holds the same ceiling when this thread is too busy to run this timer.
   */
  watch(maxRssMb: number): void {
    clearInterval(this.watchdog);
    this.watchdog = setInterval(() => {
      const rss = residentMb(this.proc.pid);
      if (rss !== null && rss > maxRssMb) this.kill('memory');
    }, PDF_RSS_POLL_MS);
    this.watchdog.unref();
  }

  unwatch(): void {
    clearInterval(this.watchdog);
    this.watchdog = undefined;
  }

  rssMb(): number | null {
    return residentMb(this.proc.pid);
  }

  send(header: object, bytes?: Buffer): void {
    this.proc.stdin!.write(`${JSON.stringify(header)}\n`);
    if (bytes) this.proc.stdin!.write(bytes);
  }

  kill(why: string): void {
    this.death ??= why;
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
    if (this.state === 'starting' || this.state === 'idle') this.died(why);
  }

  /** Ends an idle child gently: the end of its stdin ends it. */
  retire(): void {
    this.proc.stdin!.end();
    this.died('retired');
  }

  private line(line: string): void {
    let msg: Msg;
    try {
      msg = JSON.parse(line) as Msg;
    } catch {
      this.kill('protocol');
      return;
    }
    if (msg.ready && this.state === 'starting') {
      clearTimeout(this.startTimer);
      this.unwatch();
      this.state = 'idle';
      this.changed();
      return;
    }
    if (this.onLine) this.onLine(msg);
  }

  private died(why: string): void {
    if (this.state === 'dead') return;
    this.state = 'dead';
    this.death ??= why;
    clearTimeout(this.startTimer);
    this.unwatch();
    const onDeath = this.onDeath;
    this.onDeath = undefined;
    this.onLine = undefined;
    onDeath?.(this.death);
    this.changed();
  }
}

/**
 * A small pool of warm PDF extractor children (pdf.js takes hundreds of ms to load, seconds on a loaded machine:
 * more than a document's whole wall-time limit). Started lazily, reused across documents and searches, one document
 * at a time per child, each document under the same bounds a fresh child had: the heap ceiling (the child's V8
 * flag), the RSS watchdog, the wall-time limit (waiting for a child counts against it; a child that is already warm
 * costs nothing), the page and character caps. The memory and time bounds hold whatever this thread is doing: the
 * child runs its own watchdog thread on the same ceilings, and the kernel limits its data (`kernelLimits`). A child that overruns or dies is killed and replaced, and counts as a
 * skipped document; a child is retired after `docsPerChild` documents, when it grew past `recycleRssMb`, or after
 * `idleMs` idle. Idle children do not keep this process alive, and each ends when its stdin closes — so none outlives
 * the process (or worker thread) that started it.
 */
export class PdfPool {
  private readonly children: PdfChild[] = [];
  private readonly waiters = new Set<() => void>();
  private nextDoc = 1;
  private idleTimer?: NodeJS.Timeout;
  private generation = 0;
  private readonly opts: Required<PdfPoolOptions>;
  private readonly counts = { started: 0, killed: 0, retired: 0, warmDocs: 0 };

  constructor(options: PdfPoolOptions = {}) {
    this.opts = {
      size: options.size ?? PDF_POOL_SIZE,
      docsPerChild: options.docsPerChild ?? PDF_POOL_DOCS_PER_CHILD,
      idleMs: options.idleMs ?? PDF_POOL_IDLE_MS,
      startMs: options.startMs ?? PDF_CHILD_START_MS,
      recycleRssMb: options.recycleRssMb ?? PDF_POOL_RECYCLE_RSS_MB,
      script: options.script ?? childScript(),
    };
  }

  stats(): PdfPoolStats {
    return {
      ...this.counts,
      pids: this.children.filter((c) => c.state !== 'dead' && c.proc.pid).map((c) => c.proc.pid!),
    };
  }

  /** Resolves when a child with these ceilings is ready (starting one if none is): a caller warms ahead of use. */
  async warm(heapMb: number, maxRssMb: number): Promise<void> {
    for (;;) {
      const child = this.children.find((c) => fits(c, heapMb, maxRssMb) && c.state !== 'dead');
      if (child?.state === 'idle' || child?.state === 'busy') return;
      if (!child) this.start(heapMb, maxRssMb);
      // Someone waits on the starting child: keep this process alive for it.
      const starting = this.children.filter((c) => c.state === 'starting');
      for (const c of starting) c.hold(true);
      await new Promise<void>((resolve) => this.waiters.add(resolve));
      for (const c of starting) if (c.state === 'starting') c.hold(false);
    }
  }

  /** Ends every child now (later extractions start fresh ones); resolves once each has exited and been reaped. */
  close(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.generation++;
    const gone = this.children.splice(0);
    const exited = gone.map((c) => c.exited);
    for (const c of gone) {
      c.hold(true); // whoever awaits this must see the exits: an unref'd child would let the loop end first
      c.kill('closed');
    }
    this.notify();
    return Promise.all(exited).then(() => {});
  }

  /** Extracts one document in a warm child; never throws. */
  async extract(job: PdfJob): Promise<ExtractResult> {
    // Starting a child is not the document's work: it may take what is left of the caller's deadline, and the
    // document then gets its own wall time inside what is still left.
    const deadline = Date.now() + (job.waitMs ?? job.wallMs);
    clearTimeout(this.idleTimer);
    const child = await this.acquire(job, deadline);
    if (!child) return { whole: false, stopped: false, skipped: 'timeout' };
    if (child.docs > 0) this.counts.warmDocs++;
    child.docs++;
    return this.run(child, job, Math.min(deadline, Date.now() + job.wallMs));
  }

  /** An idle child with the job's ceilings, waiting (until `until`) for one to start or free up. */
  private async acquire(job: PdfJob, until: number): Promise<PdfChild | null> {
    for (;;) {
      this.children.splice(0, this.children.length, ...this.children.filter((c) => c.state !== 'dead'));
      const idle = this.children.find((c) => fits(c, job.heapMb, job.maxRssMb) && c.state === 'idle');
      if (idle) {
        idle.state = 'busy';
        return idle;
      }
      if (!this.children.some((c) => fits(c, job.heapMb, job.maxRssMb) && c.state === 'starting')) {
        if (this.children.length >= this.opts.size) {
          const other = this.children.find((c) => !fits(c, job.heapMb, job.maxRssMb) && c.state === 'idle');
          if (other) this.retire(other);
        }
        if (this.children.length < this.opts.size) this.start(job.heapMb, job.maxRssMb);
      }
      const left = until - Date.now();
      if (left <= 0) return null;
      // Someone waits on a starting child: keep this process alive for it.
      for (const c of this.children) if (c.state === 'starting') c.hold(true);
      const woken = await new Promise<boolean>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          this.waiters.delete(wake);
          resolve(false);
        }, left);
        this.waiters.add(wake);
      });
      for (const c of this.children) if (c.state === 'starting') c.hold(false);
      if (!woken) return null;
    }
  }

  private run(child: PdfChild, job: PdfJob, until: number): Promise<ExtractResult> {
    const doc = this.nextDoc++;
    child.hold(true);
    child.watch(job.maxRssMb);
    return new Promise<ExtractResult>((resolve) => {
      let answered = false;
      let refused: string | undefined;
      const answer = (r: ExtractResult) => {
        if (!answered) {
          answered = true;
          resolve(r);
        }
      };
      // The wall-time limit covers the document and, after an early stop, the child's drain back to idle.
      const timer = setTimeout(() => child.kill('timeout'), Math.max(0, until - Date.now()));
      const done = () => {
        clearTimeout(timer);
        child.unwatch();
        child.onLine = undefined;
        child.onDeath = undefined;
      };
      child.onDeath = (why) => {
        done();
        this.counts.killed++;
        answer({ whole: false, stopped: false, skipped: why === 'exit:0' ? 'protocol' : why });
        this.replace(child);
      };
      child.onLine = (msg) => {
        if (msg.doc !== doc) return child.kill('protocol');
        if (typeof msg.page === 'number' && typeof msg.text === 'string') {
          if (answered) return; // draining after a stop
          if (msg.text.length > job.maxChars) return child.kill('protocol');
          if (job.sink({ label: `p ${msg.page}`, text: msg.text })) {
            answer({ whole: true, stopped: true });
            child.send({ stop: doc });
          }
          return;
        }
        if (msg.error) refused = `unreadable PDF: ${msg.message ?? msg.error}`;
        else if (msg.end !== 'whole' && msg.end !== 'cut' && msg.end !== 'stopped')
          return child.kill('protocol');
        done();
        if (refused) answer({ whole: true, stopped: false, refused });
        else answer({ whole: msg.end === 'whole', stopped: msg.end === 'stopped' });
        this.release(child);
      };
      const wallMs = Math.max(0, until - Date.now());
      child.send(
        { doc, bytes: job.bytes.length, maxPages: job.maxPages, maxChars: job.maxChars, wallMs },
        job.bytes,
      );
    });
  }

  /** A child back from a document: kept warm, or retired (its share served, or grown) and replaced. */
  private release(child: PdfChild): void {
    child.hold(false);
    const rss = child.rssMb();
    if (child.docs >= this.opts.docsPerChild || (rss !== null && rss > this.opts.recycleRssMb)) {
      this.retire(child);
      this.replace(child);
      return;
    }
    child.state = 'idle';
    this.armIdle();
    this.notify();
  }

  /** Starts a successor for a child that left while the pool is in use, so the next document finds it warm. */
  private replace(gone: PdfChild): void {
    const i = this.children.indexOf(gone);
    if (i >= 0) this.children.splice(i, 1);
    if (gone.generation === this.generation && this.children.length < this.opts.size)
      this.start(gone.heapMb, gone.maxRssMb);
    this.armIdle();
    this.notify();
  }

  private retire(child: PdfChild): void {
    this.counts.retired++;
    child.retire();
    const i = this.children.indexOf(child);
    if (i >= 0) this.children.splice(i, 1);
  }

  private start(heapMb: number, maxRssMb: number): void {
    this.counts.started++;
    const child = new PdfChild(heapMb, maxRssMb, this.generation, this.opts.script, this.opts.startMs, () =>
      this.notify(),
    );
    this.children.push(child);
    this.armIdle();
  }

  /** Ends the children once the pool has been idle for `idleMs` (the timer does not keep this process alive). */
  private armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.waiters.size > 0 || this.children.some((c) => c.state === 'busy')) return this.armIdle();
      for (const c of [...this.children]) {
        if (c.state === 'idle') this.retire(c);
        else if (c.state === 'starting') {
          this.counts.retired++;
          c.kill('idle');
        }
      }
      this.children.splice(0, this.children.length, ...this.children.filter((c) => c.state !== 'dead'));
    }, this.opts.idleMs);
    this.idleTimer.unref();
  }

  private notify(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const w of waiters) w();
  }
}

let shared: PdfPool | undefined;

/** This thread's pool (made on first use). */
export function sharedPdfPool(): PdfPool {
  shared ??= new PdfPool();
  return shared;
}

/**
 * Ends this thread's pool's children and resolves once they are reaped (a server closing, a worker thread ending:
 * a child whose thread is terminated first ends with its stdin but stays a zombie until the process exits).
 */
export function closeSharedPdfPool(): Promise<void> {
  return shared?.close() ?? Promise.resolve();
}

/** A child fits a document when both its ceilings are the document's. */
function fits(child: PdfChild, heapMb: number, maxRssMb: number): boolean {
  return child.heapMb === heapMb && child.maxRssMb === maxRssMb;
}

let prlimit: string | null | undefined;

/**
 * The command that puts the child under the kernel's limit on its data (RLIMIT_DATA; its heap and typed arrays
 * live there) and no core file (a core would hold a document's text), or nothing where util-linux `prlimit` is
 * not installed. `prlimit` sets the limits on itself and execs the child, so the child keeps its pid. Only a system
 * directory's copy is used: a PATH can name a project's directory first.
 */
function kernelLimits(heapMb: number, maxRssMb: number): string[] {
  if (prlimit === undefined) {
    prlimit =
      process.platform !== 'linux'
        ? null
        : (['/usr/bin/prlimit', '/bin/prlimit'].find((p) => {
            try {
              fs.accessSync(p, fs.constants.X_OK);
              return true;
            } catch {
              return false;
            }
          }) ?? null);
  }
  if (prlimit === null) return [];
  const dataBytes = (heapMb + maxRssMb + PDF_CHILD_DATA_HEADROOM_MB) * 1024 * 1024;
  return [prlimit, `--data=${dataBytes}`, '--core=0', '--'];
}

/** A process's resident set in MiB (Linux `/proc/<pid>/statm`); null where it cannot be read. */
function residentMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const pages = Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return (pages * 4096) / (1024 * 1024);
  } catch {
    return null;
  }
}

/** The built child (pdf.js inside it) that the package ships in its dist/ (scripts/bundle.mjs core). */
function childScript(): string {
  return path.join(corePackageDir(), 'dist/docs/pdf-child.js');
}
