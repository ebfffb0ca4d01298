import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SensitiveFence } from '@trawl/core/fence';
import { agentTree } from '@trawl/core/tool';
import { Walker } from '@trawl/core/walk';
import { FIND_GLOB_BUDGET_MS, FIND_GLOB_MAX_DIRS } from '../limits.js';

/** One file a glob matched. */
export interface GlobHit {
  /** Relative to the root, `/`-separated. */
  rel: string;
  size: number;
  /** Seconds since the epoch, as the name search's rows carry it. */
  mtime: number;
}

/** What `find_files` with `glob` found. */
export interface GlobAnswer {
  hits: GlobHit[];
  /** Files that matched (the page is the first `limit` of them, in the order asked for). */
  total: number;
  /** The walk stopped at a budget: `total` is a floor. */
  partial: boolean;
}

/**
 * Files under `root` matching any of `globs` (ripgrep's glob rules, as `search` takes them in paths: without `/` a
 * name at any depth, with `/` anchored at the root, `**` crossing directories), walked with the agent's tree rules.
 * Sorted by path, or newest first; the first `limit` returned with the total.
 */
export function findByGlob(
  root: string,
  globs: readonly string[],
  options: { sort: 'path' | 'newest'; limit: number; fence: SensitiveFence; now?: () => number },
): GlobAnswer {
  const now = options.now ?? Date.now;
  const walker = new Walker({
    roots: [''],
    cwd: root,
    ...agentTree.walkOptions,
    globs: [...globs],
    globBase: 'root',
    globMode: 'filter',
    exclude: (abs) => options.fence.isSensitiveCanonical(abs),
    maxDirs: FIND_GLOB_MAX_DIRS,
    deadline: now() + FIND_GLOB_BUDGET_MS,
    now,
  });
  const found: GlobHit[] = [];
  for (const e of walker.entries()) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(e.abs);
    } catch {
      continue; // gone since it was listed
    }
    found.push({ rel: e.path, size: st.size, mtime: Math.floor(st.mtimeMs / 1000) });
  }
  if (options.sort === 'newest') found.sort((a, b) => b.mtime - a.mtime || (a.rel < b.rel ? -1 : 1));
  return {
    hits: found.slice(0, options.limit),
    total: found.length,
    partial: walker.stats.stoppedBy !== undefined,
  };
}

/** A name query that is a glob (`*.test.ts`): metacharacters a file name rarely holds. */
export function looksLikeGlob(query: string): boolean {
  return /[*?[\]{}]/.test(query);
}

/** The answer in words. */
export function globText(globs: readonly string[], a: GlobAnswer, sort: 'path' | 'newest'): string {
  const spelled = globs.map((g) => `"${g}"`).join(', ');
  if (a.hits.length === 0)
    return `No file matches ${spelled}${a.partial ? ' in the part of the tree walked (the walk stopped at its budget)' : ''}.`;
  const lines = a.hits.map((h) => h.rel);
  const order = sort === 'newest' ? 'newest first' : 'in path order';
  const total = `${a.partial ? 'at least ' : ''}${a.total}`;
  const tail =
    a.hits.length < a.total
      ? `Showing ${a.hits.length} of ${total} files matching ${spelled}, ${order}; narrow the glob (or search with paths) for the rest.`
      : `${total} file${a.total === 1 ? '' : 's'} match${a.total === 1 ? 'es' : ''} ${spelled}, ${order}.`;
  return `${lines.join('\n')}\n\n${tail}`;
}

/** Paths as rows of the tool's structured output. */
export function globRows(a: GlobAnswer) {
  return a.hits.map((h) => ({
    path: h.rel,
    name: path.posix.basename(h.rel),
    kind: 'file' as const,
    size: h.size,
    mtime: h.mtime,
  }));
}
