/** Typed calls for the endpoints of docs/http-api.md (the workbench contract). */
// Every body's shape is the server's one definition (`trawl/wire`), imported as types only: nothing of the server is
// bundled.
import type {
  ConversationResponse,
  ConversationsResponse,
  CreateConversationRequest,
  DeleteConversationResponse,
  FileGrepRequest,
  FileGrepResponse,
  FileResponse,
  FileSearchResponse,
  FileSearchRow,
  MessagesResponse,
  NameResult,
  OpenProjectResponse,
  PathCompleteResponse,
  ProjectsResponse,
  RenameConversationRequest,
  RetryResponse,
  SendMessageRequest,
  SendMessageResponse,
  StopResponse,
  TreeResponse,
} from 'trawl/wire';
import { getJson, sendJson } from './client.js';

export type { Conversation, Message, MessageStatus, Project } from 'trawl/wire';

/** A row as /api/file-search, /api/path-complete and /api/tree return it; only file-search's carry `positions`. */
export type FileRow = NameResult & Partial<Pick<FileSearchRow, 'positions'>>;
/** What /api/file-grep answers. */
export type GrepAnswer = FileGrepResponse;
/** One row of it: a file's hit (with `per_file`, one of its lines, carrying the file's `count`). */
export type GrepHit = GrepAnswer['results'][number];

/**
 * The content search's switches (the endpoint's `case_sensitive`, `whole_word`, `regex`; absent is off), its file
 * globs (`include`, `exclude`) and `per_file`, the matching lines asked for each file.
 */
export interface GrepOptions {
  caseSensitive?: boolean;
  wholeWord?: boolean;
  regex?: boolean;
  include?: string[];
  exclude?: string[];
  perFile?: number;
}

const qs = (params: Record<string, string | number | undefined>): string => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') u.set(k, String(v));
  return u.toString();
};

export const api = {
  projects: (signal?: AbortSignal) => getJson<ProjectsResponse>('/api/projects', signal),
  openProject: (project: string) => sendJson<OpenProjectResponse>('POST', '/api/projects/open', { project }),

  fileSearch: (
    q: string,
    project: string | undefined,
    signal?: AbortSignal,
    limit?: number,
    kinds?: 'all' | 'files' | 'dirs',
  ) => getJson<FileSearchResponse>(`/api/file-search?${qs({ q, project, limit, kinds })}`, signal),
  pathComplete: (project: string, dir: string, q: string, signal?: AbortSignal) =>
    getJson<PathCompleteResponse>(`/api/path-complete?${qs({ path: project, dir, q })}`, signal),
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
        ...(options.include?.length ? { include: options.include } : {}),
        ...(options.exclude?.length ? { exclude: options.exclude } : {}),
        ...(options.perFile !== undefined ? { per_file: options.perFile } : {}),
      } satisfies FileGrepRequest,
      signal,
    ),
  tree: (project: string, path: string, signal?: AbortSignal) =>
    getJson<TreeResponse>(
      // `path` is sent even when empty: "" is the project root.
      `/api/tree?${new URLSearchParams({ project, path })}`,
      signal,
    ),
  /** A project file for the viewer; with `line`, the 1 MiB window of lines around it (`first_line` says where). */
  file: (project: string, path: string, signal?: AbortSignal, line?: number) =>
    getJson<FileResponse>(
      `/api/file?${new URLSearchParams({ project, path, ...(line !== undefined ? { line: String(line) } : {}) })}`,
      signal,
    ),

  conversations: (signal?: AbortSignal) => getJson<ConversationsResponse>('/api/conversations', signal),
  createConversation: (body: CreateConversationRequest) =>
    sendJson<ConversationResponse>('POST', '/api/conversations', body),
  renameConversation: (id: string, title: string) =>
    sendJson<ConversationResponse>('PATCH', `/api/conversations/${encodeURIComponent(id)}`, {
      title,
    } satisfies RenameConversationRequest),
  deleteConversation: (id: string) =>
    sendJson<DeleteConversationResponse>('DELETE', `/api/conversations/${encodeURIComponent(id)}`, {}),
  messages: (id: string, signal?: AbortSignal) =>
    getJson<MessagesResponse>(`/api/conversations/${encodeURIComponent(id)}/messages`, signal),
  send: (id: string, body: SendMessageRequest) =>
    sendJson<SendMessageResponse>('POST', `/api/conversations/${encodeURIComponent(id)}/messages`, body),
  stop: (id: string, mid: string) =>
    sendJson<StopResponse>(
      'POST',
      `/api/conversations/${encodeURIComponent(id)}/messages/${encodeURIComponent(mid)}/stop`,
      {},
    ),
  /** Runs the agent again on what reply `mid` answered (Retry, Regenerate); the new reply replaces it. */
  retry: (id: string, mid: string) =>
    sendJson<RetryResponse>(
      'POST',
      `/api/conversations/${encodeURIComponent(id)}/messages/${encodeURIComponent(mid)}/retry`,
      {},
    ),
  streamPath: (id: string, mid: string) =>
    `/api/conversations/${encodeURIComponent(id)}/messages/${encodeURIComponent(mid)}/stream`,
};
