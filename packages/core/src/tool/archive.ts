import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import type { ReadEntry } from 'tar';
import type yauzl from 'yauzl';
import { nextZipEntry } from '../util/zip-entries.js';
import { ARCHIVE_MAX_ENTRIES, ARCHIVE_MAX_MEMBER_BYTES, ARCHIVE_MAX_SCAN_BYTES } from './limits.js';

/**
 * Archive members (`bundle.zip:src/a.ts`, `.tar`, `.tar.gz`, `.tgz`, and the zip-format packages `.whl`,
 * `.jar`, `.vsix`, `.nupkg`, `.apk`, `.epub` …; any existing file whose bytes say zip or tar) read into
 * memory, never written to disk: zip members by random access (yauzl reads the central directory, then only
 * that member), tar members by streaming the archive until the member has been read. Every read is bounded.
 */

/** Extensions of archives in zip format: Python wheels, Java archives, VS Code, NuGet and Android packages, EPUB. */
const ZIP_EXTENSIONS = 'zip|whl|egg|jar|war|ear|aar|vsix|nupkg|apk|xpi|epub';
const ZIP_SUFFIX = new RegExp(`\\.(?:${ZIP_EXTENSIONS})$`, 'i');
const ARCHIVE_SUFFIX = new RegExp(`\\.(?:${ZIP_EXTENSIONS}|tar|tar\\.gz|tgz):`, 'gi');

export interface ArchiveSelector {
  /** The archive path as the caller wrote it. */
  archive: string;
  /** The member path as the caller wrote it. */
  member: string;
  format: 'zip' | 'tar';
}

/**
 * Finds `<archive>:<member>` in an entry. A prefix is a candidate when it has an archive's extension or is
 * an existing file whose bytes say it is one (`formatOf`: a `.bin` that is a zip). Among several candidates
 * (`a.zip:b.tar:c`) the longest naming an existing archive wins; when none exists, the first (so the error
 * names it).
 */
export function parseArchiveSelector(
  entry: string,
  formatOf: (p: string) => ArchiveSelector['format'] | null,
): ArchiveSelector | null {
  const candidates: Array<ArchiveSelector & { exists: boolean }> = [];
  const byName = new Set<number>();
  for (const m of entry.matchAll(ARCHIVE_SUFFIX)) byName.add(m.index + m[0].length - 1);
  let probes = 0;
  for (let end = entry.indexOf(':'); end >= 0; end = entry.indexOf(':', end + 1)) {
    // Each colon costs a probe of the file system; nesting is never that deep.
    if (++probes > MAX_SELECTOR_COLONS) break;
    const archive = entry.slice(0, end);
    const member = entry.slice(end + 1);
    if (archive === '' || member === '') continue;
    const sniffed = formatOf(archive);
    if (sniffed === null && !byName.has(end)) continue;
    const format = sniffed ?? (ZIP_SUFFIX.test(archive) ? 'zip' : 'tar');
    candidates.push({ archive, member, format, exists: sniffed !== null });
  }
  const chosen = candidates.findLast((c) => c.exists) ?? candidates[0];
  return chosen ? { archive: chosen.archive, member: chosen.member, format: chosen.format } : null;
}

/** Colons of one entry tried as `<archive>:<member>` separators. */
const MAX_SELECTOR_COLONS = 16;

const ZIP_MAGIC = [Buffer.from('PK\u0003\u0004'), Buffer.from('PK\u0005\u0006')];
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/**
 * An existing file's archive format from its first bytes (zip's local or empty-archive header; tar's
 * `ustar` magic; gzip, read as a compressed tar), or null for anything else, a missing file included.
 */
export function sniffArchiveFormat(abs: string): ArchiveSelector['format'] | null {
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return null;
    const head = Buffer.alloc(512);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    if (ZIP_MAGIC.some((m) => n >= 4 && head.subarray(0, 4).equals(m))) return 'zip';
    if (n >= 2 && head.subarray(0, 2).equals(GZIP_MAGIC)) return 'tar';
    if (n >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'tar';
    return null;
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

export type MemberRead = { ok: true; bytes: Buffer } | { ok: false; reason: string };

/** `a\b/./c` → `a/b/c`; null when the path climbs out (`..`) or names nothing. */
export function normaliseMemberPath(p: string): string | null {
  const parts = p.replace(/\\/g, '/').split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') return null;
    out.push(part);
  }
  return out.length > 0 ? out.join('/') : null;
}

/**
 * Reads one member: the reasons for failure are the reference's (`binary archive entry`,
 * `non-UTF-8 archive entry`, `Archive file '<p>' not found`, `Archive path '<p>' is a directory`,
 * `cannot open archive: …`) plus the size and entry-count caps.
 */
export async function readArchiveMember(
  archiveAbs: string,
  selector: ArchiveSelector,
  signal?: AbortSignal,
): Promise<MemberRead> {
  const member = normaliseMemberPath(selector.member);
  if (member === null) return { ok: false, reason: `Archive path '${selector.member}' is not a member path` };
  let read: MemberRead;
  try {
    const st = await fs.promises.stat(archiveAbs);
    if (!st.isFile()) return { ok: false, reason: `cannot open archive: ${selector.archive} is not a file` };
    read =
      selector.format === 'zip'
        ? await readZipMember(archiveAbs, member, selector.member, signal)
        : await readTarMember(archiveAbs, member, selector.member, signal);
  } catch (err) {
    return {
      ok: false,
      reason: `cannot open archive: ${describeArchiveError(err, archiveAbs, selector.archive)}`,
    };
  }
  if (!read.ok) return read;
  if (read.bytes.includes(0)) return { ok: false, reason: 'binary archive entry' };
  if (!isUtf8(read.bytes)) return { ok: false, reason: 'non-UTF-8 archive entry' };
  return read;
}

function describeArchiveError(err: unknown, abs: string, archive: string): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return `${archive}: no such file`;
    case 'EACCES':
    case 'EPERM':
      return `${archive}: permission denied`;
    default:
      // Library messages can carry the absolute path; show the caller's spelling instead.
      return `${archive}: ${String(e.message ?? err)
        .split(abs)
        .join(archive)}`;
  }
}

