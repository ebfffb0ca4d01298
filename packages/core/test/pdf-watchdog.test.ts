import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The PDF child's own watchdog, on a thread its main thread cannot starve: each process here blocks its main thread
 * for good (a synchronous loop, as pdf.js parsing is), so only the watchdog thread can end it.
 */
const WATCHDOG = JSON.stringify(new URL('../dist/docs/pdf-watchdog.js', import.meta.url).href);
const procs: ChildProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
});

/** Runs `body` after starting a watchdog; resolves with how the process ended. */
function run(body: string): Promise<{ signal: NodeJS.Signals | null; code: number | null; stdout: string }> {
  const script = `const { startPdfWatchdog } = await import(${WATCHDOG});\n${body}`;
  const p = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  procs.push(p);
  let stdout = '';
  p.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  return new Promise((resolve) => p.on('close', (code, signal) => resolve({ code, signal, stdout })));
}

describe("the PDF child's own watchdog", () => {
  it('kills the process at its wall time while the main thread never yields', async () => {
    const end = await run(`
      const dog = await startPdfWatchdog(4096, 5);
      dog.begin(50);
      for (;;) {}`);
    expect(end.signal).toBe('SIGKILL');
  }, 120_000);

  it('kills the process past its memory ceiling while the main thread never yields', async () => {
    // Off-heap memory, as pdf.js's decoded streams are; the loop holds 600 MiB at most, then spins forever.
    const end = await run(`
      const dog = await startPdfWatchdog(150, 5);
      const held = [];
      for (let i = 0; i < 75; i++) held.push(Buffer.alloc(8 * 1024 * 1024, 1));
      for (;;) {}`);
    expect(end.signal).toBe('SIGKILL');
  }, 120_000);

  it('lets a document that ended keep its process (no wall time runs between documents)', async () => {
    // A document with no wall time at all: were its wall time still running after end(), the watchdog's next check
    // would be past it and kill the process; checked() resolves only after that check.
    const end = await run(`
      const dog = await startPdfWatchdog(4096, 5);
      dog.begin(0);
      dog.end();
      await dog.checked();
      process.stdout.write('alive');`);
    expect(end).toMatchObject({ code: 0, signal: null, stdout: 'alive' });
  }, 120_000);

  it('kills a document past its wall time at the check that checked() waits for', async () => {
    const end = await run(`
      const dog = await startPdfWatchdog(4096, 5);
      dog.begin(0);
      await dog.checked();
      process.stdout.write('alive');`);
    expect(end).toMatchObject({ signal: 'SIGKILL', stdout: '' });
  }, 120_000);

  it('ends the process when its parent is gone, even with the main thread blocked', async () => {
    // A middle process starts the watched one, reports its pid, and is SIGKILLed: the watched one is reparented.
    const middle = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('child_process').spawn(process.execPath, ['--input-type=module', '-e',
          ${JSON.stringify(`const { startPdfWatchdog } = await import(${WATCHDOG}); await startPdfWatchdog(4096, 5); console.log('watching'); for (;;) {}`)}],
          { stdio: ['ignore', 'inherit', 'inherit'] });
        console.log(c.pid); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    procs.push(middle);
    let out = '';
    middle.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    await vi.waitFor(() => expect(out).toMatch(/^\d+\nwatching\n/), { timeout: 60_000, interval: 20 });
    const pid = Number(out.split('\n')[0]);
    const watched = () => {
      try {
        return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    expect(watched()).toBe(true);
    middle.kill('SIGKILL');
    await vi.waitFor(() => expect(watched()).toBe(false), { timeout: 60_000, interval: 20 });
  }, 120_000);
});
