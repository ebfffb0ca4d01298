import * as fs from 'node:fs';

/** What a name-search row is: a file or a directory. */
export type NameKind = 'file' | 'dir';
/** Which kinds a search returns. */
export type NameKinds = 'all' | 'files' | 'dirs';

/** One result row, the shape of `/api/file-search` rows. `mtime` is whole epoch seconds; directories have size 0. */
export interface NameResult {
  path: string;
  name: string;
  kind: NameKind;
  size: number;
  mtime: number;
}

/** A pluggable scorer with the reference's signature (`q` trimmed and lowercased); > 0 is a match. */
export type NameScorer = (q: string, name: string, rel: string) => number;

export interface NameSearchOptions {
  /** Results wanted (already clamped by the surface; see {@link clampNameLimit}). */
  limit?: number;
  kinds?: NameKinds;
  /** Offer dot files too (default false, the seed's rule); they rank below other files (tiers.ts). */
  dotFiles?: boolean;
  /** Replace trawl's scorer (tests pin ordering rules with flat scorers). */
  scorer?: NameScorer;
}

/** What a directory read yields: `fs.Dirent` satisfies it. */
export interface NameDirent {
  readonly name: string;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
}

export interface NameStat {
  isDirectory(): boolean;
  isFile(): boolean;
  readonly size: number;
  readonly mtimeMs: number;
}

/** A watcher handle, as `fs.watch` returns. */
export interface NameWatcher {
  close(): void;
}

/** The filesystem as name search sees it: a seam for tests (slow stores, counting reads, failing watchers). */
export interface NameSearchFs {
  readdirSync(dir: string): NameDirent[];
  readdir(dir: string): Promise<NameDirent[]>;
  /** Follows links; rejects when the entry is gone. */
  stat(p: string): Promise<NameStat>;
  /** Follows links; throws when the entry is gone (the index's result check: a handful per search). */
  statSync(p: string): NameStat;
  realpath(p: string): Promise<string>;
  /** Watches one directory (not recursive); `onEvent('rename' | 'change', name)`; `onError` when it dies. */
  watch(dir: string, onEvent: (event: string) => void, onError: (err: Error) => void): NameWatcher;
}

/** The real filesystem, as name search reads it (the default of its filesystem seam). */
export const nodeNameFs: NameSearchFs = {
  readdirSync: (dir) => fs.readdirSync(dir, { withFileTypes: true }),
  readdir: (dir) => fs.promises.readdir(dir, { withFileTypes: true }),
  stat: (p) => fs.promises.stat(p),
  statSync: (p) => fs.statSync(p),
  realpath: (p) => fs.promises.realpath(p),
  watch: (dir, onEvent, onError) => {
    const w = fs.watch(dir, { persistent: false }, (event) => onEvent(event));
    w.on('error', onError);
    return w;
  },
};

/** Normalises a caller's limit like the endpoint: not an integer → default; then clamped to [floor, ceiling]. */
export function clampNameLimit(raw: unknown, fallback: number, floor: number, ceiling: number): number {
  let n: number;
  if (typeof raw === 'number') n = raw;
  else if (typeof raw === 'string' && /^\s*[-+]?\d+\s*$/.test(raw)) n = Number.parseInt(raw, 10);
  else n = Number.NaN;
  if (!Number.isFinite(n) || !Number.isInteger(n)) n = fallback;
  return Math.min(ceiling, Math.max(floor, n));
}

/** Normalises a kinds value: anything unrecognised is `all`. */
export function parseNameKinds(raw: unknown): NameKinds {
  const k = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  return k === 'files' || k === 'dirs' ? k : 'all';
}

/** A scored candidate before its row is built. */
export interface RankedCandidate {
  score: number;
  isDir: boolean;
  nameLength: number;
  /** Filled when known (the walk stats every candidate; the index only the ones it returns). */
  mtimeMs: number;
  /** Matched only as its directory's main file (`router/index.js` for `router`). */
  aliasOnly?: boolean;
}

/**
 * The reference ranking order: higher score, then files before directories, then (trawl) a file matched by its
 * own name before one matched only as its directory's main file, then shorter name, then newer. The one
 * comparator: the index's top-k heap uses it too (its candidates' mtimes are all 0 until their rows are built).
 */
export function compareRanked(a: RankedCandidate, b: RankedCandidate): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.isDir !== b.isDir) return a.isDir ? 1 : -1;
  if (!!a.aliasOnly !== !!b.aliasOnly) return a.aliasOnly ? 1 : -1;
  if (a.nameLength !== b.nameLength) return a.nameLength - b.nameLength;
  return b.mtimeMs - a.mtimeMs;
}
