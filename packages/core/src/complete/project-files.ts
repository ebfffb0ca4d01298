import * as fs from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { expandHome, type SensitiveFence } from '../fence/index.js';
import { homeDir } from '../fence/root.js';
import { BINARY_SNIFF_BYTES } from '../limits.js';
import type { NameResult } from '../names/types.js';
import { FENCED_LINK_MESSAGE, isFencedDescriptor } from '../util/fs-safety.js';
import {
  FILE_VIEW_MAX_BYTES,
  FILE_WINDOW_SCAN_MAX_BYTES,
  TREE_MAX_ENTRIES,
  TREE_MAX_SCAN,
} from './limits.js';
import { type DirOpener, type OpenDir, platformDirOpener } from './open-dir.js';
import { closeQuietly, compareRows, isUnder, reachDir, scanEntries } from './reach.js';

/**
 * Why a tree listing or a file read answered as it did:
 * - `invalid`: the relative path is not `/`-separated plain names (empty, `.`, `..`, a NUL, a backslash, absolute);
 * - `sensitive`: the root, a directory reached or the file is a sensitive location;
 * - `link`: a component is a link (never followed, whatever it points at);
 * - `outside`: the descriptor's witness is not under the root (the root moved under us);
 * - `missing`: a component does not exist; `wrong-kind`: a directory where a file was asked for, or the reverse
 *   (or a FIFO, a device, an unreadable entry).
 */
export type ProjectPathStatus =
  | 'ok'
  | 'invalid'
  | 'sensitive'
  | 'link'
  | 'outside'
  | 'missing'
  | 'wrong-kind';

/** A path inside a known project, for {@link listProjectDir} and {@link readProjectFile}. */
export interface ProjectPathRequest {
  /** The SERVER-HELD project directory (a known project, never the caller's spelling). `~` is expanded. */
  project: string;
  /** `/`-separated path relative to the project root; `""` is the root. */
  rel: string;
  /** `fencedIdentities` (hard links to fenced files) where the fence has it: a file read is refused by identity too. */
  fence: Pick<SensitiveFence, 'isSensitiveCanonical'> & Partial<Pick<SensitiveFence, 'fencedIdentities'>>;
  home?: string;
  /** Canonicalises the server-held project root (the only resolution; a seam for tests). */
  realpath?: (p: string) => string;
  opener?: DirOpener;
}

/** The answer of {@link listProjectDir}: one level of a project directory, fenced, or why not. */
export interface TreeOutcome {
  status: ProjectPathStatus;
  /** The canonical project root ('' when it could not be resolved). */
  root: string;
  /** Rows with paths relative to the root (`/`-separated), directories first then names case-insensitively. */
  entries: NameResult[];
  truncated: boolean;
  /** For the audit line. */
  detail?: string;
}

/** The answer of {@link readProjectFile}: the text (or the window around a line) or why not. */
export interface FileReadOutcome {
  status: ProjectPathStatus;
  root: string;
  size?: number;
  mtime?: number;
  text?: string;
  truncated?: boolean;
  binary?: boolean;
  /** The 1-based number of the first line in `text` (1 unless a line window started further in). */
  firstLine?: number;
  /** With `raw`: the file's bytes (absent when it is larger than `maxBytes`, then `truncated`). */
  bytes?: Buffer;
  detail?: string;
}

/** The names of a relative path, or `null` when it is not plain names joined by `/`. */
export function projectRelSegments(rel: string): string[] | null {
  if (rel === '') return [];
  const parts = rel.split('/');
  for (const p of parts) {
    if (p === '' || p === '.' || p === '..' || p.includes('\0') || p.includes('\\')) return null;
  }
  return parts;
}

interface Held {
  root: string;
  dir: OpenDir;
  witness: string;
  opener: DirOpener;
}

/**
 * The shared first half of a tree listing and a file read: canonicalise the server-held root (the one resolution),
 * walk `segments` through held descriptors without following a link, witness the directory, and judge it.
 */
