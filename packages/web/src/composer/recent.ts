/**
 * The files recently attached or opened in a project, newest first, kept in the browser
 * (`localStorage['trawl.recent.<project>']`): what a bare `@` and an empty quick-open offer. Never sent anywhere.
 */
import type { FileRow } from '../api/endpoints.js';

/** How many a project remembers: a screenful of the picker. */
export const MAX_RECENT = 10;

const key = (project: string) => `trawl.recent.${project}`;

/** The recent files of `project` as picker rows (newest first); `[]` without a project or storage. */
export function loadRecent(project: string): FileRow[] {
  if (project === '') return [];
  try {
    const v = JSON.parse(localStorage.getItem(key(project)) ?? '[]') as unknown;
    if (!Array.isArray(v)) return [];
    return v
      .filter(
        (r): r is { path: string; name: string } =>
          !!r && typeof r.path === 'string' && typeof r.name === 'string',
      )
      .slice(0, MAX_RECENT)
      .map((r) => ({ path: r.path, name: r.name, kind: 'file' as const, size: -1, mtime: 0 }));
  } catch {
    return [];
  }
}

/** Puts a file (absolute path) first in `project`'s recent list, once. */
export function noteRecent(project: string, path: string): void {
  if (project === '' || path === '') return;
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const rest = loadRecent(project).filter((r) => r.path !== path);
  try {
    localStorage.setItem(
      key(project),
      JSON.stringify(
        [{ path, name }, ...rest.map((r) => ({ path: r.path, name: r.name }))].slice(0, MAX_RECENT),
      ),
    );
  } catch {
    // storage full or disabled: nothing is remembered
  }
}
