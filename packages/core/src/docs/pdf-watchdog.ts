import { Worker } from 'node:worker_threads';

/** What a child tells its watchdog: a document began (with the wall time it may take) or ended. */
export interface PdfWatchdog {
  /** A document began: past `wallMs` from now the process is killed. */
  begin(wallMs: number): void;
  /** The document ended (answered, or drained after a stop): no wall time runs. */
  end(): void;
  /**
   * Resolves after the watchdog's next check of its ceilings that follows this call (every message sent before it
   * has been taken into account) — the event that shows a ceiling was looked at and not passed.
   */
  checked(): Promise<void>;
}

/**
 * Starts this process's own watchdog on a thread of its own: every `pollMs` it reads the process's resident set
 * and the running document's wall time, and past either ceiling it SIGKILLs the whole process. It also ends the
 * process when the parent is gone (the child is reparented). pdf.js parses synchronously on the main thread, and
 * the parent's watchdog runs on a thread that may be busy itself (a grep, a blocked event loop), so neither can be
 * relied on to stop a document that balloons; this thread shares neither. Resolves once the thread is watching (a
 * thread starts only while the main one yields). The watchdog never holds the process open (unref'd): the child
 * still ends when its stdin ends.
 */
export async function startPdfWatchdog(maxRssMb: number, pollMs: number): Promise<PdfWatchdog> {
  // An eval'd worker, from a self-contained function: the watchdog travels with whatever file holds this module.
  const worker = new Worker(`(${watch.toString()})()`, {
    eval: true,
    execArgv: [], // none of this process's flags (an ESM `--input-type` would change how the body is read)
    workerData: { maxRssMb, pollMs, ppid: process.ppid },
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    stdout: true,
    stderr: true,
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  worker.unref();
  // Callers waiting for the next check; the thread is held open (ref'd) only while one waits.
  const waiting: (() => void)[] = [];
  worker.on('message', () => {
    for (const resolve of waiting.splice(0)) resolve();
    worker.unref();
  });
  return {
    begin: (wallMs) => worker.postMessage({ wallMs }),
    end: () => worker.postMessage({ wallMs: null }),
    checked: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        worker.ref();
        worker.postMessage({ check: true });
      }),
  };
}

/**
 * The watchdog thread's body, serialised: it may use only globals (a bundler rewrites `require` and imports into
 * names of its own, which the worker would not have).
 */
function watch(): void {
  const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
  const { maxRssMb, pollMs, ppid } = workerData as { maxRssMb: number; pollMs: number; ppid: number };
  let until = Number.POSITIVE_INFINITY;
  let checkAsked = false;
  parentPort!.on('message', (m: { wallMs: number | null } | { check: true }) => {
    if ('check' in m) checkAsked = true;
    else until = m.wallMs === null ? Number.POSITIVE_INFINITY : performance.now() + m.wallMs;
  });
  setInterval(() => {
    const rssMb = process.memoryUsage.rss() / (1024 * 1024);
    if (rssMb > maxRssMb || performance.now() > until || process.ppid !== ppid)
      process.kill(process.pid, 'SIGKILL');
    if (checkAsked) {
      checkAsked = false;
      parentPort!.postMessage('checked');
    }
  }, pollMs);
  parentPort!.postMessage('watching');
}
