import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { GramCollector } from '../content-index/grams.js';
import { type DocumentKind, extractDocument } from './extract.js';
import {
  DOC_MAX_CHARS,
  DOC_STORE_FLUSH_MS,
  DOC_STORE_MAX_BYTES,
  DOC_STORE_RACY_MS,
  DOC_STORE_YIELD_BYTES,
} from './limits.js';
import type { DocSegment, ExtractOptions, ExtractResult } from './types.js';

/**
 * Which version of a file a stored text is of: device, inode, size and modification time (nanoseconds), read from
 * the descriptor the document was read through. Any of them changed → the text is of another version.
 */
export interface DocumentIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
}

/** The identity of the file open on `fd`. */
export function documentIdentity(fd: number): DocumentIdentity {
  const st = fs.fstatSync(fd, { bigint: true });
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs };
}

function sameIdentity(a: DocumentIdentity, b: DocumentIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

/** A document's extracted text as the store keeps it. */
export interface StoredDocument {
  /** Its segments in document order (empty when refused or skipped). */
  segments: readonly DocSegment[];
  /** Cut by a cap (characters, pages): the text is the document's beginning, a search of it is not complete. */
  partial: boolean;
  /** Not of its kind (not a zip, a PDF the parser rejects): settled, no text. */
  refused?: string;
  /** A resource ceiling stopped the extraction (a zip cap, the PDF child's memory): this version is not searched. */
  skipped?: string;
  /** The distinct grams of its text (content-index/grams.ts), sorted: a query whose grams are not all here cannot match. */
  grams: Uint32Array;
}

/** What `extract` hands back: the document, and whether it was kept (a deadline's cut is used once, not kept). */
export interface ExtractedDocument {
  doc: StoredDocument;
  /** The extraction ran out of time: `doc` holds the text read by then and is not stored. */
  cutByDeadline: boolean;
}

/** The extraction function the store runs (a seam: tests count extractions through it). */
export type DocumentExtractor = typeof extractDocument;

/** How a store is made. */
export interface DocumentTextStoreOptions {
  /** Where it persists (written atomically, checksummed); absent: memory only. */
  file?: string;
  /** Bytes of text and grams held at most; the least recently used documents go first. */
  maxBytes?: number;
  /** Paths whose text is never held (the fence): refused on the way in, dropped from a loaded file. */
  sensitive?: (abs: string) => boolean;
  extractor?: DocumentExtractor;
  /** The wall clock file times are compared with (the racy-version rule). */
  wallNow?: () => number;
  /** Delay between a change and its write to disk (ms). */
  flushMs?: number;
}

/** Counters for status lines, benchmarks and tests. */
export interface DocumentTextStoreStats {
  documents: number;
  /** Estimated bytes held in memory. */
  bytes: number;
  /** Extractions run by this store (hits do not count). */
  extractions: number;
  /** Documents stored as partial (cut by a cap). */
  partial: number;
  /** Bytes of the persisted file as last written or read. */
  fileBytes: number;
  /** How the persisted file was found: 'none', 'loaded', or 'rebuilt: <why>'. */
  loaded: string;
}

interface Entry {
  identity: DocumentIdentity;
  doc: StoredDocument;
  /** The character cap it was extracted under (a partial text of a smaller cap does not answer a larger one). */
  maxChars: number;
  bytes: number;
}

const MAGIC = Buffer.from('TRAWLDS1', 'latin1');
/** Magic, then the sha256 of the body, then the body's length (u64). */
const HEAD_BYTES = MAGIC.length + 32 + 8;
const FLAG_PARTIAL = 1;
const FLAG_REFUSED = 2;
const FLAG_SKIPPED = 4;

/** A persisted store that cannot be used; the store starts empty and the next write replaces the file. */
class StoreFormatError extends Error {}

/**
 * Extracted document text, keyed by canonical path and the file's identity (documentIdentity): a document is
 * extracted once per version, whoever searches it. In memory within a byte budget (least recently used first
 * out), persisted to one file (a temporary name, fsynced, renamed over the old one; a sha256 over the body, so
 * a torn or edited file is detected and rebuilt from the documents). Never holds the text of a sensitive path.
 *
 * A version modified within DOC_STORE_RACY_MS of being read is used but not kept: a second write in the same
 * clock tick with the same size would otherwise be mistaken for the version read.
 */
export class DocumentTextStore {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<ExtractedDocument>>();
  private readonly maxBytes: number;
  private readonly extractor: DocumentExtractor;
  private readonly wallNow: () => number;
  private readonly collector = new GramCollector();
  private bytes = 0;
  private extractions = 0;
  private fileBytes = 0;
  private loadState = 'none';
  /** The persisted file as this store last read or wrote it (inode, size, mtime): another writer changes it. */
  private fileSeen = '';
  private dirty = false;
  private flushTimer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private readonly loading: Promise<void>;
  private closed = false;

  constructor(private readonly options: DocumentTextStoreOptions = {}) {
    this.maxBytes = options.maxBytes ?? DOC_STORE_MAX_BYTES;
    this.extractor = options.extractor ?? extractDocument;
    this.wallNow = options.wallNow ?? Date.now;
    this.loading = options.file ? this.load(options.file) : Promise.resolve();
  }

  /** Resolves once the persisted file has been read (or found unusable). */
  ready(): Promise<void> {
    return this.loading;
  }

  /**
   * Once the file has been read: reads in what another store of this file (another thread's, another process's)
   * wrote to it since this one last read or wrote it — the documents this store does not hold — so the threads
   * that search one root share their extractions. One stat when the file is as this store left it.
   */
  async refresh(): Promise<void> {
    await this.loading;
    if (this.options.file && !this.closed) await this.merge(this.options.file);
  }

  private async merge(file: string): Promise<void> {
    let read: { buf: Buffer; seen: string } | null;
    try {
      read = await readIfChanged(file, this.fileSeen);
    } catch {
      return; // gone or unreadable: what this store holds stands, and its next write replaces the file
    }
    if (!read) return;
    let loaded: Array<[string, Entry]>;
    try {
      loaded = await decodeStore(read.buf);
    } catch (err) {
      if (!(err instanceof StoreFormatError)) throw err;
      return;
    }
    this.fileSeen = read.seen;
    for (const [abs, e] of loaded)
      if (!this.entries.has(abs) && !this.options.sensitive?.(abs)) this.put(abs, e, false);
  }

  /** The stored text of `abs` at this version, or undefined (absent, another version, or a partial of a smaller cap). */
  get(abs: string, identity: DocumentIdentity, maxChars = DOC_MAX_CHARS): StoredDocument | undefined {
    const e = this.entries.get(abs);
    if (!e) return undefined;
    if (!sameIdentity(e.identity, identity) || (e.doc.partial && e.maxChars < maxChars)) return undefined;
    // Most recently used last: eviction takes from the front.
    this.entries.delete(abs);
    this.entries.set(abs, e);
    return e.doc;
  }

  /** Whether `abs` at this version is stored (no recency change: the background extractor asks this). */
  has(abs: string, identity: DocumentIdentity): boolean {
    const e = this.entries.get(abs);
    return e !== undefined && sameIdentity(e.identity, identity);
  }

  /**
   * Extracts the whole text of `bytes` (the document at `abs`, of this identity) and stores it, unless the deadline
   * cut it, a ceiling that may not hold next time (time) stopped it, or the version is racy. Concurrent calls for
   * one version share one extraction.
   */
  extract(
    kind: DocumentKind,
    bytes: Buffer,
    abs: string,
    identity: DocumentIdentity,
    options: ExtractOptions = {},
  ): Promise<ExtractedDocument> {
    const key = `${abs}\0${identity.dev}:${identity.ino}:${identity.size}:${identity.mtimeNs}`;
    const running = this.inflight.get(key);
    if (running) return running;
    const job = this.runExtraction(kind, bytes, abs, identity, options).finally(() =>
      this.inflight.delete(key),
    );
    this.inflight.set(key, job);
    return job;
  }

  private async runExtraction(
    kind: DocumentKind,
    bytes: Buffer,
    abs: string,
    identity: DocumentIdentity,
    options: ExtractOptions,
  ): Promise<ExtractedDocument> {
    const readAt = this.wallNow();
    const segments: DocSegment[] = [];
    this.extractions++;
    const result: ExtractResult = await this.extractor(
      kind,
      bytes,
      (s) => {
        segments.push(s);
        return false;
      },
      options,
    );
    const now = options.now ?? Date.now;
    const timedOut =
      result.skipped === 'timeout' ||
      (!result.whole &&
        result.refused === undefined &&
        result.skipped === undefined &&
        options.deadline !== undefined &&
        now() >= options.deadline);
    const doc: StoredDocument = {
      segments: result.refused !== undefined || result.skipped !== undefined ? [] : segments,
      partial: !result.whole && !timedOut && result.refused === undefined && result.skipped === undefined,
      ...(result.refused !== undefined ? { refused: result.refused } : {}),
      ...(result.skipped !== undefined ? { skipped: result.skipped } : {}),
      grams: this.gramsOf(segments),
    };
    const racy = Number(identity.mtimeNs / 1_000_000n) > readAt - DOC_STORE_RACY_MS;
    // A child that was shut down ('closed') says nothing about the document either.
    const transient = timedOut || result.skipped === 'closed';
    if (!transient && !racy && !this.closed)
      this.put(abs, { identity, doc, maxChars: options.maxChars ?? DOC_MAX_CHARS, bytes: sizeOf(abs, doc) });
    return { doc, cutByDeadline: timedOut };
  }

  /** The sorted distinct grams of the segments' text (joined by newlines: a match never spans two segments). */
  private gramsOf(segments: readonly DocSegment[]): Uint32Array {
    if (segments.length === 0) return new Uint32Array(0);
    const all = new Set<number>();
    for (const s of segments) {
      const buf = Buffer.from(s.text, 'utf8');
      this.collector.collect(buf, 0, buf.length);
      for (const g of this.collector.list()) all.add(g);
    }
    return Uint32Array.from(all).sort();
  }

  /** Holds `entry` (evicting the least recently used past the budget); `changed`: it is not yet in the file. */
  private put(abs: string, entry: Entry, changed = true): void {
    if (this.options.sensitive?.(abs)) return;
    if (entry.bytes > this.maxBytes) return;
    const old = this.entries.get(abs);
    if (old) {
      this.bytes -= old.bytes;
      this.entries.delete(abs);
    }
    this.entries.set(abs, entry);
    this.bytes += entry.bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
    if (changed) this.changed();
  }

  /** Forgets `abs` (deleted, or now behind the fence). */
  forget(abs: string): void {
    const e = this.entries.get(abs);
    if (!e) return;
    this.entries.delete(abs);
    this.bytes -= e.bytes;
    this.changed();
  }

  stats(): DocumentTextStoreStats {
    let partial = 0;
    for (const e of this.entries.values()) if (e.doc.partial) partial++;
    return {
      documents: this.entries.size,
      bytes: this.bytes,
      extractions: this.extractions,
      partial,
      fileBytes: this.fileBytes,
      loaded: this.loadState,
    };
  }

  private changed(): void {
    this.dirty = true;
    if (!this.options.file || this.flushTimer || this.closed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      void this.flush().catch(() => {});
    }, this.options.flushMs ?? DOC_STORE_FLUSH_MS);
    this.flushTimer.unref();
  }

  /** Writes the store to its file now if anything changed since the last write (one write at a time). */
  async flush(): Promise<void> {
    if (!this.options.file) return;
    await this.loading;
    while (this.writing) await this.writing;
    if (!this.dirty) return;
    this.dirty = false;
    const file = this.options.file;
    // What another store wrote meanwhile is kept in the file: this write is the union.
    this.writing = this.merge(file)
      .then(() => this.write(file))
      .finally(() => {
        this.writing = null;
      });
    try {
      await this.writing;
    } catch (err) {
      this.dirty = true;
      throw err;
    }
  }

  /** Writes what is pending and stops writing. */
  async close(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    try {
      await this.flush();
    } finally {
      this.closed = true;
    }
  }

  // ---- the file -------------------------------------------------------------------------------------------------

  private async write(file: string): Promise<void> {
    const temp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    const handle = await fs.promises.open(temp, 'wx', 0o600);
    const hash = createHash('sha256');
    let length = 0;
    try {
      await handle.write(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
      let chunks: Buffer[] = [];
      let pending = 0;
      const drain = async () => {
        const all = Buffer.concat(chunks);
        chunks = [];
        pending = 0;
        hash.update(all);
        await handle.write(all, 0, all.length, HEAD_BYTES + length);
        length += all.length;
      };
      const count = Buffer.alloc(4);
      count.writeUInt32LE(this.entries.size);
      chunks.push(count);
      // A snapshot: entries stored while this write yields go to the next write.
      for (const [abs, e] of [...this.entries]) {
        const b = encodeEntry(abs, e);
        chunks.push(b);
        pending += b.length;
        if (pending >= DOC_STORE_YIELD_BYTES) await drain();
      }
      await drain();
      const head = Buffer.alloc(HEAD_BYTES);
      MAGIC.copy(head, 0);
      hash.digest().copy(head, MAGIC.length);
      head.writeBigUInt64LE(BigInt(length), MAGIC.length + 32);
      await handle.write(head, 0, HEAD_BYTES, 0);
      await handle.sync();
      // The renamed file keeps its inode and times: this is what the file is as this store leaves it.
      this.fileSeen = seenOf(await handle.stat({ bigint: true }));
    } catch (err) {
      await handle.close();
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
    await handle.close();
    await fs.promises.rename(temp, file);
    this.fileBytes = HEAD_BYTES + length;
  }

  private async load(file: string): Promise<void> {
    let buf: Buffer;
    let seen: string;
    try {
      ({ buf, seen } = (await readIfChanged(file, ''))!);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      this.loadState = `rebuilt: ${(err as Error).message}`;
      this.dirty = true;
      return;
    }
    try {
      const loaded = await decodeStore(buf);
      for (const [abs, e] of loaded) {
        if (this.entries.has(abs) || this.options.sensitive?.(abs)) continue;
        this.put(abs, e, false);
      }
      this.fileBytes = buf.length;
      this.fileSeen = seen;
      this.loadState = 'loaded';
      // Entries dropped by the fence (or the budget) must leave the file too.
      this.dirty = loaded.length !== this.entries.size;
    } catch (err) {
      if (!(err instanceof StoreFormatError)) throw err;
      this.loadState = `rebuilt: ${err.message}`;
      this.dirty = true;
    }
    if (this.dirty) this.changed();
  }
}

/** A file's version as far as a reader of it can tell (inode, size, modification time). */
function seenOf(st: fs.BigIntStats): string {
  return `${st.ino}:${st.size}:${st.mtimeNs}`;
}

/**
 * The file's bytes and version, unless its version is `seen` (null). Read through one descriptor: a writer renames
 * a new file over it, so the bytes are those of the version stated.
 */
async function readIfChanged(file: string, seen: string): Promise<{ buf: Buffer; seen: string } | null> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const now = seenOf(await handle.stat({ bigint: true }));
    if (now === seen) return null;
    return { buf: await handle.readFile(), seen: now };
  } finally {
    await handle.close();
  }
}

