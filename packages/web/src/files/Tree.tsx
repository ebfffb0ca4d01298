/**
 * A lazy folder tree of one project, in the ARIA tree pattern: each folder lists its level from `/api/tree` when
 * first expanded; the visible rows are one flat list of treeitems (aria-level, -setsize, -posinset) with one Tab
 * stop, moved through with the arrow keys (Up/Down, Right opens or enters a folder, Left closes it or goes to its
 * parent, Home/End, Enter opens). The "Add to message" buttons sit beside the tree, not in it — a treeitem holds
 * no other control — one per row, the active row's the next Tab stop. `reveal` expands every folder on the way to a
 * path (a folder chip clicked in the thread) and marks it.
 */
import { type UseQueryResult, useQueries } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, type FileRow } from '../api/endpoints.js';
import { TypeIcon } from '../ui/fileTypes.js';
import { ChevronIcon, FolderIcon } from '../ui/icons.js';
import { Visible, visibleName } from '../ui/Visible.js';
import { AddToMessage, type OnAttach } from './AddToMessage.js';
import { transferProps } from './transfer.js';

export interface TreeProps {
  project: string;
  expanded: ReadonlySet<string>;
  onToggle: (rel: string) => void;
  onOpenFile: (rel: string) => void;
  /** The rel to scroll to and mark. */
  focus: string | null;
  /** Attach a row to the composer; without it rows have no "Add to message" button. */
  onAttach?: OnAttach;
}

const relOf = (row: FileRow) => row.path.replace(/^\/+/, '');

type Listing = { root: string; path: string; entries: FileRow[]; truncated: boolean };

/** One visible line of the tree: an entry, or a note about a level (loading, failed, empty, cut short). */
type Line =
  | {
      kind: 'item';
      row: FileRow;
      rel: string;
      depth: number;
      setsize: number;
      posinset: number;
      parent: string;
    }
  | { kind: 'note'; key: string; text: string; depth: number; warn?: boolean };

/** The visible lines: the root level, and under each expanded folder its own level, depth first. */
function flatten(levels: Map<string, UseQueryResult<Listing>>, expanded: ReadonlySet<string>): Line[] {
  const out: Line[] = [];
  const walk = (rel: string, depth: number) => {
    const q = levels.get(rel);
    if (!q || q.isPending) {
      out.push({ kind: 'note', key: `${rel}:loading`, text: 'Loading…', depth });
      return;
    }
    if (q.isError) {
      out.push({ kind: 'note', key: `${rel}:error`, text: (q.error as Error).message, depth, warn: true });
      return;
    }
    const { entries, truncated } = q.data;
    if (entries.length === 0) out.push({ kind: 'note', key: `${rel}:empty`, text: 'empty', depth });
    entries.forEach((row, i) => {
      const child = relOf(row);
      out.push({
        kind: 'item',
        row,
        rel: child,
        depth,
        setsize: entries.length,
        posinset: i + 1,
        parent: rel,
      });
      if (row.kind === 'dir' && expanded.has(child)) walk(child, depth + 1);
    });
    if (truncated) out.push({ kind: 'note', key: `${rel}:more`, text: 'more entries not shown', depth });
  };
  walk('', 0);
  return out;
}

/** The folders whose levels are on screen: the root and every expanded folder whose ancestors are expanded too. */
function shownLevels(expanded: ReadonlySet<string>): string[] {
  return [
    '',
    ...[...expanded].filter((rel) => {
      const parts = rel.split('/');
      return parts.every((_, i) => i === 0 || expanded.has(parts.slice(0, i).join('/')));
    }),
  ];
}

function Note({ line }: { line: Extract<Line, { kind: 'note' }> }) {
  return (
    <div className={`tree-note${line.warn ? ' warn' : ''}`} style={{ paddingLeft: 8 + line.depth * 14 + 21 }}>
      {line.text}
    </div>
  );
}

