import * as path from 'node:path';

/**
 * What name search offers and enters (spec/file-api.md §2.3-2.4, seed "Scope and containment"): skip directories are
 * neither offered nor entered; other dot directories are offered but not entered; dot files are never offered.
 */
export const NAME_SKIP_DIRS: ReadonlySet<string> = new Set([
  '.git',
  '.cache',
  '.venv',
  'node_modules',
  '__pycache__',
  'venv',
  'dist',
  'build',
  'env',
  'out',
  'target',
]);

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
