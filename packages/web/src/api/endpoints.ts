/** Typed calls for the endpoints of docs/http-api.md (the workbench contract). */
// The conversation shapes are the server's one definition, imported as types only (nothing of the server is bundled).
import type { Conversation, Message, MessageMeta } from '../../../server/src/conversations/types.js';
import { getJson, sendJson } from './client.js';

export type { Conversation, Message, MessageStatus } from '../../../server/src/conversations/types.js';

export type Kind = 'file' | 'dir';
/** A row as /api/file-search, /api/path-complete and /api/tree return it. */
export interface FileRow {
  path: string;
  name: string;
  kind?: Kind;
  size: number;
  mtime: number;
  /** /api/file-search only: offsets into `path` of the characters the query matched. */
  positions?: number[];
}
export interface Project {
  path: string;
  name: string;
  source: 'serve' | 'recent';
}
export interface GrepHit {
  file: string;
  line: number;
  preview: string;
  label?: string;
  ranges?: [number, number][];
}
export interface GrepAnswer {
  results: GrepHit[];
  truncated: boolean;
  engine: string;
  skipped_docs: number;
  root: string;
}

/** The content search's switches (the endpoint's `case_sensitive`, `whole_word`, `regex`); absent is off. */
export interface GrepOptions {
  caseSensitive?: boolean;
  wholeWord?: boolean;
  regex?: boolean;
}

const qs = (params: Record<string, string | number | undefined>): string => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') u.set(k, String(v));
  return u.toString();
};

export const api = {
  projects: (signal?: AbortSignal) => getJson<{ projects: Project[] }>('/api/projects', signal),
  openProject: (project: string) => sendJson<{ project: Project }>('POST', '/api/projects/open', { project }),

  fileSearch: (
    q: string,
    project: string | undefined,
    signal?: AbortSignal,
    limit?: number,
    kinds?: 'all' | 'files' | 'dirs',
  ) =>
    getJson<{ results: FileRow[]; root?: string; truncated?: boolean }>(
      `/api/file-search?${qs({ q, project, limit, kinds })}`,
      signal,
    ),
  pathComplete: (project: string, dir: string, q: string, signal?: AbortSignal) =>
    getJson<{ results: FileRow[]; root: string; outside?: boolean }>(
      `/api/path-complete?${qs({ path: project, dir, q })}`,
      signal,
    ),
  /** POST, never a query string: the query may be a secret and URLs end up in logs. */
  fileGrep: (root: string, q: string, signal?: AbortSignal, options: GrepOptions = {}) =>
    sendJson<GrepAnswer>(
      'POST',
      '/api/file-grep',
      {
        root,
        q,
        ...(options.caseSensitive ? { case_sensitive: true } : {}),
        ...(options.wholeWord ? { whole_word: true } : {}),
        ...(options.regex ? { regex: true } : {}),
      },
      signal,
    ),
  tree: (project: string, path: string, signal?: AbortSignal) =>
    getJson<{ root: string; path: string; entries: FileRow[]; truncated: boolean }>(
      // `path` is sent even when empty: "" is the project root.
      `/api/tree?${new URLSearchParams({ project, path })}`,
      signal,
    ),
  /** A project file for the viewer; with `line`, the 1 MiB window of lines around it (`first_line` says where). */
  file: (project: string, path: string, signal?: AbortSignal, line?: number) =>
    getJson<{
      root: string;
      path: string;
      size: number;
      text: string;
      truncated: boolean;
      binary: boolean;
      first_line?: number;
      /** A document shown as its extracted text: over 25 MiB it is not extracted; `unreadable` says why not. */
      document?: { too_large: boolean; unreadable?: string };
    }>(
      `/api/file?${new URLSearchParams({ project, path, ...(line !== undefined ? { line: String(line) } : {}) })}`,
      signal,
    ),

  conversations: (signal?: AbortSignal) =>
    getJson<{ conversations: Conversation[] }>('/api/conversations', signal),
  createConversation: (body: { title?: string; project?: string }) =>
    sendJson<{ conversation: Conversation }>('POST', '/api/conversations', body),
  renameConversation: (id: string, title: string) =>
    sendJson<{ conversation: Conversation }>('PATCH', `/api/conversations/${encodeURIComponent(id)}`, {
      title,
    }),
  deleteConversation: (id: string) =>
    sendJson<{ deleted: boolean }>('DELETE', `/api/conversations/${encodeURIComponent(id)}`, {}),
  messages: (id: string, signal?: AbortSignal) =>
    getJson<{ messages: Message[] }>(`/api/conversations/${encodeURIComponent(id)}/messages`, signal),
  send: (id: string, body: { text: string; wire: string; meta: MessageMeta }) =>
    sendJson<{ message: Message; reply: { id: string } }>(
      'POST',
      `/api/conversations/${encodeURIComponent(id)}/messages`,
      body,
    ),
  stop: (id: string, mid: string) =>
    sendJson<{ stopped: boolean }>(
      'POST',
      `/api/conversations/${encodeURIComponent(id)}/messages/${encodeURIComponent(mid)}/stop`,
      {},
    ),
  /** Runs the agent again on what reply `mid` answered (Retry, Regenerate); the new reply replaces it. */
  retry: (id: string, mid: string) =>
    sendJson<{ reply: { id: string }; replaces: string }>(
      'POST',
      `/api/conversations/${encodeURIComponent(id)}/messages/${encodeURIComponent(mid)}/retry`,
      {},
    ),
  streamPath: (id: string, mid: string) =>
    `/api/conversations/${encodeURIComponent(id)}/messages/${encodeURIComponent(mid)}/stream`,
};
