/**
 * A lazy folder tree of one project: each folder lists its level from `/api/tree` when first expanded. `reveal`
 * expands every folder on the way to a path (a folder chip clicked in the thread) and marks it.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, type FileRow } from '../api/endpoints.js';
import { TypeIcon } from '../ui/fileTypes.js';
import { ChevronIcon, FolderIcon } from '../ui/icons.js';
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

function Level({ project, rel, depth, ...rest }: TreeProps & { rel: string; depth: number }) {
  const q = useQuery({
    queryKey: ['tree', project, rel],
    queryFn: ({ signal }) => api.tree(project, rel, signal),
    staleTime: 30_000,
    retry: false,
  });
  if (q.isPending)
    return (
      <div className="tree-note" style={{ paddingLeft: 8 + depth * 14 }}>
        Loading…
      </div>
    );
  if (q.isError)
    return (
      <div className="tree-note warn" role="alert" style={{ paddingLeft: 8 + depth * 14 }}>
        {(q.error as Error).message}
      </div>
    );
  const { entries, truncated } = q.data;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a tree's group
    <div role="group">
      {entries.length === 0 ? (
        <div className="tree-note" style={{ paddingLeft: 8 + depth * 14 }}>
          empty
        </div>
      ) : null}
      {entries.map((e) => (
        <Node key={e.path} project={project} row={e} depth={depth} {...rest} />
      ))}
      {truncated ? (
        <div className="tree-note" style={{ paddingLeft: 8 + depth * 14 }}>
          more entries not shown
        </div>
      ) : null}
    </div>
  );
}

function Node({ project, row, depth, ...rest }: TreeProps & { row: FileRow; depth: number }) {
  const rel = relOf(row);
  const isDir = row.kind === 'dir';
  const open = isDir && rest.expanded.has(rel);
  const ref = useRef<HTMLButtonElement>(null);
  const focused = rest.focus === rel;
  useEffect(() => {
    if (focused) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [focused]);
  return (
    <>
      <div className="row-line">
        <button
          ref={ref}
          type="button"
          role="treeitem"
          aria-expanded={isDir ? open : undefined}
          aria-selected={focused}
          className={`tree-row${focused ? ' focused' : ''}`}
          style={{ paddingLeft: 8 + depth * 14 }}
          title={rel}
          data-kind={isDir ? 'dir' : 'file'}
          onClick={() => (isDir ? rest.onToggle(rel) : rest.onOpenFile(rel))}
          {...transferProps({ kind: isDir ? 'dir' : 'file', rel })}
        >
          {isDir ? (
            <ChevronIcon className={`icon chevron${open ? ' open' : ''}`} />
          ) : (
            <span className="chevron-pad" />
          )}
          {isDir ? <FolderIcon /> : <TypeIcon name={row.name} kind="file" />}
          <span className="tree-name">{row.name}</span>
        </button>
        {rest.onAttach ? (
          <AddToMessage item={{ kind: isDir ? 'dir' : 'file', rel }} onAttach={rest.onAttach} />
        ) : null}
      </div>
      {open ? <Level project={project} rel={rel} depth={depth + 1} {...rest} /> : null}
    </>
  );
}

export function Tree(props: TreeProps) {
  return (
    <div className="tree" role="tree" aria-label="Project files">
      <Level {...props} rel="" depth={0} />
    </div>
  );
}
