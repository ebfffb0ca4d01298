// The grep host's worker entry (grep-host.ts starts it): `trawl serve`'s content indexes and the greps through
// them, off the event loop (grep-host-thread.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { GrepHostData } from './grep-host.js';
import { serveGrepHost } from './grep-host-thread.js';

if (!parentPort) throw new Error('grep-host-worker.js runs as a worker thread');
serveGrepHost(parentPort, workerData as GrepHostData);
