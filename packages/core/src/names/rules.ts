import * as path from 'node:path';
import { DASHBOARD_SKIP_DIRS } from '../walk/skip-dirs.js';

/**
 * What name search offers and enters: skip directories are
 * neither offered nor entered; other dot directories are offered but not entered; dot files are offered only to a
 * caller that asks (`dotFiles`: the workbench's picker), ranked below other files unless the query starts with a
 * dot (tiers.ts). A caller may have dot directories entered last (`dotDirsLast`): what they hold counts as dot files.
 */
export const NAME_SKIP_DIRS: ReadonlySet<string> = DASHBOARD_SKIP_DIRS;

/** macOS consent-gated folders directly under HOME (pruned only when a walk is rooted at HOME on macOS). */
const TCC_HOME_CHILDREN: ReadonlySet<string> = new Set([
  'Downloads',
  'Documents',
  'Desktop',
  'Pictures',
  'Movies',
  'Music',
]);
/** Under `~/Library` only these are kept. */
const TCC_LIBRARY_KEEP: ReadonlySet<string> = new Set(['CloudStorage', 'Mobile Documents']);

/**
 * A pruning rule for macOS TCC prompts, or `null` when none applies: the walk root must be HOME (canonical) and the
 * platform macOS. `rel` is the directory's path relative to the root (`''` for the root).
 */
export function tccPruner(
  root: string,
  home: string | undefined,
  platform: string,
): ((parentRel: string, name: string) => boolean) | null {
  if (platform !== 'darwin' || !home) return null;
  if (path.resolve(root) !== path.resolve(home)) return null;
  return (parentRel, name) => {
    if (parentRel === '') return TCC_HOME_CHILDREN.has(name);
    if (parentRel === 'Library') return !TCC_LIBRARY_KEEP.has(name);
    return false;
  };
}

export function isDotName(name: string): boolean {
  return name.charCodeAt(0) === 46;
}

/** `rel` (`/`-separated, relative to a root) has a dot directory among its parents: its entries count as dot files. */
export function underDotDir(rel: string, nameStart: number): boolean {
  return (
    nameStart > 0 &&
    (rel.charCodeAt(0) === 46 || (nameStart >= 2 && rel.lastIndexOf('/.', nameStart - 2) >= 0))
  );
}

/** What a resolved link points at, as far as admission cares. */
interface LinkTargetKind {
  isDirectory(): boolean;
  isFile(): boolean;
}

/**
 * The one admission rule of name search, shared by the per-request walk and the index (and its rescans), applied by
 * name before anything is resolved:
 * - a directory is offered unless it is a skip directory or a pruned consent folder; it is entered unless it is a
 *   dot directory (a link is never entered);
 * - a file is offered unless it is a dot file and dot files were not asked for (`.gitignore` is a file a person
 *   means to attach; an agent's `find_files` and `trawl find` keep the seed's rule and never list them);
 * - a symbolic link is pruned by its name wherever a directory would be, BEFORE it is resolved (resolving a link
 *   that stands where a consent folder is would prompt); once resolved it is a directory or a regular file under
 *   the rules above, or nothing (a FIFO, a socket, a dangling link).
 * The fence is checked separately, on canonical paths.
 */
export class NameAdmission {
  constructor(
    private readonly skipDirs: ReadonlySet<string>,
    private readonly prune: ((parentRel: string, name: string) => boolean) | null,
    private readonly dotFiles = false,
    /** Enter dot directories too (an agent's tree view: `search` walks them). */
    private readonly dotDirs = false,
    /**
     * Enter dot directories after everything else, while there is room (the workbench: `.github/workflows/ci.yml`
     * can be attached; a large `.yarn/` never crowds out the project's own files).
     */
    private readonly dotDirsLast = false,
  ) {}

  /** An offered directory that is not entered now, but after every other one (see `dotDirsLast`). */
  defers(name: string): boolean {
    return !this.dotDirs && this.dotDirsLast && isDotName(name);
  }

  /** A directory `name` in `parentRel` (`''` = the root) is offered. */
  dir(parentRel: string, name: string): boolean {
    return !this.skipDirs.has(name) && !(this.prune?.(parentRel, name) ?? false);
  }

  /** An offered directory is also entered (links aside). */
  enters(name: string): boolean {
    return this.dotDirs || !isDotName(name);
  }

  file(name: string): boolean {
    return this.dotFiles || !isDotName(name);
  }

  /** A symbolic link may be resolved at all. */
  link(parentRel: string, name: string): boolean {
    return !(this.prune?.(parentRel, name) ?? false);
  }

  /** What a resolved link is offered as, or null. */
  linkTarget(name: string, target: LinkTargetKind): 'dir' | 'file' | null {
    if (target.isDirectory()) return this.skipDirs.has(name) ? null : 'dir';
    if (target.isFile()) return this.file(name) ? 'file' : null;
    return null;
  }
}
