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
