import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** What a HeapBudget reads and does (the heap's own by default; a test gives its own). */
export interface HeapProbe {
  /** Bytes the heap holds now, live or not yet collected. */
  used(): number;
  /** A full collection, synchronous. */
  collect(): void;
}

/**
 * A thread's heap kept within a slack of what it holds live. V8 collects the old generation only once it nears a
 * limit derived from the heap's maximum, far above what a search worker keeps live: its lines are promoted (they
 * live until their batch part is posted) and die there, and each worker's heap grew to ~75 MB of them on a search
 * with a lot of output. A cap on the old generation would end a worker reading one large file; this collects
 * instead, once the heap has grown `slackBytes` past what the last collection left.
 */
export class HeapBudget {
  private ceiling: number;

  constructor(
    private readonly slackBytes: number,
    private readonly probe: HeapProbe = v8Probe(),
  ) {
    this.ceiling = probe.used() + slackBytes;
  }

  /** Called at a pause in the thread's work (after posting an answer): collects if the heap has outgrown its slack. */
  check(): void {
    if (this.probe.used() < this.ceiling) return;
    this.probe.collect();
    this.ceiling = this.probe.used() + this.slackBytes;
  }
}

/**
 * This thread's V8 heap. Node lets no worker take `--expose-gc` (a per-process flag); set at run time it gives new
 * contexts a `gc` function, which collects the whole isolate's heap.
 */
function v8Probe(): HeapProbe {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return { used: () => getHeapStatistics().used_heap_size, collect: () => gc() };
}
