import * as fs from 'node:fs';
import * as path from 'node:path';
import { globToRegexSource } from '../glob/glob.js';
import { describeError } from '../util/errors.js';
import { isWithin, listDirectory } from '../util/fs-safety.js';
import { compareUtf8, entrySortKey } from '../util/path-order.js';
import { IgnoreRules, Verdict } from './ignore-rules.js';

/** What to walk and how: roots, ignore rules, hidden files, globs, budgets, deadline and signal. */
export interface WalkOptions {
  /** Search roots as the caller spelled them; output paths start with this spelling (as ripgrep's do). */
  roots: string[];
  /** Base for relative roots. */
  cwd: string;
  /** Include entries whose name starts with `.` (default false). */
  hidden?: boolean;
  /** Honour `.gitignore`, `.ignore`, `.rgignore` and `.git/info/exclude` (default true). */
  ignoreFiles?: boolean;
  /** Apply git's rules (`.gitignore`, `info/exclude`) only inside a git work tree, as ripgrep does (default true). */
  requireGit?: boolean;
  /** Read ignore files of the roots' ancestor directories too (default true). */
  parents?: boolean;
  /** ripgrep `-g` globs: a plain glob includes, `!glob` excludes; they take precedence over everything else. */
  globs?: string[];
  globCaseInsensitive?: boolean;
  /**
   * What `-g` globs containing `/` are anchored to: 'cwd' (ripgrep: the path as printed, relative to the
   * working directory) or 'root' (the path relative to its search root).
   */
  globBase?: 'cwd' | 'root';
  /**
   * 'override' (ripgrep's `-g`): an include glob also admits files that ignore rules or hidden-ness would
   * drop. 'filter': globs only narrow; ignore rules and hidden-ness still apply to what they admit.
   */
  globMode?: 'override' | 'filter';
  /**
   * Entries (files, and directories with all below them) the caller never wants, decided on where they are:
   * called with the entry's canonical path — its root's realpath plus the names below it (the walk never
   * follows a link below a root, so that is the entry's real location) — never with the path as spelled, so a
   * root that is a link (or a chain of links) into a fenced location cannot smuggle it past the predicate.
   * A root whose realpath cannot be read is not walked when this is set (fail closed).
   */
  exclude?: (canonical: string) => boolean;
  /**
   * ripgrep -L: symbolic links below a root are followed. Each followed link is decided on where it leads
   * (its realpath is its canonical path, so `exclude` still sees real locations, and a file reached through
   * one is opened by that path); a link to a directory being walked above it is a loop, reported and not
   * entered; a broken link is reported. Default false: links below a root are not followed.
   */
  followLinks?: boolean;
  /** ripgrep --max-depth: entries directly in a root are at depth 1; deeper ones are not walked. */
  maxDepth?: number;
  /**
   * ripgrep -t/-T: file-name globs of the selected types (a file must match one, and then it is admitted
   * as ignore-file whitelists admit) and of the negated types (a file matching one is out). Directories
   * are never filtered by type.
   */
  fileTypes?: { include: readonly string[]; exclude: readonly string[] };
  /** ripgrep --ignore-file: gitignore-syntax files whose rules apply below the working directory, weakest. */
  extraIgnoreFiles?: readonly string[];
  /** Honour `.gitignore` and `.git/info/exclude` (ripgrep --no-ignore-vcs turns this off; default true). */
  vcsIgnore?: boolean;
  /** Honour `.ignore` (ripgrep --no-ignore-dot turns this off; default true). */
  dotIgnore?: boolean;
  /** Directory names never entered below a root (a root itself is always entered). */
  skipDirs?: ReadonlySet<string>;
  /**
   * Told of each entry the walk's rules leave out (not of what `exclude` takes, which is the caller's own):
   * a directory not entered or a file not yielded, and why. For a caller that must say what it did not search.
   */
  onPruned?: (entry: PrunedEntry) => void;
  /** Budget: directory entries examined. */
  maxEntries?: number;
  /** Budget: directories entered. */
  maxDirs?: number;
  /** Epoch milliseconds after which the walk stops. */
  deadline?: number;
  signal?: AbortSignal;
  /** Seam for tests. */
  now?: () => number;
}

