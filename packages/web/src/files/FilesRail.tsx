/**
 * The Files rail: the project's folder tree, and a search field in one of two modes named in words — Name (files
 * and folders by name, `/api/file-search`) and Content (text inside files, `/api/file-grep`). Content results
 * replace the tree; a project switch drops the old project's hits at once (they open by path).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { busyRetryDelay, retryWhenBusy } from '../api/client.js';
import { api, type FileRow, type GrepAnswer, type GrepOptions } from '../api/endpoints.js';
import { makeRelative } from '../tokens/paths.js';
import { TypeIcon } from '../ui/fileTypes.js';
import { CloseIcon } from '../ui/icons.js';
import { RowLabel } from '../ui/RowLabel.js';
import { useDebounced } from '../ui/useDebounced.js';
import { visibleName } from '../ui/Visible.js';
import { AddToMessage, type OnAttach } from './AddToMessage.js';
import { centreOnMatch, Highlighted } from './highlight.js';
import { Tree } from './Tree.js';
import { transferProps } from './transfer.js';

/** Content search asks for nothing below two characters (the endpoint's floor) and waits out a burst of keys. */
export const GREP_MIN_CHARS = 2;
export const GREP_DEBOUNCE_MS = 250;
export const NAME_DEBOUNCE_MS = 200;
/** Name hits asked for at first, and after "Show more" (the endpoint's ceiling). */
export const NAME_FIRST_PAGE = 15;
export const NAME_MORE_PAGE = 60;

export type SearchMode = 'name' | 'content';

export interface FilesRailProps {
  project: string;
  /** Open a file of the project (path relative to the project) at a line, or a document at the text `find`. */
  onOpenFile: (rel: string, line?: number, find?: string) => void;
  /** A folder to reveal in the tree (relative to the project), set by a folder chip; `n` makes a repeat count. */
  reveal: { rel: string; n: number } | null;
  /** Attach a file or folder to the composer; without it rows have no "Add to message" button. */
  onAttach?: OnAttach;
}

function ancestors(rel: string): string[] {
  const parts = rel.split('/').filter((p) => p !== '');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

export function FilesRail({ project, onOpenFile, reveal, onAttach }: FilesRailProps) {
  const [mode, setMode] = useState<SearchMode>('name');
  const [query, setQuery] = useState('');
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [focus, setFocus] = useState<string | null>(null);
  const [grepOptions, setGrepOptions] = useState<GrepOptions>({});

  useEffect(() => {
    if (reveal === null) return;
    setQuery('');
    setMode('name');
    setExpanded((old) => new Set([...old, ...ancestors(reveal.rel)]));
    setFocus(reveal.rel.replace(/\/+$/, ''));
  }, [reveal]);

  const toggle = (rel: string) =>
    setExpanded((old) => {
      const next = new Set(old);
      if (next.has(rel)) next.delete(rel);
      else next.add(rel);
      return next;
    });

  const searching = query.trim() !== '';
  return (
    <section className="rail" aria-label="Files">
      <div className="rail-head">
        {/* biome-ignore lint/a11y/useSemanticElements: a toggle pair, not a form group */}
        <div className="segmented" role="group" aria-label="Search mode">
          {/* The accessible names start with the visible words (a speech user says what they see). */}
          <button
            type="button"
            aria-pressed={mode === 'name'}
            aria-label="Name — search file names"
            onClick={() => setMode('name')}
          >
            Name
          </button>
          <button
            type="button"
            aria-pressed={mode === 'content'}
            aria-label="Content — search file contents"
            onClick={() => setMode('content')}
          >
            Content
          </button>
        </div>
        <div className="search-field">
          <input
            type="search"
            // No project yet (the list is still loading): the rail is remade for the project when it arrives, so
            // what was typed here before would be dropped.
            disabled={project === ''}
            value={query}
            placeholder={mode === 'name' ? 'Filter files…' : 'Search in files…'}
            aria-label={mode === 'name' ? 'Filter files…' : 'Search in files…'}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.preventDefault();
                setQuery('');
              } else if (e.key === 'ArrowDown') {
                // Down from the field goes into the hits (Up from the first comes back)
                const first = e.currentTarget.closest('.rail')?.querySelector<HTMLElement>('.hits .hit');
                if (first) {
                  e.preventDefault();
                  first.focus();
                }
              }
            }}
          />
          {query !== '' ? (
            <button
              type="button"
              className="icon-button"
              aria-label="Close search"
              onClick={() => setQuery('')}
            >
              <CloseIcon />
            </button>
          ) : null}
        </div>
        {mode === 'content' ? <GrepSwitches value={grepOptions} onChange={setGrepOptions} /> : null}
      </div>
      <div className="rail-body">
        {project === '' ? (
          <p className="rail-note">Choose a project to browse its files.</p>
        ) : mode === 'content' ? (
          <ContentResults
            project={project}
            query={query}
            options={grepOptions}
            onOpenFile={onOpenFile}
            onAttach={onAttach}
          />
        ) : searching ? (
          <NameResults
            project={project}
            query={query}
            onAttach={onAttach}
            onOpen={(row, rel) => {
              if (row.kind === 'dir') {
                setQuery('');
                setExpanded((old) => new Set([...old, ...ancestors(rel)]));
                setFocus(rel);
              } else onOpenFile(rel);
            }}
          />
        ) : (
          <Tree
            project={project}
            expanded={expanded}
            onToggle={toggle}
            onOpenFile={(rel) => onOpenFile(rel)}
            focus={focus}
            onAttach={onAttach}
          />
        )}
      </div>
    </section>
  );
}

