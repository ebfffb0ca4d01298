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
 * Stats every indexed file of a loaded base (runs in the start-up worker, index-worker.ts, after the caller's
 * watchers are in place: whatever changes later is an event). Unindexed files are searched anyway.
 */
export function checkRecords(root: string, d: Pick<IndexFileData, 'paths' | 'records'>): LoadCheck {
  const changed: number[] = [];
  const racy: number[] = [];
  const r = d.records;
  for (let id = 0; id < d.paths.length; id++) {
    const flags = r[id * 4 + 3]!;
    if (flags & FLAG_UNINDEXED) continue;
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(`${root}/${d.paths[id]}`, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (!st || st.size !== r[id * 4] || st.mtimeMs !== r[id * 4 + 1] || st.ino !== r[id * 4 + 2])
      changed.push(id);
    else if (flags & FLAG_RACY) racy.push(id);
  }
  return { changed: Uint32Array.from(changed), racy: Uint32Array.from(racy) };
}
