import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IndexSelection, IndexSelectRequest, IndexUse } from '../engine/search-index.js';
import type { ByteWindows } from '../search/windows.js';
import type { WalkEntry } from '../walk/walker.js';
import { alwaysSearched, type Base, takenWhatever } from './base.js';
import { blockRanges } from './blocks.js';
import { FLAG_NUL, FLAG_RACY, FLAG_UNINDEXED } from './format.js';
import {
  MAX_CANDIDATE_BYTE_SHARE,
  MAX_CANDIDATE_FILE_SHARE,
  MIN_BYTES_FOR_SHARE_RULE,
  MIN_FILES_FOR_SHARE_RULE,
  WINDOWED_MIN_BLOCKS,
} from './limits.js';
import type { OverlayFile } from './overlay.js';
import { type evaluateBlocks, type GramQuery, setSatisfies } from './query.js';
import type { WalkList } from './walk-cache.js';

/**
 * Selection: which of a search's walked files it must read. A base file is a candidate when the query's lists
 * pick it or its content cannot be judged (not indexed, past the size cap); a file changed since the base is
 * judged by its overlay entry, or read when it has none yet. Anything the index cannot vouch for is kept.
 */

/** What selection reads of the freshness side (freshness.ts): the files changed since the base. */
export interface ChangedFiles {
  /** Changed and not re-indexed yet: always a candidate. */
  isPending(rel: string): boolean;
  /** Files re-indexed in memory since the base. */
  readonly overlay: ReadonlyMap<string, OverlayFile>;
  /** A file found changed by a size+mtime check (unwatched): re-indexed later. */
  markChanged(rel: string): void;
}

/** What a select picked: walk positions in walk order, per position its windows, and the bytes counted. */
interface Picked {
  positions: number[];
  windows: Array<ByteWindows | undefined>;
  pickedBytes: number;
  totalBytes: number;
  /** Every walked file's size is known and at most the search's cap (select's `withinSizeCap`). */
  withinSize: boolean;
  /** Every picked file is known to hold no NUL and to be within the cap (watched only; see `plainCandidates`). */
  allPlain: boolean;
  /** `positions` (and `windows` with them) are in walk order; else they are put in it when a list is made. */
  ordered: boolean;
}

/**
 * The files of `list` a search must read, given the query evaluated on the list's base: as the walk to search,
 * or declined (too many candidates: a scan is faster) with what the scan may rely on. `trusted`: the watchers
 * vouch for the tree (else every walked base file is stat-checked); `trustReason` is said when they do not.
 */
