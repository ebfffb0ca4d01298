import * as fs from 'node:fs';
import { FLAG_RACY, FLAG_UNINDEXED, type IndexFileData } from './format.js';

/** What a persisted index's records say about the tree now (start-up validation). */
export interface LoadCheck {
  /** Ids whose file's size, mtime or inode differ from the record, or that cannot be stat'ed. */
  changed: Uint32Array;
  /** Ids recorded as racily clean (written within an mtime tick of their read): re-read, not "changed". */
  racy: Uint32Array;
}

/**
 * Stats the indexed files of a loaded base against their records (runs in the start-up worker, index-worker.ts).
 * A file may be stat'ed only once its directory is watched — whatever changes after the stat is then an event —
 * so the loading thread hands over directories as it watches them (`dirs`), and the stats overlap its walk.
 * Unindexed files are searched anyway and never stat'ed.
 */
export class RecordCheck {
  private readonly changed: number[] = [];
  private readonly racy: number[] = [];
  /** Indexed ids by their directory ('' = the root), until stat'ed; built at the first `dirs`. */
  private pending: Map<string, number[]> | null = null;

  constructor(
    private readonly root: string,
    private readonly d: Pick<IndexFileData, 'paths' | 'records'>,
  ) {}

  /** Stats the indexed files directly in each directory of `rels` (root-relative), each directory once. */
  dirs(rels: readonly string[]): void {
    this.pending ??= this.byDirectory();
    for (const rel of rels) {
      const ids = this.pending.get(rel);
      if (!ids) continue;
      this.pending.delete(rel);
      for (const id of ids) this.check(id);
    }
  }

  /** Stats every indexed file not stat'ed yet (a tree walked without watchers: no order to keep). */
  rest(): void {
    if (this.pending === null) {
      const flags = this.d.records;
      for (let id = 0; id < this.d.paths.length; id++)
        if (!(flags[id * 4 + 3]! & FLAG_UNINDEXED)) this.check(id);
    } else for (const ids of this.pending.values()) for (const id of ids) this.check(id);
    this.pending = new Map();
  }

  result(): LoadCheck {
    const sorted = (ids: number[]) => Uint32Array.from(ids).sort();
    return { changed: sorted(this.changed), racy: sorted(this.racy) };
  }

  private byDirectory(): Map<string, number[]> {
    const byDir = new Map<string, number[]>();
    const { paths, records } = this.d;
    for (let id = 0; id < paths.length; id++) {
      if (records[id * 4 + 3]! & FLAG_UNINDEXED) continue;
      const p = paths[id]!;
      const dir = p.slice(0, Math.max(0, p.lastIndexOf('/')));
      const ids = byDir.get(dir);
      if (ids) ids.push(id);
      else byDir.set(dir, [id]);
    }
    return byDir;
  }

  private check(id: number): void {
    const r = this.d.records;
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(`${this.root}/${this.d.paths[id]}`, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (!st || st.size !== r[id * 4] || st.mtimeMs !== r[id * 4 + 1] || st.ino !== r[id * 4 + 2])
      this.changed.push(id);
    else if (r[id * 4 + 3]! & FLAG_RACY) this.racy.push(id);
  }
}

/** Stats every indexed file of a loaded base (no watchers to wait for: the CLI, a base just built). */
export function checkRecords(root: string, d: Pick<IndexFileData, 'paths' | 'records'>): LoadCheck {
  const check = new RecordCheck(root, d);
  check.rest();
  return check.result();
}
