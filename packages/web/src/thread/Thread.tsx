/**
 * The conversation's messages. An assistant reply still streaming is read from its event stream (replayed from the
 * start when the page was reloaded mid-reply) and can be stopped. The thread follows the stream while the reader is
 * at its bottom; scrolled up, they keep their place and get "Jump to latest". A failed reply says why (the stored
 * reason) and can be retried; the latest reply can be regenerated; a sent message can be edited into a new turn.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { errorText } from '../api/client.js';
import { whenReachable } from '../api/connection.js';
import { api, type Message } from '../api/endpoints.js';
import { readEventStream } from '../api/stream.js';
import { CopyButton } from '../ui/CopyButton.js';
import { ArrowDownIcon, EditIcon, RetryIcon, StopIcon } from '../ui/icons.js';
import { Markdown } from './Markdown.js';
import { MessageText } from './MessageText.js';
import { useFollow } from './useFollow.js';

/** Times a broken reply stream is opened again before the thread gives up on it and asks for the messages. */
const MAX_REOPEN = 20;

export const messagesKey = (conversationId: string) => ['messages', conversationId] as const;

/** The messages the thread shows: every attempt is kept, but one a retry replaced is not shown. */
export const shownMessages = (messages: readonly Message[]): Message[] =>
  messages.filter((m) => !m.superseded_by);

/** The conversation's latest reply as shown, while it is still being written; else null. */
export function useStreamingReply(conversationId: string | null): Message | null {
  const q = useQuery({
    queryKey: messagesKey(conversationId ?? ''),
    queryFn: ({ signal }) => api.messages(conversationId!, signal),
    enabled: conversationId !== null,
  });
  const last = shownMessages(q.data?.messages ?? []).at(-1);
  return last?.role === 'assistant' && last.status === 'streaming' ? last : null;
}

/** Runs the agent again on what the reply answered; the new attempt replaces it in the thread. */
export async function retryReply(
  qc: ReturnType<typeof useQueryClient>,
  conversationId: string,
  reply: Message,
): Promise<void> {
  const { reply: next } = await api.retry(conversationId, reply.id);
  const placeholder: Message = {
    id: next.id,
    role: 'assistant',
    text: '',
    wire: '',
    meta: {},
    at: new Date().toISOString(),
    status: 'streaming',
    ...(reply.reply_to ? { reply_to: reply.reply_to } : {}),
  };
  qc.setQueryData<{ messages: Message[] }>(messagesKey(conversationId), (old) => ({
    messages: [
      ...(old?.messages ?? []).map((m) => (m.id === reply.id ? { ...m, superseded_by: next.id } : m)),
      placeholder,
    ],
  }));
}

function AssistantBubble({
  conversationId,
  message,
  latest,
}: {
  conversationId: string;
  message: Message;
  /** The thread's last message: only it can be retried or regenerated. */
  latest: boolean;
}) {
  const qc = useQueryClient();
  const [live, setLive] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [retrying, setRetrying] = useState(false);
  // The stream broke off (server stopped, network dropped): said so, and opened again when the server is back.
  const [lost, setLost] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const streaming = message.status === 'streaming';

  // A new attempt (after a break) opens the stream again.
  useEffect(() => {
    if (!streaming) return;
    const ctl = new AbortController();
    setError(null);
    let ended = false;
    // Chunks are painted once a frame: an agent writing thousands of small pieces costs one render per frame.
    let pending = '';
    let frame = 0;
    // The server replays the whole text first, so each attempt starts from nothing.
    let first = true;
    const flush = () => {
      frame = 0;
      const add = pending;
      pending = '';
      setLive((t) => (first ? add : t + add));
      first = false;
    };
    const finish = (m: Message | null) => {
      ended = true;
      setLost(false);
      qc.setQueryData<{ messages: Message[] }>(messagesKey(conversationId), (old) =>
        old && m ? { messages: old.messages.map((x) => (x.id === m.id ? m : x)) } : old,
      );
      void qc.invalidateQueries({ queryKey: messagesKey(conversationId) });
    };
    readEventStream(
      api.streamPath(conversationId, message.id),
      (e) => {
        try {
          const data = JSON.parse(e.data) as { text?: string; message?: Message; error?: string };
          if (e.event === 'chunk' && typeof data.text === 'string') {
            pending += data.text;
            frame ||= requestAnimationFrame(flush);
          } else if (e.event === 'done') finish(data.message ?? null);
          else if (e.event === 'error') {
            setError(data.error ?? 'the agent failed');
            finish(null);
          }
        } catch {
          // a malformed event is skipped; the stream's end still settles the message
        }
      },
      ctl.signal,
    )
      .then(() => {
        // An answer that ended with neither done nor error was cut, as one that failed mid-way.
        if (!ended) throw new Error('the reply stream ended early');
      })
      .catch(async (err: Error) => {
        if (ctl.signal.aborted || err.name === 'AbortError') return;
        if (attempt >= MAX_REOPEN) {
          setError(err.message);
          void qc.invalidateQueries({ queryKey: messagesKey(conversationId) });
          return;
        }
        setLost(true);
        await whenReachable(ctl.signal);
        if (!ctl.signal.aborted) setAttempt((n) => n + 1);
      });
    return () => {
      ctl.abort();
      cancelAnimationFrame(frame);
    };
  }, [conversationId, message.id, streaming, qc, attempt]);

  const retry = () => {
    setRetrying(true);
    setError(null);
    retryReply(qc, conversationId, message)
      .catch((e: Error) => setError(e.message))
      .finally(() => setRetrying(false));
  };

  const text = streaming ? live : message.text;
  const failed = message.status === 'failed';
  // The stored reason of a saved failed reply; the live stream's error covers a reply that failed on screen.
  const reason = failed ? (message.error?.error ?? null) : null;
  return (
    <div
      className="bubble bubble-assistant"
      data-status={message.status ?? 'done'}
      data-testid="assistant-message"
    >
      {text ? <Markdown text={text} final={!streaming} /> : streaming ? <p className="typing">…</p> : null}
      {failed ? (
        <p className="reply-failed" role="alert">
          <strong>The agent failed</strong>
          {reason ? `: ${reason}` : ''}
        </p>
      ) : null}
      <div className="bubble-foot">
        {!streaming && text ? <CopyButton text={text} label="Copy reply" /> : null}
        {streaming ? (
          <button
            type="button"
            className="ghost small"
            onClick={() => void api.stop(conversationId, message.id).catch((e: Error) => setError(e.message))}
          >
            <StopIcon /> Stop
          </button>
        ) : null}
        {latest && !streaming ? (
          <button type="button" className="ghost small" onClick={retry} disabled={retrying}>
            <RetryIcon /> {failed || message.status === 'stopped' ? 'Retry' : 'Regenerate'}
          </button>
        ) : null}
        {message.status === 'stopped' ? <span className="note">stopped</span> : null}
        {streaming && lost ? (
          <span className="note warn" role="status">
            Connection lost — the reply continues here when the server is back.
          </span>
        ) : null}
        {error && !(failed && reason) ? (
          <span className="note warn" role="alert">
            {error}
          </span>
        ) : null}
      </div>
    </div>
  );
}

