import { parentPort } from 'node:worker_threads';
import { type LineMatcher, Prefilter, type SearcherConfig, searchBuffer } from '../search/searcher.js';

/**
 * Searches in-memory content (archive members, virtual resources) with the engine's searcher, off the
 * caller's thread: a pattern that backtracks for ever can then be stopped by terminating the worker.
 */
export interface MemoryTask {
  /** The compiled pattern's fields; RegExps travel as {source, flags}. */
  matcher: Record<string, unknown>;
  config: SearcherConfig;
  content: Uint8Array;
}

function rebuild(spec: Record<string, unknown>): LineMatcher {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) {
    const v = value as { __regex?: { source: string; flags: string } } | null;
    out[key] =
      v && typeof v === 'object' && v.__regex ? new RegExp(v.__regex.source, v.__regex.flags) : value;
  }
  return out as unknown as LineMatcher;
}

parentPort?.on('message', (task: MemoryTask) => {
  const matcher = rebuild(task.matcher);
  const buf = Buffer.from(task.content.buffer, task.content.byteOffset, task.content.byteLength);
  const result = searchBuffer(buf, buf.length, matcher, new Prefilter(matcher.required), task.config);
  parentPort!.postMessage(result);
});