function tooLarge(): MemberRead {
  return { ok: false, reason: `archive entry larger than ${ARCHIVE_MAX_MEMBER_BYTES / (1024 * 1024)} MiB` };
}

async function readZipMember(
  abs: string,
  member: string,
  spelled: string,
  signal?: AbortSignal,
): Promise<MemberRead> {
  // Loaded on first use: most searches never open an archive, and every CLI start would pay for it.
  const { default: zipLib } = await import('yauzl');
  const zip = await zipLib.openPromise(abs, {
    lazyEntries: true,
    autoClose: false,
    validateEntrySizes: true,
  });
  try {
    let seen = 0;
    let isDir = false;
    for (;;) {
      if (signal?.aborted) return { ok: false, reason: 'search aborted' };
      const entry = await nextZipEntry(zip);
      if (entry === null) break;
      if (++seen > ARCHIVE_MAX_ENTRIES)
        return { ok: false, reason: `more than ${ARCHIVE_MAX_ENTRIES} archive entries` };
      const name = normaliseMemberPath(entry.fileName);
      if (name === null) continue;
      const dirEntry = entry.fileName.endsWith('/');
      if (name === member) {
        if (dirEntry) {
          isDir = true;
          continue;
        }
        if (entry.uncompressedSize > ARCHIVE_MAX_MEMBER_BYTES) return tooLarge();
        if (entry.isEncrypted()) return { ok: false, reason: 'encrypted archive entry' };
        return await readZipEntry(zip, entry);
      }
      if (name.startsWith(`${member}/`)) isDir = true;
    }
    if (isDir) return { ok: false, reason: `Archive path '${spelled}' is a directory` };
    return { ok: false, reason: `Archive file '${spelled}' not found` };
  } finally {
    zip.close();
  }
}

async function readZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<MemberRead> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > ARCHIVE_MAX_MEMBER_BYTES) {
      stream.destroy();
      return tooLarge();
    }
    chunks.push(chunk);
  }
  return { ok: true, bytes: Buffer.concat(chunks, total) };
}

async function readTarMember(
  abs: string,
  member: string,
  spelled: string,
  signal?: AbortSignal,
): Promise<MemberRead> {
  const { Parser } = await import('tar');
  return new Promise<MemberRead>((resolve, reject) => {
    let settled = false;
    let seen = 0;
    let scanned = 0;
    let isDir = false;
    const input = fs.createReadStream(abs);
    const finish = (r: MemberRead | Error) => {
      if (settled) return;
      settled = true;
      input.destroy();
      signal?.removeEventListener('abort', onAbort);
      if (r instanceof Error) reject(r);
      else resolve(r);
    };
    const onAbort = () => finish({ ok: false, reason: 'search aborted' });
    signal?.addEventListener('abort', onAbort, { once: true });
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        if (settled) return entry.resume();
        if (++seen > ARCHIVE_MAX_ENTRIES) {
          finish({ ok: false, reason: `more than ${ARCHIVE_MAX_ENTRIES} archive entries` });
          return entry.resume();
        }
        const name = normaliseMemberPath(entry.path);
        if (name?.startsWith(`${member}/`)) isDir = true;
        if (name !== member) return entry.resume();
        if (entry.type === 'Directory') {
          isDir = true;
          return entry.resume();
        }
        if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') {
          finish({ ok: false, reason: `Archive path '${spelled}' is not a regular file (${entry.type})` });
          return entry.resume();
        }
        if (entry.size > ARCHIVE_MAX_MEMBER_BYTES) {
          finish(tooLarge());
          return entry.resume();
        }
        const chunks: Buffer[] = [];
        entry.on('data', (c: Buffer) => chunks.push(c));
        entry.on('end', () => finish({ ok: true, bytes: Buffer.concat(chunks) }));
      },
    });
    parser.on('error', (err: Error) => finish(err));
    parser.on('end', () =>
      finish(
        isDir
          ? { ok: false, reason: `Archive path '${spelled}' is a directory` }
          : { ok: false, reason: `Archive file '${spelled}' not found` },
      ),
    );
    input.on('error', (err) => finish(err));
    input.on('data', (chunk) => {
      scanned += chunk.length;
      if (scanned > ARCHIVE_MAX_SCAN_BYTES) {
        finish({
          ok: false,
          reason: `member not found in the first ${ARCHIVE_MAX_SCAN_BYTES / (1024 * 1024)} MiB of the archive`,
        });
        return;
      }
      if (!parser.write(chunk as Buffer)) {
        input.pause();
        parser.once('drain', () => input.resume());
      }
    });
    input.on('end', () => parser.end());
  });
}

