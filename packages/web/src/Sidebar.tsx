/**
 * Conversations: new, filter, switch, rename (the row's Rename button, F2 or a double-click; Enter saves, Escape
 * cancels) and delete with undo. Rows are grouped by the day of their last activity and say their project.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, type Conversation } from './api/endpoints.js';
import { CloseIcon, EditIcon, PlusIcon, TrashIcon } from './ui/icons.js';

/** How long a deleted conversation can be brought back before it is deleted on the server. */
const UNDO_MS = 8000;

/** "Today", "Yesterday", else the date, for the local day `iso` falls on. */
export function dayLabel(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  const start = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((start(now) - start(d)) / 86_400_000);
  if (days <= 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return d.toLocaleDateString(undefined, {
    weekday: days < 7 ? 'long' : undefined,
    month: 'short',
    day: 'numeric',
    year: d.getFullYear() === now.getFullYear() ? undefined : 'numeric',
  });
}

const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
const projectName = (p: string | null) =>
  p
    ? (p
        .replace(/[\\/]+$/, '')
        .split(/[\\/]/)
        .pop() ?? p)
    : '';

export function Sidebar({
  conversations,
  activeId,
  loading,
  error,
  onSelect,
  onCreate,
  onDelete,
}: {
  conversations: Conversation[];
  activeId: string | null;
  loading: boolean;
  error: string | null;
  onSelect: (id: string) => void;
  onCreate: () => void;
  /** A conversation was deleted (it may still come back by Undo): the app moves off it. */
  onDelete: (id: string) => void;
}) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [filter, setFilter] = useState('');
  const [deleted, setDeleted] = useState<Conversation | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const timer = useRef(0);
  const undoButton = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);

  const rename = useMutation({
    mutationFn: ({ id, title }: { id: string; title: string }) => api.renameConversation(id, title),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['conversations'] }),
  });
  const startEdit = (c: Conversation) => {
    setEditing(c.id);
    setDraft(c.title);
  };

  /** Deletes on the server the conversation waiting for its undo, now. */
  const commit = (c: Conversation) => {
    window.clearTimeout(timer.current);
    setDeleted(null);
    api
      .deleteConversation(c.id)
      .then(() => qc.invalidateQueries({ queryKey: ['conversations'] }))
      .catch((e: Error) => setDeleteError(`${c.title}: ${e.message}`));
  };
  const remove = (c: Conversation) => {
    if (deleted) commit(deleted);
    setDeleteError(null);
    setDeleted(c);
    onDelete(c.id);
    timer.current = window.setTimeout(() => commit(c), UNDO_MS);
  };
  /** Focus back on a conversation's row once it is rendered again (after a rename field or an undo). */
  const focusRow = (id: string) =>
    requestAnimationFrame(() => list.current?.querySelector<HTMLElement>(`[data-id="${id}"]`)?.focus());
  const undo = () => {
    window.clearTimeout(timer.current);
    const c = deleted;
    setDeleted(null);
    if (c) focusRow(c.id);
  };
  // The undo offer takes focus from the Delete button that went away with its row.
  useEffect(() => {
    if (deleted) undoButton.current?.focus();
  }, [deleted]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const needle = filter.trim().toLowerCase();
  const shown = conversations.filter(
    (c) =>
      c.id !== deleted?.id &&
      (needle === '' ||
        c.title.toLowerCase().includes(needle) ||
        projectName(c.project).toLowerCase().includes(needle)),
  );
  const groups: { day: string; items: Conversation[] }[] = [];
  for (const c of shown) {
    const day = dayLabel(c.updated_at);
    if (groups.at(-1)?.day !== day) groups.push({ day, items: [] });
    groups.at(-1)!.items.push(c);
  }

  return (
    <nav className="sidebar" aria-label="Conversations">
      <button type="button" className="new-conv" onClick={onCreate}>
        <PlusIcon /> New conversation
      </button>
      <input
        type="search"
        className="conv-filter"
        aria-label="Filter conversations"
        placeholder="Filter conversations"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {loading ? <p className="rail-note">Loading…</p> : null}
      {error ? (
        <p className="rail-note warn" role="alert">
          {error}
        </p>
      ) : null}
      {rename.isError ? (
        <p className="rail-note warn" role="alert">
          Not renamed: {(rename.error as Error).message}
        </p>
      ) : null}
      {deleteError ? (
        <p className="rail-note warn" role="alert">
          Not deleted: {deleteError}
        </p>
      ) : null}
      {deleted ? (
        <div className="conv-undo" role="status">
          <span className="conv-undo-text">Deleted “{deleted.title}”</span>
          <button type="button" className="small" ref={undoButton} onClick={undo}>
            Undo
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label="Dismiss (delete now)"
            onClick={() => commit(deleted)}
          >
            <CloseIcon />
          </button>
        </div>
      ) : null}
      {!loading && needle !== '' && shown.length === 0 ? (
        <p className="rail-note">No conversation matches “{filter.trim()}”.</p>
      ) : null}
      <ul className="conv-list" ref={list}>
        {groups.map((g) => (
          <li key={g.day} className="conv-group">
            <h2 className="conv-day">{g.day}</h2>
            <ul>
              {g.items.map((c) => (
                <li key={c.id} className="conv-item">
                  {editing === c.id ? (
                    <input
                      className="conv-rename"
                      aria-label="Conversation title"
                      value={draft}
                      // biome-ignore lint/a11y/noAutofocus: the rename field replaces the row the user acted on
                      autoFocus
                      onChange={(e) => setDraft(e.target.value)}
                      onBlur={() => setEditing(null)}
                      onKeyDown={(e) => {
                        if (e.key === 'Escape') {
                          setEditing(null);
                          focusRow(c.id);
                        }
                        if (e.key === 'Enter' && draft.trim() !== '') {
                          rename.mutate({ id: c.id, title: draft.trim() });
                          setEditing(null);
                          focusRow(c.id);
                        }
                      }}
                    />
                  ) : (
                    <>
                      <button
                        type="button"
                        className="conv"
                        data-id={c.id}
                        aria-current={c.id === activeId ? 'page' : undefined}
                        onClick={() => onSelect(c.id)}
                        onDoubleClick={() => startEdit(c)}
                        onKeyDown={(e) => {
                          if (e.key === 'F2') startEdit(c);
                        }}
                      >
                        <span className="conv-name">{c.title || 'New conversation'}</span>
                        <span className="conv-meta">
                          {c.project ? <span title={c.project}>{projectName(c.project)}</span> : null}
                          <time dateTime={c.updated_at}>{timeOf(c.updated_at)}</time>
                        </span>
                      </button>
                      <span className="conv-actions">
                        <button
                          type="button"
                          className="icon-button"
                          aria-label={`Rename “${c.title}”`}
                          title="Rename (F2)"
                          onClick={() => startEdit(c)}
                        >
                          <EditIcon />
                        </button>
                        <button
                          type="button"
                          className="icon-button"
                          aria-label={`Delete “${c.title}”`}
                          title="Delete"
                          onClick={() => remove(c)}
                        >
                          <TrashIcon />
                        </button>
                      </span>
                    </>
                  )}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </nav>
  );
}