function NameResults({
  project,
  query,
  onOpen,
  onAttach,
}: {
  project: string;
  query: string;
  onOpen: (row: FileRow, rel: string) => void;
  onAttach: OnAttach | undefined;
}) {
  const settled = useDebounced(query.trim(), NAME_DEBOUNCE_MS);
  const [more, setMore] = useState<string | null>(null);
  const limit = more === settled ? NAME_MORE_PAGE : NAME_FIRST_PAGE;
  const q = useQuery({
    queryKey: ['file-search', settled, project, 'rail', limit],
    queryFn: ({ signal }) => api.fileSearch(settled, project, signal, limit),
    enabled: settled.length >= 2,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: retryWhenBusy,
    retryDelay: busyRetryDelay,
  });
  if (query.trim().length < 2) return <p className="rail-note">Type at least two characters.</p>;
  if (q.isError)
    return (
      <p className="rail-note warn" role="alert">
        Couldn't search file names: {(q.error as Error).message}
      </p>
    );
  const rows = q.data?.results ?? [];
  const root = q.data?.root || project;
  // The endpoint answers the best `limit` rows and no total: a full page says "the best N", never "N results".
  const full = rows.length >= limit;
  let status = `${rows.length} ${rows.length === 1 ? 'result' : 'results'}`;
  if (full) status = `best ${rows.length} · more may match`;
  if (q.data?.truncated) status += ' · partial';
  return (
    <>
      <div className="rail-status" role="status" data-testid="file-search-status">
        {q.isFetching ? 'Searching…' : status}
      </div>
      {rows.length === 0 && !q.isFetching && q.data ? <p className="rail-note">No results</p> : null}
      <ul className="hits" onKeyDown={moveAmongHits}>
        {rows.map((r) => {
          const rel = makeRelative(r.path, root);
          const kind = r.kind === 'dir' ? 'dir' : 'file';
          return (
            <li key={r.path} className="row-line">
              <button
                type="button"
                className="hit hit-name"
                title={visibleName(r.path)}
                onClick={() => onOpen(r, rel)}
                {...(rel !== r.path ? transferProps({ kind, rel }) : {})}
              >
                <TypeIcon name={r.name} kind={kind} />
                <span className="hit-label">
                  <RowLabel
                    path={r.path}
                    name={r.name}
                    kind={kind}
                    root={root}
                    positions={r.positions}
                    dirChars={28}
                  />
                </span>
              </button>
              {onAttach && rel !== r.path ? <AddToMessage item={{ kind, rel }} onAttach={onAttach} /> : null}
            </li>
          );
        })}
      </ul>
      {full && limit < NAME_MORE_PAGE && !q.isFetching ? (
        <button type="button" className="link-button show-more" onClick={() => setMore(settled)}>
          Show more
        </button>
      ) : null}
    </>
  );
}

/**
 * Up and Down move focus through a list of hits (Home/End to its ends), Up from the first back to the search
 * field; Enter opens the focused hit, as a click would.
 */
