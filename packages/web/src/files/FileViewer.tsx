/** A read-only view of one project file, scrolled to a line and marking it. Escape or Close dismisses it. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../api/endpoints.js';
import { formatSize } from '../ui/format.js';
import { CloseIcon } from '../ui/icons.js';

export function FileViewer({
  project,
  rel,
  line,
  onClose,
}: {
  project: string;
  rel: string;
  line?: number;
  onClose: () => void;
}) {
  const q = useQuery({
    queryKey: ['file', project, rel],
    queryFn: ({ signal }) => api.file(project, rel, signal),
    retry: false,
  });
  const target = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (q.data) target.current?.scrollIntoView?.({ block: 'center' });
  }, [q.data]);
  useEffect(() => {
    closeRef.current?.focus();
  }, []);

  const lines = q.data && !q.data.binary ? q.data.text.split('\n') : [];
  return (
    <section
      className="viewer"
      aria-label={`File ${rel}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <header className="viewer-head">
        <span className="viewer-path" title={rel}>
          {rel}
          {line ? `:${line}` : ''}
        </span>
        {q.data ? <span className="note">{formatSize(q.data.size)}</span> : null}
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
      {q.data?.binary ? <p className="rail-note">A binary file: nothing to show.</p> : null}
      {lines.length > 0 ? (
        <div className="code" data-testid="file-viewer">
          {lines.map((text, i) => {
            const n = i + 1;
            const hit = n === line;
            return (
              <div
                // biome-ignore lint/suspicious/noArrayIndexKey: lines of one immutable file
                key={i}
                ref={hit ? target : undefined}
                className={`code-line${hit ? ' hit' : ''}`}
                data-line={n}
                aria-current={hit ? 'true' : undefined}
              >
                <span className="ln">{n}</span>
                <span className="lt">{text || ' '}</span>
              </div>
            );
          })}
        </div>
      ) : null}
      {q.data?.truncated ? <p className="rail-note">Only the first 1 MiB is shown.</p> : null}
    </section>
  );
}
