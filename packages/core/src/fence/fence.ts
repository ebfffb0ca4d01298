import * as fs from 'node:fs';
import * as path from 'node:path';
import { isWithin } from '../util/fs-safety.js';
import { FencedIdentities } from './identities.js';
import {
  FENCE_RESOLVE_DEADLINE_MS,
  FENCE_STALL_COOLDOWN_MAX_MS,
  FENCE_STALL_COOLDOWN_MS,
  FENCE_TABLE_TTL_MS,
} from './limits.js';
import { homeDir } from './root.js';
import { SENSITIVE_HOME_LOCATIONS, trawlDataDirs } from './table.js';

/** What a fence is built from. Every seam is an explicit parameter; nothing reads process state but the defaults. */
export interface SensitiveFenceOptions {
  /** The HOME the table is anchored at (both this spelling and its realpath are anchored). */
  home: string;
  /** Environment that may relocate stores (`CODEX_HOME`, `XDG_CONFIG_HOME`, `TRAWL_HOME`, ...). Default: none. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Operator additions: absolute paths, or `~/`-prefixed ones (anchored at `home`). */
  extra?: readonly string[];
  /** Replace trawl's own data directories (default: `trawlDataDirs(home, env)`). */
  dataDirs?: readonly string[];
  /** Resolves a path that exists (default `fs.promises.realpath`). */
  realpath?: (p: string) => Promise<string>;
  /** Canonicalises the anchors once, at construction (default `fs.realpathSync.native`; failure keeps the spelling). */
  realpathSync?: (p: string) => string;
  /** A resolution still running this many ms after it started is a refusal (fail closed). */
  resolveDeadlineMs?: number;
  /** Monotonic clock in ms, for stall cooldowns (default `performance.now`). */
  now?: () => number;
  /** Compare case-folded (default true: refusing `~/.SSH` on a case-sensitive disk costs nothing). */
  caseFold?: boolean;
  /**
   * Keep the table current for a long-lived process (a server's one fence): it is resolved again when an entry
   * changes in a directory it was resolved through, and once older than FENCE_TABLE_TTL_MS. Default false: resolved
   * once, at construction (a fence made for one call).
   */
  live?: boolean;
  /** Seam for `live`: watches a directory's entries, calling back with the changed name (default `fs.watch`). */
  watchDir?: (dir: string, onChange: (name: string | null) => void) => { close(): void };
  /** Seam for `live`: calls `fn` once after `ms` (default an unref'd `setTimeout`); returns a cancel. */
  setTimer?: (ms: number, fn: () => void) => () => void;
}

/** One resolution of the table: what is compared, and what it was resolved from. */
interface FenceTable {
  /** Canonical targets, as compared (case-folded when `caseFold`), sorted. */
  readonly targets: readonly string[];
  /** The locations as spelled (not folded), each lexical and canonical. */
  readonly spellings: readonly string[];
  /** Counts the resolutions of a live fence: a checker made for one table knows when it is replaced. */
  readonly generation: number;
}

/** Why a resolving check answered as it did (for audit lines). */
export type FenceVerdict = 'clear' | 'sensitive' | 'unresolved';

/**
 * The sensitive-path fence: one table of locations (generic credential stores, agent credential files, trawl's own
 * data directories, operator additions) and two predicates over it.
 *
 * - {@link isSensitiveCanonical}: for a path already canonical (realpath'd root + names read from a directory that
 *   were not links). Pure string work, no I/O.
 * - {@link isSensitive}: for anything else. Checks the lexical spelling, then resolves (time-bounded) and checks the
 *   canonical one. A resolution that stalls or fails for any reason but "does not exist" answers `true`.
 */
export class SensitiveFence {
  private readonly caseFold: boolean;
  private readonly realpathFn: (p: string) => Promise<string>;
  private readonly deadlineMs: number;
  private readonly now: () => number;
  private readonly stalls = new Map<string, { until: number; cooldown: number }>();
  private readonly options: SensitiveFenceOptions;
  private table: FenceTable;
  /** A live fence's table is resolved again at the next use (a watched directory changed, or the TTL ran out). */
  private stale = false;
  private readonly keeping: TableKeeper | null;
  private identities: FencedIdentities | undefined;

