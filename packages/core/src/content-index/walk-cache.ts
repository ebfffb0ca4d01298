import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { IndexWalkOptions, IndexWalkRequest } from '../engine/search-index.js';
import { isWithin } from '../util/fs-safety.js';
import { type PrunedEntry, type WalkEntry, Walker, type WalkStats } from '../walk/walker.js';
import type { Base } from './base.js';
import { MAX_CACHED_WALKS } from './limits.js';
import { NEVER_ENTERED } from './tree.js';

/**
 * How one walk option enters the key of a kept walk:
 * - `value`: the key holds its value (two walks differing in it are different walks);
 * - `set`: the key holds its members sorted (the option is a set);
 * - `uncached`: a walk with it set is neither kept nor answered from a kept one (it reaches where no watcher
 *   looks, or asks for what a kept list cannot replay);
 * - `per-search`: not part of the kept walk; each search applies it to the kept list (selection.ts).
 */
export type WalkKeyRule = 'value' | 'set' | 'uncached' | 'per-search';

/** One rule per walk option, none left out: a new option does not typecheck until it says how it is keyed. */
export type WalkKeyRules<Options> = { readonly [K in keyof Options]-?: WalkKeyRule };

/** How each walk option keys a kept walk. */
export const WALK_KEY_RULES: WalkKeyRules<IndexWalkOptions> = {
  roots: 'value',
  cwd: 'value',
  hidden: 'value',
  ignoreFiles: 'value',
  requireGit: 'value',
  parents: 'value',
  globs: 'value',
  globCaseInsensitive: 'value',
  globBase: 'value',
  globMode: 'value',
  skipDirs: 'set',
  maxEntries: 'value',
  maxDirs: 'value',
  maxDepth: 'value',
  fileTypes: 'value',
  vcsIgnore: 'value',
  dotIgnore: 'value',
  // Links followed lead where the watchers do not look; an extra ignore file may sit outside the tree.
  followLinks: 'uncached',
  extraIgnoreFiles: 'uncached',
  // A kept list records what its walk pruned (ContentIndex.walkPruned hands that out), but it cannot call a
  // request's own callback: a walk that asks for one walks itself.
  onPruned: 'uncached',
  // The index's own exclusions (the fence) shape a kept walk; a request's are applied by each search.
  exclude: 'per-search',
};

const KEYED = Object.keys(WALK_KEY_RULES) as Array<keyof IndexWalkOptions>;

/** Whether an `uncached` option is set (a false flag or an empty list is the same as none). */
function isSet(value: unknown): boolean {
  if (value === undefined || value === false) return false;
  return !(Array.isArray(value) && value.length === 0);
}

/**
 * The key a walk is kept under, made from every option by its rule (WALK_KEY_RULES); null when the walk is not
 * to be kept or answered from a kept one.
 */
export function walkKey(walk: IndexWalkOptions): string | null {
  const parts: unknown[] = [];
  for (const name of KEYED) {
    const value = walk[name];
    switch (WALK_KEY_RULES[name]) {
      case 'value':
        parts.push(value ?? null);
        break;
      case 'set':
        parts.push(value === undefined ? null : [...(value as Iterable<string>)].sort());
        break;
      case 'uncached':
        if (isSet(value)) return null;
        break;
      case 'per-search':
        break;
    }
  }
  return JSON.stringify(parts);
}

/** A search's walk as the index lists it: its entries, their base ids, and what a select needs to skip visiting it. */
export interface WalkList {
  /** The key it is kept under (null: not keepable). */
  key: string | null;
  generation: number;
  signature: string;
  entries: WalkEntry[];
  /** Root-relative path per entry, and its base id (-1: not in the base). */
  rels: string[];
  ids: Int32Array;
  stats: WalkStats;
  /** What the walk's rules left out (the walker's pruned entries), for answers that name them (walkPruned). */
  pruned: PrunedEntry[];
  /** The base `ids` are of (a base swapped in meanwhile makes the list unusable). */
  base: Base;
  /**
   * Per base id, its position in `entries` (-1: not walked), or null when a file was walked twice (overlapping
   * roots): a select then visits every entry. Positions of entries not in the base, and the recorded bytes of
   * the walked base files.
   */
  posOf: Int32Array | null;
  unknown: Int32Array;
  baseBytes: number;
  /** The largest recorded size among the walk's base files (as recorded when the walk was listed). */
  baseLargest: number;
}

/** What a walk is listed against: the tree's state when it begins, re-read when it ends. */
export interface WalkListContext {
  /** Whether the watchers vouch for the tree: only then is a walk kept or answered from a kept one. */
  trusted: boolean;
  /** The signature of the ignore files no watcher sees (Freshness.ignoreSignature). */
  signature: string;
  /** The structural generation and the base now (a change during the walk makes its list unfit to keep). */
  generation(): number;
  base(): Base | null;
}

