import * as fs from 'node:fs';
import * as path from 'node:path';
import { identityKey } from '../util/fs-safety.js';
import { FENCE_IDENTITY_MAX_DEPTH, FENCE_IDENTITY_MAX_ENTRIES, FENCE_IDENTITY_TTL_MS } from './limits.js';

/**
 * The fenced files by identity. The fence judges paths, and a hard link is another path to the same file: a link
 * `proj/notes` to `~/.ssh/id_ed25519` (same filesystem) reads as a project file. Such a file has more than one
 * link, so the fenced regular files with `st_nlink > 1` are remembered by device and inode, and a reader refuses a
 * file it opened whose identity is among them (util/fs-safety.ts `isFencedIdentity`). A fenced file with one link
 * has no other name, so the set is usually empty and a reader then never needs to look.
 *
 * The set is made again once it is older than FENCE_IDENTITY_TTL_MS, when asked for: a link made since is refused
 * from then on. A walk of the locations is bounded (FENCE_IDENTITY_MAX_ENTRIES entries, FENCE_IDENTITY_MAX_DEPTH
 * levels): files past the bound are not in the set.
 */
export class FencedIdentities {
  private set: ReadonlySet<string> = new Set();
  private madeAt = Number.NEGATIVE_INFINITY;

  constructor(
    /** The locations as spelled on disk (not case-folded): where to look. */
    private readonly locations: readonly string[],
    private readonly now: () => number,
  ) {}

  /** The identities (`identityKey`) of the fenced files that have other names, as of at most the TTL ago. */
  current(): ReadonlySet<string> {
    const t = this.now();
    if (t - this.madeAt >= FENCE_IDENTITY_TTL_MS) {
      this.set = collect(this.locations);
      this.madeAt = t;
    }
    return this.set;
  }
}

function collect(locations: readonly string[]): ReadonlySet<string> {
  const found = new Set<string>();
  let budget = FENCE_IDENTITY_MAX_ENTRIES;
  const seenDirs = new Set<string>();
  const visit = (p: string, depth: number): void => {
    if (budget-- <= 0) return;
    let st: fs.BigIntStats;
    try {
      st = fs.lstatSync(p, { bigint: true });
    } catch {
      return; // absent (most locations are), or unreadable: nothing to remember
    }
    if (st.isFile()) {
      if (st.nlink > 1n) found.add(identityKey(st));
      return;
    }
    if (!st.isDirectory() || depth >= FENCE_IDENTITY_MAX_DEPTH) return;
    const key = identityKey(st);
    if (seenDirs.has(key)) return; // a location and its canonical spelling are the same directory
    seenDirs.add(key);
    let names: string[];
    try {
      names = fs.readdirSync(p);
    } catch {
      return;
    }
    for (const name of names) {
      if (budget <= 0) return;
      visit(path.join(p, name), depth + 1);
    }
  };
  for (const loc of locations) visit(loc, 0);
  return found;
}
