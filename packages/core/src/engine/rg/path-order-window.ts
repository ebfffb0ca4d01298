import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareUtf8 } from '../../util/path-order.js';
import type { FileBlock } from './rg-output.js';

/**
 * From `rg --sort path` order to path byte order, holding as little as it can. rg sorts names within
 * each directory, so a directory `x` comes whole before its siblings `x-y` and `x.c`; in byte order of the
 * path (`x-y` < `x.c` < `x/…`) they come first. Only the files below such a directory — one with a
 * sibling named like it plus a character below `/` — are held, and each is let go as soon as a file that
 * sorts after it arrives. Everything else passes straight through.
 */
export class PathOrderWindow {
  private held: FileBlock[] = [];
  /** The held file whose later parts are still arriving. */
  private filling: FileBlock | null = null;
  /** Per directory: its subdirectories that have such siblings. */
  private readonly conflicts = new Map<string, Set<string>>();
  private readonly rootDepth: number;

  constructor(
    private readonly cwd: string,
    root: string,
  ) {
    const spelled = root.replace(/\/+$/, '');
    this.rootDepth = spelled === '' || spelled === '.' ? 0 : spelled.split('/').length;
  }

  push(b: FileBlock): FileBlock[] {
    // A file's later parts go where its first went: into its held block, or straight through.
    if (b.continued) {
      if (!this.filling) return [b];
      this.filling.events.push(...b.events);
      if (!b.more) this.filling = null;
      return [];
    }
    this.filling = null;
    if (this.mustWait(b.path)) {
      this.held.push(b);
      if (b.more) this.filling = b;
      return [];
    }
    const out = this.releaseBefore(b.path);
    out.push(b);
    return out;
  }

  flush(): FileBlock[] {
    const out = this.held.sort((x, y) => compareUtf8(x.path, y.path));
    this.held = [];
    return out;
  }

  private releaseBefore(p: string): FileBlock[] {
    if (this.held.length === 0) return [];
    const out: FileBlock[] = [];
    const keep: FileBlock[] = [];
    for (const h of this.held) (compareUtf8(h.path, p) < 0 ? out : keep).push(h);
    this.held = keep;
    return out.sort((x, y) => compareUtf8(x.path, y.path));
  }

  private mustWait(p: string): boolean {
    const parts = p.replace(/^\.\//, '').split('/');
    let dir = this.rootDepth === 0 ? '' : parts.slice(0, this.rootDepth).join('/');
    for (let i = this.rootDepth; i < parts.length - 1; i++) {
      if (this.conflictsIn(dir).has(parts[i]!)) return true;
      dir = dir === '' ? parts[i]! : `${dir}/${parts[i]}`;
    }
    return false;
  }

  private conflictsIn(dir: string): Set<string> {
    let set = this.conflicts.get(dir);
    if (set) return set;
    set = new Set();
    let names: string[] = [];
    try {
      names = fs.readdirSync(path.resolve(this.cwd, dir || '.'));
    } catch {}
    const all = new Set(names);
    for (const n of names) {
      // `n` extends a sibling's name with a character below '/': that sibling, if a directory, conflicts.
      for (let k = 1; k < n.length; k++)
        if (n.charCodeAt(k) < 0x2f && all.has(n.slice(0, k))) set.add(n.slice(0, k));
    }
    this.conflicts.set(dir, set);
    return set;
  }
}
