/**
 * The Files rail's content results, as an editor's search panel shows them: one row per file with its count of
 * matching lines, the file's first matching lines under it (collapsible), each opening the file at its line.
 * Keyboard: Up/Down through every row shown, Left/Right to collapse, expand or go from a line to its file.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { busyRetryDelay, retryWhenBusy } from '../api/client.js';
import { api, type GrepAnswer, type GrepHit, type GrepOptions } from '../api/endpoints.js';
import { makeRelative } from '../tokens/paths.js';
import { TypeIcon } from '../ui/fileTypes.js';
import { ChevronIcon } from '../ui/icons.js';
import { RowLabel } from '../ui/RowLabel.js';
import { useDebounced } from '../ui/useDebounced.js';
import { visibleName } from '../ui/Visible.js';
import { AddToMessage, type OnAttach } from './AddToMessage.js';
import { exactPathGlob, globField } from './globs.js';
import { centreOnMatch, Highlighted } from './highlight.js';
import { groupHits, type HitGroup, hitSummary, unshownLines } from './hitGroups.js';
import { moveAmongHits } from './hitKeys.js';
import { transferProps } from './transfer.js';

/** Content search asks for nothing below two characters (the endpoint's floor) and waits out a burst of keys. */
export const GREP_MIN_CHARS = 2;
export const GREP_DEBOUNCE_MS = 250;
/** Lines shown under each file at first: a screenful of files, each with a taste of where it matched. */
export const RAIL_LINES_PER_FILE = 5;
/** The endpoint's `per_file` ceiling (docs/http-api.md): "Show more" under a file asks this many of its lines. */
export const MAX_LINES_PER_FILE = 20;

/** The status line: how many lines and files, and what is partial. */
export function statusNotes(data: GrepAnswer, groups: readonly HitGroup[]): string {
  const notes = [groups.length === 0 ? '0 files' : hitSummary(groups)];
  if (data.truncated) notes.push('partial');
  if (data.skipped_docs > 0) notes.push(`${data.skipped_docs} or more documents not searched`);
  return notes.join(' · ');
}

export interface ContentResultsProps {
  project: string;
  query: string;
  /** The switches (case, word, regex). */
  options: Pick<GrepOptions, 'caseSensitive' | 'wholeWord' | 'regex'>;
  /** The "files to include" and "files to exclude" fields as typed (comma-separated globs). */
  includeText: string;
  excludeText: string;
  onOpenFile: (rel: string, line?: number, find?: string) => void;
  onAttach: OnAttach | undefined;
}

