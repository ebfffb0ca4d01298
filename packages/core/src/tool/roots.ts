import * as path from 'node:path';
import { SearchToolError } from './errors.js';
import { canonical } from './exclusions.js';
import type { Target } from './targets.js';

/**
 * Confinement to roots (issue 11 item 8): an MCP server reads only inside the directories it was given
 * (canonical paths), as the reference filesystem server does. Every target that names a place on disk
 * must lie inside a root both as spelled (`../../../etc/passwd` is refused before anything is read, and
 * whether it exists is never said) and where it leads (a link inside a root to a file outside is refused
 * too). Walks follow no link below their roots, so deciding on the targets is enough.
 */
export function confineToRoots(targets: readonly Target[], roots: readonly string[], cwd: string): void {
  for (const t of targets) {
    const spelled = spelledPlace(t, cwd);
    if (spelled === null) continue;
    const real = t.kind === 'missing' || t.kind === 'unreadable' ? spelled : canonical(spelled);
    if (!roots.some((r) => isWithin(spelled, r)) || !roots.some((r) => isWithin(real, r))) {
      throw new SearchToolError(
        'path_outside_roots',
        `Path outside the allowed roots: ${t.input} (roots: ${roots.join(', ')})`,
      );
    }
  }
}

/** The place on disk a target names, as spelled; null for URLs and exclusions. */
function spelledPlace(t: Target, cwd: string): string | null {
  switch (t.kind) {
    case 'file':
    case 'dir':
    case 'special':
      return t.abs;
    case 'glob':
      return t.baseAbs;
    case 'archive':
      return t.archiveAbs;
    case 'missing':
    case 'unreadable':
      return path.resolve(cwd, t.shown);
    case 'resource':
    case 'exclude':
      return null;
  }
}

/** `inner` is `outer` or below it (both absolute). */
function isWithin(inner: string, outer: string): boolean {
  if (inner === outer || outer === '/') return true;
  return inner.startsWith(`${outer}/`);
}
