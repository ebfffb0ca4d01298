/**
 * The document layer: text out of .docx, .pptx, .xlsx and .pdf (`extractDocument`), from bytes already in memory,
 * bounded by a deadline, a character cap and a zip inventory vet that runs before anything is inflated; PDF in a
 * child process with a heap ceiling, an RSS watchdog, a wall-time limit and a page cap.
 *
 * - `zip.ts`     — opens a container from memory and vets it (members, declared sizes, ratios); streams a member.
 * - `xml.ts`     — streams an XML member through htmlparser2 (XML mode), element names without prefixes.
 * - `docx.ts`, `pptx.ts`, `xlsx.ts` — one format each, segments in document order.
 * - `pdf.ts`, `pdf-pool.ts`, `pdf-child.ts` — PDF through pdf.js in a pool of warm, bounded child processes,
 *   pages labelled `p N`; `pdf-watchdog.ts` — the child's own watchdog thread.
 * - `types.ts`   — segments, the sink, the shared text budget.
 * - `store.ts`   — extracted text by file version (dev, ino, size, mtime), in memory and persisted: a document is
 *   extracted once per version (content-index/documents.ts gives each root its one store).
 *
 * ```ts
 * const kind = documentKindOf('Plan.DOCX'); // 'docx'
 * await extractDocument(kind, bytes, (s) => s.text.includes('needle'), { deadline: Date.now() + 2000 });
 * ```
 */
export {
  DOCUMENT_EXTENSIONS,
  type DocumentKind,
  documentKindOf,
  extractDocument,
} from './extract.js';
export * from './limits.js';
export { DEFAULT_PDF_LIMITS, type PdfChildLimits } from './pdf.js';
export {
  closeSharedPdfPool,
  PdfPool,
  type PdfPoolOptions,
  type PdfPoolStats,
  sharedPdfPool,
} from './pdf-pool.js';
export {
  type DocumentIdentity,
  DocumentTextStore,
  type DocumentTextStoreOptions,
  type DocumentTextStoreStats,
  documentIdentity,
  type StoredDocument,
} from './store.js';
export type { DocSegment, ExtractOptions, ExtractResult, SegmentSink } from './types.js';
export { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip.js';
