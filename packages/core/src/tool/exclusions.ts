import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileGlob, GlobError } from '../glob/glob.js';
import { SearchToolError } from './errors.js';
import { closeBraces } from './paths.js';
import type { Target } from './targets.js';

/**
 * Exclusion globs in `paths` (`"!**\/*.test.ts"`), with ripgrep's rule for globs that disagree: the later
 * entry wins. A path is excluded when some `!glob` matches it (or a directory above it) and no entry
 * after that one names it again (the file itself, a directory holding it, or a glob matching it).
 *
 * Globs read as path entries do: without `/` they match a name at any depth (`!*.snap`, `!dist`); with
 * `/` they are anchored at the working directory (`!src/generated/**`). Paths are judged where they are
 * (the walk's canonical paths, relative to the canonical working directory).
 */

/** A positive entry, as the exclusion rule needs it: what it covers, and where it stands in `paths`. */
export type Covering =
  | { index: number; kind: 'file' | 'dir'; abs: string }
  | { index: number; kind: 'glob'; baseAbs: string; matches: (rel: string) => boolean };

export interface Exclusion {
  index: number;
  /** The entry as given, `!` included. */
  input: string;
  matches: (rel: string) => boolean;
}

/** `!glob` → its matcher on cwd-relative paths; refuses a malformed glob with the entry named. */
export function parseExclusion(entry: string, index: number): Exclusion {
  const glob = closeBraces(entry.slice(1).replace(/^\.\//, ''));
  if (glob === '') {
    throw new SearchToolError(
      'invalid_glob',
      `Invalid exclusion in paths entry "${entry}": nothing follows the "!"`,
    );
  }
  return { index, input: entry, matches: globMatcher(glob, entry) };
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
 * The predicate the walk asks about every root, directory and file (by canonical path): true when the
 * exclusions take it out. Null when there are no exclusions.
 */
export function exclusionPredicate(
  exclusions: readonly Exclusion[],
  covering: readonly Covering[],
  canonicalCwd: string,
): ((canonical: string) => boolean) | null {
  if (exclusions.length === 0) return null;
  return (canonical) => {
    const rel = path.relative(canonicalCwd, canonical).split(path.sep).join('/');
    if (rel.startsWith('../') || rel === '..' || path.isAbsolute(rel)) return false;
    // The last exclusion that matches the path or a directory above it.
    let last = -1;
    for (const x of exclusions) {
      if (x.index > last && matchesSelfOrAncestor(x.matches, rel)) last = x.index;
    }
    if (last === -1) return false;
    return !covering.some((c) => c.index > last && covers(c, canonical, rel, canonicalCwd));
  };
}

function matchesSelfOrAncestor(matches: (rel: string) => boolean, rel: string): boolean {
  if (rel === '') return false;
  for (let end = rel.length; end > 0; end = rel.lastIndexOf('/', end - 1)) {
    if (matches(rel.slice(0, end))) return true;
  }
  return false;
}

/** A later positive entry names the path again: it is the file, lies in the directory, or the glob matches. */
function covers(c: Covering, canonical: string, rel: string, canonicalCwd: string): boolean {
  if (c.kind !== 'glob') {
    return canonical === c.abs || (c.kind === 'dir' && canonical.startsWith(`${c.abs}/`));
  }
  if (c.matches(rel)) return true;
  // A directory on the way to the glob's base must still be walked.
  const base = path.relative(canonicalCwd, c.baseAbs).split(path.sep).join('/');
  return base === rel || base.startsWith(`${rel}/`);
}

/** The positive entries of `paths` with their places; an implicit working directory comes before them all. */
export function coveringOf(resolved: readonly Target[], implicitCwd: boolean, cwd: string): Covering[] {
  const out: Covering[] = [];
  if (implicitCwd) out.push({ index: -1, kind: 'dir', abs: canonical(cwd) });
  resolved.forEach((t, index) => {
    if (t.kind === 'file' || t.kind === 'dir') out.push({ index, kind: t.kind, abs: canonical(t.abs) });
    else if (t.kind === 'glob') {
      const relBase = path.relative(cwd, t.baseAbs).split(path.sep).join('/');
      const glob = t.bare || relBase === '' ? t.rest : `${relBase}/${t.rest}`;
      out.push({ index, kind: 'glob', baseAbs: canonical(t.baseAbs), matches: globMatcher(glob, t.input) });
    }
  });
  return out;
}

/** Where a path really is (the walk judges canonical paths); the path itself when it cannot be resolved. */
export function canonical(abs: string): string {
  try {
    return fs.realpathSync.native(abs);
  } catch {
    return abs;
  }
}
