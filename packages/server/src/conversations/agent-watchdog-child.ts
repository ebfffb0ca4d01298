/**
 * The agent watchdog's process (started by agent-watchdog.ts, one per server). The server tells it, one line each
 * on stdin, which agent process groups are alive (`+PGID`) and which are gone (`-PGID`). Its stdin closes when
 * the server ends, however it ends — a crash or SIGKILL included, where the server kills nothing itself — and then
 * every group still recorded gets SIGTERM, and SIGKILL after the grace period given as the first argument.
 *
 * It runs in a session of its own (the server starts it detached), so a signal to the server's process group or
 * terminal does not take it along before it has done its work.
 */
import { createInterface } from 'node:readline';

const graceMs = Number(process.argv[2]);
const groups = new Set<number>();

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on('line', (line) => {
  const m = /^([+-])(\d{1,10})$/.exec(line);
  if (!m) return;
  const pgid = Number(m[2]);
  // 0 and 1 would name this process's own group and init's: never an agent's.
  if (pgid <= 1) return;
  if (m[1] === '+') groups.add(pgid);
  else groups.delete(pgid);
});
lines.on('close', () => {
  if (groups.size === 0) process.exit(0);
  signalAll('SIGTERM');
  setTimeout(() => {
    signalAll('SIGKILL');
    process.exit(0);
  }, graceMs);
});

function signalAll(signal: NodeJS.Signals): void {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, signal);
    } catch {
      // The group is gone already.
    }
  }
}
