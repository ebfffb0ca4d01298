/** Conversations: new, switch, rename (double-click or F2 on the active one; Enter saves, Escape cancels). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Conversation } from './api/endpoints.js';
import { PlusIcon } from './ui/icons.js';

export function Sidebar({
  conversations,
  activeId,
  loading,
  error,
  onSelect,
  onCreate,
  creating,
}: {
  conversations: Conversation[];
  activeId: string | null;
  loading: boolean;
  error: string | null;
  onSelect: (id: string) => void;
  onCreate: () => void;
  creating: boolean;
}) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const rename = useMutation({
    mutationFn: ({ id, title }: { id: string; title: string }) => api.renameConversation(id, title),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['conversations'] }),
  });
  const startEdit = (c: Conversation) => {
    setEditing(c.id);
    setDraft(c.title);
  };
  return (
    <nav className="sidebar" aria-label="Conversations">
      <button type="button" className="new-conv" onClick={onCreate} disabled={creating}>
        <PlusIcon /> New conversation
      </button>
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
      <ul className="conv-list">
        {conversations.map((c) => (
          <li key={c.id}>
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
                  if (e.key === 'Escape') setEditing(null);
                  if (e.key === 'Enter' && draft.trim() !== '') {
                    rename.mutate({ id: c.id, title: draft.trim() });
                    setEditing(null);
                  }
                }}
              />
            ) : (
              <button
                type="button"
                className="conv"
                aria-current={c.id === activeId ? 'page' : undefined}
                onClick={() => onSelect(c.id)}
                onDoubleClick={() => startEdit(c)}
                onKeyDown={(e) => {
                  if (e.key === 'F2') startEdit(c);
                }}
                title="Double-click or F2 to rename"
              >
                {c.title || 'New conversation'}
              </button>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
