import type { PageEntry } from './types.js';

/**
 * What one call learns while it runs: the notes for the end of the text, and the page being filled (files
 * counted in order, the page's files kept, what was skipped and why).
 */

/** Short notes, in the order they appear at the end of the text (their order is the only structure they have). */
export class Notes {
  private readonly items: string[] = [];
  add(text: string): void {
    this.items.push(text);
  }
  get all(): readonly string[] {
    return this.items;
  }
  /** Rewrites every note (the tool redactor's pass over what the answer says). */
  rewrite(f: (note: string) => string): void {
    for (let i = 0; i < this.items.length; i++) this.items[i] = f(this.items[i]!);
  }
}

/** The page and the count of matching files, shared by every group of one call. */
export class RunState {
  readonly seen = new Set<string>();
  total = 0;
  readonly page: PageEntry[] = [];
  /** Matching lines of every file counted (`output: "count"` only). */
  matchedLines = 0;
  timedOut = false;
  engine: string | undefined;
  readonly walkedTooLarge: string[] = [];
  readonly unreadable: string[] = [];
  readonly engineErrors: string[] = [];
  readonly binaryCuts: Array<{ path: string; offset: number }> = [];

  constructor(
    readonly skip: number,
    readonly pageSize: number,
  ) {}

  /** Matching files still wanted in full (the rest of the page). */
  get detailWanted(): number {
    return Math.max(0, this.skip + this.pageSize - this.total);
  }

  /**
   * The call's last search, when it yields each file at most once (one root): its files are checked against
   * the earlier searches' but not remembered, as nothing follows that could repeat them (a broad search's
   * 17 000 files were 17 000 strings kept in `seen` for nothing).
   */
  lastUnique = false;

  /** Counts a matching file; true when it belongs on the page. Duplicates are neither counted nor shown. */
  accept(key: string): 'page' | 'counted' | 'duplicate' {
    if (this.seen.has(key)) return 'duplicate';
    if (!this.lastUnique) this.seen.add(key);
    const index = this.total++;
    return index >= this.skip && index < this.skip + this.pageSize ? 'page' : 'counted';
  }
}