/**
 * The walks of one index's searches, kept (least recently used dropped past MAX_CACHED_WALKS) while the watchers
 * see no structural change and the ignore files they cannot see keep their signature.
 */
export class WalkCache {
  private readonly walks = new Map<string, WalkList>();

  constructor(
    private readonly root: string,
    /** The index's own exclusions (the fence, the data directory). */
    private readonly exclude: (abs: string) => boolean,
  ) {}

  /** The search's walk, from the cache when the context vouches that nothing structural changed. */
  async list(req: IndexWalkRequest, ctx: WalkListContext): Promise<WalkList | null> {
    const w = req.walk;
    const key = walkKey(w);
    const { signature, trusted } = ctx;
    const cached = key === null ? undefined : this.walks.get(key);
    if (trusted && cached && cached.generation === ctx.generation() && cached.signature === signature) {
      // Least recently used last.
      this.walks.delete(cached.key!);
      this.walks.set(cached.key!, cached);
      return cached;
    }
    const generation = ctx.generation();
    const now = req.now ?? Date.now;
    // Without links followed, a walk of this root stays in it: a canonical path elsewhere is a directory on the way
    // swapped for a link since the roots were checked (a named `d/key` that now reads `~/.ssh/key`), and the
    // reader's descriptor would read back as that path (util/fs-safety.ts), so it is left out here.
    const outside = w.followLinks ? () => false : (canon: string) => !isWithin(canon, this.root);
    const pruned: PrunedEntry[] = [];
    const walker = new Walker({
      ...w,
      exclude: (canon) => outside(canon) || this.exclude(canon),
      onPruned: (e) => pruned.push(e),
      ...(req.deadline !== undefined ? { deadline: req.deadline } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      now,
    });
    const entries: WalkEntry[] = [];
    const rels: string[] = [];
    const base = ctx.base()!;
    const idList: number[] = [];
    let cacheable = trusted && key !== null;
    const prefix = `${this.root}/`;
    let slice = now();
    for (const e of walker.entries()) {
      const rel = e.abs === this.root ? '' : e.abs.startsWith(prefix) ? e.abs.slice(prefix.length) : null;
      entries.push(e);
      rels.push(rel ?? '');
      idList.push(rel === null ? -1 : (base.idOf.get(rel) ?? -1));
      // A walk into what the watchers do not see (`.git`) is searched in full and never cached.
      if (cacheable && rel !== null && underNeverEntered(rel)) cacheable = false;
      if ((entries.length & 1023) === 0 && now() - slice > 8) {
        await yieldToLoop();
        slice = now();
      }
    }
    if (walker.stats.stoppedBy) return null;
    const ids = Int32Array.from(idList);
    const r = base.data.records;
    let posOf: Int32Array | null = new Int32Array(base.data.paths.length).fill(-1);
    const unknown: number[] = [];
    let baseBytes = 0;
    let baseLargest = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (id < 0) unknown.push(i);
      else if (posOf && posOf[id] === -1) {
        posOf[id] = i;
        baseBytes += r[id * 4]!;
        if (r[id * 4]! > baseLargest) baseLargest = r[id * 4]!;
      } else posOf = null; // walked twice (overlapping roots): selects visit every entry
    }
    const list: WalkList = {
      key,
      generation,
      signature,
      entries,
      rels,
      ids,
      stats: walker.stats,
      pruned,
      base,
      posOf,
      unknown: Int32Array.from(unknown),
      baseBytes,
      baseLargest,
    };
    // Anything structural that happened while walking makes the list unfit to keep (it is still exact
    // for this search: those paths are marked changed and searched).
    if (cacheable && key !== null && generation === ctx.generation() && ctx.base() === base) {
      this.walks.set(key, list);
      if (this.walks.size > MAX_CACHED_WALKS) this.walks.delete(this.walks.keys().next().value!);
    }
    return list;
  }

  /** Whether `list` is the one kept under its key. */
  keeps(list: WalkList): boolean {
    return list.key !== null && this.walks.get(list.key) === list;
  }

  /** Approximate bytes the kept lists hold. */
  residentBytes(): number {
    let n = 0;
    for (const w of this.walks.values()) n += w.entries.length * 160;
    return n;
  }

  /** Drops every kept walk (a new base, distrust, close). */
  clear(): void {
    this.walks.clear();
  }
}

function underNeverEntered(rel: string): boolean {
  for (const part of rel.split('/')) if (NEVER_ENTERED.has(part)) return true;
  return false;
}
