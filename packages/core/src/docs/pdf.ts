import {
  DOC_MAX_CHARS,
  PDF_CHILD_HEAP_MB,
  PDF_CHILD_MAX_MS,
  PDF_CHILD_MAX_RSS_MB,
  PDF_CHILD_START_MS,
  PDF_MAX_PAGES,
} from './limits.js';
import { type PdfPool, sharedPdfPool } from './pdf-pool.js';
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
 * The child is a warm one from a pool (`pdf-pool.ts`); the bytes go over its stdin. Pages are segments labelled
 * `p N`. A child stopped by a ceiling, or that dies, is `skipped` (the document was not searched); a file the parser
 * rejects is `refused` (a settled answer).
 */
export async function extractPdf(
  bytes: Buffer,
  sink: SegmentSink,
  options: ExtractOptions = {},
): Promise<ExtractResult> {
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
    return { whole: true, stopped: false, refused: 'not a PDF' };
  const limits = { ...DEFAULT_PDF_LIMITS, ...options.pdf };
  const now = options.now ?? Date.now;
  // Waiting for a child to start may use the caller's whole remaining deadline (a start is seconds on a loaded
  // machine); the document's own 1.5 s counts from when a child takes it.
  const waitMs = options.deadline !== undefined ? options.deadline - now() : PDF_CHILD_START_MS;
  if (waitMs <= 0) return { whole: false, stopped: false, skipped: 'timeout' };
  const pool: PdfPool = options.pdfPool ?? sharedPdfPool();
  return pool.extract({
    bytes,
    sink,
    heapMb: limits.heapMb,
    maxRssMb: limits.maxRssMb,
    maxPages: limits.maxPages,
    maxChars: options.maxChars ?? DOC_MAX_CHARS,
    wallMs: limits.maxMs,
    waitMs,
  });
}
