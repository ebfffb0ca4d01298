import * as path from 'node:path';
import { createSensitiveFence, type SensitiveFence } from '../fence/index.js';
import { homeDir } from '../fence/root.js';
import type { LexicalMatch } from './lexical.js';
import {
  NAME_DEFAULT_LIMIT,
  NAME_WALK_CANDIDATES_PER_RESULT,
  NAME_WALK_DEADLINE_STRIDE,
  NAME_WALK_MAX_DIRS_VISITED,
  NAME_WALK_MAX_SCAN_SCOPED,
  NAME_WALK_MAX_SCAN_UNSCOPED,
  NAME_WALK_TIME_BUDGET_MS,
} from './limits.js';
import { prepareNameQuery } from './query.js';
import { NAME_SKIP_DIRS, NameAdmission, tccPruner } from './rules.js';
import { scoreTarget } from './score.js';
import { nameTarget } from './target.js';
import {
  compareRanked,
  type NameDirent,
  type NameKind,
  type NameKinds,
  type NameResult,
  type NameScorer,
  type NameSearchFs,
  nodeNameFs,
  type RankedCandidate,
} from './types.js';

/** A name search by walking (no index): query, roots, kinds, limit, fence, budgets and seams. */
export interface NameWalkOptions {
  query: string;
  /** Roots in order; budgets and the deadline are shared across all of them. */
  roots: readonly string[];
  /** The caller named the root (project/workspace): larger scan budget, no consent-folder pruning. */
  scoped: boolean;
  limit?: number;
  kinds?: NameKinds;
  fs?: NameSearchFs;
  fence?: SensitiveFence;
  scorer?: NameScorer;
  /** Entries scored per kind (default 50 000 scoped, 5 000 unscoped). */
  maxScan?: number;
  /** Candidates kept per kind (default limit × 10). */
  maxCandidates?: number;
  maxDirsVisited?: number;
  timeBudgetMs?: number;
  /** Monotonic clock (ms). */
  now?: () => number;
  signal?: AbortSignal;
  home?: string;
  platform?: string;
  /** Directory names neither offered nor entered (default NAME_SKIP_DIRS; `find_files` asks what they hid). */
  skipDirs?: ReadonlySet<string>;
  /** Offer dot files too (default false); they rank below other files (tiers.ts). */
  dotFiles?: boolean;
  /** Enter dot directories too (default false). */
  dotDirs?: boolean;
  /** Enter dot directories after every other directory of a root (the workbench; what they hold are dot files). */
  dotDirsLast?: boolean;
  /**
   * A further rule on every entry, by its path under the root as walked (`root` joined with the names): an entry it
   * refuses is neither offered nor, for a directory, entered. An agent's `find_files` passes its tree view's
   * (ignore files), so it finds what its `search` searches.
   */
  admit?: (abs: string, isDir: boolean) => boolean;
}

export interface NameWalkResult {
  results: NameResult[];
  /** Why the walk ended before covering every root, if it did. */
  stoppedBy?: 'deadline' | 'dirs-visited' | 'budgets' | 'aborted';
  /**
   * Entries were never scored because a kind's scan budget or the directories ceiling ran out with more to walk
   * (a 200 000-entry directory ahead of `src/`): the answer may miss a match it would otherwise have ranked.
   * Running out of candidate room is not this: the walk had already found more than it returns.
   */
  unscored?: boolean;
  dirsVisited: number;
  scanned: { files: number; dirs: number };
}

interface Found extends RankedCandidate {
  row: NameResult;
}

/**
 * The per-request walk: used when no ready, untruncated index serves the request.
 * Files and directories have independent scan and candidate budgets (neither kind starves the other), a
 * directories-entered ceiling ends deep narrow trees, a wall-clock budget bounds slow stores, and files are taken
 * before directories at each level. Every candidate is checked against the fence on its canonical path.
 */