function moveAmongHits(e: React.KeyboardEvent<HTMLUListElement>) {
  const hits = [...e.currentTarget.querySelectorAll<HTMLElement>('.hit')];
  const at = hits.indexOf(document.activeElement as HTMLElement);
  if (at < 0) return;
  let to: HTMLElement | null | undefined;
  if (e.key === 'ArrowDown') to = hits[at + 1];
  else if (e.key === 'ArrowUp')
    to =
      at === 0
        ? e.currentTarget.closest('.rail')?.querySelector<HTMLElement>('input[type="search"]')
        : hits[at - 1];
  else if (e.key === 'Home') to = hits[0];
  else if (e.key === 'End') to = hits[hits.length - 1];
  else return;
  e.preventDefault();
  to?.focus();
}

export function statusNotes(data: GrepAnswer): string {
  const n = data.results.length;
  const notes = [`${n} ${n === 1 ? 'result' : 'results'}`];
  if (n > 0) notes.push('one row per file');
  if (data.truncated) notes.push('partial');
  if (data.skipped_docs > 0) notes.push(`${data.skipped_docs} or more documents not searched`);
  return notes.join(' · ');
}

const SWITCHES: { key: keyof GrepOptions; shown: string; label: string }[] = [
  { key: 'caseSensitive', shown: 'Aa', label: 'Match case' },
  { key: 'wholeWord', shown: 'ab', label: 'Match whole word' },
  { key: 'regex', shown: '.*', label: 'Use regular expression' },
];

/** The content search's three switches, as an editor's search panel has them: toggle buttons, named in words. */
function GrepSwitches({ value, onChange }: { value: GrepOptions; onChange: (v: GrepOptions) => void }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a row of toggles, not a form group
    <div className="grep-switches" role="group" aria-label="Content search options">
      {SWITCHES.map((s) => (
        <button
          key={s.key}
          type="button"
          className={`switch switch-${s.key}`}
          aria-pressed={value[s.key] === true}
          aria-label={s.label}
          title={s.label}
          data-glyph={s.shown}
          onClick={() => onChange({ ...value, [s.key]: !value[s.key] })}
        />
      ))}
    </div>
  );
}

function ContentResults({
  project,
  query,
  options,
  onOpenFile,
  onAttach,
}: {
  project: string;
  query: string;
  options: GrepOptions;
  onOpenFile: (rel: string, line?: number, find?: string) => void;
  onAttach: OnAttach | undefined;
}) {
  const settled = useDebounced(query.trim(), GREP_DEBOUNCE_MS);
  const q = useQuery({
    queryKey: ['file-grep', project, settled, options],
    queryFn: ({ signal }) => api.fileGrep(project, settled, signal, options),
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
  const hasDocHit = data?.results.some((r) => r.line === 0) ?? false;
  return (
    <>
      <div className="rail-status" role="status" data-testid="file-grep-status">
        {q.isFetching || !data ? 'Searching…' : statusNotes(data)}
      </div>
      {data?.truncated ? (
        <p className="rail-note" data-testid="file-grep-partial-why">
          The search stopped before the end: narrow the query to see every file.
        </p>
      ) : null}
      {hasDocHit ? (
        <p className="rail-note" data-testid="file-grep-doc-note">
          A document hit opens at the document's text, the matching passage marked.
        </p>
      ) : null}
      {data && data.results.length === 0 && !q.isFetching ? <p className="rail-note">No results</p> : null}
      <ul className="hits" onKeyDown={moveAmongHits}>
        {data?.results.map((r) => {
          const rel = makeRelative(r.file, data.root || project).replace(/^\/+/, '');
          const tag = r.label ? r.label : r.line > 0 ? `:${r.line}` : '';
          const name = rel.slice(rel.lastIndexOf('/') + 1);
          const shown = centreOnMatch(r.preview, r.ranges, settled);
          return (
            <li key={`${r.file}:${r.line}`} className="row-line">
              <button
                type="button"
                className="hit"
                title={visibleName(rel)}
                onClick={() => (r.line > 0 ? onOpenFile(rel, r.line) : onOpenFile(rel, undefined, r.preview))}
                {...transferProps({ kind: 'file', rel })}
              >
                <TypeIcon name={name} kind="file" />
                <span className="hit-label">
                  <RowLabel path={rel} name={name} kind="file" root="" dirChars={28} />
                </span>
                {tag ? <span className="hit-tag">{tag}</span> : null}
                <span className="hit-preview">
                  <Highlighted text={shown.text} ranges={shown.ranges} query={settled} />
                </span>
              </button>
              {onAttach ? <AddToMessage item={{ kind: 'file', rel }} onAttach={onAttach} /> : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}
