/**
 * The conversation's messages. An assistant reply still streaming is read from its event stream (replayed from the
 * start when the page was reloaded mid-reply) and can be stopped.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, type Message } from '../api/endpoints.js';
import { readEventStream } from '../api/stream.js';
import { CopyButton } from '../ui/CopyButton.js';
import { StopIcon } from '../ui/icons.js';
import { Markdown } from './Markdown.js';
import { MessageText } from './MessageText.js';

export const messagesKey = (conversationId: string) => ['messages', conversationId] as const;

function AssistantBubble({ conversationId, message }: { conversationId: string; message: Message }) {
  const qc = useQueryClient();
  const [live, setLive] = useState('');
  const [error, setError] = useState<string | null>(null);
  const streaming = message.status === 'streaming';

  useEffect(() => {
    if (!streaming) return;
    const ctl = new AbortController();
    setLive('');
    // Chunks are painted once a frame: an agent writing thousands of small pieces costs one render per frame.
    let pending = '';
    let frame = 0;
    const flush = () => {
      frame = 0;
      const add = pending;
      pending = '';
      setLive((t) => t + add);
    };
    const finish = (m: Message | null) => {
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
    ).catch((err: Error) => {
      if (err.name !== 'AbortError') setError(err.message);
    });
    return () => {
      ctl.abort();
      cancelAnimationFrame(frame);
    };
  }, [conversationId, message.id, streaming, qc]);

  const text = streaming ? live : message.text;
  return (
    <div
      className="bubble bubble-assistant"
      data-status={message.status ?? 'done'}
      data-testid="assistant-message"
    >
      {text ? <Markdown text={text} final={!streaming} /> : streaming ? <p className="typing">…</p> : null}
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
        {message.status === 'stopped' ? <span className="note">stopped</span> : null}
        {message.status === 'failed' ? <span className="note warn">failed</span> : null}
        {error ? (
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
}: {
  conversationId: string;
  project: string;
  onFolderOpen: (path: string) => void;
  onFileOpen: (path: string, line?: number) => void;
}) {
  const q = useQuery({
    queryKey: messagesKey(conversationId),
    queryFn: ({ signal }) => api.messages(conversationId, signal),
  });
  const end = useRef<HTMLDivElement>(null);
  const count = q.data?.messages.length ?? 0;
  // A block body: Chromium's scrollIntoView returns a promise, and an effect may return only a cleanup function.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the thread when a message arrives
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);

  if (q.isError) {
    return (
      <div className="thread" role="alert">
        Couldn't load the messages: {(q.error as Error).message}
      </div>
    );
  }
  const messages = q.data?.messages ?? [];
  return (
    <div className="thread" aria-live="polite">
      {messages.length === 0 && q.isSuccess ? (
        <div className="thread-empty">
          <p>Ask about your code.</p>
          <p className="hint">
            Type <kbd>@</kbd> to attach a file or folder, <kbd>./</kbd> to complete a path. Files reach the
            agent with their text; folders as a path it can explore.
          </p>
        </div>
      ) : null}
      {messages.map((m) =>
        m.role === 'user' ? (
          <div key={m.id} className="bubble bubble-user" data-testid="user-message">
            <MessageText
              text={m.text}
              meta={m.meta}
              project={project}
              onFolderOpen={onFolderOpen}
              onFileOpen={onFileOpen}
            />
          </div>
        ) : (
          <AssistantBubble key={m.id} conversationId={conversationId} message={m} />
        ),
      )}
      <div ref={end} />
    </div>
  );
}
