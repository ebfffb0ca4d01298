/**
 * The admission wait both of the server's bounded runners share — the worker pools (pool.ts) and the grep host
 * (grep-host.ts); decision 3 of docs/architecture.md. A call that finds no free place waits, oldest first, at most
 * its admission time; one beyond `maxWaiting`, or with no time to wait, is refused at once. What a place is (an
 * idle worker, a slot on the host's thread) and what a refusal answers are the runner's.
 */
export class AdmissionQueue<J> {
  private readonly waiting: Array<{ job: J; timer?: NodeJS.Timeout }> = [];
  /** Calls refused (at once, or when their wait ran out), for diagnostics and benchmarks. */
  refusals = 0;

  constructor(private readonly maxWaiting: number) {}

  /** Calls waiting for a place. */
  get length(): number {
    return this.waiting.length;
  }

  /**
   * Queues `job` for at most `admitMs` (unbounded when infinite); `expired` runs if no place was found by then.
   * False, with nothing queued, when the queue is full or there is no time to wait: the caller refuses the call.
   */
  wait(job: J, admitMs: number, expired: () => void): boolean {
    if (this.waiting.length >= this.maxWaiting || admitMs <= 0) {
      this.refusals++;
      return false;
    }
    const entry: { job: J; timer?: NodeJS.Timeout } = { job };
    if (Number.isFinite(admitMs)) {
      entry.timer = setTimeout(() => {
        const i = this.waiting.indexOf(entry);
        if (i < 0) return;
        this.waiting.splice(i, 1);
        this.refusals++;
        expired();
      }, admitMs);
      entry.timer.unref();
    }
    this.waiting.push(entry);
    return true;
  }

  /** The oldest waiting call, taken out of the queue (a place is free for it), if any. */
  next(): J | undefined {
    const entry = this.waiting.shift();
    clearTimeout(entry?.timer);
    return entry?.job;
  }

  /** Every waiting call, taken out of the queue (the runner is closing or its worker went away). */
  drain(): J[] {
    const jobs: J[] = [];
    for (let job = this.next(); job !== undefined; job = this.next()) jobs.push(job);
    return jobs;
  }
}