export function ContentResults({
  project,
  query,
  options,
  includeText,
  excludeText,
  onOpenFile,
  onAttach,
}: ContentResultsProps) {
  const settled = useDebounced(query.trim(), GREP_DEBOUNCE_MS);
  const include = globField(useDebounced(includeText, GREP_DEBOUNCE_MS));
  const exclude = globField(useDebounced(excludeText, GREP_DEBOUNCE_MS));
  const request: GrepOptions = { ...options, include, exclude, perFile: RAIL_LINES_PER_FILE };
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const q = useQuery({
    queryKey: ['file-grep', project, settled, request],
    queryFn: ({ signal }) => api.fileGrep(project, settled, signal, request),
    enabled: settled.length >= GREP_MIN_CHARS,
    // Keep the previous hits while a refined query runs — but only for the same project: old-project rows must
    // not stay clickable.
    placeholderData: (prev, prevQuery) => (prevQuery?.queryKey[1] === project ? prev : undefined),
    staleTime: 30_000,
    retry: retryWhenBusy,
    retryDelay: busyRetryDelay,
  });
  if (query.trim().length < GREP_MIN_CHARS) {
    return <p className="rail-note">Type at least two characters to search inside files.</p>;
  }
  if (q.isError) {
    return (
      <div className="rail-note warn" role="alert" data-testid="file-grep-error">
        Couldn't search file contents: {(q.error as Error).message}
      </div>
    );
  }
  const data = q.data;
  const groups = data ? groupHits(data.results) : [];
  const root = data?.root || project;
  const toggle = (file: string) =>
    setCollapsed((old) => {
      const next = new Set(old);
      if (next.has(file)) next.delete(file);
      else next.add(file);
      return next;
    });
  return (
    <>
      <div className="rail-status" role="status" data-testid="file-grep-status">
        {q.isFetching || !data ? 'Searching…' : statusNotes(data, groups)}
      </div>
      {data?.truncated ? (
        <p className="rail-note" data-testid="file-grep-partial-why">
          The search stopped before the end: narrow the query to see every file.
        </p>
      ) : null}
      {groups.some((g) => g.document) ? (
        <p className="rail-note" data-testid="file-grep-doc-note">
          A document hit opens at the document's text, the matching passage marked.
        </p>
      ) : null}
      {data && groups.length === 0 && !q.isFetching ? <p className="rail-note">No results</p> : null}
      <ul className="hits hit-groups" onKeyDown={moveAmongHits}>
        {groups.map((g) => (
          <FileHits
            key={g.file}
            group={g}
            rel={makeRelative(g.file, root).replace(/^\/+/, '')}
            open={!collapsed.has(g.file)}
            onToggle={() => toggle(g.file)}
            more={{ project, query: settled, options: request }}
            onOpenFile={onOpenFile}
            onAttach={onAttach}
          />
        ))}
      </ul>
    </>
  );
}

interface FileHitsProps {
  group: HitGroup;
  /** The file relative to the project (what opens and attaches). */
  rel: string;
  open: boolean;
  onToggle: () => void;
  /** The search the group came from, asked again for this file alone when more of its lines are wanted. */
  more: { project: string; query: string; options: GrepOptions };
  onOpenFile: (rel: string, line?: number, find?: string) => void;
  onAttach: OnAttach | undefined;
}

/** One file's row (a disclosure button: name, folder, count) and, open, its matching lines. */
function FileHits({ group, rel, open, onToggle, more, onOpenFile, onAttach }: FileHitsProps) {
  const listId = useId();
  const [wantAll, setWantAll] = useState(false);
  // "Show more": the same search narrowed to this file (its path as an exact glob), at the endpoint's ceiling.
  const all = useQuery({
    queryKey: ['file-grep', more.project, more.query, more.options, 'file', group.file],
    queryFn: ({ signal }) =>
      api.fileGrep(more.project, more.query, signal, {
        ...more.options,
        include: [exactPathGlob(group.file)],
        perFile: MAX_LINES_PER_FILE,
      }),
    enabled: wantAll,
    staleTime: 30_000,
    retry: retryWhenBusy,
    retryDelay: busyRetryDelay,
  });
  const fetched = all.data ? groupHits(all.data.results).find((g) => g.file === group.file) : undefined;
  const shown = fetched && fetched.hits.length >= group.hits.length ? fetched : group;
  const unshown = unshownLines(shown);
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  const last = shown.hits[shown.hits.length - 1];
  const openHit = (r: GrepHit) =>
    r.line > 0 ? onOpenFile(rel, r.line) : onOpenFile(rel, undefined, r.preview);

  // Left and Right as in a tree: collapse, expand, or go from a line up to its file's row.
  const onKeyDown = (e: React.KeyboardEvent<HTMLLIElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    const fileRow = e.currentTarget.querySelector<HTMLElement>('.hit-file');
    const onFileRow = e.target === fileRow;
    if (e.key === 'ArrowLeft') {
      if (onFileRow && open) onToggle();
      else if (!onFileRow) fileRow?.focus();
      else return;
    } else {
      if (!onFileRow) return;
      if (!open) onToggle();
      else e.currentTarget.querySelector<HTMLElement>('.hit-lines .hit')?.focus();
    }
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <li className="hit-group" onKeyDown={onKeyDown}>
      <div className="row-line">
        <button
          type="button"
          className="hit hit-file"
          title={visibleName(rel)}
          aria-expanded={open}
          aria-controls={listId}
          onClick={onToggle}
          {...transferProps({ kind: 'file', rel })}
        >
          <ChevronIcon className={`icon chevron${open ? ' open' : ''}`} />
          <TypeIcon name={name} kind="file" />
          <span className="hit-label">
            <RowLabel path={rel} name={name} kind="file" root="" dirChars={28} />
          </span>
          {shown.document ? null : (
            <span className="hit-count" data-testid="hit-count">
              {shown.count ?? `${shown.hits.length}+`}
              <span className="sr-only"> matching {shown.count === 1 ? 'line' : 'lines'}</span>
            </span>
          )}
        </button>
        {onAttach ? <AddToMessage item={{ kind: 'file', rel }} onAttach={onAttach} /> : null}
      </div>
      {open ? (
        <ul className="hit-lines" id={listId}>
          {shown.hits.map((r) => (
            <li key={`${r.line}:${r.label ?? ''}`}>
              <HitLine hit={r} query={more.query} onOpen={() => openHit(r)} />
            </li>
          ))}
          {unshown === 0 ? null : (
            <li>
              <MoreLines
                unshown={unshown}
                fetchable={wantAll ? 0 : MAX_LINES_PER_FILE - shown.hits.length}
                fetching={all.isFetching}
                failed={all.isError ? (all.error as Error).message : null}
                onFetch={() => setWantAll(true)}
                onOpenRest={() => (last ? openHit(last) : onOpenFile(rel))}
                lastLine={last?.line ?? 0}
              />
            </li>
          )}
        </ul>
      ) : null}
    </li>
  );
}

