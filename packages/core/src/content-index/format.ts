/**
 * The persisted index: one flat file, `index.bin`, in the root's own directory under the data directory.
 *
 *   magic "TRWLCIX\0" | u32 format version | u32 header length | header (JSON) | sections, 8-byte aligned
 *
 * The header names the canonical root, the build time, the counts, each section's [offset, length] and a
 * CRC-32 of everything after the header (it catches a damaged or torn file; the file is the index's own, not
 * an adversary's, and a CRC checks 180 MB in a tenth of the time SHA-256 took at start-up). Sections: `records`
 * (per file: size, mtime ms, inode, flags, as float64s), `paths` (root-relative, `/`-separated, NUL-terminated
 * UTF-8), `firstBlock` and `blocks` (per file, as uint32s: its first block id and how many blocks, blocks.ts),
 * `newlines` (per block id, uint32), the gram table (`gramDir`, `listDir` as uint32s and `gramTable`, bytes:
 * gram-table.ts), then the postings of block ids (`data`: list-codec.ts), last, so that a reader can keep
 * everything before it in memory and read lists on demand. The header names the block size.
 *
 * A file is written under a temporary name, fsynced and renamed over the old one, so a crash leaves the old
 * index or the new one, never a torn one. Anything that does not check out (magic, version, root, lengths,
 * checksum) is refused with a reason, and the caller rebuilds.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { encodeGramTable, findGram, forEachGram, type GramTable } from './gram-table.js';
import { INDEX_FORMAT_VERSION } from './limits.js';
import { decodeList } from './list-codec.js';
import type { PostingsToWrite } from './postings-builder.js';

const MAGIC = Buffer.from('TRWLCIX\0', 'latin1');
export const INDEX_FILE = 'index.bin';

/** Per-file flags. */
export const FLAG_UNINDEXED = 1; // content not indexed (too large, unreadable): always a candidate
export const FLAG_RACY = 2; // mtime too close to the read: re-read at the next validation
export const FLAG_NUL = 4; // the indexed bytes hold a NUL byte (binary to the searcher) — read without reading them

export interface IndexFileData {
  root: string;
  builtAt: number;
  /** Bytes of file content indexed. */
  textBytes: number;
  paths: string[];
  /** size, mtimeMs, ino, flags per file (4 float64s each). */
  records: Float64Array;
  /** Bytes per block (blocks.ts), and per file its first block id and its number of blocks. */
  blockBytes: number;
  firstBlock: Uint32Array;
  blocks: Uint32Array;
  /**
   * Per block id (separator ids and the blocks of unindexed files: 0), the newlines in the block's own bytes
   * [k·B, (k+1)·B): the query side numbers the lines of a block without reading what precedes it.
   */
  newlines: Uint32Array;
  postings: PostingsTable;
}

/**
 * The postings as a search reads them: the gram table in memory, each list's bytes on demand — from memory, or
 * read from the open index file (a loaded base keeps only the tables resident: start-up reads a sixth of the
 * file, and the lists a query needs are a few KB).
 */
export interface PostingsTable extends GramTable {
  /** Block ids of the index (every id is below it; the lists' code depends on it, list-codec.ts). */
  idSpace: number;
  /** Bytes of all lists. */
  dataBytes: number;
  /** Bytes [offset, offset + length) of the lists (valid until the next call). */
  bytes(offset: number, length: number): Uint8Array;
}

/**
 * What the index says of one gram (grams.ts): `null` — no indexed block holds it; `'unlisted'` — its list was
 * left out (too common to narrow anything: treat it as present everywhere); else its list. This is the one
 * way the query side reads lists, so the list format can change without touching query.ts.
 */
export type GramLookup = null | 'unlisted' | GramList;

export interface GramList {
  /** How many block ids the list holds (for ordering: shortest first). */
  count: number;
  /** The ascending block ids that may hold the gram (a superset is allowed, never a subset). */
  blocks(): Uint32Array;
}