export function selectFrom(
  list: WalkList,
  evaluation: ReturnType<typeof evaluateBlocks>,
  query: GramQuery,
  req: Pick<IndexSelectRequest, 'walk' | 'maxFilesize'>,
  changed: ChangedFiles,
  trusted: boolean,
  trustReason: string,
): IndexSelection {
  const { files: bits, blocks: ks } = evaluation;
  const picked =
    trusted && list.posOf
      ? pickWatched(list, list.posOf, bits, ks, query, req.maxFilesize, changed)
      : pickChecked(list, bits, ks, query, req.maxFilesize, trusted, changed);
  const { totalBytes, pickedBytes } = picked;
  const { entries } = list;
  const n = entries.length;
  const count = picked.positions.length;
  const use: IndexUse = { used: true, reason: '', candidates: count, files: n };
  const rootsAbs = req.walk.roots.map((r) => path.resolve(req.walk.cwd, r === '' ? '.' : r));
  const excluded = req.walk.exclude ? dirMemo(rootsAbs, req.walk.exclude) : null;
  const out: WalkEntry[] = [];
  const windows: Array<ByteWindows | undefined> = [];
  let windowed = 0;
  // Put in walk order only for a list handed back (a declined broad search hands none, mostly).
  const candidates = () => {
    const { positions, windows: pickedWindows } = picked.ordered
      ? picked
      : inWalkOrder(picked.positions, picked.windows);
    for (let k = 0; k < count; k++) {
      const e = entries[positions[k]!]!;
      // Judged where the file is (its canonical path, as the walk judges it), not as spelled.
      if (excluded?.(e.canon)) continue;
      out.push(e);
      const w = pickedWindows[k];
      windows.push(w);
      if (w) windowed++;
    }
  };
  const stats = () => ({
    ...list.stats,
    errors: [...list.stats.errors],
    missingRoots: [...list.stats.missingRoots],
  });
  if (
    (n >= MIN_FILES_FOR_SHARE_RULE || totalBytes >= MIN_BYTES_FOR_SHARE_RULE) &&
    (count > n * MAX_CANDIDATE_FILE_SHARE ||
      (pickedBytes > totalBytes * MAX_CANDIDATE_BYTE_SHARE && pickedBytes >= MIN_BYTES_FOR_SHARE_RULE))
  ) {
    const declined: IndexSelection = {
      use: { used: false, reason: `${count} of ${n} files may match: a scan is faster` },
    };
    if (picked.withinSize) declined.withinSizeCap = true;
    if (picked.allPlain) {
      candidates();
      declined.plainCandidates = { entries: out, stats: stats(), bytes: pickedBytes, totalBytes };
    }
    return declined;
  }
  candidates();
  use.candidates = out.length;
  if (windowed > 0) use.windowed = windowed;
  use.reason = `index: ${out.length} of ${n} files may match${windowed > 0 ? `, ${windowed} read through windows` : ''} (${trusted ? 'watched' : `size+mtime checked: ${trustReason}`})`;
  return {
    use,
    walk: { entries: out, stats: stats(), ...(windowed > 0 ? { windows } : {}) },
  };
}

/**
 * The candidates when the watchers vouch for the tree, in O(candidates + changed files): the base files the
 * query picked, those it cannot judge by content (not indexed, past the size cap), and every file changed
 * since the base, each judged by its overlay entry. Same answer as `pickChecked`, without visiting the walk.
 */
function pickWatched(
  list: WalkList,
  posOf: Int32Array,
  bits: Uint8Array,
  ks: Uint32Array | null,
  query: GramQuery,
  maxFilesize: number,
  changed: ChangedFiles,
): Picked {
  const base = list.base;
  const r = base.data.records;
  const positions: number[] = [];
  const windows: Array<ByteWindows | undefined> = [];
  let pickedBytes = 0;
  let totalBytes = list.baseBytes;
  // A stale file counts with its recorded size here too: too cautious at worst (its new size is judged below).
  let withinSize = list.baseLargest <= maxFilesize;
  let allPlain = true;
  const take = (id: number) => {
    const p = posOf[id]!;
    if (p < 0 || base.stale[id]) return;
    const w = ks ? windowsOf(base, id, ks, bits, maxFilesize, true) : undefined;
    positions.push(p);
    windows.push(w);
    pickedBytes += w ? windowBytes(w) : r[id * 4]!;
    if ((r[id * 4 + 3]! & (FLAG_NUL | FLAG_UNINDEXED)) !== 0 || r[id * 4]! > maxFilesize) allPlain = false;
  };
  forEachSet(bits, take);
  for (const id of alwaysSearched(base, maxFilesize)) if (!bits[id]) take(id);
  const judge = (p: number) => {
    const { candidate, size, sized, plain } = judgeChanged(
      list.rels[p]!,
      list.entries[p]!.abs,
      query,
      maxFilesize,
      true,
      changed,
    );
    totalBytes += size;
    if (!sized || size > maxFilesize) withinSize = false;
    if (candidate) {
      positions.push(p);
      windows.push(undefined);
      pickedBytes += size;
      if (!plain) allPlain = false;
    }
  };
  for (const id of base.staleIds) {
    const p = posOf[id]!;
    if (p < 0) continue;
    totalBytes -= r[id * 4]!;
    judge(p);
  }
  for (const p of list.unknown) judge(p);
  return { positions, windows, pickedBytes, totalBytes, withinSize, allPlain, ordered: false };
}