export function Tree({ project, expanded, onToggle, onOpenFile, focus, onAttach }: TreeProps) {
  const rels = shownLevels(expanded);
  const queries = useQueries({
    queries: rels.map((rel) => ({
      queryKey: ['tree', project, rel],
      queryFn: ({ signal }: { signal: AbortSignal }) => api.tree(project, rel, signal),
      staleTime: 30_000,
      retry: false,
    })),
  });
  const levels = new Map(rels.map((rel, i) => [rel, queries[i]!]));
  const lines = flatten(levels, expanded);
  const items = lines.filter((l) => l.kind === 'item');
  // The one row in the tab order: the one last moved to, else the marked one, else the first.
  const [active, setActive] = useState<string | null>(null);
  const [hover, setHover] = useState<string | null>(null);
  const current =
    items.find((l) => l.rel === active)?.rel ?? items.find((l) => l.rel === focus)?.rel ?? items[0]?.rel;
  const refs = useRef(new Map<string, HTMLDivElement>());
  const moved = useRef(false);

  useEffect(() => {
    if (focus) refs.current.get(focus)?.scrollIntoView?.({ block: 'nearest' });
  }, [focus]);
  // Follows the active row after a key moved it.
  useEffect(() => {
    if (!moved.current || current === undefined) return;
    moved.current = false;
    refs.current.get(current)?.focus();
  }, [current]);

  const moveTo = (rel: string | undefined) => {
    if (rel === undefined) return;
    moved.current = true;
    setActive(rel);
    if (rel === current) refs.current.get(rel)?.focus();
  };
  const activate = (l: Extract<Line, { kind: 'item' }>) =>
    l.row.kind === 'dir' ? onToggle(l.rel) : onOpenFile(l.rel);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const at = items.findIndex((l) => l.rel === current);
    const l = items[at];
    if (!l) return;
    const isDir = l.row.kind === 'dir';
    const open = isDir && expanded.has(l.rel);
    let handled = true;
    switch (e.key) {
      case 'ArrowDown':
        moveTo(items[at + 1]?.rel);
        break;
      case 'ArrowUp':
        moveTo(items[at - 1]?.rel);
        break;
      case 'Home':
        moveTo(items[0]?.rel);
        break;
      case 'End':
        moveTo(items[items.length - 1]?.rel);
        break;
      case 'ArrowRight':
        if (isDir && !open) onToggle(l.rel);
        else if (open && items[at + 1]?.parent === l.rel) moveTo(items[at + 1]!.rel);
        break;
      case 'ArrowLeft':
        if (open) onToggle(l.rel);
        else if (l.parent !== '') moveTo(l.parent);
        break;
      case 'Enter':
      case ' ':
        activate(l);
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  };

  return (
    <div className="tree-wrap">
      {items.length === 0 ? (
        // Until a level has loaded there is no treeitem, and a tree without one is not a tree.
        <div className="tree">
          {lines.map((l) => (l.kind === 'note' ? <Note key={l.key} line={l} /> : null))}
        </div>
      ) : (
        <div className="tree" role="tree" aria-label="Project files" onKeyDown={onKeyDown}>
          {lines.map((l) => {
            if (l.kind === 'note') return <Note key={l.key} line={l} />;
            const isDir = l.row.kind === 'dir';
            const open = isDir && expanded.has(l.rel);
            const marked = focus === l.rel;
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the tree's onKeyDown handles the keys of every row
              <div
                key={l.row.path}
                ref={(el) => {
                  if (el) refs.current.set(l.rel, el);
                  else refs.current.delete(l.rel);
                }}
                role="treeitem"
                tabIndex={l.rel === current ? 0 : -1}
                aria-level={l.depth + 1}
                aria-setsize={l.setsize}
                aria-posinset={l.posinset}
                aria-expanded={isDir ? open : undefined}
                aria-selected={marked}
                className={`tree-row${marked ? ' focused' : ''}${hover === l.rel ? ' hovered' : ''}`}
                style={{ paddingLeft: 8 + l.depth * 14 }}
                title={visibleName(l.rel)}
                data-kind={isDir ? 'dir' : 'file'}
                onClick={() => {
                  setActive(l.rel);
                  activate(l);
                }}
                onFocus={() => setActive(l.rel)}
                onMouseEnter={() => setHover(l.rel)}
                onMouseLeave={() => setHover(null)}
                {...transferProps({ kind: isDir ? 'dir' : 'file', rel: l.rel })}
              >
                {isDir ? (
                  <ChevronIcon className={`icon chevron${open ? ' open' : ''}`} />
                ) : (
                  <span className="chevron-pad" />
                )}
                {isDir ? <FolderIcon /> : <TypeIcon name={l.row.name} kind="file" />}
                <span className="tree-name">
                  <Visible text={l.row.name} />
                </span>
              </div>
            );
          })}
        </div>
      )}
      {onAttach ? (
        <div className="tree-actions">
          {lines.map((l) =>
            l.kind === 'note' ? (
              <div key={l.key} className="tree-note" aria-hidden="true">
                {'\u00a0'}
              </div>
            ) : (
              <div
                key={l.row.path}
                className={`tree-action${hover === l.rel || l.rel === current ? ' shown' : ''}`}
              >
                <AddToMessage
                  item={{ kind: l.row.kind === 'dir' ? 'dir' : 'file', rel: l.rel }}
                  onAttach={onAttach}
                  tabbable={l.rel === current}
                />
              </div>
            ),
          )}
        </div>
      ) : null}
    </div>
  );
}