function holdDir(
  req: ProjectPathRequest,
  segments: readonly string[],
): { ok: true; held: Held } | { ok: false; status: ProjectPathStatus; root: string; detail: string } {
  const home = req.home ?? homeDir();
  const realpath = req.realpath ?? ((p: string) => fs.realpathSync(p));
  const opener = req.opener ?? platformDirOpener();
  let root: string;
  try {
    root = realpath(expandHome(req.project, home));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unresolvable';
    return { ok: false, status: 'missing', root: '', detail: `project root: ${code}` };
  }
  if (req.fence.isSensitiveCanonical(root))
    return { ok: false, status: 'sensitive', root, detail: 'project root' };
  const reached = reachDir(opener, root, segments);
  if (!reached.ok) {
    const status = reached.link ? 'link' : reached.status === 'missing' ? 'missing' : 'wrong-kind';
    return { ok: false, status, root, detail: reached.detail };
  }
  const witness = opener.witness(reached.dir);
  const fail = (status: ProjectPathStatus, detail: string) => {
    closeQuietly(opener, reached.dir);
    return { ok: false as const, status, root, detail };
  };
  if (witness === null) return fail('wrong-kind', 'witness unavailable');
  if (!isUnder(witness, root)) return fail('outside', `witness outside the root: ${witness}`);
  if (req.fence.isSensitiveCanonical(witness)) return fail('sensitive', witness);
  return { ok: true, held: { root, dir: reached.dir, witness, opener } };
}

/**
 * One level of a project directory for the Files rail: every entry but links (dot entries included), sensitive
 * ones omitted, directories first, at most `maxEntries` rows after examining at most `maxScan` entries
 * (`truncated` when either bound cut the answer). Synchronous by design: it runs on a worker thread.
 */
export function listProjectDir(
  req: ProjectPathRequest & { maxEntries?: number; maxScan?: number },
): TreeOutcome {
  const segments = projectRelSegments(req.rel);
  if (segments === null) return { status: 'invalid', root: '', entries: [], truncated: false };
  const h = holdDir(req, segments);
  if (!h.ok) return { status: h.status, root: h.root, entries: [], truncated: false, detail: h.detail };
  const { root, dir, witness, opener } = h.held;
  try {
    const maxEntries = req.maxEntries ?? TREE_MAX_ENTRIES;
    const scan = scanEntries(opener, dir, witness, req.fence, () => true, req.maxScan ?? TREE_MAX_SCAN);
    if (!scan.ok) return { status: 'missing', root, entries: [], truncated: false, detail: scan.detail };
    const rows = scan.rows.sort(compareRows);
    const prefix = req.rel === '' ? '' : `${req.rel}/`;
    return {
      status: 'ok',
      root,
      entries: rows.slice(0, maxEntries).map((r) => ({ ...r, path: prefix + r.name })),
      truncated: scan.exhausted || rows.length > maxEntries,
    };
  } finally {
    closeQuietly(opener, dir);
  }
}

/**
 * A text file of a project for the viewer, never through a link at any component: the parent directory is reached
 * through held descriptors and the file opened relative to it with O_NOFOLLOW (and O_NONBLOCK, so a FIFO cannot
 * block). At most `maxBytes` are read (`truncated` beyond; a UTF-8 sequence cut by the cap is dropped, not
 * mangled); a NUL in the first 64 KiB (BINARY_SNIFF_BYTES) makes it `binary` with no text. With `line` (1-based),
 * the `maxBytes` read are a window of whole lines around that line instead of the file's start (`firstLine` says
 * where it starts), so a hit past the first MiB can be shown.
 */