/** One member of an archive listing. */
export interface ArchiveMember {
  /** Normalised member path (`src/a.ts`). */
  path: string;
  size: number;
  dir: boolean;
}

/** An archive's members, or why they could not be listed. `complete` is false when a cap stopped the listing. */
export type MemberList =
  | { ok: true; members: ArchiveMember[]; complete: boolean }
  | { ok: false; reason: string };

/**
 * Lists an archive's members (zip from its central directory; tar by streaming its headers, skipping the data),
 * bounded by the entry cap and, for tar, the scan cap. Nothing is extracted.
 */
export async function listArchiveMembers(
  archiveAbs: string,
  format: ArchiveSelector['format'],
  signal?: AbortSignal,
): Promise<MemberList> {
  try {
    return format === 'zip' ? await listZip(archiveAbs, signal) : await listTar(archiveAbs, signal);
  } catch (err) {
    return { ok: false, reason: `cannot open archive: ${(err as Error).message}` };
  }
}

async function listZip(abs: string, signal?: AbortSignal): Promise<MemberList> {
  const { default: zipLib } = await import('yauzl');
  const zip = await zipLib.openPromise(abs, {
    lazyEntries: true,
    autoClose: false,
    validateEntrySizes: true,
  });
  try {
    const members: ArchiveMember[] = [];
    for (;;) {
      if (signal?.aborted) return { ok: false, reason: 'listing aborted' };
      const entry = await nextZipEntry(zip);
      if (entry === null) return { ok: true, members, complete: true };
      if (members.length >= ARCHIVE_MAX_ENTRIES) return { ok: true, members, complete: false };
      const name = normaliseMemberPath(entry.fileName);
      if (name === null) continue;
      members.push({ path: name, size: entry.uncompressedSize, dir: entry.fileName.endsWith('/') });
    }
  } finally {
    zip.close();
  }
}

async function listTar(abs: string, signal?: AbortSignal): Promise<MemberList> {
  const { Parser } = await import('tar');
  return new Promise<MemberList>((resolve, reject) => {
    const members: ArchiveMember[] = [];
    let settled = false;
    let scanned = 0;
    const input = fs.createReadStream(abs);
    const finish = (r: MemberList | Error) => {
      if (settled) return;
      settled = true;
      input.destroy();
      if (r instanceof Error) reject(r);
      else resolve(r);
    };
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        if (!settled) {
          if (members.length >= ARCHIVE_MAX_ENTRIES) finish({ ok: true, members, complete: false });
          const name = normaliseMemberPath(entry.path);
          if (name !== null) members.push({ path: name, size: entry.size, dir: entry.type === 'Directory' });
        }
        entry.resume();
      },
    });
    parser.on('error', (err: Error) => finish(err));
    parser.on('end', () => finish({ ok: true, members, complete: true }));
    input.on('error', (err) => finish(err));
    input.on('data', (chunk) => {
      if (signal?.aborted) return finish({ ok: false, reason: 'listing aborted' });
      scanned += chunk.length;
      if (scanned > ARCHIVE_MAX_SCAN_BYTES) return finish({ ok: true, members, complete: false });
      if (!parser.write(chunk as Buffer)) {
        input.pause();
        parser.once('drain', () => input.resume());
      }
    });
    input.on('end', () => parser.end());
  });
}

/**
 * Archive members as the search tool reads them (`bundle.zip:src/a.ts`), for a tool outside this package that shows
 * them (the MCP server's `list_dir` of an archive), so it finds and lists archives as `search` does.
 */
export const archives = Object.freeze({
  /** An existing file's archive format from its first bytes (`zip`, `tar`), or null (a missing file included). */
  formatOf: sniffArchiveFormat,
  /** `<archive>:<member>` found in an entry; `formatOf` says which prefixes are archives (see parseArchiveSelector). */
  parseSelector: parseArchiveSelector,
  /** An archive's members, bounded by the entry and scan caps (`complete` false when one stops it), none extracted. */
  listMembers: listArchiveMembers,
});
