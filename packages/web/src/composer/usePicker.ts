/**
 * The picker's state for the text before the caret: which mode is open (`@` name search or `./` completion), the
 * debounced request (TanStack Query cancels a superseded one through its signal), the rows, the selection, and
 * whether Enter/Tab may pass through to the composer. Rendering is Picker.tsx's; key handling is here so the
 * composer's textarea keeps focus the whole time.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api, type FileRow } from '../api/endpoints.js';
import { matchMentionToken, matchPathToken, splitPathToken } from '../tokens/caret.js';
import { mentionToken } from '../tokens/mentions.js';
import { makeRelative } from '../tokens/paths.js';
import { useDebounced } from '../ui/useDebounced.js';
import { loadRecent } from './recent.js';

/** Keystrokes within this window make one request (the study's 200 ms). */
export const PICKER_DEBOUNCE_MS = 200;
/** The name search needs two characters; fewer would walk for nothing. */
export const MIN_MENTION_CHARS = 2;

export type PickerMode = { kind: 'mention'; query: string } | { kind: 'path'; token: string };

export interface Pick {
  /** What replaces the token at the caret. */
  insert: string;
  kind: 'file' | 'dir';
  path: string;
  /** The rel a file token carries (for the chip), or the folder rel. */
  rel: string;
  /** A folder in path mode: completion continues on the next level. */
  continues: boolean;
}

export function modeFor(before: string, project: string): PickerMode | null {
  const q = matchMentionToken(before);
  if (q !== null) return { kind: 'mention', query: q };
  if (project === '') return null;
  const t = matchPathToken(before);
  return t !== null ? { kind: 'path', token: t } : null;
}

export const rowKind = (r: FileRow): 'file' | 'dir' => (r.kind === 'dir' ? 'dir' : 'file');

/** The rel a pick inserts: relative to the root (absolute outside it), folders ending in `/`. */
export function selectionFor(
  row: FileRow,
  root: string,
  dirPrefix?: string,
): { rel: string; kind: 'file' | 'dir' } {
  const kind = rowKind(row);
  let rel = dirPrefix !== undefined ? dirPrefix + row.name : makeRelative(row.path, root);
  if (kind === 'dir' && !rel.endsWith('/') && !rel.endsWith('\\')) rel += '/';
  return { rel, kind };
}

export type PickerStatus =
  | { kind: 'rows' }
  | { kind: 'recent' }
  | { kind: 'type-more' }
  | { kind: 'searching' }
  | { kind: 'no-matches' }
  | { kind: 'outside' }
  | { kind: 'empty' }
  | { kind: 'error'; message: string };

export function usePicker(mode: PickerMode | null, project: string) {
  const live = mode?.kind === 'mention' ? mode.query : mode?.kind === 'path' ? mode.token : '';
  const debounced = useDebounced(live, PICKER_DEBOUNCE_MS);
  const open = mode !== null;
  const isPath = mode?.kind === 'path';

  const mention = useQuery({
    queryKey: ['file-search', debounced, project],
    // The query travels with its rows (like the path prefix below): the list says which query it shows.
    queryFn: async ({ signal }) => ({
      ...(await api.fileSearch(debounced, project || undefined, signal)),
      q: debounced,
    }),
    enabled: open && !isPath && debounced.length >= MIN_MENTION_CHARS,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: false,
  });
  const scope = splitPathToken(isPath ? debounced : '');
  const path = useQuery({
    queryKey: ['path-complete', project, scope.dir, scope.partial],
    // The prefix travels with the rows it produced: accepting a row while a deeper level is still debouncing or
    // in flight must join the row's name onto ITS directory, not the live token's (`./src/src/`).
    queryFn: async ({ signal }) => ({
      ...(await api.pathComplete(project, scope.dir, scope.partial, signal)),
      dir: scope.dir,
    }),
    enabled: open && isPath && scope.dir !== '' && project !== '',
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: false,
  });

  const q = isPath ? path : mention;
  const ready = isPath || live.length >= MIN_MENTION_CHARS;
  // A bare `@` offers the files recently attached or opened in this project, read when it opens.
  const bare = open && !isPath && live === '';
  const recent = useMemo(() => (bare ? loadRecent(project) : []), [bare, project]);
  const data = q.data;
  const rows: FileRow[] = bare ? recent : open && ready && data ? data.results : [];
  const root = bare ? project : (data?.root ?? '');
  const settled = ready && debounced === live && !q.isFetching && (data !== undefined || q.isError);
  const rowsFor = bare ? '' : open && ready && data ? ('q' in data ? data.q : data.dir) : '';

  const [selected, setSelected] = useState(0);
  // A new result set selects its best row again; arrow moves do not reset it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a new result set only
  useEffect(() => {
    setSelected(0);
  }, [data, open, bare]);
  const sel = Math.min(selected, Math.max(0, rows.length - 1));

  let status: PickerStatus;
  if (bare && rows.length > 0) status = { kind: 'recent' };
  else if (settled && q.isError) status = { kind: 'error', message: (q.error as Error).message };
  else if (rows.length > 0) status = { kind: 'rows' };
  else if (!ready) status = { kind: 'type-more' };
  else if (q.isFetching) status = { kind: 'searching' };
  else if (!settled) status = { kind: 'no-matches' };
  else if (isPath && path.data?.outside === true) status = { kind: 'outside' };
  else status = { kind: 'empty' };

  const pickAt = (index: number): Pick | null => {
    const row = rows[index];
    if (!row) return null;
    if (isPath) {
      const { rel, kind } = selectionFor(row, root, path.data?.dir ?? '');
      return {
        insert: kind === 'dir' ? rel : `${rel} `,
        kind,
        path: row.path,
        rel,
        continues: kind === 'dir',
      };
    }
    const { rel, kind } = selectionFor(row, root);
    // A name the bare token cannot carry (a space, an @) is written quoted; the composer refuses the rest.
    return { insert: `${mentionToken(rel) ?? `@${rel}`} `, kind, path: row.path, rel, continues: false };
  };

  return {
    open,
    mode,
    /** The query or token the rows on screen answer (they may trail the live text while the next one runs). */
    rowsFor,
    /** What the user has typed now (the query or token the rows should answer). */
    live,
    /** The rows on screen answer what is typed now and no search is pending: what Enter would pick is final. */
    current: bare || (settled && (isPath || rowsFor === live)),
    rows,
    root,
    selected: sel,
    setSelected,
    status,
    /** Settled and genuinely empty: Enter and Tab go to the composer (Enter sends). */
    releasesKeys: rows.length === 0 && settled,
    pickAt,
  };
}

export type PickerState = ReturnType<typeof usePicker>;
