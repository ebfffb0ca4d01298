import * as fs from 'node:fs';
import * as path from 'node:path';
import { FileIndex, type FileIndexOptions } from './file-index.js';

export interface FileIndexRegistryOptions {
  /** Builds the index for a canonical root (default: `new FileIndex(root, indexOptions)`). */
  createIndex?: (canonicalRoot: string) => FileIndex;
  indexOptions?: FileIndexOptions;
  /** Canonicalises roots (default `fs.promises.realpath`). */
  realpath?: (p: string) => Promise<string>;
}

interface Slot {
  refs: number;
  index?: FileIndex;
  pending?: Promise<FileIndex>;
}

/**
 * Shares one {@link FileIndex} per canonical root among its owners (chat slots, CLI sessions), with reference
 * counts. Concurrent acquires of one root build it once; a failed start leaves nothing registered; the last
 * release stops the index; releasing a root never acquired does nothing.
 */
export class FileIndexRegistry {
  private readonly slots = new Map<string, Slot>();
  private readonly createIndex: (root: string) => FileIndex;
  private readonly realpath: (p: string) => Promise<string>;
  // One resolution per spelling at a time, shared by acquire and release: a release issued right after an acquire
  // then continues after it, never before (two realpath calls may finish in either order).
  private readonly resolving = new Map<string, Promise<string>>();

  constructor(options: FileIndexRegistryOptions = {}) {
    this.createIndex = options.createIndex ?? ((root) => new FileIndex(root, options.indexOptions));
    this.realpath = options.realpath ?? ((p) => fs.promises.realpath(p));
  }

  /** The started index for `root` (realpath'd), built on first acquire; each acquire needs one release. */
  async acquire(root: string): Promise<FileIndex> {
    const key = await this.resolve(root);
    const existing = this.slots.get(key);
    if (existing) {
      existing.refs++;
      return existing.index ?? existing.pending!;
    }
    const slot: Slot = { refs: 1 };
    const index = this.createIndex(key);
    slot.pending = index.start().then(
      () => {
        slot.pending = undefined;
        if (slot.refs <= 0) {
          // every owner released while it was building
          index.stop();
          if (this.slots.get(key) === slot) this.slots.delete(key);
        } else {
          slot.index = index;
        }
        return index;
      },
      (err: unknown) => {
        index.stop();
        if (this.slots.get(key) === slot) this.slots.delete(key);
        throw err;
      },
    );
    this.slots.set(key, slot);
    return slot.pending;
  }

  /** Drops one reference; the last one stops and forgets the index. Unknown roots are ignored. */
  async release(root: string): Promise<void> {
    const key = await this.keyOf(root);
    const slot = this.slots.get(key);
    if (!slot || slot.refs <= 0) return;
    slot.refs--;
    if (slot.refs > 0) return;
    if (slot.index) {
      this.slots.delete(key);
      slot.index.stop();
    }
    // still building: the start continuation stops it
  }

  /** The ready-or-building index registered for a canonical root, without touching its count. */
  get(canonicalRoot: string): FileIndex | undefined {
    return this.slots.get(canonicalRoot)?.index;
  }

  /** Reference count of a canonical root (0 when unknown). */
  refCount(canonicalRoot: string): number {
    return this.slots.get(canonicalRoot)?.refs ?? 0;
  }

  /** Canonical roots with a registered index. */
  roots(): string[] {
    return [...this.slots.keys()];
  }

  /** Stops every index and forgets them all (shutdown). */
  stopAll(): void {
    for (const slot of this.slots.values()) {
      slot.refs = 0;
      slot.index?.stop();
    }
    this.slots.clear();
  }

  private async keyOf(root: string): Promise<string> {
    try {
      return await this.resolve(root);
    } catch {
      return path.resolve(root);
    }
  }

  /** `root`'s realpath, one call in flight per spelling. */
  private resolve(root: string): Promise<string> {
    let p = this.resolving.get(root);
    if (!p) {
      p = this.realpath(root);
      this.resolving.set(root, p);
      const done = () => {
        if (this.resolving.get(root) === p) this.resolving.delete(root);
      };
      p.then(done, done);
    }
    return p;
  }
}
