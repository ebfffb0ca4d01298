/**
 * Path completion's pinned numbers, each with its reason. Kept beside the layer, so
 * `@trawl/core/complete` imported alone pulls in nothing of the others.
 */

/** Rows returned, after sorting: a picker shows a screenful, and the user narrows by typing. */
export const PATH_COMPLETE_MAX_ENTRIES = 50;

/**
 * Directory entries examined, in readdir order, before filtering (every entry counts, also the ones a filter drops):
 * this is what keeps a `node_modules`-sized directory cheap.
 */
export const PATH_COMPLETE_MAX_SCAN = 5_000;

/** A `dir` longer than this names nothing openable (PATH_MAX is 4096 on Linux): answered as an empty listing. */
export const PATH_COMPLETE_MAX_DIR_CHARS = 4_096;

/** A `q` longer than this matches no entry name (NAME_MAX is 255 bytes): answered as an empty listing. */
export const PATH_COMPLETE_MAX_Q_CHARS = 1_024;

/**
 * The completion numbers a caller quotes or validates against, as one object: rows returned, entries examined, and
 * the longest `dir` and `q` that can name anything.
 */
export const PATH_COMPLETE_LIMITS = Object.freeze({
  maxEntries: PATH_COMPLETE_MAX_ENTRIES,
  maxScan: PATH_COMPLETE_MAX_SCAN,
  maxDirChars: PATH_COMPLETE_MAX_DIR_CHARS,
  maxQueryChars: PATH_COMPLETE_MAX_Q_CHARS,
} as const);

/** Rows of one tree level (the Files rail): a folder this wide is browsed by searching, not by scrolling. */
export const TREE_MAX_ENTRIES = 2_000;
/** Entries examined for one tree level before it answers `truncated` (bounded work on a huge directory). */
export const TREE_MAX_SCAN = 20_000;
/** Bytes of a file returned to the viewer; beyond, `truncated` (a viewer is not a transfer channel). */
export const FILE_VIEW_MAX_BYTES = 1024 * 1024;
/**
 * Bytes a line window (`line`) reads at most to find where its line starts: a viewer asking for line 3 000 000 of a
 * 10 GiB log costs this much, not the file.
 */
export const FILE_WINDOW_SCAN_MAX_BYTES = 256 * 1024 * 1024;
