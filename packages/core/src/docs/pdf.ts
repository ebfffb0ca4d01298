import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  DOC_MAX_CHARS,
  PDF_CHILD_HEAP_MB,
  PDF_CHILD_MAX_MS,
  PDF_CHILD_MAX_RSS_MB,
  PDF_MAX_PAGES,
  PDF_RSS_POLL_MS,
} from './limits.js';
import type { ExtractOptions, ExtractResult, SegmentSink } from './types.js';

/** The bounds one PDF extraction runs under. */
export interface PdfChildLimits {
  heapMb: number;
  maxRssMb: number;
  maxMs: number;
  maxPages: number;
}

export const DEFAULT_PDF_LIMITS: PdfChildLimits = {
  heapMb: PDF_CHILD_HEAP_MB,
  maxRssMb: PDF_CHILD_MAX_RSS_MB,
  maxMs: PDF_CHILD_MAX_MS,
  maxPages: PDF_MAX_PAGES,
};

/**
 * PDF text, extracted in a child process this one can bound (pdf.js decodes streams into memory before any text
 * exists: a 25 MB file can inflate to gigabytes, so no check in this process could come before the allocation):
 * a V8 heap ceiling (`--max-old-space-size`), a watchdog on the child's resident set (decoded streams are typed
 * arrays, outside the heap), a wall-time limit inside the caller's deadline, a page cap and the character cap.
 * The child gets no environment and no argument but its limits; the bytes go over stdin. Pages are segments
 * labelled `p N`. A child stopped by a ceiling, or that dies, is `skipped` (the document was not searched); a
 * file the parser rejects is `refused` (a settled answer).
 */
export async function extractPdf(
  bytes: Buffer,
  sink: SegmentSink,
  options: ExtractOptions & { pdf?: Partial<PdfChildLimits> } = {},
): Promise<ExtractResult> {
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
    return { whole: true, stopped: false, refused: 'not a PDF' };
  const limits = { ...DEFAULT_PDF_LIMITS, ...options.pdf };
  const now = options.now ?? Date.now;
  const wallMs = Math.min(
    limits.maxMs,
    options.deadline !== undefined ? options.deadline - now() : limits.maxMs,
  );
  if (wallMs <= 0) return { whole: false, stopped: false, skipped: 'timeout' };
  const maxChars = options.maxChars ?? DOC_MAX_CHARS;

  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${limits.heapMb}`, childScript(), String(limits.maxPages), String(maxChars)],
    { stdio: ['pipe', 'pipe', 'ignore'], env: {}, windowsHide: true },
  );
  let ceiling: string | undefined;
  const stop = (why: string) => {
    ceiling ??= why;
    kill(child);
  };
  const exited = new Promise<string | null>((resolve) => {
    child.on('close', (code, signal) =>
      resolve(signal ? `signal:${signal}` : code === 0 ? null : `exit:${code}`),
    );
    child.on('error', () => resolve('spawn'));
  });
  const timer = setTimeout(() => stop('timeout'), wallMs);
  const watchdog = setInterval(() => {
    const rss = residentMb(child.pid);
    if (rss !== null && rss > limits.maxRssMb) stop('memory');
  }, PDF_RSS_POLL_MS);
  child.stdin!.on('error', () => {});
  child.stdin!.end(bytes);

  let stopped = false;
  let end: 'whole' | 'cut' | undefined;
  let refused: string | undefined;
  // The child's output is bounded by the character cap; a line past that (with JSON overhead) is a broken child.
  const maxLineChars = maxChars * 6 + 1024;
  try {
    const lines = createInterface({ input: child.stdout!, crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      if (stopped || ceiling) continue;
      if (line.length > maxLineChars) {
        stop('protocol');
        continue;
      }
      let msg: { page?: number; text?: string; end?: 'whole' | 'cut'; error?: string; message?: string };
      try {
        msg = JSON.parse(line);
      } catch {
        stop('protocol');
        continue;
      }
      if (typeof msg.page === 'number' && typeof msg.text === 'string') {
        if (sink({ label: `p ${msg.page}`, text: msg.text })) {
          stopped = true;
          kill(child);
        }
      } else if (msg.end) end = msg.end;
      else if (msg.error) refused = `unreadable PDF: ${msg.message ?? msg.error}`;
    }
  } finally {
    clearTimeout(timer);
    clearInterval(watchdog);
    kill(child);
  }
  const death = await exited;
  if (stopped) return { whole: true, stopped: true };
  if (ceiling) return { whole: false, stopped: false, skipped: ceiling };
  if (refused) return { whole: true, stopped: false, refused };
  if (end === undefined) return { whole: false, stopped: false, skipped: death ?? 'protocol' };
  return { whole: end === 'whole', stopped: false };
}

function kill(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** The child's resident set in MiB (Linux `/proc/<pid>/statm`); null where it cannot be read. */
function residentMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const pages = Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return (pages * 4096) / (1024 * 1024);
  } catch {
    return null;
  }
}

/** The compiled child next to this module (under a TS-source test runner: the one in `dist`). */
function childScript(): string {
  const here = fileURLToPath(import.meta.url);
  const js = here.replace(/pdf\.(ts|js)$/, 'pdf-child.js');
  if (here.endsWith('.ts')) {
    const i = js.lastIndexOf('/src/');
    return `${js.slice(0, i)}/dist/${js.slice(i + 5)}`;
  }
  return js;
}
