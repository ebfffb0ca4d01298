/**
 * The document layer's pinned numbers, each with its reason. Callers may pass stricter
 * values; nothing here is a silent cap: a document cut by one is reported as not read whole.
 */

/** Extracted characters per document: the search sees this much text at most (the reference's cap). */
export const DOC_MAX_CHARS = 400_000;

/** Members of an Office zip, at most: a real deck or workbook has tens to hundreds (the reference's sheet cap). */
export const DOC_ZIP_MAX_MEMBERS = 4_096;
/** Sum of the members' declared uncompressed sizes, at most: refused before anything is inflated. */
export const DOC_ZIP_MAX_TOTAL_BYTES = 200 * 1024 * 1024;
/** One member's declared uncompressed size, at most (yauzl also refuses a member that inflates past its declared size). */
export const DOC_ZIP_MAX_MEMBER_BYTES = 50 * 1024 * 1024;
/**
 * Uncompressed : compressed ratio above which a member counts as a decompression bomb. Deflate tops out near
 * 1 032 : 1; real Office XML compresses 5–30 : 1 and a sheet of empty rows about 150 : 1.
 */
export const DOC_ZIP_MAX_RATIO = 400;
/** …applied only to members larger than this when inflated (tiny members have meaningless ratios). */
export const DOC_ZIP_RATIO_MIN_BYTES = 1024 * 1024;

/** Worksheet rows between deadline checks: a sheet of empty rows produces no text, so the text cap never bites. */
export const DOC_ROW_DEADLINE_STRIDE = 512;
/**
 * Characters kept from a workbook's shared-string table: cells point into it, so it is read before the sheets;
 * beyond this the table is cut (the parse is then not whole) so a hostile table cannot fill memory.
 */
export const DOC_SHARED_STRINGS_MAX_CHARS = 4 * 1024 * 1024;

/** PDF: pages read at most (the reference's cap). */
export const PDF_MAX_PAGES = 2_000;
/** PDF: V8 heap ceiling of the extractor child (MiB). */
export const PDF_CHILD_HEAP_MB = 256;
/**
 * PDF: resident-set ceiling of the extractor child (MiB), watched from outside: decoded images and typed arrays
 * live outside the V8 heap, so the heap flag alone does not bound the process.
 */
export const PDF_CHILD_MAX_RSS_MB = 512;
/**
 * PDF: the extractor child's own wall-time limit is the document's plus this (ms): the parent's timer normally ends
 * an overrun first and names it; the child's holds when the parent's thread is too busy to run its timer.
 */
export const PDF_CHILD_SELF_GRACE_MS = 250;
/**
 * PDF: the kernel's limit on the extractor child's data (RLIMIT_DATA: its writable private memory, what typed
 * arrays and the heap are made of), as headroom over its heap and RSS ceilings (MiB). A child at rest uses about
 * 145 MiB of it. Set through util-linux `prlimit` where it is installed; a backstop under both watchdogs.
 */
export const PDF_CHILD_DATA_HEADROOM_MB = 256;
/** PDF: how often the watchdogs (the parent's and the child's own) read the child's resident set (ms). */
export const PDF_RSS_POLL_MS = 25;
/**
 * PDF: wall time of one extraction at most (ms), from when a child takes the document, inside whatever deadline
 * the caller has. Waiting for a child to start is bounded by that deadline, not by this: a warm child costs nothing.
 */
export const PDF_CHILD_MAX_MS = 1_500;
/**
 * PDF: extractor children per pool. Each thread that greps has its own pool (a server's transfer workers, the CLI's
 * main thread) and runs one grep — one document — at a time, so one warm child serves it; a successor is started as
 * soon as one leaves.
 */
export const PDF_POOL_SIZE = 1;
/** PDF: documents one child serves before it is replaced (pdf.js's caches and a fragmented heap go with it). */
export const PDF_POOL_DOCS_PER_CHILD = 64;
/**
 * PDF: a child idle this long is ended (ms): long enough to stay warm across a user's keystrokes and searches,
 * short enough that an idle server holds no extractor.
 */
export const PDF_POOL_IDLE_MS = 30_000;
/** PDF: a child not ready this long after it was started is ended (ms): loading pdf.js, even on a loaded machine. */
export const PDF_CHILD_START_MS = 60_000;
/** PDF: a child whose resident set is above this (MiB) after a document is replaced rather than kept warm. */
export const PDF_POOL_RECYCLE_RSS_MB = 256;

/**
 * Document text store: bytes of extracted text (and its grams) held in memory per store at most. A document is at
 * most DOC_MAX_CHARS characters (≤ 800 KB as UTF-16): this holds a few hundred of the largest, thousands of typical.
 */
export const DOC_STORE_MAX_BYTES = 256 * 1024 * 1024;
/** Document text store: delay between a change and its write to disk (ms), so a burst of extractions is one write. */
export const DOC_STORE_FLUSH_MS = 1_000;
/**
 * Document text store: a file modified less than this before it was read is used but not kept (ms): a rewrite in the
 * same timestamp tick with the same size would otherwise pass for the version read (coarse file times: 2 s on FAT).
 */
export const DOC_STORE_RACY_MS = 2_000;
/** Document text store: bytes encoded, hashed or decoded between yields to the event loop when it is read or written. */
export const DOC_STORE_YIELD_BYTES = 1024 * 1024;
