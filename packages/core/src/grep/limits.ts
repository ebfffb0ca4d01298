import { DASHBOARD_SKIP_DIRS } from '../walk/skip-dirs.js';
/**
 * Content grep's pinned numbers (the /api/file-grep contract), each with its reason.
 * Surfaces pass these through; tests shrink them through `GrepLimits`.
 */

/** One wall-clock budget shared by the text pass and the document pass: one keystroke's worth of waiting. */
export const GREP_TIME_BUDGET_MS = 2_000;
/**
 * The passes stop this much before the budget ends (at most a tenth of it): what they found must still be redacted,
 * serialised and sent — on a loaded machine that is not instant — and the budget is when the answer is due.
 */
export const GREP_ANSWER_RESERVE_MS = 200;
/** Rows per answer (one per file): a side panel shows a screenful, and the cap bounds the work behind it. */
export const GREP_MAX_RESULTS = 200;
/**
 * Once the rows are full, the engine goes on counting matching files (no line read) this much longer, so a capped
 * answer says how many files match in all (or at least how many, if the count is cut): a broad query on a large
 * tree is still answered in a fraction of the budget.
 */
export const GREP_COUNT_PAST_CAP_MS = 250;
/**
 * Matching lines per file an answer may carry (`perFile`, /api/file-grep `per_file`): a side panel shows a file's
 * first few under its name, and 200 files × 20 lines × 400 characters keeps the answer a few MiB at worst.
 */
export const GREP_MAX_LINES_PER_FILE = 20;
/**
 * Characters of file globs per count run (grep/file-counts.ts): rg takes them on its argv, which Linux caps at
 * 2 MiB in all and 128 KiB an argument; 1 000 files of long paths stay far inside in runs of this size.
 */
export const GREP_COUNT_GLOB_CHARS = 64 * 1024;
/** Text files larger than this are not searched (rg `--max-filesize`): generated blobs, not files people grep for. */
export const GREP_MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Characters of a preview (after redaction). */
export const GREP_PREVIEW_CHARS = 400;
/** Characters of a label (after redaction). */
export const GREP_LABEL_CHARS = 120;
/** Queries shorter than this (after trimming) are not searches: one character matches nearly every file. */
export const GREP_MIN_QUERY_CHARS = 2;
/** Queries longer than this (after trimming) are not searches: no one types one, and the matcher's work grows with it. */
export const GREP_MAX_QUERY_CHARS = 200;
/** Directories entered per pass: the terminator for deep, narrow trees (each pass has its own count). */
export const GREP_MAX_DIRS_VISITED = 20_000;
/** Documents larger than this are not opened (counted in `skipped_docs`): the whole file is held in memory. */
export const GREP_DOC_MAX_BYTES = 25 * 1024 * 1024;
/**
 * Bytes of a matching line the engine hands over. Redaction must see a secret whole before the preview is cut to
 * 400 characters (≤ 1 600 bytes), and a minified line can be 2 MiB: 8 KiB covers the first with room to spare.
 */
export const GREP_LINE_READ_BYTES = 8 * 1024;

/**
 * The grep numbers a caller quotes or validates against (a tool's schema, an endpoint's budget), as one object: the
 * query's length bounds, rows per answer and the shared time budget.
 */
export const GREP_LIMITS = Object.freeze({
  minQueryChars: GREP_MIN_QUERY_CHARS,
  maxQueryChars: GREP_MAX_QUERY_CHARS,
  maxResults: GREP_MAX_RESULTS,
  maxLinesPerFile: GREP_MAX_LINES_PER_FILE,
  timeBudgetMs: GREP_TIME_BUDGET_MS,
} as const);

/**
 * Directories never entered: the dashboard's list (walk/skip-dirs.ts), where a content hit is noise.
 */
export const GREP_SKIP_DIRS: ReadonlySet<string> = DASHBOARD_SKIP_DIRS;