/** One entry the walker yields: its path as shown, absolute and canonical, and whether a caller named it. */
export interface WalkEntry {
  /** The path as output: root spelling + relative part, `/`-separated. */
  path: string;
  /** Absolute path, for opening. */
  abs: string;
  /**
   * Where the walk found it: its root's realpath plus the names below it (or a followed link's realpath). A reader
   * opens `abs` and refuses a descriptor that does not read back as this (util/fs-safety.ts): a directory on the
   * way swapped for a link since cannot hand it another file.
   */
  canon: string;
  /** Named by the caller (a root that is a file): ignore rules, hidden-ness and globs did not apply. */
  explicit: boolean;
}

/** Why the walk's rules left an entry out: a skip directory, an ignore file, hidden-ness, a glob or a file type. */
export type PruneReason = 'skipped' | 'ignored' | 'hidden' | 'glob' | 'type';

/** An entry the walk's rules left out (WalkOptions.onPruned). */
export interface PrunedEntry {
  /** The path as output (root spelling + relative part). */
  path: string;
  abs: string;
  isDir: boolean;
  reason: PruneReason;
}

export type WalkStopReason = 'entries' | 'dirs' | 'deadline' | 'aborted';

export interface WalkIssue {
  path: string;
  code: string;
  message: string;
}

/** What a walk did: entries, directories and files seen, errors, missing roots and why it stopped. */
export interface WalkStats {
  entries: number;
  dirs: number;
  files: number;
  errors: WalkIssue[];
  missingRoots: string[];
  stoppedBy?: WalkStopReason;
}

/** The ignore files found in one directory, and whether it is a git repository root. */
interface DirRules {
  base: string;
  custom: IgnoreRules | null;
  ignore: IgnoreRules | null;
  git: IgnoreRules | null;
  exclude: IgnoreRules | null;
  hasGit: boolean;
  /** This directory or an ancestor holds `.git`. */
  inGitTree: boolean;
  parent: DirRules | null;
}

interface Frame {
  dirAbs: string;
  /** Canonical path of the directory: what its descriptor must read back as before it is listed. */
  dirCanon: string;
  /** Output path of the directory, '' for a root spelled '' (cwd without prefix). */
  dirOut: string;
  rules: DirRules | null;
  entries: Array<{ name: string; isDir: boolean; link?: true }>;
  next: number;
  /** Path relative to the root, for `globBase: 'root'`. */
  rel: string;
  rootOut: string;
  /** A root is at depth 0. */
  depth: number;
}

/**
 * Depth-first, no-follow directory walk with ripgrep's filtering rules. Synchronous by design: it is a
 * generator the caller drives (and slices in time), so the walk can be paused between entries without
 * a promise per directory. Output order: byte order of the path relative to each root, roots in order.
 */
export class Walker {
  readonly stats: WalkStats = { entries: 0, dirs: 0, files: 0, errors: [], missingRoots: [] };
  private readonly hidden: boolean;
  private readonly ignoreFiles: boolean;
  private readonly requireGit: boolean;
  private readonly vcsIgnore: boolean;
  private readonly dotIgnore: boolean;
  private readonly overrides: IgnoreRules | null;
  private readonly types: { include: RegExp | null; exclude: RegExp | null } | null;
  private readonly extraRules: IgnoreRules | null;
  private readonly now: () => number;
  /** Rules in force for the children of a directory, for directories reached other than by walking. */
  private readonly rulesAtCache = new Map<string, DirRules | null>();
  /** Why the last `accept` said no. */
  private rejected: PruneReason = 'ignored';

