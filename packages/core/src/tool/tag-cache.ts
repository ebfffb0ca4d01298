import * as fs from 'node:fs';
import { hashlineTag } from './hashline.js';
import { TAG_CACHE_ENTRIES, TAG_CACHE_STABLE_MS, TAG_MAX_FILE_BYTES } from './limits.js';

/**
 * Tags of recently shown files, keyed by path and checked against inode, size, mtime and ctime (in
 * nanoseconds), so an agent paging through the same tree does not re-read and re-hash big files. File
 * times are coarse (a kernel tick), so a file changed shortly before it was hashed is never remembered
 * (git's "racily clean" rule): a same-size edit within the same tick cannot be mistaken for no change.
 *
 * The caller owns the cache (one per MCP server or host session); a call without one hashes every file.
 */
export class TagCache {
  private readonly entries = new Map<string, { signature: string; tag: string }>();

  constructor(
    /** Clock seam for tests (the "recently changed" rule). */
    private readonly now: () => number = Date.now,
    readonly capacity: number = TAG_CACHE_ENTRIES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The file's tag, or null when it is not a regular file, is too large to tag, or cannot be read. */
  async tagOf(abs: string): Promise<string | null> {
    return readTag(abs, this);
  }

  lookup(abs: string, signature: string): string | null {
    const cached = this.entries.get(abs);
    if (cached?.signature !== signature) return null;
    this.entries.delete(abs); // re-insert: most recently used last
    this.entries.set(abs, cached);
    return cached.tag;
  }

  remember(abs: string, signature: string, tag: string, newestMs: number, hashedAt: number): void {
    if (hashedAt - newestMs <= TAG_CACHE_STABLE_MS) return;
    this.entries.set(abs, { signature, tag });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  clock(): number {
    return this.now();
  }
}

/** A file's tag, through `cache` when one is given. */
export async function readTag(abs: string, cache: TagCache | null): Promise<string | null> {
  try {
    const st = await fs.promises.stat(abs, { bigint: true });
    if (!st.isFile() || st.size > BigInt(TAG_MAX_FILE_BYTES)) return null;
    const signature = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    const cached = cache?.lookup(abs, signature);
    if (cached) return cached;
    const hashedAt = cache ? cache.clock() : 0;
    const tag = hashlineTag(await fs.promises.readFile(abs));
    const newest = Math.max(Number(st.mtimeNs / 1_000_000n), Number(st.ctimeNs / 1_000_000n));
    cache?.remember(abs, signature, tag, newest, hashedAt);
    return tag;
  } catch {
    return null;
  }
}
