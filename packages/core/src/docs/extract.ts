import { extractDocx, type PartEnd } from './docx.js';
import { DOC_MAX_CHARS, DOC_ROW_DEADLINE_STRIDE } from './limits.js';
import { extractPdf } from './pdf.js';
import { extractPptx } from './pptx.js';
import { type ExtractOptions, type ExtractResult, type SegmentSink, TextBudget } from './types.js';
import { extractXlsx } from './xlsx.js';
import { DEFAULT_ZIP_LIMITS, openOfficeZip, ZipRefused } from './zip.js';

/** The document formats content search reads, by extension (`documentKindOf`). */
export type DocumentKind = 'docx' | 'pptx' | 'xlsx' | 'pdf';

const KINDS: Record<string, DocumentKind> = {
  '.docx': 'docx',
  '.pdf': 'pdf',
  '.pptx': 'pptx',
  '.xlsx': 'xlsx',
};

/** Document extensions this layer claims, lower-case, with the dot. */
export const DOCUMENT_EXTENSIONS: readonly string[] = Object.keys(KINDS).sort();

/** The document kind a file name claims, by its extension compared case-insensitively (`REPORT.DOCX` is a docx). */
export function documentKindOf(name: string): DocumentKind | null {
  const dot = name.lastIndexOf('.');
  if (dot <= name.lastIndexOf('/')) return null;
  return KINDS[name.slice(dot).toLowerCase()] ?? null;
}

/**
 * Extracts a document's text from bytes already in memory (the file is never re-opened by path), delivering
 * segments in document order until the sink stops it, the deadline passes or the character cap is reached.
 * Never throws for a bad document: a file that is not a zip is `refused`, one a zip cap refuses is `skipped`.
 */
export async function extractDocument(
  kind: DocumentKind,
  bytes: Buffer,
  sink: SegmentSink,
  options: ExtractOptions = {},
): Promise<ExtractResult> {
  if (kind === 'pdf') return extractPdf(bytes, sink, options);
  const now = options.now ?? Date.now;
  const budget = new TextBudget(options.maxChars ?? DOC_MAX_CHARS, options.deadline, now);
  if (budget.expired()) return { whole: false, stopped: false };
  let office: Awaited<ReturnType<typeof openOfficeZip>>;
  try {
    office = await openOfficeZip(bytes, { ...DEFAULT_ZIP_LIMITS, ...options.zip });
  } catch (err) {
    if (err instanceof ZipRefused)
      return err.kind === 'unreadable'
        ? { whole: true, stopped: false, refused: err.reason }
        : { whole: false, stopped: false, skipped: err.reason };
    throw err;
  }
  try {
    let end: PartEnd;
    if (kind === 'docx') end = await extractDocx(office, sink, budget);
    else if (kind === 'pptx') end = await extractPptx(office, sink, budget);
    else end = await extractXlsx(office, sink, budget, options.rowStride ?? DOC_ROW_DEADLINE_STRIDE);
    return end;
  } finally {
    office.close();
  }
}