  constructor(options: SensitiveFenceOptions) {
    this.options = options;
    this.caseFold = options.caseFold ?? true;
    this.realpathFn = options.realpath ?? ((p) => fs.promises.realpath(p));
    this.deadlineMs = options.resolveDeadlineMs ?? FENCE_RESOLVE_DEADLINE_MS;
    this.now = options.now ?? (() => performance.now());
    this.keeping = options.live
      ? new TableKeeper(
          options.watchDir ?? watchEntries,
          options.setTimer ?? unrefTimer,
          this.caseFold,
          () => {
            this.stale = true;
          },
        )
      : null;
    this.table = this.resolveTable(0);
  }

  /** Canonical targets, as compared (case-folded when `caseFold`). */
  get targets(): readonly string[] {
    return this.current().targets;
  }

  /**
   * Resolves once a live fence's watchers have reported every change made before the call: one turn of the event
   * loop, whose poll reads the watchers' queue (a change's event is queued as the change is made). At once for a
   * fence that is not live. A search awaits it before its first check.
   */
  settled(): Promise<void> {
    if (!this.keeping) return Promise.resolve();
    // The first check phase may come before this turn's poll has dispatched every event; the second follows a poll.
    return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
  }

  /** Stops a live fence's watchers (its table is then no longer kept current). */
  close(): void {
    this.keeping?.close();
  }

  /** The table, resolved again first when a live fence's is stale. */
  private current(): FenceTable {
    if (this.stale) {
      this.stale = false;
      this.table = this.resolveTable(this.table.generation + 1);
      this.identities = undefined;
    }
    return this.table;
  }

  /**
   * Resolves every location of the table (each path once, however many anchors share it). A live fence then
   * watches the directories the spellings lie in and arms its TTL.
   */
  private resolveTable(generation: number): FenceTable {
    const options = this.options;
    const realpathSync = resolvedOnce(options.realpathSync ?? ((p: string) => fs.realpathSync.native(p)));
    const env = options.env ?? {};
    const home = path.resolve(options.home);
    const spellings = new Set<string>();
    const add = (p: string) => {
      if (!p || !path.isAbsolute(p)) return;
      const lexical = path.resolve(p);
      spellings.add(lexical);
      const canonical = canonicalOrSpelling(lexical, realpathSync);
      spellings.add(canonical);
    };
    const homes = new Set([home, canonicalOrSpelling(home, realpathSync)]);
    for (const h of homes) {
      for (const loc of SENSITIVE_HOME_LOCATIONS) add(path.join(h, loc.home));
    }
    for (const loc of SENSITIVE_HOME_LOCATIONS) {
      for (const e of loc.env ?? []) {
        const value = env[e.name];
        if (!value) continue;
        const bases = e.list ? value.split(path.delimiter) : [value];
        for (const base of bases) if (base) add(e.rel ? path.join(base, e.rel) : base);
      }
    }
    for (const d of options.dataDirs ?? trawlDataDirs(home, env)) add(d);
    for (const x of options.extra ?? [])
      add(x.startsWith('~/') || x === '~' ? path.join(home, x.slice(1)) : x);
    const table: FenceTable = {
      targets: [...new Set([...spellings].map((s) => this.fold(stripTrailingSep(s))))].sort(),
      spellings: [...spellings],
      generation,
    };
    this.keeping?.keep(table.spellings);
    return table;
  }

  /**
   * The identities (device:inode) of fenced regular files that have other names — hard links elsewhere, which a
   * path never shows. Readers refuse a file they opened whose identity is here (util/fs-safety.ts
   * `isFencedDescriptor`). Looked up on first use and again once older than FENCE_IDENTITY_TTL_MS.
   */
  fencedIdentities(): ReadonlySet<string> {
    const { spellings } = this.current();
    this.identities ??= new FencedIdentities(spellings, this.now);
    return this.identities.current();
  }

  /** True when `p` (absolute and canonical: no links, no `..`) is a sensitive location or under one. No I/O. */
  isSensitiveCanonical(p: string): boolean {
    return this.matches(this.fold(stripTrailingSep(p)));
  }