/** The parts of an index a gram lookup reads. */
export type GramSource = Pick<IndexFileData, 'postings'>;

export function gramBlocks(d: GramSource, gram: number): GramLookup {
  const p = d.postings;
  const e = findGram(p, gram);
  if (e === null) return null;
  if (e.count === 0) return 'unlisted';
  const { count, offset, length } = e;
  // Decoded at once: `bytes()` gives a scratch buffer valid until its next call.
  return { count, blocks: () => decodeList(p.bytes(offset, length), count, p.idSpace) };
}

/** An index read for searching: its file's size, the bytes kept in memory, and its open file to let go of. */
export type LoadedIndex = IndexFileData & {
  fileBytes: number;
  residentBytes: number;
  /**
   * Whether the open file still has the size and mtime it was checked with (always, for an index read whole).
   * Lists are read from the file per query: one truncated or rewritten in place (not replaced by a rename,
   * which leaves the open file as it was) would answer wrong or fail; its owner lets go of it and rebuilds.
   */
  intact(): boolean;
  release(): void;
};

interface Header {
  root: string;
  builtAt: number;
  textBytes: number;
  files: number;
  grams: number;
  blockBytes: number;
  sections: Record<SectionName, [number, number]>;
  /** CRC-32 of the body, 8 hex digits (a fixed length: the header is written twice, see writeIndexFile). */
  crc32: string;
}

type SectionName =
  | 'records'
  | 'paths'
  | 'firstBlock'
  | 'blocks'
  | 'newlines'
  | 'gramDir'
  | 'listDir'
  | 'gramTable'
  | 'data';

/** An index as the build hands it over: the postings' bytes may come as a stream of chunks. */
export type IndexFileToWrite = Omit<IndexFileData, 'postings'> & { postings: PostingsToWrite };

/**
 * Writes the index atomically; returns its size in bytes. The postings are streamed through the checksum
 * into the file (a Linux-sized index never sits in memory twice); the header, whose checksum is known only
 * then, is written last, over a placeholder of the same length.
 */
