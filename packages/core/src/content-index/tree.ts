import * as fs from 'node:fs';
import { compareUtf8 } from '../util/path-order.js';
import { MAX_INDEXED_DIRS, MAX_INDEXED_FILES } from './limits.js';

/**
 * The index's own walk: every regular file below the root, hidden ones and ignored ones included (ignore
 * rules and hidden-ness are applied per search, by the search's own walk), never following links. `.git`
 * directories are not entered: they change on every git command and no default search reads them; a search
 * that does walks them finds files the index does not know, and those are searched.
 */
export interface TreeScan {
  /** Root-relative file paths, `/`-separated, in byte order. */
  files: string[];
  /** Root-relative directories entered ('' is the root), parents before children. */
  dirs: string[];
  /** Directories holding a `.git` entry (their `.git/info/exclude` is read by searches). */
  gitDirs: string[];
  /** The walk stopped at a budget: files past it are unknown to the index (and searched). */
  truncated: boolean;
}

export const NEVER_ENTERED = new Set(['.git']);

export function scanTree(
  root: string,
  exclude: (abs: string) => boolean,
  onDir?: (rel: string) => void,
): TreeScan {
  const files: string[] = [];
  const dirs: string[] = [];
  const gitDirs: string[] = [];
  let truncated = false;
  const stack: string[] = [''];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    if (dirs.length >= MAX_INDEXED_DIRS) {
      truncated = true;
      break;
    }
    const abs = rel === '' ? root : `${root}/${rel}`;
    // Watched before it is listed: an entry created in between is an event, never lost to both.
    onDir?.(rel);
    let dirents: fs.Dirent[];
    try {
      dirents = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      continue;
    }
    dirs.push(rel);
    const sub: string[] = [];
    for (const d of dirents) {
      const childRel = rel === '' ? d.name : `${rel}/${d.name}`;
      const childAbs = `${abs === '/' ? '' : abs}/${d.name}`;
      if (d.name === '.git') gitDirs.push(rel);
      if (d.isDirectory()) {
        if (NEVER_ENTERED.has(d.name) || exclude(childAbs)) continue;
        sub.push(childRel);
      } else if (d.isFile()) {
        if (exclude(childAbs)) continue;
        if (files.length >= MAX_INDEXED_FILES) {
          truncated = true;
          continue;
        }
        files.push(childRel);
      }
    }
    sub.sort((a, b) => compareUtf8(b, a));
    stack.push(...sub);
  }
  files.sort(compareUtf8);
  return { files, dirs, gitDirs, truncated };
}
