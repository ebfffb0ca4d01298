import { type ChildProcess, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { AgentGroups } from './agent-watchdog.js';
import {
  AGENT_DEADLINE_MS,
  AGENT_KILL_GRACE_MS,
  AGENT_OUTPUT_MAX_BYTES,
  AGENT_STDERR_TAIL_BYTES,
} from './limits.js';

/** How a run ended: `done` (exit 0), `stopped` (asked to), `failed` (with a code and a one-line reason). */
export type AgentEnd =
  | { outcome: 'done'; exitCode: number }
  | { outcome: 'stopped' }
  | { outcome: 'failed'; code: string; error: string; exitCode?: number | null };

export interface AgentCommand {
  /** argv fixed by the operator (`--agent`), never by a caller. */
  argv: readonly string[];
  deadlineMs?: number;
  outputMaxBytes?: number;
  killGraceMs?: number;
}

export interface AgentRun {
  /** Kills the process group; the run ends `stopped`. */
  stop(): void;
  readonly ended: Promise<AgentEnd>;
}

export interface AgentRunOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Written to stdin, then stdin is closed. */
  input: string;
  /** Each decoded piece of stdout, in order (never a split UTF-8 character). */
  onText: (text: string) => void;
  /** Told the run's process group while it may have members (the watchdog that kills it if the server dies). */
  groups?: AgentGroups;
}

/**
 * Runs the operator's agent once: no shell, its own process group (so stop, the deadline and the output cap kill
 * whatever it started too, and so does the agent's own exit: nothing it started outlives it), the payload on stdin, stdout decoded as UTF-8 and streamed, at most `outputMaxBytes`
 * of it kept (then the group is killed), killed at the deadline (SIGTERM, then SIGKILL after a grace period).
 * stderr is kept only as a short tail for the failure message.
 */
export function runAgent(cmd: AgentCommand, o: AgentRunOptions): AgentRun {
  const deadlineMs = cmd.deadlineMs ?? AGENT_DEADLINE_MS;
  const outputMax = cmd.outputMaxBytes ?? AGENT_OUTPUT_MAX_BYTES;
  const grace = cmd.killGraceMs ?? AGENT_KILL_GRACE_MS;
  let reason: AgentEnd | undefined;
  let child: ChildProcess;
  let settle!: (e: AgentEnd) => void;
  const ended = new Promise<AgentEnd>((r) => {
    settle = r;
  });
  try {
    child = spawn(cmd.argv[0]!, cmd.argv.slice(1), {
      cwd: o.cwd,
      env: o.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
  } catch (err) {
    settle({
      outcome: 'failed',
      code: 'agent_unavailable',
      error: `the agent could not start: ${(err as Error).message}`,
    });
    return { stop() {}, ended };
  }
  const pgid = process.platform === 'win32' ? undefined : child.pid;
  if (pgid !== undefined) o.groups?.add(pgid);

  let killTimer: NodeJS.Timeout | undefined;
  const killGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      if (process.platform === 'win32') child.kill(signal);
      else process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  const end = (why: AgentEnd) => {
    if (reason) return;
    reason = why;
    killGroup('SIGTERM');
    killTimer = setTimeout(() => killGroup('SIGKILL'), grace);
    killTimer.unref();
  };
  const deadline = setTimeout(
    () =>
      end({
        outcome: 'failed',
        code: 'agent_timeout',
        error: `the agent ran past its ${Math.round(deadlineMs / 1000)} s deadline`,
      }),
    deadlineMs,
  );
  deadline.unref();

  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  child.stdout!.on('data', (chunk: Buffer) => {
    if (reason) return;
    const room = outputMax - bytes;
    if (chunk.length > room) {
      const kept = decoder.write(chunk.subarray(0, room));
      bytes = outputMax;
      if (kept) o.onText(kept);
      end({
        outcome: 'failed',
        code: 'agent_output_too_large',
        error: `the agent wrote more than ${outputMax} bytes`,
      });
      return;
    }
    bytes += chunk.length;
    const text = decoder.write(chunk);
    if (text) o.onText(text);
  });
  let stderrTail = Buffer.alloc(0);
  child.stderr!.on('data', (chunk: Buffer) => {
    stderrTail = Buffer.concat([stderrTail, chunk]);
    if (stderrTail.length > AGENT_STDERR_TAIL_BYTES)
      stderrTail = stderrTail.subarray(-AGENT_STDERR_TAIL_BYTES);
  });
  // An agent that does not read its stdin (or exits first) must not crash the server with EPIPE.
  child.stdin!.on('error', () => {});
  child.stdin!.end(o.input);

  let spawnError: Error | undefined;
  child.on('error', (err) => {
    spawnError = err;
  });
  child.on('exit', () => {
    if (killTimer) clearTimeout(killTimer);
    // The group outlives its leader whenever the agent left something running (a background job, a child that
    // ignored SIGTERM): it goes now, whatever the outcome — which also closes the pipes such a child held open.
    killGroup('SIGKILL');
    if (pgid !== undefined) o.groups?.remove(pgid);
  });
  child.on('close', (code, signal) => {
    clearTimeout(deadline);
    if (killTimer) clearTimeout(killTimer);
    if (!reason) {
      const rest = decoder.end();
      if (rest) o.onText(rest);
    }
    if (reason) return settle(reason);
    if (spawnError) {
      return settle({
        outcome: 'failed',
        code: 'agent_unavailable',
        error: `the agent could not start: ${spawnError.message}`,
      });
    }
    if (code === 0) return settle({ outcome: 'done', exitCode: 0 });
    const tail = stderrTail.toString('utf8').trim().split('\n').slice(-5).join('\n');
    settle({
      outcome: 'failed',
      code: 'agent_failed',
      exitCode: code,
      error: `the agent exited with ${code === null ? `signal ${signal}` : `code ${code}`}${tail ? `: ${tail}` : ''}`,
    });
  });

  return {
    stop: () => end({ outcome: 'stopped' }),
    ended,
  };
}
