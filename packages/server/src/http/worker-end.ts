import type { Worker } from 'node:worker_threads';
import { POOL_END_GRACE_MS } from './limits.js';

/**
 * Ends a worker thread as every runner of the server ends its own (the pools' workers, the grep host): it is sent
 * `message`, asking it to release what it holds and exit — its PDF extractor children are killed and reaped by its
 * own loop, or they would stay zombies until this process exits — and is terminated if it has not exited within
 * `graceMs`. Resolves once it is gone.
 */
export async function endWorker(
  worker: Worker,
  message: unknown,
  graceMs = POOL_END_GRACE_MS,
): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage(message);
  let grace: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    grace = setTimeout(() => resolve('late'), graceMs);
  });
  if ((await Promise.race([exited, late])) === 'late') await worker.terminate().catch(() => {});
  clearTimeout(grace);
}