/** Estimated bytes an entry holds: two per UTF-16 unit of text, four per gram, and its bookkeeping. */
function sizeOf(abs: string, doc: StoredDocument): number {
  let n = 200 + abs.length * 2 + doc.grams.byteLength;
  for (const s of doc.segments) n += 48 + (s.label.length + s.text.length) * 2;
  return n;
}

function lenPrefixed(s: string): Buffer[] {
  const b = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(b.length);
  return [len, b];
}

function encodeEntry(abs: string, e: Entry): Buffer {
  const parts: Buffer[] = [...lenPrefixed(abs)];
  const fixed = Buffer.alloc(8 * 4 + 4 + 1);
  fixed.writeBigUInt64LE(e.identity.dev, 0);
  fixed.writeBigUInt64LE(e.identity.ino, 8);
  fixed.writeBigUInt64LE(e.identity.size, 16);
  fixed.writeBigUInt64LE(e.identity.mtimeNs, 24);
  fixed.writeUInt32LE(e.maxChars, 32);
  const d = e.doc;
  fixed.writeUInt8(
    (d.partial ? FLAG_PARTIAL : 0) |
      (d.refused !== undefined ? FLAG_REFUSED : 0) |
      (d.skipped !== undefined ? FLAG_SKIPPED : 0),
    36,
  );
  parts.push(fixed);
  if (d.refused !== undefined) parts.push(...lenPrefixed(d.refused));
  if (d.skipped !== undefined) parts.push(...lenPrefixed(d.skipped));
  const n = Buffer.alloc(4);
  n.writeUInt32LE(d.segments.length);
  parts.push(n);
  for (const s of d.segments) parts.push(...lenPrefixed(s.label), ...lenPrefixed(s.text));
  const g = Buffer.alloc(4);
  g.writeUInt32LE(d.grams.length);
  parts.push(g, Buffer.from(d.grams.buffer, d.grams.byteOffset, d.grams.byteLength));
  return Buffer.concat(parts);
}