  constructor(private readonly options: WalkOptions) {
    this.hidden = options.hidden ?? false;
    this.ignoreFiles = options.ignoreFiles ?? true;
    this.requireGit = options.requireGit ?? true;
    this.vcsIgnore = options.vcsIgnore ?? true;
    this.dotIgnore = options.dotIgnore ?? true;
    this.now = options.now ?? Date.now;
    this.overrides =
      options.globs && options.globs.length > 0
        ? IgnoreRules.overrides(options.globs, '', { caseInsensitive: options.globCaseInsensitive ?? false })
        : null;
    const t = options.fileTypes;
    const union = (globs: readonly string[]) =>
      globs.length === 0
        ? null
        : new RegExp(
            `^(?:${globs.map((g) => globToRegexSource(g, { literalSeparator: true })).join('|')})$`,
            'u',
          );
    this.types =
      t && (t.include.length > 0 || t.exclude.length > 0)
        ? { include: union(t.include), exclude: union(t.exclude) }
        : null;
    this.extraRules =
      this.ignoreFiles && options.extraIgnoreFiles && options.extraIgnoreFiles.length > 0
        ? IgnoreRules.parse(
            options.extraIgnoreFiles.map((f) => readIgnoreFile(path.resolve(options.cwd, f))).join('\n'),
            path.resolve(options.cwd),
          )
        : null;
  }

  *entries(): Generator<WalkEntry, void, undefined> {
    for (const root of this.options.roots) {
      if (this.stats.stoppedBy) return;
      yield* this.walkRoot(root);
    }
  }

