/**
 * Name search's pinned numbers, each with its reason. Kept beside the layer, so
 * `@trawl/core/names` imported alone pulls in nothing of the others.
 */

/** Queries shorter than this (after trimming) return nothing: one character matches most of a tree. */
export const NAME_MIN_QUERY_CHARS = 2;
/** Default result page (the picker's first tier). */
export const NAME_DEFAULT_LIMIT = 15;
/** Server ceiling on the page: candidate collection scales with it (DoS amplification), so it is load-bearing. */
export const NAME_LIMIT_CEILING = 60;
/**
 * The name-search numbers a caller quotes or validates against (a tool's schema, a command's `--help`), as one
 * object: the shortest query searched, the default page and the largest page served.
 */
export const NAME_LIMITS = Object.freeze({
  minQueryChars: NAME_MIN_QUERY_CHARS,
  defaultLimit: NAME_DEFAULT_LIMIT,
  maxLimit: NAME_LIMIT_CEILING,
} as const);
/** Floor of the page. */
export const NAME_LIMIT_FLOOR = 1;
/** Walk fallback: candidates kept per kind = limit × this. */
export const NAME_WALK_CANDIDATES_PER_RESULT = 10;
/** Walk fallback: entries scored per kind when the root was named by the caller (scoped). */
export const NAME_WALK_MAX_SCAN_SCOPED = 50_000;
/** Walk fallback: entries scored per kind for implicit fallback roots. */
export const NAME_WALK_MAX_SCAN_UNSCOPED = 5_000;
/** Walk fallback: directories entered, across all roots — the terminator for deep narrow trees. */
export const NAME_WALK_MAX_DIRS_VISITED = 20_000;
/** Walk fallback: wall-clock budget (the client gives up at 15 s). */
export const NAME_WALK_TIME_BUDGET_MS = 10_000;
/** Walk fallback: entries between clock reads inside one directory. */
export const NAME_WALK_DEADLINE_STRIDE = 512;
/** FileIndex: files + directories; at the cap the index is truncated and never used (callers walk instead). */
export const FILE_INDEX_MAX_ENTRIES = 100_000;
/** FileIndex: full rebuild period while directory watchers keep it fresh (a correction for anything missed). */
export const FILE_INDEX_FULL_REBUILD_MS = 300_000;
/** FileIndex: full rebuild period when watching is off or unavailable (the reference's refresh period). */
export const FILE_INDEX_UNWATCHED_REBUILD_MS = 30_000;
/** FileIndex: directories watched per index (inotify watches are a per-user budget shared with every other tool). */
export const FILE_INDEX_MAX_WATCHED_DIRS = 8_192;
/** FileIndex: directories that could not be watched have their mtime checked this often. */
export const FILE_INDEX_POLL_MS = 1_000;
/** FileIndex: a burst of change events is applied after this quiet delay. */
export const FILE_INDEX_SETTLE_MS = 40;
/** FileIndex: the build yields to the event loop after this much synchronous work. */
export const FILE_INDEX_YIELD_MS = 8;
/** FileIndex: extra candidates ranked past the page, so vanished files and recency ties can be settled. */
export const FILE_INDEX_RANK_SLACK = 5;
/** Symlinked entries resolved through the fence concurrently. */
export const NAME_LINK_RESOLVE_CONCURRENCY = 16;
