/**
 * ripgrep 15's words for what went wrong in a search: a path that is not there, a file or directory that cannot
 * be read, a partial result. The results themselves are printed by rg-printer.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SearchSummary } from '@trawl/core/engine';
import { type CliIO, write } from '../io.js';

/** What decides how ripgrep words an error: the paths as typed, whether it walks in one thread, where it runs. */
export interface ErrorWording {
  paths: readonly string[];
  serialWalk: boolean;
  cwd: string;
}

/**
 * An error met while walking or reading, in ripgrep 15's words. A path that is not there:
 * `P: IO error for operation on P: No such file or directory (os error 2)`, shortened to `P: No such file…` when
 * several paths go to its parallel walker. A file that cannot be opened: `P: Permission denied (os error 13)`, P as
 * its matches would be shown. A directory that cannot be read: named as walked (`./` below the implicit root), in
 * the single-threaded walker's longer words. A loop and other messages are already worded as ripgrep's.
 */
export function rgErrorLine(
  e: { path: string; code: string; message: string },
  missingRoots: readonly string[],
  w: ErrorWording,
): string {
  if (!e.path) return `rg: ${e.message}\n`;
  if (e.code === 'ENOENT')
    return w.paths.length > 1 && !w.serialWalk && missingRoots.includes(e.path)
      ? `rg: ${e.path}: No such file or directory (os error 2)\n`
      : `rg: ${e.path}: IO error for operation on ${e.path}: No such file or directory (os error 2)\n`;
  if (e.code === 'EACCES') {
    const dir = isDirectory(e.path, w.cwd);
    const bare = e.path.startsWith('./') ? e.path.slice(2) : e.path;
    const p = w.paths.length > 0 ? e.path : dir ? `./${bare}` : bare;
    return dir && w.serialWalk
      ? `rg: ${p}: IO error for operation on ${p}: Permission denied (os error 13)\n`
      : `rg: ${p}: Permission denied (os error 13)\n`;
  }
  return `rg: ${e.path}: ${e.message}\n`;
}

/** Errors and partial outcomes go to stderr, as ripgrep's do; true when the exit code must be 2. */
export async function reportSummary(
  s: SearchSummary,
  io: CliIO,
  messages: boolean,
  wording: ErrorWording,
): Promise<boolean> {
  let failed = s.errors.length > 0;
  if (messages) for (const e of s.errors) await write(io.stderr, rgErrorLine(e, s.missingRoots, wording));
  if (s.outcome === 'timeout') {
    await write(
      io.stderr,
      `trawl: search timed out after ${(s.elapsedMs / 1000).toFixed(1)}s; results are partial\n`,
    );
    failed = true;
  } else if (s.outcome === 'walk-budget') {
    await write(io.stderr, 'trawl: walk budget reached; results are partial\n');
  }
  return failed;
}

function isDirectory(p: string, cwd: string): boolean {
  try {
    return fs.statSync(path.resolve(cwd, p)).isDirectory();
  } catch {
    return false;
  }
}