  private *walkRoot(root: string): Generator<WalkEntry, void, undefined> {
    const abs = path.resolve(this.options.cwd, root === '' ? '.' : root);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs); // roots are followed even when they are symlinks, as ripgrep does
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
      if (code === 'ENOENT' || code === 'ENOTDIR') this.stats.missingRoots.push(root);
      this.stats.errors.push({ path: root, code, message: describeError(err) });
      return;
    }
    const rootOut = root === '' ? '' : toSlashes(root).replace(/\/+$/, '') || '/';
    const exclude = this.options.exclude;
    let canon: string;
    // Roots are followed, so the predicate is asked about where this one leads, not how it is spelled.
    try {
      canon = fs.realpathSync.native(abs);
    } catch (err) {
      this.stats.errors.push({
        path: root,
        code: (err as NodeJS.ErrnoException).code ?? 'EIO',
        message: describeError(err),
      });
      return;
    }
    if (exclude?.(canon)) return;
    if (!st.isDirectory()) {
      this.stats.files++;
      yield { path: toSlashes(root), abs, canon, explicit: true };
      return;
    }
    const parentDir = path.dirname(abs);
    const parentRules =
      this.ignoreFiles && (this.options.parents ?? true) && parentDir !== abs
        ? this.rulesAt(parentDir)
        : null;
    const first = this.openFrame(abs, canon, rootOut, parentRules, '', rootOut, 0);
    if (!first) return;
    const stack: Frame[] = [first];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.next >= frame.entries.length) {
        stack.pop();
        continue;
      }
      const { name, isDir, link } = frame.entries[frame.next++]!;
      if (this.budgetExceeded()) return;
      if (this.options.maxDepth !== undefined && frame.depth + 1 > this.options.maxDepth) continue;
      const childAbs = frame.dirAbs === '/' ? `/${name}` : `${frame.dirAbs}/${name}`;
      const childOut =
        frame.dirOut === '' ? name : frame.dirOut === '/' ? `/${name}` : `${frame.dirOut}/${name}`;
      const childRel = frame.rel === '' ? name : `${frame.rel}/${name}`;
      if (!this.accept(childAbs, childOut, childRel, name, isDir, frame.rules, frame.dirAbs)) {
        this.options.onPruned?.({ path: childOut, abs: childAbs, isDir, reason: this.rejected });
        continue;
      }
      let childCanon = frame.dirCanon === '/' ? `/${name}` : `${frame.dirCanon}/${name}`;
      if (link) {
        // A followed link is where it leads: decided, opened and checked for loops by its realpath.
        const real = this.realpathOrError(childAbs, childOut);
        if (real === null) continue;
        childCanon = real;
      }
      if (exclude?.(childCanon)) continue;
      if (isDir) {
        if (this.options.skipDirs?.has(name)) {
          this.options.onPruned?.({ path: childOut, abs: childAbs, isDir, reason: 'skipped' });
          continue;
        }
        if (link) {
          const ancestor = stack.find((f) => f.dirCanon === childCanon);
          if (ancestor) {
            // No path of its own: ripgrep's message names both ends.
            this.stats.errors.push({
              path: '',
              code: 'ELOOP',
              message: `File system loop found: ${childOut} points to an ancestor ${ancestor.dirOut || '.'}`,
            });
            continue;
          }
        }
        const child = this.openFrame(
          childAbs,
          childCanon,
          childOut,
          frame.rules,
          childRel,
          frame.rootOut,
          frame.depth + 1,
        );
        if (child) stack.push(child);
      } else {
        this.stats.files++;
        yield { path: childOut, abs: link ? childCanon : childAbs, canon: childCanon, explicit: false };
      }
    }
  }

  /** A followed link's realpath, or null with the error recorded (a broken link, as ripgrep reports it). */
  private realpathOrError(abs: string, out: string): string | null {
    try {
      return fs.realpathSync.native(abs);
    } catch (err) {
      this.stats.errors.push({
        path: out,
        code: (err as NodeJS.ErrnoException).code ?? 'EIO',
        message: describeError(err),
      });
      return null;
    }
  }

  private budgetExceeded(): boolean {
    const s = this.stats;
    if (s.stoppedBy) return true;
    s.entries++;
    if (this.options.maxEntries !== undefined && s.entries > this.options.maxEntries) s.stoppedBy = 'entries';
    // The clock and the signal are read every 64 entries (and per directory), not per entry.
    else if ((s.entries & 63) === 0) this.checkTime();
    return s.stoppedBy !== undefined;
  }

  private checkTime(): void {
    const o = this.options;
    if (o.signal?.aborted) this.stats.stoppedBy = 'aborted';
    else if (o.deadline !== undefined && this.now() >= o.deadline) this.stats.stoppedBy = 'deadline';
  }

  /** Lists a directory; its own ignore files (found in that listing) extend `parentRules` for its children. */
  private openFrame(
    dirAbs: string,
    dirCanon: string,
    dirOut: string,
    parentRules: DirRules | null,
    rel: string,
    rootOut: string,
    depth: number,
  ): Frame | null {
    const o = this.options;
    if (o.maxDirs !== undefined && this.stats.dirs >= o.maxDirs) {
      this.stats.stoppedBy = 'dirs';
      return null;
    }
    this.checkTime();
    if (this.stats.stoppedBy) return null;
    this.stats.dirs++;
    let dirents: fs.Dirent[];
    try {
      dirents = listDirectory(dirAbs, dirCanon);
    } catch (err) {
      this.stats.errors.push({
        path: dirOut,
        code: (err as NodeJS.ErrnoException).code ?? 'EIO',
        message: describeError(err),
      });
      return null;
    }
    const entries: Array<{ name: string; isDir: boolean; key: string; link?: true }> = [];
    for (const d of dirents) {
      let isDir = d.isDirectory();
      let isFile = d.isFile();
      if (o.followLinks && d.isSymbolicLink()) {
        // -L: what the link leads to decides; a broken one is reported when it is reached.
        let st: fs.Stats | null = null;
        try {
          st = fs.statSync(`${dirAbs}/${d.name}`);
        } catch {}
        if (st && !st.isDirectory() && !st.isFile()) continue;
        const linkIsDir = st?.isDirectory() ?? false;
        entries.push({ name: d.name, isDir: linkIsDir, key: entrySortKey(d.name, linkIsDir), link: true });
        continue;
      }
      if (!isDir && !isFile && !d.isSymbolicLink() && isUnknownType(d)) {
        // Some filesystems do not report types in readdir; ask lstat (still never following links).
        try {
          const st = fs.lstatSync(`${dirAbs}/${d.name}`);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          continue;
        }
      }
      // Symlinks are not followed; FIFOs, sockets and devices are never searched.
      if (!isDir && !isFile) continue;
      entries.push({ name: d.name, isDir, key: entrySortKey(d.name, isDir) });
    }
    entries.sort((a, b) => compareUtf8(a.key, b.key));
    const rules = this.ignoreFiles ? this.rulesFromListing(dirAbs, dirents, parentRules) : null;
    return { dirAbs, dirCanon, dirOut, rules, entries, next: 0, rel, rootOut, depth };
  }

  /** ripgrep's precedence: overrides, then ignore files (a whitelist beats hidden-ness), then hidden. */
  private accept(
    abs: string,
    out: string,
    rel: string,
    name: string,
    isDir: boolean,
    rules: DirRules | null,
    parentAbs: string,
  ): boolean {
    if (this.overrides) {
      const candidate = this.options.globBase === 'root' ? rel : globCandidate(out, abs, this.options.cwd);
      const v = this.overrides.match(candidate, name, isDir);
      if (v === Verdict.Ignore) return this.reject('glob');
      if (v === Verdict.Whitelist && this.options.globMode !== 'filter') return true;
      // With any include glob, a file no include matched is out; directories are still entered.
      if (v === Verdict.None && !isDir && this.overrides.hasWhitelist) return this.reject('glob');
    }
    let whitelisted = false;
    if (rules) {
      const v = this.matchIgnoreFiles(abs, name, isDir, rules, parentAbs);
      if (v === Verdict.Ignore) return this.reject('ignored');
      whitelisted = v === Verdict.Whitelist;
    }
    if (this.extraRules && !whitelisted) {
      const base = this.extraRules.base;
      if (abs !== base && isWithin(abs, base)) {
        const v = this.extraRules.match(
          () => abs.slice(base === '/' ? 1 : base.length + 1),
          name,
          isDir,
          parentAbs === base,
        );
        if (v === Verdict.Ignore) return this.reject('ignored');
        whitelisted = v === Verdict.Whitelist;
      }
    }
    if (this.types && !isDir) {
      if (this.types.exclude?.test(name)) return this.reject('type');
      if (this.types.include) {
        if (!this.types.include.test(name)) return this.reject('type');
        whitelisted = true;
      }
    }
    if (!whitelisted && !this.hidden && name.startsWith('.')) return this.reject('hidden');
    return true;
  }

  private reject(why: PruneReason): false {
    this.rejected = why;
    return false;
  }

  private matchIgnoreFiles(
    abs: string,
    name: string,
    isDir: boolean,
    chain: DirRules,
    parentAbs: string,
  ): Verdict {
    const applyGit = !this.requireGit || chain.inGitTree;
    let custom = Verdict.None;
    let ignore = Verdict.None;
    let git = Verdict.None;
    let exclude = Verdict.None;
    let sawGit = false;
    for (let r: DirRules | null = chain; r; r = r.parent) {
      const base = r.base;
      const rel = () => abs.slice(base === '/' ? 1 : base.length + 1);
      const child = base === parentAbs;
      if (custom === Verdict.None && r.custom) custom = r.custom.match(rel, name, isDir, child);
      if (ignore === Verdict.None && r.ignore) ignore = r.ignore.match(rel, name, isDir, child);
      if (applyGit && !sawGit) {
        if (git === Verdict.None && r.git) git = r.git.match(rel, name, isDir, child);
        if (exclude === Verdict.None && r.exclude) exclude = r.exclude.match(rel, name, isDir, child);
      }
      sawGit ||= r.hasGit;
    }
    return custom || ignore || git || exclude;
  }

  private readDirRules(dirAbs: string, parent: DirRules | null): DirRules | null {
    let dirents: fs.Dirent[];
    try {
      dirents = fs.readdirSync(dirAbs, { withFileTypes: true });
    } catch {
      return parent; // an unreadable ancestor contributes no rules
    }
    return this.rulesFromListing(dirAbs, dirents, parent);
  }

  private rulesFromListing(dirAbs: string, dirents: fs.Dirent[], parent: DirRules | null): DirRules | null {
    let names: Set<string> | null = null;
    for (const d of dirents) {
      const n = d.name;
      if (
        n === '.git' ||
        n === '.rgignore' ||
        (n === '.ignore' && this.dotIgnore) ||
        (n === '.gitignore' && this.vcsIgnore)
      ) {
        names ??= new Set();
        names.add(n);
      }
    }
    if (!names) return parent;
    const hasGit = names.has('.git');
    const read = (file: string) => {
      let text: string;
      try {
        text = fs.readFileSync(`${dirAbs}/${file}`, 'utf8');
      } catch {
        return null; // unreadable (or a directory named like one): as ripgrep, no rules from it
      }
      return IgnoreRules.parse(text, dirAbs);
    };
    return {
      base: dirAbs,
      custom: names.has('.rgignore') ? read('.rgignore') : null,
      ignore: names.has('.ignore') ? read('.ignore') : null,
      git: names.has('.gitignore') ? read('.gitignore') : null,
      exclude: hasGit && this.vcsIgnore ? read('.git/info/exclude') : null,
      hasGit,
      inGitTree: hasGit || (parent?.inGitTree ?? false),
      parent,
    };
  }

  /** The rules in force for the children of `dir` (its own ignore files and its ancestors'), cached. */
  private rulesAt(dir: string): DirRules | null {
    const cached = this.rulesAtCache.get(dir);
    if (cached !== undefined) return cached;
    const parentDir = path.dirname(dir);
    const above = parentDir === dir || !(this.options.parents ?? true) ? null : this.rulesAt(parentDir);
    const rules = this.readDirRules(dir, above);
    this.rulesAtCache.set(dir, rules);
    return rules;
  }

  /**
   * Whether the ignore files and hidden-ness (not the globs) would keep the walk from `rootAbs` away from
   * `abs`: checks every component below the root as the walk would. For results found by other means.
   */
  ignoredBelow(rootAbs: string, abs: string, isDir: boolean): boolean {
    const names = path
      .relative(rootAbs, abs)
      .split(path.sep)
      .filter((n) => n !== '');
    let dir = rootAbs;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const childAbs = dir === '/' ? `/${name}` : `${dir}/${name}`;
      const childIsDir = i < names.length - 1 || isDir;
      const rules = this.ignoreFiles ? this.rulesAt(dir) : null;
      const v = rules ? this.matchIgnoreFiles(childAbs, name, childIsDir, rules, dir) : Verdict.None;
      if (v === Verdict.Ignore) return true;
      if (v !== Verdict.Whitelist && !this.hidden && name.startsWith('.')) return true;
      dir = childAbs;
    }
    return false;
  }
}

function isUnknownType(d: fs.Dirent): boolean {
  return !d.isBlockDevice() && !d.isCharacterDevice() && !d.isFIFO() && !d.isSocket();
}

/** The path ripgrep matches `-g` globs against: as printed, without `./`, relative to cwd when absolute. */
function globCandidate(out: string, abs: string, cwd: string): string {
  if (out.startsWith('./')) return out.slice(2);
  if (out.startsWith('/')) {
    const prefix = cwd.endsWith('/') ? cwd : `${cwd}/`;
    return abs.startsWith(prefix) ? abs.slice(prefix.length) : out;
  }
  return out;
}

function toSlashes(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

/** An --ignore-file's rules; a file that cannot be read contributes none (ripgrep warns and goes on). */
function readIgnoreFile(abs: string): string {
  try {
    return fs.readFileSync(abs, 'utf8');
  } catch {
    return '';
  }
}