export function writeIndexFile(dir: string, d: IndexFileToWrite): number {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pathsBlob = Buffer.from(d.paths.map((p) => `${p}\0`).join(''), 'utf8');
  const data = d.postings.data;
  const table = encodeGramTable(d.postings.keys, d.postings.counts, d.postings.offsets, d.postings.lengths);
  const parts: Array<[SectionName, number, (push: (chunk: Uint8Array) => void) => void]> = [
    ...(
      [
        ['records', bytesOf(d.records)],
        ['paths', pathsBlob],
        ['firstBlock', bytesOf(d.firstBlock)],
        ['blocks', bytesOf(d.blocks)],
        ['newlines', bytesOf(d.newlines)],
        ['gramDir', bytesOf(table.dir)],
        ['listDir', bytesOf(table.listDir)],
        ['gramTable', table.entries],
      ] as Array<[SectionName, Uint8Array]>
    ).map(([name, bytes]): [SectionName, number, (push: (c: Uint8Array) => void) => void] => [
      name,
      bytes.byteLength,
      (push) => push(bytes),
    ]),
    ['data', data.length, data instanceof Uint8Array ? (push) => push(data) : (push) => data.emit(push)],
  ];
  const sections = {} as Header['sections'];
  let at = 0;
  for (const [name, length] of parts) {
    at += (8 - (at % 8)) % 8;
    sections[name] = [at, length];
    at += length;
  }
  const headerBytes = (checksum: string): Buffer => {
    const header: Header = {
      root: d.root,
      builtAt: d.builtAt,
      textBytes: d.textBytes,
      files: d.paths.length,
      grams: d.postings.keys.length,
      blockBytes: d.blockBytes,
      sections,
      crc32: checksum,
    };
    let json = Buffer.from(JSON.stringify(header), 'utf8');
    // Sections are aligned relative to the start of the body; the body starts 8-aligned.
    const headLen = 16 + json.length;
    const headPad = (8 - (headLen % 8)) % 8;
    json = Buffer.concat([json, Buffer.alloc(headPad, 0x20)]);
    const fixed = Buffer.alloc(16);
    MAGIC.copy(fixed, 0);
    fixed.writeUInt32LE(INDEX_FORMAT_VERSION, 8);
    fixed.writeUInt32LE(json.length, 12);
    return Buffer.concat([fixed, json]);
  };
  const placeholder = headerBytes('0'.repeat(8));

  const final = path.join(dir, INDEX_FILE);
  const temp = path.join(dir, `${INDEX_FILE}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const fd = fs.openSync(temp, 'w', 0o600);
  let size = 0;
  const write = (chunk: Uint8Array, position: number | null) => {
    let off = 0;
    while (off < chunk.byteLength)
      off += fs.writeSync(fd, chunk, off, chunk.byteLength - off, position === null ? null : position + off);
  };
  try {
    write(placeholder, null);
    size = placeholder.length;
    let crc = 0;
    let bodyAt = 0;
    const push = (chunk: Uint8Array) => {
      crc = crc32(chunk, crc);
      write(chunk, null);
      bodyAt += chunk.byteLength;
    };
    for (const [name, length, emit] of parts) {
      const pad = sections[name][0] - bodyAt;
      if (pad > 0) push(new Uint8Array(pad));
      emit(push);
      if (bodyAt !== sections[name][0] + length) throw new Error(`index section ${name}: length mismatch`);
    }
    size += bodyAt;
    write(headerBytes(hex8(crc)), 0);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(temp, final);
  return size;
}

export class IndexFormatError extends Error {
  readonly code = 'index_unusable';
}

/**
 * Reads and checks a whole index file, lists included, into memory (tests, tools); throws IndexFormatError
 * (with the reason) for anything not trustworthy.
 */
export function readIndexFile(dir: string, expectedRoot: string): LoadedIndex {
  const fd = openIndexFile(dir);
  let buf: Buffer;
  try {
    buf = fs.readFileSync(fd);
  } catch (err) {
    throw new IndexFormatError(`no index (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  } finally {
    fs.closeSync(fd);
  }
  return parseIndex(buf, expectedRoot, true, null);
}

/** An index file opened for searching: everything before the lists read into `head`, the file kept open. */
export interface IndexHead {
  head: Buffer;
  fd: number;
  fileBytes: number;
  /** The file's mtime when its head was read (see `LoadedIndex.intact`). */
  mtimeMs: number;
}

/**
 * Opens an index file for reading (IndexFormatError when there is none, or it is not a regular file). The
 * caller closes it. Opened without blocking and without following a link, then judged by what was opened: a
 * FIFO put at `index.bin` would otherwise block the opening thread until some writer came (a server that never
 * starts), and a link would make another file the index. Whatever is refused is rebuilt (renamed over it).
 */
export function openIndexFile(dir: string): number {
  const flags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);
  let fd: number;
  try {
    fd = fs.openSync(path.join(dir, INDEX_FILE), flags);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new IndexFormatError(
      code === 'ELOOP' ? 'the index is a symbolic link' : `no index (${code ?? 'unreadable'})`,
    );
  }
  let regular = false;
  try {
    regular = fs.fstatSync(fd).isFile();
  } finally {
    if (!regular) fs.closeSync(fd);
  }
  if (!regular) throw new IndexFormatError('the index is not a regular file');
  return fd;
}

/**
 * Reads the tables (everything but the lists) of the index file open as `fd`; IndexFormatError if that fails.
 * The descriptor stays the caller's: a worker reads through the loading thread's descriptor and never closes
 * it (a worker's own descriptors are closed when it ends).
 */
