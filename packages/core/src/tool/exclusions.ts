import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileGlob, GlobError } from '../glob/glob.js';
import { Walker, type WalkOptions } from '../walk/walker.js';
import { SearchToolError } from './errors.js';
import { closeBraces } from './paths.js';
import type { Target } from './targets.js';

/**
 * Exclusion globs in `paths` (`"!**\/*.test.ts"`): a path is excluded when some `!glob` matches it (or a
 * directory above it), wherever the `!glob` stands among the entries, unless the path is itself an entry.
 *
 * Globs read as path entries do: without `/` they match a name at any depth (`!*.snap`, `!dist`); with
 * `/` they are anchored at the working directory (`!src/generated/**`). Paths are judged where they are
 * (the walk's canonical paths, relative to the canonical working directory).
 */

/** One `!glob` entry of `paths`. */
export interface Exclusion {
  /** The entry as given, `!` included. */
  input: string;
  matches: (rel: string) => boolean;
}

/** `!glob` → its matcher on cwd-relative paths; refuses a malformed glob with the entry named. */
export function parseExclusion(entry: string): Exclusion {
  const glob = closeBraces(entry.slice(1).replace(/^\.\//, ''));
  if (glob === '') {
    throw new SearchToolError(
      'invalid_glob',
      `Invalid exclusion in paths entry "${entry}": nothing follows the "!"`,
    );
  }
  return { input: entry, matches: globMatcher(glob, entry) };
}

/** A path glob as a matcher on cwd-relative paths (bare globs match a name at any depth). */
export function globMatcher(glob: string, entry: string): (rel: string) => boolean {
  const anchored = glob.includes('/');
  let re: RegExp;
  try {
    re = compileGlob(anchored ? glob.replace(/^\/+/, '') : glob, { literalSeparator: true });
  } catch (err) {
    if (err instanceof GlobError) {
      const reason = err.message.replace(/^invalid glob '.*?': /, '');
      throw new SearchToolError('invalid_glob', `Invalid glob pattern in paths entry "${entry}": ${reason}`);
    }
    throw err;
  }
  if (anchored) return (rel) => re.test(rel);
  return (rel) => re.test(rel.slice(rel.lastIndexOf('/') + 1));
}

/**
 * The predicate the walk asks about every root, directory and file (by canonical path): true when an
 * exclusion takes it out. An exclusion applies wherever it stands in `paths` (`["!**\/tests/**", "src"]` and
 * `["src", "!**\/tests/**"]` search the same files); only a file or directory named as an entry of its own is
 * never taken out, as ripgrep never filters the paths it is given. Null when there are no exclusions.
 */
export function exclusionPredicate(
  exclusions: readonly Exclusion[],
  named: readonly string[],
  canonicalCwd: string,
): ((canonical: string) => boolean) | null {
  if (exclusions.length === 0) return null;
  const namedSet = new Set(named);
  return (canonical) => {
    if (namedSet.has(canonical)) return false;
    const rel = path.relative(canonicalCwd, canonical).split(path.sep).join('/');
    if (rel.startsWith('../') || rel === '..' || path.isAbsolute(rel)) return false;
    return exclusions.some((x) => matchesSelfOrAncestor(x.matches, rel));
  };
}

function matchesSelfOrAncestor(matches: (rel: string) => boolean, rel: string): boolean {
  if (rel === '') return false;
  for (let end = rel.length; end > 0; end = rel.lastIndexOf('/', end - 1)) {
    if (matches(rel.slice(0, end))) return true;
  }
  return false;
}

/** The canonical paths of the files and directories `paths` names as entries of their own. */
export function namedPaths(resolved: readonly Target[]): string[] {
  return resolved.flatMap((t) => (t.kind === 'file' || t.kind === 'dir' ? [canonical(t.abs)] : []));
}

/** Where a path really is (the walk judges canonical paths); the path itself when it cannot be resolved. */
export function canonical(abs: string): string {
  try {
    return fs.realpathSync.native(abs);
  } catch {
    return abs;
  }
}

/**
 * The exclusions that take nothing out of `roots`: a walk with the search's own rules (not the exclusions) that
 * stops as soon as every exclusion has matched some file. Judged here, on one walk, because the engines ask their
 * predicate about different sets of paths (the js engine every walked path, rg only the files that matched), so
 * neither could say it. Null when the walk's budget ran out first (then nothing is claimed).
 */
export function idleExclusions(
  exclusions: readonly Exclusion[],
  roots: readonly string[],
  canonicalCwd: string,
  walk: Pick<WalkOptions, 'hidden' | 'ignoreFiles' | 'requireGit' | 'skipDirs' | 'exclude'>,
  maxEntries: number,
): Exclusion[] | null {
  const idle = new Set(exclusions);
  if (idle.size === 0 || roots.length === 0) return [];
  const walker = new Walker({ roots: [...roots], cwd: canonicalCwd, ...walk, maxEntries });
  for (const e of walker.entries()) {
    const rel = path.relative(canonicalCwd, e.canon).split(path.sep).join('/');
    for (const x of idle) if (matchesSelfOrAncestor(x.matches, rel)) idle.delete(x);
    if (idle.size === 0) return [];
  }
  if (walker.stats.stoppedBy !== undefined) return null;
  return exclusions.filter((x) => idle.has(x));
}
