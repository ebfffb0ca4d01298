import * as fs from 'node:fs';
import { expandHome, type SensitiveFence } from '../fence/index.js';
import { homeDir } from '../fence/root.js';
import type { NameResult } from '../names/types.js';
import { PATH_COMPLETE_MAX_ENTRIES, PATH_COMPLETE_MAX_SCAN } from './limits.js';
import { type DirOpener, platformDirOpener } from './open-dir.js';
import { closeQuietly, compareRows, isUnder, reachDir, scanEntries } from './reach.js';
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

/** A `./` completion request: the project, the directory and prefix typed, the fence, budgets and seams. */
export interface CompletionRequest {
  /** The SERVER-HELD project directory (a known-project entry, never the caller's spelling). `~` is expanded. */
  project: string;
  /** The typed directory prefix (`./`, `../src/`), judged lexically; never expanded, never resolved. */
  dir: string;
  /** Partial entry name: case-insensitive prefix; dot entries only when it starts with a dot (or `dots`). */
  q: string;
  /** Offer dot entries whatever `q` is (an agent's `list_dir`: its `search` walks them). Default false. */
  dots?: boolean;
  /** Only the non-resolving predicate is used: nothing here canonicalises a path through the fence. */
  fence: Pick<SensitiveFence, 'isSensitiveCanonical'>;
  /** HOME for `~` in the project (default {@link homeDir}). */
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

/** The answer of {@link listCompletion}: one directory level, how it ended and what was scanned. */
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

/**
 * One directory level of a project for `./` completion (docs/http-api.md; decision 7 of docs/architecture.md).
 *
 * Containment is decided lexically ({@link completionSegments}); the directory is then reached one component at a
 * time through held descriptors that never follow a link; the descriptor's own witnessed path is what containment
 * and the fence judge, and what every row path is built from. Nothing caller-influenced is ever resolved: the one
 * `realpath` is of the server-held project. Links are never offered (they could never be entered); entry metadata
 * is the entry's own (`lstat`). Synchronous by design: it runs on a worker thread.
 */
export function listCompletion(req: CompletionRequest): CompletionOutcome {
  const home = req.home ?? homeDir();
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

  const reached = reachDir(opener, root, segments);
  if (!reached.ok) return out(reached.status, root, { detail: reached.detail });
  const current = reached.dir;
  try {
    const witness = opener.witness(current);
    if (witness === null) return out('refused', root, { detail: 'witness unavailable' });
    if (!isUnder(witness, root)) return out('outside', root, { witness, detail: 'witness outside the root' });
    if (req.fence.isSensitiveCanonical(witness))
      return out('sensitive', root, { witness, detail: 'directory' });

    const showDots = req.dots === true || req.q.startsWith('.');
    const prefix = req.q.toLowerCase();
    const scan = scanEntries(
      opener,
      current,
      witness,
      req.fence,
      (name) => (showDots || !name.startsWith('.')) && name.toLowerCase().startsWith(prefix),
      maxScan,
    );
    if (!scan.ok) return out('missing', root, { witness, scanned: scan.scanned, detail: scan.detail });
    const rows = scan.rows.sort(compareRows);
    return { status: 'ok', root, witness, rows: rows.slice(0, maxEntries), scanned: scan.scanned };
  } finally {
    closeQuietly(opener, current);
  }
}
