/**
 * `trawl/wire`: the bodies of trawl's HTTP API (docs/http-api.md) as types — what a request sends, what each
 * endpoint answers, the conversation shapes and the reply stream's events — for a client such as the workbench.
 * Types only, no runtime code: a client imports it with `import type`, so nothing of the server reaches its bundle.
 *
 * The server builds its answers against these types (`satisfies` in the route handlers), so what it sends and what
 * a client reads cannot drift apart unseen. The rows are the engine's own types (`@trawl/core`'s `NameResult`,
 * `GrepPayload`), re-exported here so a client needs one import.
 */
import type { GrepPayload, GrepRow } from '@trawl/core/grep';
import type { NameKind, NameResult } from '@trawl/core/names';
import type { Conversation, Message, MessageMeta } from './conversations/types.js';

export type { DirRef, FileRef, MessageStatus } from './conversations/types.js';
export type { Conversation, GrepPayload, GrepRow, Message, MessageMeta, NameKind, NameResult };

/** A refusal, from any endpoint: a sentence for a person and a stable code for a program. */
export interface ApiError {
  error: string;
  code: string;
}

/** A known project: the server-held spelling (what gets resolved when it is used), its name, where it came from. */
export interface Project {
  path: string;
  name: string;
  source: 'serve' | 'recent';
}

/** GET /api/projects. */
export interface ProjectsResponse {
  projects: Project[];
}

/** POST /api/projects/open: an absolute path or `~/…`; the answer names the project as the server holds it. */
export interface OpenProjectRequest {
  project: string;
}

/** POST /api/projects/open. */
export interface OpenProjectResponse {
  project: Project;
}

/** A row of GET /api/file-search: a name hit and the offsets into `path` of the characters the query matched. */
export interface FileSearchRow extends NameResult {
  positions: number[];
}

/**
 * GET /api/file-search?q=&project=&limit=&kinds=. `root` is the searched project ('' when none was named);
 * `truncated` when a walk stopped at its budget before it saw everything.
 */
export interface FileSearchResponse {
  results: FileSearchRow[];
  root?: string;
  truncated?: boolean;
}

/** GET /api/path-complete?path=&dir=&q=: one directory level; `outside` when `dir` leaves the project. */
export interface PathCompleteResponse {
  results: NameResult[];
  root: string;
  outside?: boolean;
}

/** POST /api/file-grep (a body, never a query string: the query may be a secret, and URLs end up in logs). */
export interface FileGrepRequest {
  root: string;
  q: string;
  case_sensitive?: boolean;
  whole_word?: boolean;
  regex?: boolean;
  /** Globs a file's path must match (any of them), and must not match. */
  include?: string[];
  exclude?: string[];
  /** Rows wanted, at most the server's cap. */
  limit?: number;
  /** A text file's first N matching lines (1..20), each row with the file's `count`; absent or null: one row a file. */
  per_file?: number | null;
}

/** POST /api/file-grep: one row per file (or per line with `per_file`), documents included. */
export type FileGrepResponse = GrepPayload;

/** GET /api/tree?project=&path=: one level of a project for the Files rail. */
export interface TreeResponse {
  root: string;
  path: string;
  entries: NameResult[];
  truncated: boolean;
}

/**
 * GET /api/file?project=&path=[&line=]: a text file for the viewer (1 MiB at most; with `line`, the window of whole
 * lines around it, `first_line` saying where it starts). A document is shown as its extracted text, with `document`.
 */
export interface FileResponse {
  root: string;
  path: string;
  size: number;
  mtime: number;
  text: string;
  truncated: boolean;
  binary: boolean;
  first_line: number;
  /** A document's extraction: over the size cap it is not extracted; `unreadable` says why one could not be read. */
  document?: { too_large: boolean; unreadable?: string };
}

/** GET /api/conversations. */
export interface ConversationsResponse {
  conversations: Conversation[];
}

/** POST /api/conversations. */
export interface CreateConversationRequest {
  title?: string;
  /** A known project the conversation works in. */
  project?: string;
}

/** POST /api/conversations (201), PATCH /api/conversations/:id. */
export interface ConversationResponse {
  conversation: Conversation;
}

/** PATCH /api/conversations/:id. */
export interface RenameConversationRequest {
  title: string;
}

/** DELETE /api/conversations/:id. */
export interface DeleteConversationResponse {
  deleted: boolean;
}

/** GET /api/conversations/:id/messages. */
export interface MessagesResponse {
  messages: Message[];
}

/** POST /api/conversations/:id/messages: what the person typed, what the agent receives, and what that refers to. */
export interface SendMessageRequest {
  text: string;
  wire: string;
  meta: MessageMeta;
}

/** POST /api/conversations/:id/messages (201): the stored message and the reply now streaming. */
export interface SendMessageResponse {
  message: Message;
  reply: { id: string };
}

/** POST …/messages/:mid/retry (201): the new reply, and the id of the one it replaces. */
export interface RetryResponse {
  reply: { id: string };
  replaces: string;
}

/** POST …/messages/:mid/stop. */
export interface StopResponse {
  stopped: boolean;
}

/**
 * The events of GET …/messages/:mid/stream (server-sent events), by event name: `chunk` (text as it arrives),
 * then `done` (the settled message) or `error` (why the reply failed).
 */
export interface ReplyStreamEvents {
  chunk: { text: string };
  done: { message: Message };
  error: ApiError;
}
