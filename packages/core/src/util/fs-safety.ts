import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Judging what was actually opened. A path checked and then opened can lead elsewhere by the time it is opened: a
 * directory on the way swapped for a link (`renameat2(RENAME_EXCHANGE)`) turns `root/d/key` into `~/.ssh/key`, and
 * O_NOFOLLOW guards the last component only. So a reader opens first and judges the descriptor: the kernel's own
 * name for it (`/proc/self/fd/N`) is where the bytes come from, whatever the path said.
 */

const C = fs.constants;
/** No link at the last component; O_NONBLOCK so a FIFO planted under the name cannot block the open. */
const NOFOLLOW_READ = C.O_RDONLY | (C.O_NOFOLLOW ?? 0) | (C.O_NONBLOCK ?? 0);

/** Opens `abs` for reading without following a link at its last component; throws an errno error (`ELOOP` for a link). */
export function openNoFollow(abs: string): number {
  return fs.openSync(abs, NOFOLLOW_READ);
}

const DELETED_SUFFIX = ' (deleted)';
let procFd: boolean | undefined;

/**
 * The real path of an open descriptor: `readlink(/proc/self/fd/N)` on Linux. `null` when it cannot be witnessed
 * (no usable /proc, a file removed while held): the caller then refuses the file. Where /proc is absent (macOS,
 * the BSDs) the descriptor's identity is compared with a fresh `lstat` of `expected` instead, which narrows the
 * race without closing it.
 */
export function descriptorPath(fd: number, expected: string): string | null {
  procFd ??= fs.existsSync('/proc/self/fd');
  if (!procFd) return sameIdentity(fd, expected) ? expected : null;
  let name: string;
  try {
    name = fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
  if (!path.isAbsolute(name) || name.endsWith(DELETED_SUFFIX)) return null;
  return name;
}

function sameIdentity(fd: number, expected: string): boolean {
  try {
    const held = fs.fstatSync(fd);
    const now = fs.lstatSync(expected);
    return held.dev === now.dev && held.ino === now.ino && fs.realpathSync.native(expected) === expected;
  } catch {
    return false;
  }
}

/** True when the descriptor `fd` is the file at the canonical path `canon` (see {@link descriptorPath}). */
export function descriptorIs(fd: number, canon: string): boolean {
  return descriptorPath(fd, canon) === canon;
}

/**
 * The entries of the directory whose canonical path is `canon`, opened at `abs` (a root or a followed link may be
 * spelled otherwise) and read through that descriptor once it reads back as `canon`: a directory on the way
 * swapped for a link since the walk reached it is refused (`ESTALE`), never listed in its place.
 */
export function listDirectory(abs: string, canon: string): fs.Dirent[] {
  const fd = fs.openSync(abs, C.O_RDONLY | (C.O_DIRECTORY ?? 0) | (C.O_NONBLOCK ?? 0));
  try {
    if (!descriptorIs(fd, canon)) throw staleError(abs);
    return fs.readdirSync(procFd ? `/proc/self/fd/${fd}` : canon, { withFileTypes: true });
  } finally {
    fs.closeSync(fd);
  }
}

/** The error a reader gives for a file or directory that is no longer where it was judged to be. */
export function staleError(abs: string): NodeJS.ErrnoException {
  const err = new Error(
    `ESTALE: changed while it was opened (a link swapped in?), '${abs}'`,
  ) as NodeJS.ErrnoException;
  err.code = 'ESTALE';
  return err;
}

/** `inner` is `outer` or below it (both absolute, canonical or both as spelled). */
export function isWithin(inner: string, outer: string): boolean {
  if (inner === outer || outer === '/') return true;
  return inner.length > outer.length && inner.startsWith(outer) && inner.charCodeAt(outer.length) === SEP;
}

const SEP = path.sep.charCodeAt(0);

/** A file's identity as the fence keeps it (fence/identities.ts): device and inode, exact (bigint stats). */
export function identityKey(st: { dev: bigint; ino: bigint }): string {
  return `${st.dev}:${st.ino}`;
}

/**
 * True when an opened file is a fenced file under another name: a regular file with more than one link whose
 * identity is in `fenced` (a hard link in the tree to `~/.ssh/id_ed25519`). An empty set (the usual case: fenced
 * files with one link have no other name) costs no system call.
 */
export function isFencedDescriptor(fd: number, fenced: ReadonlySet<string> | undefined): boolean {
  if (!fenced || fenced.size === 0) return false;
  return isFencedIdentity(fs.fstatSync(fd, { bigint: true }), fenced);
}

/** What a reader says of a file it refused as another name of a fenced file. */
export const FENCED_LINK_MESSAGE = 'a hard link to a sensitive file: not read';

/** As {@link isFencedDescriptor}, for stats already taken (bigint: inodes may pass 2^53). */
export function isFencedIdentity(
  st: { dev: bigint; ino: bigint; nlink: bigint; isFile(): boolean },
  fenced: ReadonlySet<string> | undefined,
): boolean {
  if (!fenced || fenced.size === 0) return false;
  return st.nlink > 1n && st.isFile() && fenced.has(identityKey(st));
}

/**
 * Whether names a child process reported (rg's own walk) are files of the tree. The child opened them by path, and a
 * directory on the way swapped for a link made it list and read another directory under the tree's names
 * (`d/…` reading `~/.ssh/…`). Each name is looked up again in its directory's listing, read through a descriptor
 * that read back as the directory's canonical path ({@link listDirectory}): a name that is not a regular file there
 * now was not the tree's. The listings of the last few directories are kept (TREE_WITNESS_DIRS): results come a few
 * directories at a time, and one listing answers for all of a directory's files.
 */
export class TreeWitness {
  /** Directory (canonical) → the names of its regular files (null: it did not read back as itself); in use order. */
  private readonly listings = new Map<string, ReadonlySet<string> | null>();

  /** True when `canon` (a canonical path below a canonical root) is a regular file, not a link, in its directory. */
  isFile(canon: string): boolean {
    return this.filesOf(path.dirname(canon))?.has(path.basename(canon)) === true;
  }

  private filesOf(dir: string): ReadonlySet<string> | null {
    const known = this.listings.get(dir);
    if (known !== undefined) {
      this.listings.delete(dir);
      this.listings.set(dir, known);
      return known;
    }
    if (this.listings.size >= TREE_WITNESS_DIRS)
      this.listings.delete(this.listings.keys().next().value as string);
    let files: Set<string> | null;
    try {
      files = new Set(listDirectory(dir, dir).flatMap((e) => (regularFile(e, dir) ? [e.name] : [])));
    } catch {
      files = null;
    }
    this.listings.set(dir, files);
    return files;
  }
}

/**
 * A listed entry is a regular file. Some filesystems report no types in readdir: lstat says then (by path; which
 * names are the directory's came from its listing, so a swap since can misjudge a type, never add a name).
 */
function regularFile(e: fs.Dirent, dir: string): boolean {
  if (e.isFile()) return true;
  if (e.isDirectory() || e.isSymbolicLink() || e.isFIFO() || e.isSocket()) return false;
  if (e.isBlockDevice() || e.isCharacterDevice()) return false;
  return fs.lstatSync(path.join(dir, e.name), { throwIfNoEntry: false })?.isFile() === true;
}

/** Directory listings a {@link TreeWitness} keeps (results of a parallel rg come a few directories at a time). */
const TREE_WITNESS_DIRS = 32;