export function readIndexHead(fd: number): IndexHead {
  try {
    const { size: fileBytes, mtimeMs } = fs.fstatSync(fd);
    const fixed = readAt(fd, 0, Math.min(16, fileBytes));
    if (fixed.length < 16 || !fixed.subarray(0, 8).equals(MAGIC))
      throw new IndexFormatError('not a trawl index');
    const headLen = fixed.readUInt32LE(12);
    if (16 + headLen > fileBytes) throw new IndexFormatError('truncated header');
    const header = parseHeader(readAt(fd, 16, headLen));
    const data = header.sections?.data;
    if (!Array.isArray(data) || !(data[0] >= 0) || 16 + headLen + data[0] > fileBytes)
      throw new IndexFormatError('bad section data');
    return { head: readAt(fd, 0, 16 + headLen + data[0]), fd, fileBytes, mtimeMs };
  } catch (err) {
    if (err instanceof IndexFormatError) throw err;
    throw new IndexFormatError(`unreadable index (${(err as NodeJS.ErrnoException).code ?? 'read failed'})`);
  }
}

/**
 * Checks and views an index whose tables are in `head.head` and whose lists stay in the open file (read per
 * query). `checksum: false` only for a head this process has already checked with `checksum: true` (the
 * start-up worker checks it, then hands it over): every structural check still runs. The caller owns the
 * file: `release()` closes it.
 */
export function parseIndexHead(h: IndexHead, expectedRoot: string, checksum: boolean): LoadedIndex {
  return parseIndex(h.head, expectedRoot, checksum, { fd: h.fd, fileBytes: h.fileBytes, mtimeMs: h.mtimeMs });
}

