import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CompiledPattern } from '../match/index.js';
import type { FileResult, SearcherConfig } from '../search/searcher.js';
import type { MemoryTask } from './memory-worker.js';

/**
 * Runs the engine's searcher on content held in memory, in a worker thread that is terminated when the
 * deadline passes or the signal aborts (a JavaScript RegExp cannot be interrupted any other way).
 * Resolves to null when the search was stopped.
 */
export function searchContent(
  content: Buffer,
  compiled: CompiledPattern,
  config: SearcherConfig,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<FileResult | null> {
  return new Promise((resolve, reject) => {
    // `--input-type` (from `node -e`) is refused in workers; nothing else the parent was started with matters here.
    const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
    const worker = new Worker(workerScriptUrl(), { execArgv });
    let done = false;
    const finish = (r: FileResult | null, err?: unknown) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (err) reject(err);
      else resolve(r);
    };
    const onAbort = () => finish(null);
    const timer = setTimeout(() => finish(null), Math.max(0, deadline - Date.now()));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (r: FileResult) => finish(r));
    worker.on('error', (err) => finish(null, err));
    worker.on('exit', () => finish(null));
    const copy = new Uint8Array(content);
    const task: MemoryTask = { matcher: toTransferable(compiled), config, content: copy };
    worker.postMessage(task, [copy.buffer]);
  });
}

function toTransferable(compiled: CompiledPattern): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(compiled)) {
    out[key] = value instanceof RegExp ? { __regex: { source: value.source, flags: value.flags } } : value;
  }
  return out;
}

/** The compiled worker script; under a TS-source test runner this module is `src/…/*.ts`, so use `dist`. */
function workerScriptUrl(): URL {
  const here = new URL('./memory-worker.js', import.meta.url);
  if (import.meta.url.endsWith('.ts')) {
    const built = fileURLToPath(here).replace(
      /\/src\/tool\/memory-worker\.js$/,
      '/dist/tool/memory-worker.js',
    );
    if (existsSync(built)) return pathToFileURL(built);
  }
  return here;
}