export async function walkNameSearch(options: NameWalkOptions): Promise<NameWalkResult> {
  const fsys = options.fs ?? nodeNameFs;
  const fence = options.fence ?? createSensitiveFence();
  const now = options.now ?? (() => performance.now());
  const limit = Math.max(1, options.limit ?? NAME_DEFAULT_LIMIT);
  const kinds = options.kinds ?? 'all';
  const skipDirs = options.skipDirs ?? NAME_SKIP_DIRS;
  const maxScan =
    options.maxScan ?? (options.scoped ? NAME_WALK_MAX_SCAN_SCOPED : NAME_WALK_MAX_SCAN_UNSCOPED);
  const maxFound = options.maxCandidates ?? limit * NAME_WALK_CANDIDATES_PER_RESULT;
  const maxDirs = options.maxDirsVisited ?? NAME_WALK_MAX_DIRS_VISITED;
  const deadline = now() + (options.timeBudgetMs ?? NAME_WALK_TIME_BUDGET_MS);
  const lowered = options.query.trim().toLowerCase();
  const prepared = prepareNameQuery(options.query);
  const found: Record<NameKind, Found[]> = { file: [], dir: [] };
  const walked: Record<NameKind, number> = { file: 0, dir: 0 };
  const out: NameWalkResult = { results: [], dirsVisited: 0, scanned: { files: 0, dirs: 0 } };
  if (!prepared && !options.scorer) return out;

  const wants = (k: NameKind) => kinds === 'all' || (kinds === 'files' ? k === 'file' : k === 'dir');
  const kindDone = (k: NameKind) => !wants(k) || walked[k] >= maxScan || found[k].length >= maxFound;
  const full = () => out.dirsVisited >= maxDirs || (kindDone('file') && kindDone('dir'));
  const scanCapped = (k: NameKind) => wants(k) && walked[k] >= maxScan && found[k].length < maxFound;
  /** The walk is full; `more`: entries were left to walk. */
  const stopFull = (more: boolean) => {
    out.stoppedBy = out.dirsVisited >= maxDirs ? 'dirs-visited' : 'budgets';
    if (more && (out.stoppedBy === 'dirs-visited' || scanCapped('file') || scanCapped('dir'))) {
      out.unscored = true;
    }
  };
  let stride = 0;
  const timedOut = () => {
    if (options.signal?.aborted) {
      out.stoppedBy = 'aborted';
      return true;
    }
    if (now() > deadline) {
      out.stoppedBy = 'deadline';
      return true;
    }
    return false;
  };

  const match: LexicalMatch = { aliasOnly: false };
  const score = (name: string, rel: string, isDir: boolean): number => {
    if (options.scorer) return options.scorer(lowered, name, rel);
    return scoreTarget(prepared!, nameTarget(rel, isDir), match);
  };

  rootLoop: for (const [rootIndex, root] of options.roots.entries()) {
    const moreRoots = rootIndex < options.roots.length - 1;
    if (full()) {
      stopFull(true);
      break;
    }
    if (timedOut()) break;
    let canonicalRoot: string;
    try {
      canonicalRoot = await fsys.realpath(root);
    } catch {
      continue;
    }
    if (await fence.isSensitive(canonicalRoot)) continue;
    const sensitive = fence.canonicalCheckerFor(canonicalRoot);
    const admit = new NameAdmission(
      skipDirs,
      options.scoped
        ? null
        : tccPruner(canonicalRoot, options.home ?? homeDir(), options.platform ?? process.platform),
      options.dotFiles === true,
      options.dotDirs === true,
      options.dotDirsLast === true,
    );
    const extra = options.admit;
    const join = (base: string, rel: string) => (rel === '' ? base : path.join(base, rel));
    const stack: string[] = [''];
    // Dot directories (dotDirsLast) wait until the rest of the root is walked; inside one, all is entered in turn.
    const later: string[] = [];
    let hidden = false;
    for (;;) {
      if (stack.length === 0) {
        if (hidden || later.length === 0) break;
        hidden = true;
        stack.push(...later.splice(0).reverse());
      }
      const rel = stack.pop()!;
      out.dirsVisited++;
      if (timedOut()) break rootLoop;
      let entries: NameDirent[];
      try {
        entries = await fsys.readdir(join(root, rel));
      } catch {
        if (full()) {
          stopFull(stack.length > 0 || later.length > 0 || moreRoots);
          break rootLoop;
        }
        continue;
      }
      const files: { name: string; link: boolean }[] = [];
      const dirs: { name: string; link: boolean }[] = [];
      for (const e of entries) {
        if (e.isDirectory()) dirs.push({ name: e.name, link: false });
        else if (e.isFile()) files.push({ name: e.name, link: false });
        else if (e.isSymbolicLink() && admit.link(rel, e.name)) {
          // classified by its target, as a directory listing that follows links would; never descended into
          let kind: 'dir' | 'file' | null;
          try {
            kind = admit.linkTarget(e.name, await fsys.stat(join(root, rel ? `${rel}/${e.name}` : e.name)));
          } catch {
            kind = null; // dangling
          }
          if (kind !== null) (kind === 'dir' ? dirs : files).push({ name: e.name, link: true });
        }
      }
      const candidateDirs = dirs.filter(
        (d) =>
          admit.dir(rel, d.name) && (!extra || extra(join(root, rel ? `${rel}/${d.name}` : d.name), true)),
      );
      const descend: string[] = [];
      for (const d of candidateDirs) {
        if (d.link) continue;
        const deferred = admit.defers(d.name);
        if (!admit.enters(d.name) && !deferred) continue;
        const childRel = rel ? `${rel}/${d.name}` : d.name;
        if (sensitive(join(canonicalRoot, childRel))) continue;
        if (deferred && !hidden) later.push(childRel);
        else descend.push(childRel);
      }
      for (const [kind, list] of [
        ['file', files],
        ['dir', candidateDirs],
      ] as const) {
        for (const entry of list) {
          if (kindDone(kind)) {
            if (scanCapped(kind)) out.unscored = true;
            break;
          }
          walked[kind]++;
          if (kind === 'file') out.scanned.files++;
          else out.scanned.dirs++;
          if (++stride % NAME_WALK_DEADLINE_STRIDE === 0 && timedOut()) break rootLoop;
          // in a dot directory every file is a dot file
          if (kind === 'file' && (!admit.file(entry.name) || (hidden && options.dotFiles !== true))) continue;
          const childRel = rel ? `${rel}/${entry.name}` : entry.name;
          if (kind === 'file' && extra && !extra(join(root, childRel), false)) continue;
          const s = score(entry.name, childRel, kind === 'dir');
          if (!(s > 0)) continue;
          const aliasOnly = !options.scorer && match.aliasOnly;
          const abs = join(root, childRel);
          const refused = entry.link
            ? await fence.isSensitive(abs)
            : sensitive(join(canonicalRoot, childRel));
          if (refused) continue;
          let st: Awaited<ReturnType<NameSearchFs['stat']>>;
          try {
            st = await fsys.stat(abs);
          } catch {
            continue;
          }
          found[kind].push({
            score: s,
            isDir: kind === 'dir',
            nameLength: entry.name.length,
            mtimeMs: st.mtimeMs,
            aliasOnly,
            row: {
              path: abs,
              name: entry.name,
              kind,
              size: kind === 'dir' ? 0 : st.size,
              mtime: Math.floor(st.mtimeMs / 1000),
            },
          });
        }
      }
      if (full()) {
        stopFull(stack.length > 0 || descend.length > 0 || later.length > 0 || moreRoots);
        break rootLoop;
      }
      if (timedOut()) break rootLoop;
      for (let i = descend.length - 1; i >= 0; i--) stack.push(descend[i]!);
    }
  }
  const all = [...found.file, ...found.dir];
  all.sort(compareRanked);
  out.results = all.slice(0, limit).map((f) => f.row);
  return out;
}
