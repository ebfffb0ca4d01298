/**
 * The picker's list: an ARIA listbox whose options carry `aria-selected` and `data-kind`, best match nearest the
 * composer (the list opens upward from it), and one `role="status"` region whose text changes in place.
 */
import { useEffect, useRef } from 'react';
import { TypeIcon } from '../ui/fileTypes.js';
import { formatAge, formatSize } from '../ui/format.js';
import { RowLabel } from '../ui/RowLabel.js';
import { visibleName } from '../ui/Visible.js';
import { type PickerState, rowKind } from './usePicker.js';

const STATUS_TEXT: Record<string, string> = {
  'type-more': 'Type 2+ characters to search files · Enter is held · Esc closes',
  searching: 'Searching…',
  'no-matches': 'No matches',
  outside: 'That path ends up outside the project · Enter sends',
  empty: 'No matching files · Enter sends',
  'empty-mention': 'No matching files · Esc closes, then Enter sends it as text',
  recent: 'Recent files · type 2+ characters to search',
};

export function Picker({
  picker,
  listId,
  onChoose,
}: {
  picker: PickerState;
  listId: string;
  onChoose: (index: number) => void;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const { rows, selected, status } = picker;

  useEffect(() => {
    const el = listRef.current?.querySelector<HTMLElement>(`[data-index="${selected}"]`);
    el?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);

  let statusText = '';
  if (status.kind === 'rows') statusText = `${rows.length} ${rows.length === 1 ? 'match' : 'matches'}`;
  else if (status.kind === 'error') statusText = '';
  else if (status.kind === 'empty' && picker.mode?.kind === 'mention')
    statusText = STATUS_TEXT['empty-mention']!;
  else statusText = STATUS_TEXT[status.kind] ?? '';

  return (
    <div className="picker" data-testid="file-picker">
      <div
        className="picker-list"
        role="listbox"
        id={listId}
        aria-label="Files and folders"
        data-rows-for={picker.rowsFor}
        ref={listRef}
      >
        {rows.map((r, i) => {
          const kind = rowKind(r);
          return (
            <div
              key={r.path}
              id={`${listId}-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === selected}
              // Rank order: the best row is 1 and sits nearest the composer; Up moves to 2 (the list grows upward).
              aria-posinset={i + 1}
              aria-setsize={rows.length}
              data-kind={kind}
              data-index={i}
              title={visibleName(r.path)}
              className="picker-row"
              onMouseDown={(e) => {
                e.preventDefault();
                onChoose(i);
              }}
              onMouseMove={() => i !== selected && picker.setSelected(i)}
            >
              <TypeIcon name={r.name} kind={kind} />
              <span className="picker-label">
                <RowLabel
                  path={r.path}
                  name={r.name}
                  kind={kind}
                  root={picker.root}
                  positions={r.positions}
                  dirChars={32}
                  nameClass="picker-name"
                />
              </span>
              <span className="picker-meta">
                {r.size < 0
                  ? 'recent'
                  : `${kind === 'dir' ? 'folder' : formatSize(r.size)} · ${formatAge(r.mtime)}`}
              </span>
            </div>
          );
        })}
      </div>
      {status.kind === 'error' ? (
        <div className="picker-error" role="alert" data-testid="file-picker-search-error">
          Search failed: {status.message}
        </div>
      ) : null}
      <div className="picker-status" role="status">
        {statusText}
      </div>
    </div>
  );
}
