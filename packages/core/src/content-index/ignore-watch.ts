import * as fs from 'node:fs';
import * as path from 'node:path';
import { isWithin } from '../util/fs-safety.js';
import { absOf, type IndexWatcher, type WatchDir } from './watch.js';

/** The names in a directory above the root whose change can change a walk of the root (ignore rules, repository). */
const ANCESTOR_NAMES = new Set(['.gitignore', '.ignore', '.rgignore', '.git']);

/**
 * The ignore files a walk of the root reads that no tree watcher sees, watched instead of stat'ed per search: those
 * in the directories above the root (`.gitignore`, `.ignore`, `.rgignore`, and `.git` with its `info/exclude`) and
 * `.git/info/exclude` of each repository in the tree (the tree's watchers never enter `.git`). The signature changes
 * whenever one of them may have changed: a walk listed under one signature is still exact under the same one. The
 * events share the tree watchers' inotify queue, so once the index's barrier has come back every change made before
 * a search is counted.
 *
 * A `.git` or `.git/info` that is absent is watched for in its parent (its creation re-arms the watch); a directory
 * that cannot be watched for another reason (the watch limit, no permission) leaves its files to a stat per search.
 */
export class IgnoreFilesWatch {
  private version = 0;
  private closed = false;
  /** The repositories in the tree the watches were armed for (null: arm again at the next signature). */
  private armedFor: string | null = null;
  private watchers: IndexWatcher[] = [];
  /** Files left to a stat per search: their directory could not be watched. */
  private stated: string[] = [];

  constructor(
    private readonly root: string,
    private readonly watchDir: WatchDir,
    /** Seam: a file's size, mtime and inode as a string, '-' when absent (default `fs.statSync`). */
    private readonly statOf: (p: string) => string = statSignature,
  ) {}

  /**
   * What the ignore files of a walk of the root (`parents`: with those above it) look like now, as cheaply as the
   * watches allow: a number that changes with every event, plus the stat of what could not be watched.
   */
  signature(parents: boolean, gitDirs: ReadonlySet<string>): string {
    // Closed, nothing is watched: no two signatures agree, so no kept walk is vouched for.
    if (this.closed) return `closed ${++this.version}`;
    const key = [...gitDirs].sort().join('\0');
    if (this.armedFor !== key) this.arm(key, gitDirs);
    const files = parents ? this.stated : this.stated.filter((f) => isWithin(f, this.root));
    return `${this.version}|${files.map(this.statOf).join('|')}`;
  }

  /** Stops watching, for good. */
  close(): void {
    this.closed = true;
    this.disarm();
  }

  private disarm(): void {
    for (const w of this.watchers) w.close();
    this.watchers = [];
    this.armedFor = null;
  }

  private arm(key: string, gitDirs: ReadonlySet<string>): void {
    this.disarm();
    this.stated = [];
    this.armedFor = key;
    for (let d = path.dirname(this.root); ; d = path.dirname(d)) {
      this.watch(
        d,
        ANCESTOR_NAMES,
        [...ANCESTOR_NAMES].map((n) => path.join(d, n)),
      );
      this.watchRepository(d);
      if (path.dirname(d) === d) break;
    }
    for (const g of gitDirs) this.watchRepository(absOf(this.root, g));
  }

  /** `dir/.git/info/exclude`: watched in `.git/info`, and its appearance in `.git`. */
  private watchRepository(dir: string): void {
    const git = path.join(dir, '.git');
    const exclude = path.join(git, 'info', 'exclude');
    if (this.watch(git, new Set(['info']), [exclude]) === 'absent') return;
    this.watch(path.join(git, 'info'), new Set(['exclude']), [exclude]);
  }

  /** Watches `dir` for `names`; `files` are stat'ed per search instead when it cannot be watched. */
  private watch(dir: string, names: ReadonlySet<string>, files: string[]): 'watched' | 'absent' | 'stated' {
    try {
      this.watchers.push(
        this.watchDir(
          dir,
          (_kind, name) => {
            if (name !== null && !names.has(name)) return;
            this.version++;
            // A `.git` or its `info` made, removed or replaced: what to watch below it changed too.
            if (name === null || name === '.git' || name === 'info') this.armedFor = null;
          },
          () => {
            this.version++;
            this.armedFor = null;
          },
        ),
      );
      return 'watched';
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Absent (or not a directory: `.git` is a file in a worktree): its parent's watch sees it appear.
      if (code === 'ENOENT' || code === 'ENOTDIR') return 'absent';
      this.stated.push(...files);
      return 'stated';
    }
  }
}

function statSignature(p: string): string {
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(p, { throwIfNoEntry: false });
  } catch {
    st = undefined; // ENOTDIR (`.git` is a file in a worktree), EACCES: read as absent, as the walk does
  }
  return st ? `${st.size}:${st.mtimeMs}:${st.ino}` : '-';
}