/** Reads a persisted store; throws StoreFormatError for anything but a whole, unaltered file of this format. */
async function decodeStore(buf: Buffer): Promise<Array<[string, Entry]>> {
  if (buf.length < HEAD_BYTES || !buf.subarray(0, MAGIC.length).equals(MAGIC))
    throw new StoreFormatError('not a document store file');
  const length = buf.readBigUInt64LE(MAGIC.length + 32);
  if (length !== BigInt(buf.length - HEAD_BYTES)) throw new StoreFormatError('the file is cut short');
  const body = buf.subarray(HEAD_BYTES);
  const hash = createHash('sha256');
  for (let at = 0; at < body.length; at += DOC_STORE_YIELD_BYTES) {
    hash.update(body.subarray(at, at + DOC_STORE_YIELD_BYTES));
    await yieldToLoop();
  }
  if (!hash.digest().equals(buf.subarray(MAGIC.length, MAGIC.length + 32)))
    throw new StoreFormatError('checksum mismatch');
  let at = 0;
  const need = (n: number) => {
    if (at + n > body.length) throw new StoreFormatError('a record runs past the end');
  };
  const u32 = () => {
    need(4);
    const v = body.readUInt32LE(at);
    at += 4;
    return v;
  };
  const u64 = () => {
    need(8);
    const v = body.readBigUInt64LE(at);
    at += 8;
    return v;
  };
  const str = () => {
    const n = u32();
    need(n);
    const s = body.toString('utf8', at, at + n);
    at += n;
    return s;
  };
  const out: Array<[string, Entry]> = [];
  const count = u32();
  let sinceYield = 0;
  for (let i = 0; i < count; i++) {
    const start = at;
    const abs = str();
    if (!path.isAbsolute(abs)) throw new StoreFormatError('a record names a relative path');
    const identity = { dev: u64(), ino: u64(), size: u64(), mtimeNs: u64() };
    const maxChars = u32();
    need(1);
    const flags = body.readUInt8(at++);
    const refused = flags & FLAG_REFUSED ? str() : undefined;
    const skipped = flags & FLAG_SKIPPED ? str() : undefined;
    const segments: DocSegment[] = [];
    const nseg = u32();
    for (let s = 0; s < nseg; s++) segments.push({ label: str(), text: str() });
    const ngrams = u32();
    need(ngrams * 4);
    const grams = new Uint32Array(ngrams);
    for (let g = 0; g < ngrams; g++) grams[g] = body.readUInt32LE(at + g * 4);
    at += ngrams * 4;
    const doc: StoredDocument = {
      segments,
      partial: (flags & FLAG_PARTIAL) !== 0,
      ...(refused !== undefined ? { refused } : {}),
      ...(skipped !== undefined ? { skipped } : {}),
      grams,
    };
    out.push([abs, { identity, doc, maxChars, bytes: sizeOf(abs, doc) }]);
    sinceYield += at - start;
    if (sinceYield >= DOC_STORE_YIELD_BYTES) {
      sinceYield = 0;
      await yieldToLoop();
    }
  }
  if (at !== body.length) throw new StoreFormatError('bytes after the last record');
  return out;
}
