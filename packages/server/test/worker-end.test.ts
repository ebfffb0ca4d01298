import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { endWorker } from '../src/http/worker-end.js';

/** A worker that answers `{ end: true }` by exiting with code 7 once it has "released" what it holds. */
const POLITE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => { if (m.end) process.exit(7); });
`;
/** A worker stuck for ever: it never reads its messages. */
const STUCK = `
const { parentPort } = require('node:worker_threads');
parentPort.postMessage('stuck');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
`;

const started = async (code: string) => {
  const w = new Worker(code, { eval: true });
  const codes: number[] = [];
  w.on('exit', (c) => codes.push(c));
  await new Promise((resolve) => w.once(code === STUCK ? 'message' : 'online', resolve));
  return { w, codes };
};

describe('endWorker (how every runner of the server ends a worker thread)', () => {
  it('lets a worker that heeds the end message exit by itself', async () => {
    const { w, codes } = await started(POLITE);
    await endWorker(w, { end: true }, 600_000);
    expect(codes).toEqual([7]);
  });

  it('terminates a worker that has not exited within the grace', async () => {
    const { w, codes } = await started(STUCK);
    await endWorker(w, { end: true }, 0);
    // Terminated: exit code 1, not one of its own.
    expect(codes).toEqual([1]);
  });
});
