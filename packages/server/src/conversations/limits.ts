/**
 * Conversations and the agent: pinned numbers, each with its reason (docs/http-api.md, docs/security.md).
 */

/** A message's display text, at most (the contract's bound; a prompt longer than this is a file, attach it). */
export const MESSAGE_MAX_TEXT_CHARS = 100_000;
/** The wire text adds markers and absolute paths to the display text: room for both. */
export const MESSAGE_MAX_WIRE_CHARS = 200_000;
/** Attached files and folders named in one message's meta. */
export const MESSAGE_MAX_META_ENTRIES = 100;
/** One meta string (a path, a name, a label): PATH_MAX. */
export const MESSAGE_MAX_META_STRING_CHARS = 4_096;
/** The body of a message POST (text + wire in UTF-8, JSON escapes, meta); other bodies keep the 64 KiB limit. */
export const MESSAGE_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/** A conversation title, at most (a sidebar row). */
export const CONVERSATION_TITLE_MAX_CHARS = 200;
/** A conversation's message file, at most: a new message past it is a 413 `conversation_full` (start a new one). */
export const CONVERSATION_MAX_BYTES = 32 * 1024 * 1024;
/** Conversations kept, at most: creating one more is a 409 (the list is loaded into memory). */
export const MAX_CONVERSATIONS = 5_000;
/** A conversation's metadata file larger than this is not one of ours: skipped. */
export const CONVERSATION_META_MAX_BYTES = 64 * 1024;

/** Agent runs at once across all conversations (each is a process the operator's machine pays for). */
export const AGENT_MAX_RUNNING = 4;
/** An agent run longer than this is killed (its process group), the reply `failed` with `agent_timeout`. */
export const AGENT_DEADLINE_MS = 10 * 60_000;
/** Agent stdout kept, at most: past it the run is killed and the reply keeps what fit (`agent_output_too_large`). */
export const AGENT_OUTPUT_MAX_BYTES = 1024 * 1024;
/** The tail of the agent's stderr kept for the error message of a failed run. */
export const AGENT_STDERR_TAIL_BYTES = 2_048;
/** After SIGTERM, the process group gets this long before SIGKILL. */
export const AGENT_KILL_GRACE_MS = 2_000;

/** Attached files whose text goes to the agent, at most (more are listed with `error: "too_many_files"`). */
export const ATTACH_MAX_FILES = 20;
/** One attached file's text, at most (`truncated` beyond). */
export const ATTACH_MAX_FILE_BYTES = 256 * 1024;
/** All attached files' text together, at most: later files get what is left. */
export const ATTACH_MAX_TOTAL_BYTES = 2 * 1024 * 1024;
/** Without an agent, the preview shows this much of each attached file's text (the rest is counted). */
export const PREVIEW_FILE_CHARS = 4_000;
