import * as path from 'node:path';
import { isWithin } from '../util/fs-safety.js';
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

/**
 * The same confinement at the read: `confineToRoots` judges targets when the call is planned, but a directory on
 * the way can be swapped for a link before the engine opens a file. The walk judges each file on its canonical
 * path, which the reader's descriptor must read back as (util/fs-safety.ts), so this predicate (true: outside
 * every root) is where the check holds. No roots: nothing is confined.
 */
export function readConfinement(roots: readonly string[] | undefined): (canonical: string) => boolean {
  if (!roots) return () => false;
  return (abs) => !roots.some((r) => isWithin(abs, r));
}
