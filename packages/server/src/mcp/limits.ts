/** The MCP server's pinned numbers, each with its reason. */

/**
 * The longest JSON-RPC message read from stdio, in bytes (the SDK's own limit). Tool arguments are a
 * pattern and a few paths; anything near this size is a mistake, answered with an error, not buffered.
 */
export const MCP_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * Time the "did a directory not entered hide it?" walk of an empty `find_files` answer may take: it enters
 * node_modules and ignored build output, so it is kept short.
 */
export const FIND_SKIPPED_BUDGET_MS = 2_000;

/** Names a hidden-by-skip-directories note lists. */
export const FIND_SKIPPED_SHOWN = 5;

/** Time a `find_files` glob walk may take (a whole-tree walk: the Linux tree's takes ~1 s loaded). */
export const FIND_GLOB_BUDGET_MS = 10_000;

/** Directories a `find_files` glob walk may enter (the name walk's ceiling). */
export const FIND_GLOB_MAX_DIRS = 20_000;

/** Leading bytes `file_info` reads to tell the encoding and whether a file is binary (the engine's sniff size). */
export const FILE_INFO_SNIFF_BYTES = 64 * 1024;

/** Files up to this size get a line count from `file_info` (it reads them whole; the search tool's file cap). */
export const FILE_INFO_MAX_LINE_COUNT_BYTES = 64 * 1024 * 1024;
