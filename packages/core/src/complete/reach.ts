import * as path from 'node:path';
import type { SensitiveFence } from '../fence/index.js';
import type { NameResult } from '../names/types.js';
import type { DirOpener, OpenDir } from './open-dir.js';

/** A directory reached through held descriptors, or why not (`missing` vs `refused`: two audit facts). */
export type Reached =
  | { ok: true; dir: OpenDir }
  | { ok: false; status: 'missing' | 'refused'; detail: string; link: boolean };

/**
 * Opens the canonical `root`, then each of `segments` relative to the held parent, never following a link at any
 * component. Only the deepest descriptor stays open; the caller closes `dir` on success (nothing is left open on
 * failure).
 */
export function reachDir(opener: DirOpener, root: string, segments: readonly string[]): Reached {
  let current: OpenDir;
  try {
    current = opener.openRoot(root);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      ok: false,
      status: code === 'ENOENT' ? 'missing' : 'refused',
      detail: `project root: ${code ?? 'error'}`,
      link: code === 'ELOOP',
    };
  }
  for (const name of segments) {
    let next: OpenDir;
    try {
      next = opener.openChild(current, name);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      const failed: Reached =
        code === 'ENOENT'
          ? { ok: false, status: 'missing', detail: `${name}: missing`, link: false }
          : (() => {
              const what = opener.describeChild(current, name);
              return {
                ok: false,
                status: 'refused',
                detail: `${name}: ${what} (${code})`,
                link: what === 'symlink',
              };
            })();
      closeQuietly(opener, current);
      return failed;
    }
    // Close the parent now: only the deepest descriptor is needed, and fd numbers must not be reused under it.
    closeQuietly(opener, current);
    current = next;
  }
  return { ok: true, dir: current };
}

export function closeQuietly(opener: DirOpener, dir: OpenDir): void {
  try {
    opener.close(dir);
  } catch {
    // already closed
  }
}

export function isUnder(child: string, root: string): boolean {
  if (child === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return child.startsWith(prefix);
}

/** Directories first, then names case-insensitively (code point order), then exact name for a stable order. */
export function compareRows(a: NameResult, b: NameResult): number {
  if (a.kind !== b.kind) return a.kind === 'dir' ? -1 : 1;
  const al = a.name.toLowerCase();
  const bl = b.name.toLowerCase();
  if (al !== bl) return al < bl ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export type Scanned =
  | { ok: true; rows: NameResult[]; scanned: number; exhausted: boolean }
  | { ok: false; scanned: number; detail: string };

/**
 * Reads the entries of a reached directory (its witnessed path is `witness`): links are never rows (they could
 * never be entered or read), entry metadata is the entry's own (`lstat` relative to the descriptor), each row is
 * judged by the non-resolving fence, and at most `maxScan` entries are examined (every entry counts, also those
 * `keep` drops). `exhausted`: the scan stopped at its budget. Rows are unsorted, paths absolute.
 */
export function scanEntries(
  opener: DirOpener,
  dir: OpenDir,
  witness: string,
  fence: Pick<SensitiveFence, 'isSensitiveCanonical'>,
  keep: (name: string) => boolean,
  maxScan: number,
): Scanned {
  const rows: NameResult[] = [];
  let scanned = 0;
  let reader: ReturnType<DirOpener['readdir']>;
  try {
    reader = opener.readdir(dir);
  } catch (err) {
    return { ok: false, scanned, detail: `read: ${(err as NodeJS.ErrnoException).code ?? 'error'}` };
  }
  try {
    for (;;) {
      if (scanned >= maxScan) return { ok: true, rows, scanned, exhausted: true };
      const e = reader.readSync();
      if (e === null) break;
      scanned++;
      const name = e.name;
      if (!keep(name)) continue;
      if (e.isSymbolicLink()) continue;
      const rowPath = path.join(witness, name);
      if (fence.isSensitiveCanonical(rowPath)) continue;
      let st: ReturnType<DirOpener['lstatChild']>;
      try {
        st = opener.lstatChild(dir, name);
      } catch {
        continue;
      }
      if (st.isSymbolicLink()) continue;
      const isDir = st.isDirectory();
      rows.push({
        path: rowPath,
        name,
        kind: isDir ? 'dir' : 'file',
        size: isDir ? 0 : st.size,
        mtime: Math.floor(st.mtimeMs / 1000),
      });
    }
  } catch (err) {
    return { ok: false, scanned, detail: `read: ${(err as NodeJS.ErrnoException).code ?? 'error'}` };
  } finally {
    try {
      reader.closeSync();
    } catch {
      // closed
    }
  }
  return { ok: true, rows, scanned, exhausted: false };
}
