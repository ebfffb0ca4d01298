import * as fs from 'node:fs';
import * as path from 'node:path';

/** A watcher handle, as `fs.watch` returns. */
export interface IndexWatcher {
  close(): void;
}

/**
 * How the index watches: one directory, not recursive. `onEvent(kind, name)` (name null: "something in this
 * directory"); `onError` when the watch dies. A seam so tests can make watching fail or go quiet.
 */
export type WatchDir = (
  dir: string,
  onEvent: (kind: 'rename' | 'change', name: string | null) => void,
  onError: (err: Error) => void,
) => IndexWatcher;

/**
 * Node's per-directory watcher. Every `fs.watch` of one process shares libuv's single inotify descriptor,
 * so events reach their callbacks in the order the kernel queued them: the barrier (ContentIndex.sync)
 * relies on that. Node 20's `recursive: true` is not used: on Linux it is a JavaScript emulation with a
 * missed-event race and one watch per file (see the issue's measurements).
 */
export const nodeWatchDir: WatchDir = (dir, onEvent, onError) => {
  const w = fs.watch(dir, { persistent: false }, (kind, name) =>
    onEvent(kind === 'change' ? 'change' : 'rename', typeof name === 'string' ? name : null),
  );
  w.on('error', onError);
  return w;
};

/**
 * inotify's queue limit: a burst of this many events may have overflowed it. libuv drops the overflow
 * notice (IN_Q_OVERFLOW carries no watch), so a burst this large is the only sign the index can see.
 */
export function inotifyQueueLimit(): number {
  try {
    const n = Number.parseInt(fs.readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'), 10);
    return Number.isFinite(n) && n > 0 ? n : 16_384;
  } catch {
    return 16_384;
  }
}

/** Whether per-directory watching can be trusted here (Linux inotify; elsewhere, size+mtime checks). */
export function watchingTrustworthy(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'linux';
}

export function joinRel(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

export function absOf(root: string, rel: string): string {
  return rel === '' ? root : path.join(root, rel);
}
