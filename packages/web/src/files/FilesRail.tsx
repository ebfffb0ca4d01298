/**
 * The Files rail: the project's folder tree, and a search field in one of two modes named in words — Name (files
 * and folders by name, `/api/file-search`) and Content (text inside files, `/api/file-grep`). Content results
 * replace the tree; a project switch drops the old project's hits at once (they open by path).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { busyRetryDelay, retryWhenBusy } from '../api/client.js';
import { api, type FileRow, type GrepOptions } from '../api/endpoints.js';
import { makeRelative } from '../tokens/paths.js';
import { TypeIcon } from '../ui/fileTypes.js';
import { CloseIcon } from '../ui/icons.js';
import { RowLabel } from '../ui/RowLabel.js';
import { useDebounced } from '../ui/useDebounced.js';
import { visibleName } from '../ui/Visible.js';
import { AddToMessage, type OnAttach } from './AddToMessage.js';
import { ContentResults } from './ContentHits.js';
import { globField } from './globs.js';
import { moveAmongHits } from './hitKeys.js';
import { Tree } from './Tree.js';
import { transferProps } from './transfer.js';

export { GREP_DEBOUNCE_MS, GREP_MIN_CHARS } from './ContentHits.js';
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
  const [globs, setGlobs] = useState({ include: '', exclude: '' });

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
        {mode === 'content' ? (
          <GrepSwitches value={grepOptions} onChange={setGrepOptions} globs={globs} onGlobs={setGlobs} />
        ) : null}
      </div>
      <div className="rail-body">
        {project === '' ? (
          <p className="rail-note">Choose a project to browse its files.</p>
        ) : mode === 'content' ? (
          <ContentResults
            project={project}
            query={query}
            options={grepOptions}
            includeText={globs.include}
            excludeText={globs.exclude}
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

const SWITCHES: { key: keyof GrepOptions; shown: string; label: string }[] = [
  { key: 'caseSensitive', shown: 'Aa', label: 'Match case' },
  { key: 'wholeWord', shown: 'ab', label: 'Match whole word' },
  { key: 'regex', shown: '.*', label: 'Use regular expression' },
];

type GlobFields = { include: string; exclude: string };

/**
 * The content search's three switches, as an editor's search panel has them (toggle buttons, named in words), and
 * a Filters toggle that shows its "files to include" and "files to exclude" fields (comma-separated globs).
 */
function GrepSwitches({
  value,
  onChange,
  globs,
  onGlobs,
}: {
  value: GrepOptions;
  onChange: (v: GrepOptions) => void;
  globs: GlobFields;
  onGlobs: (g: GlobFields) => void;
}) {
  const [filtersOpen, setFiltersOpen] = useState(globs.include !== '' || globs.exclude !== '');
  const fieldsId = useId();
  const active = globField(globs.include).length + globField(globs.exclude).length;
  return (
    <>
      {/* biome-ignore lint/a11y/useSemanticElements: a row of toggles, not a form group */}
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
        <button
          type="button"
          className="filters-toggle"
          aria-expanded={filtersOpen}
          aria-controls={fieldsId}
          onClick={() => setFiltersOpen(!filtersOpen)}
        >
          Filters{active > 0 ? ` (${active})` : ''}
        </button>
      </div>
      {filtersOpen ? (
        <div className="glob-fields" id={fieldsId}>
          <label className="glob-field">
            <span>Files to include</span>
            <input
              type="text"
              value={globs.include}
              placeholder="e.g. *.ts, src/**"
              spellCheck={false}
              onChange={(e) => onGlobs({ ...globs, include: e.target.value })}
            />
          </label>
          <label className="glob-field">
            <span>Files to exclude</span>
            <input
              type="text"
              value={globs.exclude}
              placeholder="e.g. **/test/**, *.min.js"
              spellCheck={false}
              onChange={(e) => onGlobs({ ...globs, exclude: e.target.value })}
            />
          </label>
        </div>
      ) : null}
    </>
  );
}
