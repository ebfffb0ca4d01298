/**
 * The project the composer and Files rail work in: the projects `trawl serve` knows, and "Open…" for another
 * directory (`POST /api/projects/open`, which records it in recent-projects.json for the next run).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Project } from './api/endpoints.js';

const OPEN = '\u0000open';

export function ProjectSwitcher({
  projects,
  value,
  onChange,
}: {
  projects: Project[];
  value: string;
  onChange: (path: string) => void;
}) {
  const qc = useQueryClient();
  const [opening, setOpening] = useState(false);
  const [path, setPath] = useState('');
  const open = useMutation({
    mutationFn: (p: string) => api.openProject(p),
    onSuccess: ({ project }) => {
      void qc.invalidateQueries({ queryKey: ['projects'] });
      onChange(project.path);
      setOpening(false);
      setPath('');
    },
  });
  if (opening) {
    return (
      <form
        className="project-open"
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim() !== '') open.mutate(path.trim());
        }}
      >
        <input
          aria-label="Project directory"
          placeholder="/path/to/project or ~/src/app"
          value={path}
          // biome-ignore lint/a11y/noAutofocus: the field the user just asked for
          autoFocus
          onChange={(e) => setPath(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpening(false);
          }}
        />
        <button type="submit" disabled={open.isPending}>
          Open
        </button>
        {open.isError ? (
          <span className="note warn" role="alert">
            {(open.error as Error).message}
          </span>
        ) : null}
      </form>
    );
  }
  return (
    <select
      className="project-select"
      aria-label="Project"
      value={value}
      title={value}
      onChange={(e) => {
        if (e.target.value === OPEN) setOpening(true);
        else {
          onChange(e.target.value);
          // Opening a project records it first in recent-projects.json, so the next `trawl serve` offers it.
          void api.openProject(e.target.value).catch(() => undefined);
        }
      }}
    >
      {projects.length === 0 ? <option value="">no project</option> : null}
      {projects.map((p) => (
        <option key={p.path} value={p.path}>
          {p.name} — {p.path}
        </option>
      ))}
      <option value={OPEN}>Open another directory…</option>
    </select>
  );
}