/**
 * The candidates by visiting every walked file: when the watchers cannot vouch for the tree (each base file's
 * size, mtime and inode are checked), or when the walk yielded a file twice.
 */
function pickChecked(
  list: WalkList,
  bits: Uint8Array,
  ks: Uint32Array | null,
  query: GramQuery,
  maxFilesize: number,
  trusted: boolean,
  changed: ChangedFiles,
): Picked {
  const base = list.base;
  const r = base.data.records;
  const positions: number[] = [];
  // Per picked file, the byte ranges that hold its matches when the searcher may read only those.
  const windows: Array<ByteWindows | undefined> = [];
  // What the candidates cost to read: a windowed file counts its windows, not its size.
  let pickedBytes = 0;
  let totalBytes = 0;
  const { ids, rels, entries } = list;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    let candidate: boolean;
    let size: number;
    if (id >= 0 && !base.stale[id]) {
      size = r[id * 4]!;
      candidate = bits[id] === 1 || takenWhatever(r, id, maxFilesize);
      if (
        !candidate &&
        !trusted &&
        !statMatches(
          entries[i]!.abs,
          size,
          r[id * 4 + 1]!,
          r[id * 4 + 2]!,
          (r[id * 4 + 3]! & FLAG_RACY) !== 0,
        )
      ) {
        candidate = true;
        changed.markChanged(rels[i]!);
      }
    } else {
      ({ candidate, size } = judgeChanged(rels[i]!, entries[i]!.abs, query, maxFilesize, trusted, changed));
    }
    totalBytes += size;
    if (candidate) {
      const w = ks && id >= 0 ? windowsOf(base, id, ks, bits, maxFilesize, trusted) : undefined;
      positions.push(i);
      windows.push(w);
      pickedBytes += w ? windowBytes(w) : size;
    }
  }
  // Unwatched (or a walk holding a file twice): sizes and contents are not vouched for.
  return { positions, windows, pickedBytes, totalBytes, withinSize: false, allPlain: false, ordered: true };
}

/**
 * The byte ranges of a large base file that hold every match (its blocks where a literal may start), or
 * undefined when the file is read whole: small, changed since the base, not indexed, or past the size cap.
 */
function windowsOf(
  base: Base,
  id: number,
  ks: Uint32Array,
  bits: Uint8Array,
  maxFilesize: number,
  trusted: boolean,
): ByteWindows | undefined {
  if (id < 0 || base.stale[id] || bits[id] !== 1) return undefined;
  const r = base.data.records;
  const size = r[id * 4]!;
  const d = base.data;
  // Unwatched, a racy record may describe other bytes than those indexed with the same size and mtime (the
  // searcher checks those two): read whole. Watched, a change since would have made the record stale.
  // A file holding a NUL is binary to the searcher (it would read it all to place the NUL): read whole.
  const unsure = FLAG_UNINDEXED | FLAG_NUL | (trusted ? 0 : FLAG_RACY);
  if (size < WINDOWED_MIN_BLOCKS * d.blockBytes || size > maxFilesize || (r[id * 4 + 3]! & unsure) !== 0)
    return undefined;
  const ranges = blockRanges(d.firstBlock, d.blocks, ks, id, d.blockBytes, size);
  if (ranges.length === 0) return undefined;
  return {
    ranges,
    size,
    mtimeMs: r[id * 4 + 1]!,
    newlinesBefore: newlinesBefore(d.newlines, d.firstBlock[id]!, d.blockBytes, ranges),
    noNul: true,
  };
}

