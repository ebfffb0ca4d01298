import * as fs from 'node:fs';
import { PARENT_POLL_MS } from './limits.js';

/** Why a long-running command (`trawl serve`, `trawl mcp`) stops. */
export type StopReason = 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'parent gone';

/** What `untilStopped` gives: the stop, and how to stop listening for one (the command ended on its own). */
export interface Lifetime {
  stopped: Promise<StopReason>;
  dispose(): void;
}

interface Link {
  pid: number;
  ppid: number;
}

/**
 * Resolves when this process should stop: a SIGINT, SIGTERM or SIGHUP, or the process that started it gone.
 * "Gone" is the parent exiting (this process is re-parented), and, when a launcher started it (`npx trawl
 * serve` runs `npm exec` → `sh -c` → node), any launcher in between exiting or losing its own parent: `npm exec`
 * forwards a SIGTERM to its `sh`, which dies without passing it on, and left alone the server would go on
 * serving with no one to stop it. Polls (unref'd) rather than relying on a signal that may never come.
 */
export function untilStopped(): Lifetime {
  let resolve!: (reason: StopReason) => void;
  const stopped = new Promise<StopReason>((r) => {
    resolve = r;
  });
  const handlers = new Map<NodeJS.Signals, () => void>();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const handler = () => finish(signal);
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
  const chain = launcherChain();
  const timer = setInterval(() => {
    if (chain.some((link) => parentOf(link.pid) !== link.ppid)) finish('parent gone');
  }, PARENT_POLL_MS);
  timer.unref();

  function dispose(): void {
    clearInterval(timer);
    for (const [signal, handler] of handlers) process.off(signal, handler);
  }
  function finish(reason: StopReason): void {
    dispose();
    resolve(reason);
  }
  return { stopped, dispose };
}

/**
 * This process and the launchers above it, each with the parent it has now. A launcher is a process npm runs a
 * package's bin through: `sh -c` and npm itself (its title is `npm exec …`, `npm run …`, `npx …`). Only followed
 * when npm started us (npm sets `npm_command`), and only where /proc can say (Linux); elsewhere, our own parent.
 */
function launcherChain(): Link[] {
  const chain: Link[] = [{ pid: process.pid, ppid: process.ppid }];
  if (!process.env['npm_command']) return chain;
  let pid = process.ppid;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    const ppid = parentOf(pid);
    const cmd = commandLine(pid);
    if (ppid === undefined || cmd === undefined) break;
    const isNpm = /^(npm|npx)( |$)/.test(cmd) || /\/np[mx]-cli\.js( |$)/.test(cmd);
    const isShell = /^(\/bin\/|\/usr\/bin\/)?(sh|bash|dash) -c /.test(cmd);
    if (!isNpm && !isShell) break;
    chain.push({ pid, ppid });
    if (isNpm) break;
    pid = ppid;
  }
  return chain;
}

/** A process's parent (this process's from Node, others' from /proc); undefined when it is gone. */
function parentOf(pid: number): number | undefined {
  if (pid === process.pid) return process.ppid;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}
