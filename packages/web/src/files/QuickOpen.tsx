/**
 * Quick open (Ctrl+P, ⌘P on a Mac): a dialog with one field over the project's files by name — the recent files
 * while it is empty, the name search's best rows as you type — that opens the chosen file in the viewer. The
 * field is an ARIA combobox owning the list; arrows move, Enter opens, Escape closes and gives focus back.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { busyRetryDelay, retryWhenBusy } from '../api/client.js';
import { api, type FileRow } from '../api/endpoints.js';
import { loadRecent } from '../composer/recent.js';
import { makeRelative } from '../tokens/paths.js';
import { TypeIcon } from '../ui/fileTypes.js';
import { RowLabel } from '../ui/RowLabel.js';
import { useDebounced } from '../ui/useDebounced.js';
import { visibleName } from '../ui/Visible.js';

/** Keystrokes within this window make one request (the picker's). */
export const QUICK_OPEN_DEBOUNCE_MS = 150;
const QUICK_OPEN_LIMIT = 30;

export function QuickOpen({
  project,
  onOpen,
  onClose,
}: {
  project: string;
  /** Open a file of the project (relative path) in the viewer. */
  onOpen: (rel: string, path: string) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState(0);
  const field = useRef<HTMLInputElement>(null);
  const listId = useId();
  const settled = useDebounced(query.trim(), QUICK_OPEN_DEBOUNCE_MS);
  const [recent] = useState(() => loadRecent(project));
  const q = useQuery({
    queryKey: ['quick-open', settled, project],
    queryFn: ({ signal }) => api.fileSearch(settled, project, signal, QUICK_OPEN_LIMIT, 'files'),
    enabled: settled.length >= 2,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: retryWhenBusy,
    retryDelay: busyRetryDelay,
  });
  const typed = query.trim().length >= 2;
  const rows: FileRow[] = typed ? (q.data?.results ?? []) : recent;
  const root = typed ? q.data?.root || project : project;
  const sel = Math.min(selected, Math.max(0, rows.length - 1));
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new answer selects its best row
  useEffect(() => setSelected(0), [q.data, typed]);
  // Focus moves into the field, and back where it was when the dialog closes without opening anything.
  useEffect(() => {
    const back = document.activeElement as HTMLElement | null;
    field.current?.focus();
    return () => {
      if (document.activeElement === document.body || document.activeElement === null) back?.focus?.();
    };
  }, []);

  const choose = (i: number) => {
    const r = rows[i];
    if (!r) return;
    const rel = makeRelative(r.path, root);
    if (rel === r.path) return;
    onOpen(rel, r.path);
  };
  let status = '';
  if (!typed) status = rows.length > 0 ? 'Recent files' : 'Type 2+ characters to find a file by name';
  else if (q.isError) status = `Search failed: ${(q.error as Error).message}`;
  else if (q.isFetching || settled !== query.trim()) status = 'Searching…';
  else
    status =
      rows.length === 0 ? 'No matching files' : `${rows.length} ${rows.length === 1 ? 'file' : 'files'}`;

  return (
    <div className="quick-open-backdrop">
      <div className="quick-open" role="dialog" aria-modal="true" aria-label="Go to file">
        <input
          ref={field}
          type="text"
          role="combobox"
          aria-label="Go to file"
          aria-expanded={rows.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={rows.length > 0 ? `${listId}-${sel}` : undefined}
          placeholder="Go to file by name…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          // A click outside (the backdrop, the page) closes it, as Escape does.
          onBlur={onClose}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              onClose();
            } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              const next = sel + (e.key === 'ArrowDown' ? 1 : -1);
              setSelected(Math.max(0, Math.min(rows.length - 1, next)));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              // An Enter before the answer for what is typed would open a stale row: wait for it.
              if (typed && (q.isFetching || settled !== query.trim())) return;
              choose(sel);
            }
          }}
        />
        <div
          className="quick-open-list"
          role="listbox"
          id={listId}
          aria-label="Files"
          // which query the rows answer (they trail the typed text while the next search runs): for bench/
          data-rows-for={typed && q.data && !q.isPlaceholderData ? settled : ''}
        >
          {rows.map((r, i) => (
            <div
              key={r.path}
              id={`${listId}-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === sel}
              className="picker-row"
              title={visibleName(r.path)}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(i);
              }}
              onMouseMove={() => i !== sel && setSelected(i)}
            >
              <TypeIcon name={r.name} kind="file" />
              <span className="picker-label">
                <RowLabel path={r.path} name={r.name} kind="file" root={root} positions={r.positions} />
              </span>
            </div>
          ))}
        </div>
        <div className="picker-status" role="status">
          {status}
        </div>
      </div>
    </div>
  );
}
