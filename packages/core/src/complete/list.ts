import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SensitiveFence } from '../fence/index.js';
import type { NameResult } from '../names/types.js';
import { PATH_COMPLETE_MAX_ENTRIES, PATH_COMPLETE_MAX_SCAN } from './limits.js';
import { type DirOpener, type OpenDir, platformDirOpener } from './open-dir.js';
import { completionSegments } from './segments.js';

/**
 * What a listing answered:
 * - `ok`: rows (possibly none);
 * - `sensitive`: the root or the directory reached is a sensitive location;
 * - `outside`: the typed prefix names nothing under the root (lexically, or by the descriptor's witness);
 * - `refused`: a component is a link, not a directory, or cannot be opened, or the directory cannot be witnessed;
 * - `missing`: a component (or the project root) does not exist.
 * `refused` and `missing` are one answer to the caller and two facts in the audit log.
 */
export type CompletionStatus = 'ok' | 'sensitive' | 'outside' | 'refused' | 'missing';

export interface CompletionRequest {
  /** The SERVER-HELD project directory (a known-project entry, never the caller's spelling). `~` is expanded. */
  project: string;
  /** The typed directory prefix (`./`, `../src/`), judged lexically; never expanded, never resolved. */
  dir: string;
  /** Partial entry name: case-insensitive prefix; dot entries only when it starts with a dot. */
  q: string;
  /** Only the non-resolving predicate is used: nothing here canonicalises a path through the fence. */
  fence: Pick<SensitiveFence, 'isSensitiveCanonical'>;
  /** HOME for `~` in the project (default `os.homedir()`). */
  home?: string;
  /**
   * Canonicalises the project root (default `fs.realpathSync`). The ONLY resolution in a listing, and it is only
   * ever handed the server-held project: a seam so tests can prove it (a tripwire).
   */
  realpath?: (p: string) => string;
  opener?: DirOpener;
  /** Windows name rules for the lexical walk (default: on win32). */
  windows?: boolean;
  maxEntries?: number;
  maxScan?: number;
}

export interface CompletionOutcome {
  status: CompletionStatus;
  /** The canonical project root ('' when it could not be resolved). */
  root: string;
  /** The descriptor's witnessed path, when the walk got that far. */
  witness?: string;
  rows: NameResult[];
  /** Entries examined (the scan budget counts every one). */
  scanned: number;
  /** For the audit line: where and why a walk stopped (`src: symlink`, `witness unavailable`, …). */
  detail?: string;
}

function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(home, p.slice(2));
  return p;
}

function isUnder(child: string, root: string): boolean {
  if (child === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return child.startsWith(prefix);
}

/** Directories first, then names case-insensitively (code point order), then exact name for a stable order. */
function compareRows(a: NameResult, b: NameResult): number {
  if (a.kind !== b.kind) return a.kind === 'dir' ? -1 : 1;
  const al = a.name.toLowerCase();
  const bl = b.name.toLowerCase();
  if (al !== bl) return al < bl ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * One directory level of a project for `./` completion (spec/file-api.md §3.2; DESIGN.md decision 7).
 *
 * Containment is decided lexically ({@link completionSegments}); the directory is then reached one component at a
 * time through held descriptors that never follow a link; the descriptor's own witnessed path is what containment
 * and the fence judge, and what every row path is built from. Nothing caller-influenced is ever resolved: the one
 * `realpath` is of the server-held project. Links are never offered (they could never be entered); entry metadata
 * is the entry's own (`lstat`). Synchronous by design: it runs on a worker thread.
 */
export function listCompletion(req: CompletionRequest): CompletionOutcome {
  const home = req.home ?? os.homedir();
  const realpath = req.realpath ?? ((p: string) => fs.realpathSync(p));
  const opener = req.opener ?? platformDirOpener();
  const maxEntries = req.maxEntries ?? PATH_COMPLETE_MAX_ENTRIES;
  const maxScan = req.maxScan ?? PATH_COMPLETE_MAX_SCAN;
  const out = (
    status: CompletionStatus,
    root: string,
    extra: Partial<CompletionOutcome> = {},
  ): CompletionOutcome => ({
    status,
    root,
    rows: [],
    scanned: 0,
    ...extra,
  });

  let root: string;
  try {
    root = realpath(expandHome(req.project, home));
  } catch (err) {
    return out('missing', '', {
      detail: `project root: ${(err as NodeJS.ErrnoException).code ?? 'unresolvable'}`,
    });
  }
  if (req.fence.isSensitiveCanonical(root)) return out('sensitive', root, { detail: 'project root' });

  const segments = completionSegments(
    root,
    req.dir,
    req.windows === undefined ? {} : { windows: req.windows },
  );
  if (segments === null) return out('outside', root, { detail: 'lexical' });

  const held: OpenDir[] = [];
  const closeAll = () => {
    for (const d of held.splice(0)) {
      try {
        opener.close(d);
      } catch {
        // already closed
      }
    }
  };
  try {
    let current: OpenDir;
    try {
      current = opener.openRoot(root);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return out(code === 'ENOENT' ? 'missing' : 'refused', root, {
        detail: `project root: ${code ?? 'error'}`,
      });
    }
    held.push(current);
    for (const name of segments) {
      let next: OpenDir;
      try {
        next = opener.openChild(current, name);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? 'error';
        if (code === 'ENOENT') return out('missing', root, { detail: `${name}: missing` });
        return out('refused', root, { detail: `${name}: ${opener.describeChild(current, name)} (${code})` });
      }
      // Close the parent now: only the deepest descriptor is needed, and fd numbers must not be reused under it.
      held.pop();
      opener.close(current);
      held.push(next);
      current = next;
    }

    const witness = opener.witness(current);
    if (witness === null) return out('refused', root, { detail: 'witness unavailable' });
    if (!isUnder(witness, root)) return out('outside', root, { witness, detail: 'witness outside the root' });
    if (req.fence.isSensitiveCanonical(witness))
      return out('sensitive', root, { witness, detail: 'directory' });

    const showDots = req.q.startsWith('.');
    const prefix = req.q.toLowerCase();
    const rows: NameResult[] = [];
    let scanned = 0;
    let reader: ReturnType<DirOpener['readdir']>;
    try {
      reader = opener.readdir(current);
    } catch (err) {
      return out('missing', root, {
        witness,
        detail: `read: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
      });
    }
    try {
      for (;;) {
        if (scanned >= maxScan) break;
        const e = reader.readSync();
        if (e === null) break;
        scanned++;
        const name = e.name;
        if (!showDots && name.startsWith('.')) continue;
        if (!name.toLowerCase().startsWith(prefix)) continue;
        if (e.isSymbolicLink()) continue;
        const rowPath = path.join(witness, name);
        if (req.fence.isSensitiveCanonical(rowPath)) continue;
        let st: ReturnType<DirOpener['lstatChild']>;
        try {
          st = opener.lstatChild(current, name);
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
      return out('missing', root, {
        witness,
        scanned,
        detail: `read: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
      });
    } finally {
      try {
        reader.closeSync();
      } catch {
        // closed
      }
    }
    rows.sort(compareRows);
    return { status: 'ok', root, witness, rows: rows.slice(0, maxEntries), scanned };
  } finally {
    closeAll();
  }
}