  /** True when some sensitive location lies under `dir` (canonical), or `dir` is itself sensitive. */
  containsSensitive(dir: string): boolean {
    const d = this.fold(stripTrailingSep(dir));
    const prefix = d === path.sep ? d : d + path.sep;
    return this.matches(d) || this.current().targets.some((t) => t.startsWith(prefix));
  }

  /**
   * A fast checker for canonical paths under `root` (canonical). Only targets inside `root` can match a descendant,
   * so a root that contains none answers `false` without string work; a sensitive root answers `true` for all.
   * A live fence's checker follows its table: it is made again for each resolution.
   */
  canonicalCheckerFor(root: string): (canonicalPath: string) => boolean {
    let made = -1;
    let check: (p: string) => boolean = () => true;
    return (p) => {
      const table = this.current();
      if (table.generation !== made) {
        made = table.generation;
        check = this.checkerOf(table, root);
      }
      return check(p);
    };
  }

  private checkerOf(table: FenceTable, root: string): (canonicalPath: string) => boolean {
    const r = this.fold(stripTrailingSep(root));
    if (this.matches(r)) return () => true;
    const prefix = r === path.sep ? r : r + path.sep;
    const inside = table.targets.filter((t) => t.startsWith(prefix));
    if (inside.length === 0) return () => false;
    return (p) => {
      const f = this.fold(stripTrailingSep(p));
      for (const t of inside) if (isWithin(f, t)) return true;
      return false;
    };
  }

  /** Resolving predicate: `true` unless `p` is proven, on its canonical path, to be outside every location. */
  async isSensitive(p: string): Promise<boolean> {
    return (await this.verdict(p)) !== 'clear';
  }

  /** As {@link isSensitive}, telling a refusal on the table from one because resolution stalled or failed. */
  async verdict(p: string): Promise<FenceVerdict> {
    if (typeof p !== 'string' || p.length === 0 || p.includes('\0')) return 'unresolved';
    const lexical = path.resolve(p);
    if (this.isSensitiveCanonical(lexical)) return 'sensitive';
    const key = stallKey(lexical);
    const stall = this.stalls.get(key);
    if (stall && this.now() < stall.until) return 'unresolved';
    const resolved = await this.resolveBounded(lexical);
    if (resolved === undefined) {
      const cooldown = stall
        ? Math.min(stall.cooldown * 2, FENCE_STALL_COOLDOWN_MAX_MS)
        : FENCE_STALL_COOLDOWN_MS;
      this.stalls.set(key, { until: this.now() + cooldown, cooldown });
      return 'unresolved';
    }
    if (resolved === null) return 'unresolved';
    return this.isSensitiveCanonical(resolved) ? 'sensitive' : 'clear';
  }

