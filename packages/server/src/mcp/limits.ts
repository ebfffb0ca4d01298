/** The MCP server's pinned numbers, each with its reason. */

/**
 * The longest JSON-RPC message read from stdio, in bytes (the SDK's own limit). Tool arguments are a
 * pattern and a few paths; anything near this size is a mistake, answered with an error, not buffered.
 */
export const MCP_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