export function readProjectFile(
  req: ProjectPathRequest & {
    maxBytes?: number;
    line?: number;
    /** The whole file as bytes (up to `maxBytes`), not sniffed or decoded: a document to extract. */
    raw?: boolean;
  },
): FileReadOutcome {
  const segments = projectRelSegments(req.rel);
  if (segments === null || segments.length === 0) return { status: 'invalid', root: '' };
  const name = segments[segments.length - 1]!;
  const h = holdDir(req, segments.slice(0, -1));
  if (!h.ok) return { status: h.status, root: h.root, detail: h.detail };
  const { root, dir, witness, opener } = h.held;
  let fd = -1;
  try {
    if (req.fence.isSensitiveCanonical(path.join(witness, name)))
      return { status: 'sensitive', root, detail: path.join(witness, name) };
    try {
      fd = opener.openFile(dir, name);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      if (code === 'ENOENT') return { status: 'missing', root, detail: `${name}: missing` };
      const what = opener.describeChild(dir, name);
      return {
        status: what === 'symlink' ? 'link' : 'wrong-kind',
        root,
        detail: `${name}: ${what} (${code})`,
      };
    }
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { status: 'wrong-kind', root, detail: `${name}: not a regular file` };
    // A hard link to a credential file: a name of the project, the content of the fenced file.
    if (isFencedDescriptor(fd, req.fence.fencedIdentities?.()))
      return { status: 'sensitive', root, detail: `${name}: ${FENCED_LINK_MESSAGE}` };
    const maxBytes = req.maxBytes ?? FILE_VIEW_MAX_BYTES;
    const meta = { root, size: st.size, mtime: Math.floor(st.mtimeMs / 1000) };
    if (req.raw) {
      if (st.size > maxBytes) return { status: 'ok', ...meta, truncated: true, firstLine: 1 };
      return { status: 'ok', ...meta, truncated: false, bytes: readAt(fd, 0, st.size), firstLine: 1 };
    }
    const head = Buffer.alloc(Math.min(BINARY_SNIFF_BYTES, maxBytes));
    const sniffed = fs.readSync(fd, head, 0, head.length, 0);
    if (head.subarray(0, sniffed).includes(0))
      return { status: 'ok', ...meta, truncated: st.size > maxBytes, text: '', binary: true, firstLine: 1 };
    const w = lineWindow(fd, req.line ?? 1, maxBytes);
    return { status: 'ok', ...meta, ...w, binary: false };
  } finally {
    if (fd >= 0) fs.closeSync(fd);
    closeQuietly(opener, dir);
  }
}

/** Reads `len` bytes at `pos` (fewer at the end of the file). */
function readAt(fd: number, pos: number, len: number): Buffer {
  const buf = Buffer.alloc(len);
  let got = 0;
  while (got < len) {
    const n = fs.readSync(fd, buf, got, len - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

const NL = 10;
const SCAN_CHUNK = 1024 * 1024;

/**
 * The text of at most `maxBytes` of whole lines around line `line`: the file's start when the line is near it,
 * else about half a window of lines before the line and the rest after it. A line that lies past the scan bound
 * or the end of the file gives the window that ends the part scanned.
 */
function lineWindow(
  fd: number,
  line: number,
  maxBytes: number,
): { text: string; truncated: boolean; firstLine: number } {
  // Where `line` starts, counting newlines chunk by chunk from the start (bounded).
  let at = 0;
  let ln = 1;
  let target = 0;
  while (ln < line && at < FILE_WINDOW_SCAN_MAX_BYTES) {
    const chunk = readAt(fd, at, SCAN_CHUNK);
    if (chunk.length === 0) break;
    let i = chunk.indexOf(NL);
    while (i >= 0 && ln < line) {
      ln++;
      target = at + i + 1;
      i = chunk.indexOf(NL, i + 1);
    }
    at += chunk.length;
  }
  let start = Math.max(0, target - Math.floor(maxBytes / 2));
  let firstLine = 1;
  if (start > 0) {
    // Back up to a line start: the lines between `start` and the target, counted in the bytes between.
    const before = readAt(fd, start, target - start);
    const cut = before.indexOf(NL);
    start = cut < 0 ? target : start + cut + 1;
    const between = before.subarray(cut + 1);
    let n = 0;
    for (let i = between.indexOf(NL); i >= 0; i = between.indexOf(NL, i + 1)) n++;
    firstLine = ln - n;
  }
  const bytes = readAt(fd, start, maxBytes + 1);
  const more = bytes.length > maxBytes;
  let body = bytes.subarray(0, Math.min(bytes.length, maxBytes));
  if (more) {
    // Whole lines only: the window ends at its last newline (a single line longer than the window is cut).
    const last = body.lastIndexOf(NL);
    if (last >= 0) body = body.subarray(0, last + 1);
  }
  const decoder = new StringDecoder('utf8');
  const text = more ? decoder.write(body) : decoder.write(body) + decoder.end();
  return { text, truncated: more || start > 0, firstLine };
}
