import { PARTIAL_ANSWER_MS } from '../../limits.js';
import type { CompiledPattern } from '../../match/index.js';
import type { FileResult, SearcherConfig } from '../../search/searcher.js';
import { toMatcherSpec } from './protocol.js';
import { leaseSearchWorker } from './worker-pool.js';

/**
 * Runs the engine's searcher on bytes the caller holds (archive members, virtual resources) in a warm
 * search worker, which is terminated when the deadline passes or the signal aborts (a JavaScript RegExp
 * cannot be interrupted any other way). Resolves to null when the search was stopped.
 */
export function searchContent(
  content: Buffer,
  compiled: CompiledPattern,
  config: SearcherConfig,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<FileResult | null> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (r: FileResult | null, err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (r !== null) lease.release();
      else lease.discard();
      if (err) reject(err);
      else resolve(r);
    };
    const lease = leaseSearchWorker({
      onMessage: (msg) => {
        if (msg.type === 'content') finish(msg.result);
      },
      onError: (err) => finish(null, err),
    });
    const onAbort = () => finish(null);
    const timer = setTimeout(() => finish(null), Math.max(0, deadline - Date.now()));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) return finish(null);
    const { binary, ...rest } = config;
    lease.post({
      type: 'setup',
      setup: {
        matcher: toMatcherSpec(compiled),
        config: rest,
        maxFilesize: content.length,
        partialAnswerMs: PARTIAL_ANSWER_MS,
      },
    });
    const copy = new Uint8Array(content);
    lease.post({ type: 'content', batch: 0, content: copy, binary }, [copy.buffer]);
  });
}
