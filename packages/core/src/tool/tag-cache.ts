import * as fs from 'node:fs';
import { hashlineTag } from './hashline.js';
import { TAG_CACHE_ENTRIES, TAG_CACHE_STABLE_MS, TAG_MAX_FILE_BYTES, TAG_SYNC_READ_BYTES } from './limits.js';

/**
 * Tags of recently shown files, keyed by path and checked against inode, size, mtime and ctime (in
 * nanoseconds), so an agent paging through the same tree does not re-read and re-hash big files. File
 * times are coarse (a kernel tick), so a file changed shortly before it was hashed is never remembered
 * (git's "racily clean" rule): a same-size edit within the same tick cannot be mistaken for no change.
 *
 * The caller owns the cache (one per MCP server or host session); a call without one hashes every file.
 *
 * The stat and the read of a small file are synchronous: a shown file was just read by the search, so both are
 * served from memory (~10–30 µs), where each thread-pool round trip costs 0.1–0.4 ms on an idle machine (a
 * sleeping pool thread to wake, then this thread) — twenty of them per page of results.
 */
export class TagCache {
  private readonly entries = new Map<string, { signature: string; tag: string }>();

  constructor(
    /** Clock seam for tests (the "recently changed" rule). */
    private readonly now: () => number = Date.now,
    private readonly capacity: number = TAG_CACHE_ENTRIES,
  ) {}

  /** Files remembered. */
  get size(): number {
    return this.entries.size;
  }

  /** The file's tag, or null when it is not a regular file, is too large to tag, or cannot be read. */
  async tagOf(abs: string): Promise<string | null> {
    const st = statForTag(abs);
    if (!st) return null;
    const cached = this.entries.get(abs);
    if (cached?.signature === st.signature) {
      this.entries.delete(abs); // re-insert: most recently used last
      this.entries.set(abs, cached);
      return cached.tag;
    }
    const hashedAt = this.now();
    const tag = await hashFile(abs, st.size);
    if (tag !== null && hashedAt - st.newestMs > TAG_CACHE_STABLE_MS) {
      this.entries.set(abs, { signature: st.signature, tag });
      if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    }
    return tag;
  }
}

/** A file's tag, through `cache` when one is given. */
export async function readTag(abs: string, cache: TagCache | null): Promise<string | null> {
  if (cache) return cache.tagOf(abs);
  const st = statForTag(abs);
  return st ? hashFile(abs, st.size) : null;
}

/** What identifies a file's content version, or null when the file gets no tag. */
function statForTag(abs: string): { signature: string; newestMs: number; size: number } | null {
  try {
    const st = fs.statSync(abs, { bigint: true });
    if (!st.isFile() || st.size > BigInt(TAG_MAX_FILE_BYTES)) return null;
    return {
      size: Number(st.size),
      signature: `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`,
      newestMs: Math.max(Number(st.mtimeNs / 1_000_000n), Number(st.ctimeNs / 1_000_000n)),
    };
  } catch {
    return null;
  }
}

/** The file's tag; read on this thread when it was small at its stat (see `readSmall`). */
async function hashFile(abs: string, size: number): Promise<string | null> {
  try {
    const small = size <= TAG_SYNC_READ_BYTES ? readSmall(abs) : null;
    return hashlineTag(small ?? (await fs.promises.readFile(abs)));
  } catch {
    return null;
  }
}

/**
 * A file stat'ed at most TAG_SYNC_READ_BYTES long, read whole on this thread; null when it has grown past that
 * since (it is then read the asynchronous way: this thread never reads more than the limit).
 */
function readSmall(abs: string): Buffer | null {
  const fd = fs.openSync(abs, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const buf = Buffer.allocUnsafe(TAG_SYNC_READ_BYTES + 1);
    let n = 0;
    for (;;) {
      const got = fs.readSync(fd, buf, n, buf.length - n, n);
      if (got === 0) return buf.subarray(0, n);
      n += got;
      if (n > TAG_SYNC_READ_BYTES) return null;
    }
  } finally {
    fs.closeSync(fd);
  }
}