/** A matching line: its number (a document's place, if it has one) and the line, centred on the match. */
function HitLine({ hit, query, onOpen }: { hit: GrepHit; query: string; onOpen: () => void }) {
  const centred = centreOnMatch(hit.preview, hit.ranges, query);
  return (
    <button type="button" className="hit hit-line" onClick={onOpen}>
      <span className="hit-tag">
        {hit.line > 0 ? (
          <>
            <span className="sr-only">line </span>
            {hit.line}
          </>
        ) : (
          (hit.label ?? '')
        )}
      </span>
      <span className="hit-preview">
        <Highlighted text={centred.text} ranges={centred.ranges} query={query} />
      </span>
    </button>
  );
}

/**
 * The row under a file's lines when it has more: "Show N more" (asks the server for up to MAX_LINES_PER_FILE of
 * them), or past that, how many remain and a way to open the file after the last line shown.
 */
function MoreLines(props: {
  unshown: number | undefined;
  /** How many more lines asking the server can bring (0: asked already, or the ceiling is shown). */
  fetchable: number;
  fetching: boolean;
  failed: string | null;
  onFetch: () => void;
  onOpenRest: () => void;
  lastLine: number;
}) {
  if (props.fetching) return <span className="hit-more-note">Loading more lines…</span>;
  const n = props.unshown;
  if (props.fetchable > 0 && props.failed === null) {
    const k = n === undefined ? undefined : Math.min(n, props.fetchable);
    return (
      <button type="button" className="hit hit-more" onClick={props.onFetch}>
        {k === undefined ? 'Show more lines' : `Show ${k} more ${k === 1 ? 'line' : 'lines'}`}
      </button>
    );
  }
  const rest = n === undefined ? 'More lines match' : `${n} more ${n === 1 ? 'line' : 'lines'}`;
  return (
    <button type="button" className="hit hit-more" onClick={props.onOpenRest}>
      {props.failed !== null ? `Couldn't load more lines (${props.failed}). ` : ''}
      {rest}: open the file{props.lastLine > 0 ? ` at line ${props.lastLine}` : ''}
    </button>
  );
}