  /** Canonical form of `p` (a missing tail is appended to its deepest existing ancestor's realpath).
   *  `undefined` = timed out; `null` = failed for a reason other than absence. */
  private async resolveBounded(lexical: string): Promise<string | null | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.deadlineMs);
      timer.unref?.();
    });
    try {
      return await Promise.race([this.resolveExisting(lexical), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async resolveExisting(lexical: string): Promise<string | null> {
    const tail: string[] = [];
    let cur = lexical;
    for (;;) {
      try {
        const real = await this.realpathFn(cur);
        return tail.length ? path.join(real, ...tail.reverse()) : real;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException)?.code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
        const parent = path.dirname(cur);
        if (parent === cur) return null;
        tail.push(path.basename(cur));
        cur = parent;
      }
    }
  }

  private matches(folded: string): boolean {
    for (const t of this.current().targets) {
      if (folded === t) return true;
      if (folded.length > t.length && folded.startsWith(t) && folded.charCodeAt(t.length) === SEP_CODE)
        return true;
    }
    return false;
  }

  private fold(p: string): string {
    return this.caseFold ? p.toLowerCase() : p;
  }
}

const SEP_CODE = path.sep.charCodeAt(0);

function stripTrailingSep(p: string): string {
  let end = p.length;
  while (end > 1 && p.charCodeAt(end - 1) === SEP_CODE) end--;
  return end === p.length ? p : p.slice(0, end);
}

/**
 * What keeps a live fence's table current: a watcher on each directory a spelling lies in (every ancestor of every
 * location, lexical and canonical), reporting only a change of an entry the table was resolved through — a store,
 * or a directory on the way to one, created, removed or swapped for a link — and a TTL for what no watcher sees (a
 * link further along a chain of links retargeted, a directory that could not be watched). Either marks the table
 * stale; it is resolved again, and watched anew, at its next use.
 */
class TableKeeper {
  private watchers: Array<{ close(): void }> = [];
  private cancelTimer: (() => void) | null = null;

  constructor(
    private readonly watchDir: (dir: string, onChange: (name: string | null) => void) => { close(): void },
    private readonly setTimer: (ms: number, fn: () => void) => () => void,
    private readonly caseFold: boolean,
    private readonly onStale: () => void,
  ) {}

  /** Watches what `spellings` were resolved through (and stops watching what the last table was). */
  keep(spellings: readonly string[]): void {
    this.close();
    const fold = (name: string) => (this.caseFold ? name.toLowerCase() : name);
    const names = new Map<string, Set<string>>();
    for (const s of spellings) {
      for (let p = s; ; ) {
        const dir = path.dirname(p);
        if (dir === p) break;
        const inDir = names.get(dir) ?? new Set<string>();
        names.set(dir, inDir);
        inDir.add(fold(path.basename(p)));
        p = dir;
      }
    }
    let stale = false;
    const changed = () => {
      if (stale) return;
      stale = true;
      this.onStale();
    };
    for (const [dir, inDir] of names) {
      try {
        this.watchers.push(
          this.watchDir(dir, (name) => (name === null || inDir.has(fold(name))) && changed()),
        );
      } catch {
        // Absent: a change there is an entry made in an ancestor, which is watched. Unwatchable (the watch
        // limit, no permission): the TTL alone keeps the table current.
      }
    }
    this.cancelTimer = this.setTimer(FENCE_TABLE_TTL_MS, changed);
  }

  close(): void {
    for (const w of this.watchers) w.close();
    this.watchers = [];
    this.cancelTimer?.();
    this.cancelTimer = null;
  }
}

function watchEntries(dir: string, onChange: (name: string | null) => void): { close(): void } {
  const w = fs.watch(dir, { persistent: false }, (_event, name) =>
    onChange(name === null ? null : String(name)),
  );
  // A watcher that fails later (its directory removed) has told its change already, or the TTL will.
  w.on('error', () => onChange(null));
  return w;
}

function unrefTimer(ms: number, fn: () => void): () => void {
  const t = setTimeout(fn, ms);
  t.unref?.();
  return () => clearTimeout(t);
}

/**
 * A path's resolution (or its failure), asked once per construction: the table's anchors share parents (HOME
 * is resolved for each of a dozen missing stores beside it: 75 calls, 57 distinct paths on this machine). A
 * repeated call could only answer differently if links changed during the construction, which no table built
 * from many calls is consistent with anyway; each new fence, and each new table of a live one, resolves everything
 * afresh (fence-per-call.test).
 */
function resolvedOnce(realpathSync: (p: string) => string): (p: string) => string {
  const seen = new Map<string, { real: string } | { error: unknown }>();
  return (p) => {
    let r = seen.get(p);
    if (!r) {
      try {
        r = { real: realpathSync(p) };
      } catch (error) {
        r = { error };
      }
      seen.set(p, r);
    }
    if ('error' in r) throw r.error;
    return r.real;
  };
}

function canonicalOrSpelling(p: string, realpathSync: (p: string) => string): string {
  try {
    return path.resolve(realpathSync(p));
  } catch {
    // A missing location keeps its spelling; resolve its existing parent so a linked HOME still anchors.
    const parent = path.dirname(p);
    if (parent === p) return p;
    try {
      return path.join(realpathSync(parent), path.basename(p));
    } catch {
      return p;
    }
  }
}

/** The first two components of an absolute path: stalls are remembered per mount-sized prefix. */
function stallKey(p: string): string {
  const parts = p.split(path.sep);
  return parts.slice(0, 3).join(path.sep);
}

/** A fence anchored at the real HOME and process environment, with optional operator additions. */
export function createSensitiveFence(
  options: Partial<SensitiveFenceOptions> & { extra?: readonly string[] } = {},
): SensitiveFence {
  return new SensitiveFence({ home: homeDir(), env: process.env, ...options });
}
