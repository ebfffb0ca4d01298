/**
 * A read-only view of one project file beside the thread, scrolled to a line and marking it. Only the lines in view
 * (and a screenful either side) are in the page, so a 100 000-line file opens as fast as a short one; a hit past the
 * first MiB is read as the window of lines around it (`/api/file?line=`). Syntax highlighted once the grammar has
 * loaded (small enough files only, ui/highlight.ts). Escape or Close dismisses it.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api/endpoints.js';
import { formatSize } from '../ui/format.js';
import { HIGHLIGHT_MAX_CHARS, type HighlightedLine, languageForPath, useHighlight } from '../ui/highlight.js';
import { CloseIcon } from '../ui/icons.js';
import { Visible, visibleName } from '../ui/Visible.js';
import type { OnAttach } from './AddToMessage.js';

/** The height of one line in pixels (the stylesheet's `.code-line` says the same). */
export const VIEWER_LINE_PX = 19;
/** Lines kept in the page beyond those in view, each side. */
const OVERSCAN = 40;
/** Content search skips text files larger than this, 2 MiB (`/api/file-grep`, docs/http-api.md): the viewer says so. */
export const CONTENT_SEARCH_MAX_BYTES = 2 * 1024 * 1024;

export function FileViewer({
  project,
  rel,
  line,
  onClose,
  onAttach,
  find,
}: {
  project: string;
  rel: string;
  line?: number;
  /** A document hit's preview: the first line of the text holding it is marked and scrolled to. */
  find?: string;
  onClose: () => void;
  /** Attach the file, or the selected lines, to the message; without it there are no Add buttons. */
  onAttach?: OnAttach;
}) {
  const q = useQuery({
    queryKey: ['file', project, rel, line ?? 0],
    queryFn: ({ signal }) => api.file(project, rel, signal, line),
    retry: false,
  });
  const scroller = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(800);
  // The lines a selection in the text spans (both ends inside the code), for "Add lines N–M".
  const [picked, setPicked] = useState<{ from: number; to: number } | null>(null);
  const readSelection = () => {
    const sel = document.getSelection();
    const lineOf = (n: Node | null) =>
      Number((n instanceof Element ? n : n?.parentElement)?.closest('.code-line')?.getAttribute('data-line'));
    if (!sel || sel.isCollapsed || !scroller.current?.contains(sel.anchorNode)) return setPicked(null);
    const a = lineOf(sel.anchorNode);
    const b = lineOf(sel.focusNode);
    setPicked(a > 0 && b > 0 ? { from: Math.min(a, b), to: Math.max(a, b) } : null);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: readSelection reads refs and the live selection only
  useEffect(() => {
    document.addEventListener('selectionchange', readSelection);
    return () => document.removeEventListener('selectionchange', readSelection);
  }, []);
  useEffect(() => {
    closeRef.current?.focus();
  }, []);

  const data = q.data;
  const text = data && !data.binary ? data.text.replace(/\n$/, '') : '';
  const lines = useMemo(() => (text === '' && !data ? [] : text.split('\n')), [text, data]);
  const first = data?.first_line ?? 1;
  // A document hit has no line of its own: its preview's line in the extracted text.
  const found = useMemo(() => {
    const want = find?.replace(/^…/, '').trim();
    if (!want || !data?.document) return undefined;
    const at = lines.findIndex((l) => l.includes(want));
    return at < 0 ? undefined : first + at;
  }, [find, data, lines, first]);
  const mark = line ?? found;
  const grammar = languageForPath(rel);
  const language = text.length <= HIGHLIGHT_MAX_CHARS ? grammar : undefined;
  const highlighted = useHighlight(text, language);

  // Scroll the marked line to the middle once the text is there.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !data) return;
    setHeight(el.clientHeight);
    const at = mark !== undefined ? mark - first : 0;
    el.scrollTop = Math.max(0, at * VIEWER_LINE_PX - el.clientHeight / 2 + VIEWER_LINE_PX / 2);
    setTop(el.scrollTop);
  }, [data, mark, first]);

  const from = Math.max(0, Math.floor(top / VIEWER_LINE_PX) - OVERSCAN);
  const to = Math.min(lines.length, Math.ceil((top + height) / VIEWER_LINE_PX) + OVERSCAN);
  const shown: { n: number; text: string; runs: HighlightedLine | undefined }[] = [];
  for (let i = from; i < to; i++) shown.push({ n: first + i, text: lines[i]!, runs: highlighted?.[i] });

  return (
    <section
      className="viewer"
      aria-label={`File ${visibleName(rel)}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <header className="viewer-head">
        <span className="viewer-path" title={visibleName(rel)}>
          <Visible text={rel} />
          {line ? `:${line}` : ''}
        </span>
        {data ? <span className="note">{formatSize(data.size)}</span> : null}
        {onAttach && picked ? (
          <button
            type="button"
            className="viewer-add"
            onClick={() => onAttach({ kind: 'file', rel, lines: picked })}
          >
            {picked.to > picked.from ? `Add lines ${picked.from}–${picked.to}` : `Add line ${picked.from}`}
          </button>
        ) : null}
        {onAttach ? (
          <button type="button" className="viewer-add" onClick={() => onAttach({ kind: 'file', rel })}>
            Add to message
          </button>
        ) : null}
        <button
          ref={closeRef}
          type="button"
          className="icon-button"
          aria-label="Close file"
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </header>
      {q.isPending ? <p className="rail-note">Loading…</p> : null}
      {q.isError ? (
        <p className="rail-note warn" role="alert">
          Couldn't open the file: {(q.error as Error).message}
        </p>
      ) : null}
      {data?.binary ? <p className="rail-note">A binary file: nothing to show.</p> : null}
      {data?.document ? (
        <p className="rail-note" data-testid="viewer-document">
          {data.document.too_large
            ? 'A document over 25 MiB: content search does not read it, and its text is not shown.'
            : data.document.unreadable
              ? `Its text could not be read (${data.document.unreadable}).`
              : 'The text content search reads in this document (its places in brackets).'}
        </p>
      ) : null}
      {data && !data.binary && data.size > CONTENT_SEARCH_MAX_BYTES ? (
        <p className="rail-note" data-testid="viewer-not-searched">
          Content search skips text files over 2 MiB: a search in files does not look inside this one.
        </p>
      ) : null}
      {grammar && text.length > HIGHLIGHT_MAX_CHARS ? (
        <p className="rail-note" data-testid="viewer-plain">
          Shown without syntax colours: the viewer colours up to {HIGHLIGHT_MAX_CHARS.toLocaleString('en-US')}{' '}
          characters at a time (these lines hold {text.length.toLocaleString('en-US')}).
        </p>
      ) : null}
      {data?.truncated && data.document && !data.document.too_large ? (
        <p className="rail-note" data-testid="viewer-window">
          Part of its text: the extraction stopped at its length or time limit.
        </p>
      ) : null}
      {data?.truncated && !data.document ? (
        <p className="rail-note" data-testid="viewer-window">
          {first > 1 || line !== undefined
            ? `Lines ${first}–${first + lines.length - 1} of a ${formatSize(data.size)} file are shown.`
            : 'Only the first 1 MiB is shown.'}
        </p>
      ) : null}
      {data && !data.binary ? (
        <div
          ref={scroller}
          className="code"
          data-testid="file-viewer"
          onScroll={(e) => {
            setTop(e.currentTarget.scrollTop);
            setHeight(e.currentTarget.clientHeight);
          }}
        >
          <div className="code-body" style={{ height: (lines.length + 1) * VIEWER_LINE_PX }}>
            {shown.map((l) => {
              const hit = l.n === mark;
              return (
                <div
                  key={l.n}
                  className={`code-line${hit ? ' hit' : ''}`}
                  style={{ top: (l.n - first) * VIEWER_LINE_PX }}
                  data-line={l.n}
                  aria-current={hit ? 'true' : undefined}
                >
                  <span className="ln">{l.n}</span>
                  <span className="lt">
                    {l.runs
                      ? l.runs.map((r, i) =>
                          r.cls ? (
                            // biome-ignore lint/suspicious/noArrayIndexKey: runs of one immutable line
                            <span key={i} className={r.cls}>
                              {r.text}
                            </span>
                          ) : (
                            r.text
                          ),
                        )
                      : l.text || ' '}
                  </span>
                </div>
              );
            })}
          </div>
        </div>
      ) : null}
    </section>
  );
}
