import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { builtScriptUrl } from '../built-script.js';

/** Where a run records its process group while it may have members (see {@link AgentWatchdog}). */
export interface AgentGroups {
  /** The group `pgid` has started: kill it if the server dies. */
  add(pgid: number): void;
  /** The group `pgid` has been killed or is empty: forget it. */
  remove(pgid: number): void;
}

/**
 * Kills the agents' process groups when the server dies without doing it itself (a crash, SIGKILL, OOM): a small
 * process of its own (agent-watchdog-child.ts), started with the first agent run, holds a pipe from the server and
 * the list of live groups; when the pipe closes it signals those groups (SIGTERM, then SIGKILL after `graceMs`).
 * POSIX only: on Windows an agent is not a process group and nothing is recorded.
 */
export class AgentWatchdog implements AgentGroups {
  private proc: ChildProcess | undefined;
  private unavailable = false;
  /** The groups recorded, kept here too: a watchdog started again (the last one was killed) is told them all. */
  private readonly live = new Set<number>();

  constructor(
    private readonly graceMs: number,
    private readonly log: (line: string) => void,
  ) {}

  add(pgid: number): void {
    this.live.add(pgid);
    if (this.proc) this.proc.stdin?.write(`+${pgid}\n`);
    else this.start(); // which tells it every live group, this one included
  }

  remove(pgid: number): void {
    if (!this.live.delete(pgid)) return;
    this.proc?.stdin?.write(`-${pgid}\n`);
  }

  /** Ends the watchdog (shutdown, once every run has ended): it kills any group still recorded, and exits. */
  close(): void {
    this.proc?.stdin?.end();
    this.proc = undefined;
  }

  private start(): void {
    if (this.unavailable || process.platform === 'win32') return;
    const script = fileURLToPath(builtScriptUrl('agent-watchdog-child.js', import.meta.url));
    const proc = spawn(process.execPath, [script, String(this.graceMs)], {
      // A session of its own: a signal to the server's group or terminal must not end it before the server.
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: {},
      windowsHide: true,
    });
    proc.on('error', (err) => {
      if (this.proc === proc) this.proc = undefined;
      this.unavailable = true;
      this.log(
        `trawl serve: the agent watchdog did not start (${err.message}): agents outlive a killed server`,
      );
    });
    proc.on('exit', () => {
      if (this.proc === proc) this.proc = undefined;
    });
    proc.stdin!.on('error', () => {});
    // Neither the process nor its pipe keeps the server running.
    proc.unref();
    (proc.stdin as unknown as { unref?: () => void }).unref?.();
    this.proc = proc;
    for (const pgid of this.live) proc.stdin!.write(`+${pgid}\n`);
  }
}
