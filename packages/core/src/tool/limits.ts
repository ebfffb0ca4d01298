/**
 * The search tool's pinned numbers, each with the reason it has the value it has. Every one of them is
 * said in the tool's text when it hides something (DESIGN decision 2).
 */

/** Files per page of a multi-file result; `skip` moves by files. The reference's page size. */
export const PAGE_FILES = 20;

/** Matching lines shown per file when several files can match: keeps one hot file from filling the page. */
export const MULTI_FILE_MATCHES = 20;

/** Matching lines shown for a single-file search: the caller asked about that one file. */
export const SINGLE_FILE_MATCHES = 200;

/** Longest line shown, in UTF-8 bytes (after trailing whitespace is dropped); longer lines end in `...`. */
export const MAX_LINE_BYTES = 512;

/** What a cut line keeps before its `...` marker, so the shown line stays within MAX_LINE_BYTES. */
export const CUT_LINE_KEEP_BYTES = MAX_LINE_BYTES - 3;

/**
 * Bytes the engine may hand back per line: enough for MAX_LINE_BYTES of content plus a line terminator and
 * trailing whitespace, which are dropped before the length is judged.
 */
export const ENGINE_LINE_BYTES = MAX_LINE_BYTES + 256;

/** The whole text, in UTF-8 bytes: what one tool call may cost a model's context (the reference's 50 KiB). */
export const MAX_OUTPUT_BYTES = 50 * 1024;

/** Context lines around each match unless the host says otherwise (the reference's session defaults). */
export const DEFAULT_CONTEXT_BEFORE = 1;
export const DEFAULT_CONTEXT_AFTER = 3;

/**
 * Most context lines a caller may ask for on each side of a match: each costs up to MAX_LINE_BYTES per match,
 * so 10 around 20 matches in 20 files is already far past the byte cap; more is never useful to a model.
 */
export const MAX_CONTEXT_LINES = 10;

/** Highest per-file match cap a caller may ask for: the single-file cap (the byte cap bounds the text anyway). */
export const MAX_PER_FILE_MATCHES = SINGLE_FILE_MATCHES;

/**
 * Files per page when only names (`output: "files"`) or counts (`"count"`) are shown: a line each, so a page
 * of 100 costs a few KiB where 20 files of lines cost up to the byte cap.
 */
export const LIST_PAGE_FILES = 100;

/** The most files a page may be asked for (`limit`): a names page's size, and 100 files of lines fit 50 KiB only thin. */
export const MAX_PAGE_FILES = LIST_PAGE_FILES;

/** `type` entries one call may name (rg's table has ~150 types; nobody needs more than a few). */
export const MAX_TYPES = 32;

/** Exclusion globs one call may pass in `exclude` (each is matched against every walked path). */
export const MAX_EXCLUDE_GLOBS = 64;

/** A search stops here and says so; hosts may pass their own. An agent waits on every call. */
export const DEFAULT_DEADLINE_MS = 30_000;

/** Files larger than this are not searched (and the text says so): a whole-file read per match is the model. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** Hashline tags hash whole files; larger files are shown without a tag (as the reference's snapshot limit). */
export const TAG_MAX_FILE_BYTES = 4 * 1024 * 1024;

/**
 * A shown file up to this size is hashed for its tag on the calling thread (from the page cache: ~20 µs), larger
 * ones through the thread pool. Bounds what one page can block the thread for: 20 files, ~1 MB, well under 1 ms.
 */
export const TAG_SYNC_READ_BYTES = 64 * 1024;

/** Files whose tags are remembered (a few pages' worth): paging and repeated searches skip re-hashing. */
export const TAG_CACHE_ENTRIES = 256;

/** A file is remembered only when unchanged for this long before it was hashed (coarse file times). */
export const TAG_CACHE_STABLE_MS = 2_000;

/** Largest `skip` accepted: far beyond any real result, small enough to stay an exact integer everywhere. */
export const MAX_SKIP = 1_000_000;

/** Archive members are read into memory; larger members are refused rather than buffered. */
export const ARCHIVE_MAX_MEMBER_BYTES = 16 * 1024 * 1024;

/** Entries examined to find one member: a hostile archive cannot make us list forever. */
export const ARCHIVE_MAX_ENTRIES = 200_000;

/** Decompressed bytes streamed through a tar(.gz) while looking for one member. */
export const ARCHIVE_MAX_SCAN_BYTES = 1024 * 1024 * 1024;

/** Virtual resources (docs://, host content) larger than this are refused, as files are. */
export const VIRTUAL_MAX_BYTES = MAX_FILE_BYTES;

/** Names listed in one note before "and N more": notes must stay small enough to survive the byte cap. */
export const NOTE_MAX_NAMES = 10;

/**
 * Entries a "does this glob match any file?" walk may visit (asked only when a search found nothing): a
 * sync walk, so it is kept small enough not to stall the caller for long; past it the answer is "maybe".
 */
export const GLOB_CHECK_MAX_ENTRIES = 100_000;

/**
 * Directories the survey of what the rules left out may list (tree-view.ts): the walk of a tree is repeated for the
 * survey, so it is bounded; past it the answer says the list of directories not searched may be incomplete.
 */
export const TREE_SURVEY_MAX_DIRS = 10_000;

/**
 * Entries counted inside directories not entered, all of them together: node_modules can hold 100 000 files, and a
 * count only has to say how much was not searched. Past it a count is a floor ("at least").
 */
export const TREE_SURVEY_MAX_COUNTED = 50_000;
