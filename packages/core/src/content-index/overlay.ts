import * as fs from 'node:fs';
import { startsWithUtf16Bom } from '../search/searcher.js';
import { GramCollector } from './grams.js';
import { MAX_INDEXED_FILE_BYTES, RACY_MTIME_MS } from './limits.js';

/** A file re-indexed in memory since the base was built. */
export interface OverlayFile {
  /** Sorted grams; null when the content could not be indexed (too large, unreadable, UTF-16): always searched. */
  grams: Uint32Array | null;
  size: number;
  mtimeMs: number;
  ino: number;
  /** Modified within the mtime tick of the read: a size+mtime check cannot vouch for it. */
  racy: boolean;
  /** The bytes read hold a NUL byte (format.ts FLAG_NUL); false when not read. */
  nul: boolean;
}

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/**
 * Reads one file for the overlay. 'gone' when it no longer exists as a regular file (deleted, replaced by a
 * directory or a link: the walk will not yield it as this file). Size and mtime come from the descriptor the
 * bytes were read from.
 */
export class FileReindexer {
  private readonly collector = new GramCollector();
  private buf = Buffer.allocUnsafe(1 << 16);

  constructor(private readonly now: () => number) {}

  read(abs: string): OverlayFile | 'gone' {
    let fd: number;
    try {
      fd = fs.openSync(abs, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return 'gone';
      return { grams: null, size: -1, mtimeMs: -1, ino: -1, racy: true, nul: false };
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) return 'gone';
      const meta = {
        size: st.size,
        mtimeMs: st.mtimeMs,
        ino: st.ino,
        racy: st.mtimeMs >= this.now() - RACY_MTIME_MS,
        nul: false,
      };
      if (st.size > MAX_INDEXED_FILE_BYTES) return { grams: null, ...meta };
      if (this.buf.length < st.size + 1) this.buf = Buffer.allocUnsafe(st.size + 1);
      let len = 0;
      for (;;) {
        if (len === this.buf.length) return { grams: null, ...meta, racy: true }; // grew while read
        const n = fs.readSync(fd, this.buf, len, this.buf.length - len, null);
        if (n === 0) break;
        len += n;
      }
      if (len !== st.size) return { grams: null, ...meta, racy: true };
      // The searcher decodes UTF-16 text: its literals are not in these bytes, so the file is always searched.
      if (startsWithUtf16Bom(this.buf, len)) return { grams: null, ...meta };
      this.collector.collect(this.buf, 0, len);
      const grams = Uint32Array.from(this.collector.list()).sort();
      return { grams, ...meta, nul: this.buf.subarray(0, len).indexOf(0) >= 0 };
    } catch {
      return { grams: null, size: -1, mtimeMs: -1, ino: -1, racy: true, nul: false };
    } finally {
      fs.closeSync(fd);
    }
  }
}