/** A file changed since the base: judged by its overlay entry when it has one, else searched. */
function judgeChanged(
  rel: string,
  abs: string,
  query: GramQuery,
  maxFilesize: number,
  trusted: boolean,
  changed: ChangedFiles,
): { candidate: boolean; size: number; sized: boolean; plain: boolean } {
  // `sized`: the size is the file's as the overlay last read it (false when not known: pending, or unreadable: -1).
  // `plain`: its indexed bytes, that size, hold no NUL and are within the cap (see `plainCandidates`).
  if (changed.isPending(rel)) return { candidate: true, size: 0, sized: false, plain: false };
  const o = changed.overlay.get(rel);
  if (!o || o.grams === null || o.size > maxFilesize)
    return { candidate: true, size: o?.size ?? 0, sized: o !== undefined && o.size >= 0, plain: false };
  if (!trusted && !statMatches(abs, o.size, o.mtimeMs, o.ino, o.racy)) {
    changed.markChanged(rel);
    return { candidate: true, size: o.size, sized: true, plain: false };
  }
  return { candidate: setSatisfies(o.grams, query), size: o.size, sized: true, plain: !o.nul };
}

function statMatches(abs: string, size: number, mtimeMs: number, ino: number, racy: boolean): boolean {
  if (racy) return false;
  try {
    const st = fs.lstatSync(abs);
    return st.size === size && st.mtimeMs === mtimeMs && st.ino === ino;
  } catch {
    return false;
  }
}

/** Picked positions (and their windows) sorted into walk order. */
function inWalkOrder(
  positions: number[],
  windows: Array<ByteWindows | undefined>,
): Pick<Picked, 'positions' | 'windows'> {
  const order = positions.map((_, k) => k).sort((a, b) => positions[a]! - positions[b]!);
  return { positions: order.map((k) => positions[k]!), windows: order.map((k) => windows[k]) };
}

/** Calls `f` with every index of a 0/1 byte map holding 1, skipping zeros four bytes at a time. */
function forEachSet(bits: Uint8Array, f: (i: number) => void): void {
  const whole = bits.byteOffset % 4 === 0 ? bits.length >>> 2 : 0;
  const words = new Uint32Array(bits.buffer, bits.byteOffset, whole);
  for (let w = 0; w < whole; w++) {
    if (words[w] === 0) continue;
    for (let i = w * 4; i < w * 4 + 4; i++) if (bits[i]) f(i);
  }
  for (let i = whole * 4; i < bits.length; i++) if (bits[i]) f(i);
}

function windowBytes(w: ByteWindows): number {
  let n = 0;
  for (let i = 0; i < w.ranges.length; i += 2) n += w.ranges[i + 1]! - w.ranges[i]!;
  return n;
}

/**
 * The newlines before each range's start (ranges start on block boundaries), from the per-block counts of
 * the file whose first block id is `first`.
 */
function newlinesBefore(
  newlines: Uint32Array,
  first: number,
  blockBytes: number,
  ranges: readonly number[],
): number[] {
  const out: number[] = [];
  let n = 0;
  let k = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    const upTo = ranges[i]! / blockBytes;
    for (; k < upTo; k++) n += newlines[first + k]!;
    out.push(n);
  }
  return out;
}

/**
 * The request's exclusion applied as its walk applies it: to the file and to every directory from its search
 * root down (the walk prunes an excluded directory with everything below it). Paths are canonical: the roots
 * were checked to be free of links.
 */
function dirMemo(roots: readonly string[], exclude: (abs: string) => boolean): (abs: string) => boolean {
  const stopAt = new Set(roots);
  const memo = new Map<string, boolean>();
  const dirExcluded = (dir: string): boolean => {
    let v = memo.get(dir);
    if (v === undefined) {
      const parent = path.dirname(dir);
      v = exclude(dir) || (!stopAt.has(dir) && parent !== dir && dirExcluded(parent));
      memo.set(dir, v);
    }
    return v;
  };
  return (abs) => exclude(abs) || (!stopAt.has(abs) && dirExcluded(path.dirname(abs)));
}
