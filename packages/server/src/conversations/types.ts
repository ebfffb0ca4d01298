/**
 * The conversation shapes of `/api/conversations` (docs/http-api.md), as the store keeps them and the workbench reads
 * them: the one definition of both sides. Types only, no runtime code: the workbench imports this module with
 * `import type`, so nothing of the server reaches the browser bundle.
 */

/** One conversation: its id, title and project, when it was made and last changed (ISO 8601, UTC). */
export interface Conversation {
  id: string;
  title: string;
  /** The known project (server-held spelling) the conversation works in, or null. */
  project: string | null;
  created_at: string;
  updated_at: string;
}

/** A reply's state: being written (`streaming`), ended by the agent (`done`), stopped by the user, or `failed`. */
export type MessageStatus = 'streaming' | 'done' | 'stopped' | 'failed';

/** An attached file: the absolute path a `[attached_file N]` marker stands for, and its name. */
export interface FileRef {
  path: string;
  name: string;
}

/** An attached folder: the absolute path a `[attached_dir N]` marker stands for, and the label its token showed. */
export interface DirRef {
  path: string;
  label: string;
}

/** What a message's wire text refers to, indexed by its markers (1-based, per kind). */
export interface MessageMeta {
  files?: FileRef[];
  dirs?: DirRef[];
}

/** One message of a conversation: a user's, or the agent's reply to one. */
export interface Message {
  id: string;
  role: 'user' | 'assistant';
  /** The display text (its `@rel` tokens as typed). */
  text: string;
  /** The text the agent receives (tokens rewritten to markers and absolute paths). */
  wire: string;
  meta: MessageMeta;
  at: string;
  status?: MessageStatus;
  /** Why a reply failed (assistant messages with status `failed`). */
  error?: { code: string; error: string };
  /** A reply: the id of the user message it answers (its wire text and meta are what the agent was sent). */
  reply_to?: string;
  /**
   * A reply another attempt replaced (retry or regenerate): the id of the attempt that replaced it. Every attempt is
   * kept; the workbench shows the latest.
   */
  superseded_by?: string;
}