export function Thread({
  conversationId,
  project,
  onFolderOpen,
  onFileOpen,
  onEdit,
}: {
  /** Null: a conversation not started yet (it is created by its first message). */
  conversationId: string | null;
  project: string;
  onFolderOpen: (path: string) => void;
  onFileOpen: (path: string, line?: number) => void;
  /** Edit: the message goes back to the composer, to be sent as a new turn. */
  onEdit: (message: Message) => void;
}) {
  const q = useQuery({
    queryKey: messagesKey(conversationId ?? ''),
    queryFn: ({ signal }) => api.messages(conversationId!, signal),
    enabled: conversationId !== null,
  });
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const follow = useFollow(scroller, content);

  const messages = shownMessages(q.data?.messages ?? []);
  const empty = conversationId === null || (messages.length === 0 && q.isSuccess);
  return (
    <div className="thread-wrap">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the thread scrolls, and must be reachable by keyboard to be scrolled */}
      <div className="thread" ref={scroller} role="log" aria-label="Messages" tabIndex={0}>
        <div className="thread-content" ref={content}>
          {q.isError ? (
            errorText(q.error) === null ? null : (
              <p className="thread-error" role="alert">
                Couldn't load the messages: {errorText(q.error)}
              </p>
            )
          ) : empty ? (
            <div className="thread-empty">
              <p>Ask about your code.</p>
              <p className="hint">
                Type <kbd>@</kbd> to attach a file or folder, <kbd>./</kbd> to complete a path. Files reach
                the agent with their text; folders as a path it can explore.
              </p>
            </div>
          ) : null}
          {conversationId !== null
            ? messages.map((m, i) =>
                m.role === 'user' ? (
                  <div key={m.id} className="bubble bubble-user" data-testid="user-message">
                    <MessageText
                      text={m.text}
                      meta={m.meta}
                      project={project}
                      onFolderOpen={onFolderOpen}
                      onFileOpen={onFileOpen}
                    />
                    <div className="bubble-foot bubble-foot-user">
                      <button
                        type="button"
                        className="ghost small"
                        aria-label="Edit message"
                        title="Edit: put this message back in the composer and send it as a new turn"
                        onClick={() => onEdit(m)}
                      >
                        <EditIcon /> Edit
                      </button>
                    </div>
                  </div>
                ) : (
                  <AssistantBubble
                    key={m.id}
                    conversationId={conversationId}
                    message={m}
                    latest={i === messages.length - 1}
                  />
                ),
              )
            : null}
        </div>
      </div>
      {follow.pinned ? null : (
        <button type="button" className="jump-latest" onClick={follow.jump}>
          <ArrowDownIcon /> Jump to latest
        </button>
      )}
    </div>
  );
}
