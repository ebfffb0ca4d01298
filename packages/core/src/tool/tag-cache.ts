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
    private readonly capacity: number = TAG_CACHE_ENTRIES,
  ) {}

  /** Files remembered. */
  get size(): number {
    return this.entries.size;
  }

  /** The file's tag, or null when it is not a regular file, is too large to tag, or cannot be read. */
  async tagOf(abs: string): Promise<string | null> {
    const st = await statForTag(abs);
    if (!st) return null;
    const cached = this.entries.get(abs);
    if (cached?.signature === st.signature) {
      this.entries.delete(abs); // re-insert: most recently used last
      this.entries.set(abs, cached);
      return cached.tag;
    }
    const hashedAt = this.now();
    const tag = await hashFile(abs);
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
  return (await statForTag(abs)) ? hashFile(abs) : null;
}

/** What identifies a file's content version, or null when the file gets no tag. */
async function statForTag(abs: string): Promise<{ signature: string; newestMs: number } | null> {
  try {
    const st = await fs.promises.stat(abs, { bigint: true });
    if (!st.isFile() || st.size > BigInt(TAG_MAX_FILE_BYTES)) return null;
    return {
      signature: `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`,
      newestMs: Math.max(Number(st.mtimeNs / 1_000_000n), Number(st.ctimeNs / 1_000_000n)),
    };
  } catch {
    return null;
  }
}

async function hashFile(abs: string): Promise<string | null> {
  try {
    return hashlineTag(await fs.promises.readFile(abs));
  } catch {
    return null;
  }
}