/** Checks and views an index: `buf` is the whole file (`file` null) or its head (the lists read from `file`). */
function parseIndex(
  buf: Buffer,
  expectedRoot: string,
  checksum: boolean,
  file: { fd: number; fileBytes: number; mtimeMs: number } | null,
): LoadedIndex {
  if (buf.length < 16 || !buf.subarray(0, 8).equals(MAGIC)) throw new IndexFormatError('not a trawl index');
  const version = buf.readUInt32LE(8);
  if (version !== INDEX_FORMAT_VERSION)
    throw new IndexFormatError(`format version ${version}, expected ${INDEX_FORMAT_VERSION}`);
  const headLen = buf.readUInt32LE(12);
  if (16 + headLen > buf.length) throw new IndexFormatError('truncated header');
  const header = parseHeader(buf.subarray(16, 16 + headLen));
  if (header.root !== expectedRoot) throw new IndexFormatError('index of another root');
  const body = buf.subarray(16 + headLen);
  const bodyBytes = (file ? file.fileBytes : buf.length) - (16 + headLen);
  const span = header.sections?.data;
  // The lists are the last section and nothing follows them.
  if (!Array.isArray(span) || !(span[0] >= 0) || !(span[1] >= 0) || span[0] + span[1] !== bodyBytes)
    throw new IndexFormatError('bad section data');
  const dataAt = 16 + headLen + span[0];
  if (checksum) {
    let crc = crc32(body.subarray(0, Math.min(span[0], body.length)));
    if (file) {
      const chunk = Buffer.allocUnsafe(Math.min(CHECK_CHUNK, Math.max(1, span[1])));
      for (let at = 0; at < span[1]; ) {
        const n = fs.readSync(file.fd, chunk, 0, Math.min(chunk.length, span[1] - at), dataAt + at);
        if (n === 0) throw new IndexFormatError('truncated lists');
        crc = crc32(chunk.subarray(0, n), crc);
        at += n;
      }
    } else crc = crc32(body.subarray(span[0], span[0] + span[1]), crc);
    if (hex8(crc) !== header.crc32) throw new IndexFormatError('checksum mismatch');
  }
  const section = (name: SectionName): Uint8Array => {
    const s = header.sections?.[name];
    if (!Array.isArray(s) || s[0] < 0 || s[1] < 0 || s[0] + s[1] > Math.min(body.length, span[0]))
      throw new IndexFormatError(`bad section ${name}`);
    return body.subarray(s[0], s[0] + s[1]);
  };
  const records = f64(section('records'));
  const blob = section('paths');
  const paths = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength).toString('utf8').split('\0');
  paths.pop();
  const firstBlock = u32(section('firstBlock'));
  const blocks = u32(section('blocks'));
  const newlines = u32(section('newlines'));
  let released = false;
  const resident = file ? null : body.subarray(span[0], span[0] + span[1]);
  let scratch = Buffer.allocUnsafe(0);
  const postings: PostingsTable = {
    grams: header.grams,
    idSpace: newlines.length,
    dir: u32(section('gramDir')),
    listDir: u32(section('listDir')),
    entries: section('gramTable'),
    dataBytes: span[1],
    bytes: (offset, length) => {
      if (resident) return resident.subarray(offset, offset + length);
      // Never read after release: the descriptor's number may belong to another file by then.
      if (released) throw new Error('content index: lists read after the index was let go');
      if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, 2 * scratch.length, 4096));
      let got = 0;
      while (got < length) {
        const n = fs.readSync(file!.fd, scratch, got, length - got, dataAt + offset + got);
        if (n === 0) throw new IndexFormatError('lists truncated');
        got += n;
      }
      return scratch.subarray(0, length);
    },
  };
  if (
    paths.length !== header.files ||
    records.length !== 4 * header.files ||
    firstBlock.length !== header.files ||
    blocks.length !== header.files ||
    !Number.isInteger(header.grams)
  )
    throw new IndexFormatError('inconsistent section sizes');
  if (!Number.isInteger(header.blockBytes) || header.blockBytes < 1)
    throw new IndexFormatError('bad block size');
  for (let i = 0; i < firstBlock.length; i++) {
    // Ascending, one separator id between files: what fileOfBlock and the adjacency rule rely on.
    if (blocks[i]! < 1 || (i > 0 && firstBlock[i]! <= firstBlock[i - 1]! + blocks[i - 1]!))
      throw new IndexFormatError('bad block table');
  }
  const files = firstBlock.length;
  if (newlines.length !== (files ? firstBlock[files - 1]! + blocks[files - 1]! + 1 : 0))
    throw new IndexFormatError('bad newline table');
  try {
    forEachGram(postings, span[1]);
  } catch (err) {
    throw new IndexFormatError((err as Error).message);
  }
  return {
    root: header.root,
    builtAt: header.builtAt,
    textBytes: header.textBytes,
    paths,
    records,
    blockBytes: header.blockBytes,
    firstBlock,
    blocks,
    newlines,
    postings,
    fileBytes: 16 + headLen + bodyBytes,
    residentBytes: buf.length,
    intact: () => {
      if (!file) return true;
      if (released) return false;
      const st = fs.fstatSync(file.fd);
      return st.size === file.fileBytes && st.mtimeMs === file.mtimeMs;
    },
    release: () => {
      if (file && !released) fs.closeSync(file.fd);
      released = true;
    },
  };
}

/** The lists' bytes are checked through a buffer this large, not read into memory whole. */
const CHECK_CHUNK = 4 * 1024 * 1024;

function parseHeader(bytes: Uint8Array): Header {
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    throw new IndexFormatError('unreadable header');
  }
  if (typeof header !== 'object' || header === null) throw new IndexFormatError('unreadable header');
  return header as Header;
}

function readAt(fd: number, position: number, length: number): Buffer {
  const b = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, b, got, length - got, position + got);
    if (n === 0) throw new IndexFormatError('truncated index');
    got += n;
  }
  return b;
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

function bytesOf(a: Uint32Array | Float64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Views when aligned (the usual case: a file read whole owns its buffer), copies otherwise. */
function u32(b: Uint8Array): Uint32Array {
  if (b.byteLength % 4) throw new IndexFormatError('misaligned section');
  if (b.byteOffset % 4 === 0) return new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  return new Uint32Array(b.slice().buffer);
}

function f64(b: Uint8Array): Float64Array {
  if (b.byteLength % 8) throw new IndexFormatError('misaligned section');
  if (b.byteOffset % 8 === 0) return new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8);
  return new Float64Array(b.slice().buffer);
}
