import * as v8 from 'node:v8';
import { registerRg } from './commands/rg.js';
import { processIO } from './io.js';
import { RG_HEAP_GROWING_PERCENT, RG_SEMI_SPACE_GROWTH_FACTOR } from './limits.js';
import { runCommands } from './program.js';

/**
 * `trawl rg` as the process's command (bin/trawl.js): V8's heap kept near what is live (see limits.ts), and
 * only `rg`'s own modules loaded, not every other command's. Not for `main` in-process callers (tests, a host
 * embedding the CLI): the heap flags are the whole process's.
 */
export function rgProcess(argv: string[]): Promise<number> {
  holdHeapNearLive();
  return runCommands(argv, processIO(), [registerRg]);
}

/**
 * V8's heap flags of limits.ts for this process, kept through worker threads: a worker's start sets V8's flags back
 * to the process's defaults (measured: with the js engine's search workers running, the main thread's young
 * generation grew to 2 × 16 MiB again), so they are set again once each worker runs.
 */
export function holdHeapNearLive(): void {
  setHeapFlags();
  process.on('worker', (worker) => worker.once('online', setHeapFlags));
}

function setHeapFlags(): void {
  v8.setFlagsFromString(`--semi-space-growth-factor=${RG_SEMI_SPACE_GROWTH_FACTOR}`);
  v8.setFlagsFromString(`--heap-growing-percent=${RG_HEAP_GROWING_PERCENT}`);
}
