import * as fs from 'node:fs';
import * as path from 'node:path';

/** An open directory: the descriptor (or -1 where the platform cannot open directories) and the name it was reached by. */
export interface OpenDir {
  readonly fd: number;
  /** The path this directory was reached by, built from the canonical root and the components walked. */
  readonly reachedAs: string;
}

/** A directory entry as the scan sees it (`fs.Dirent` satisfies it). */
export interface CompletionDirent {
  readonly name: string;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** A directory being read, an entry at a time (`fs.Dir` satisfies it). */
export interface CompletionDirReader {
  readSync(): CompletionDirent | null;
  closeSync(): void;
}

/** What the scan needs of an entry's own (not followed) metadata (`fs.Stats` satisfies it). */
export interface CompletionStat {
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  readonly size: number;
  readonly mtimeMs: number;
}

/**
 * How the completion walk reaches a directory without ever following a link. A seam: tests replace single steps to
 * plant races and unreadable descriptors.
 */
export interface DirOpener {
  /** `proc-fd`: race-free (Linux); `path`: race-narrowing fallback; `unavailable`: refuses everything. */
  readonly kind: 'proc-fd' | 'path' | 'unavailable';
  /** Opens the canonical root itself (it must not be a link). */
  openRoot(root: string): OpenDir;
  /** Opens one child component of `parent` without following it if it is a link; throws an errno error. */
  openChild(parent: OpenDir, name: string): OpenDir;
  /** The kernel's name for the open directory, or `null` when it cannot be witnessed (the walk then fails closed). */
  witness(dir: OpenDir): string | null;
  /** Reads the open directory (never by re-resolving a caller-influenced path where the platform allows). */
  readdir(dir: OpenDir): CompletionDirReader;
  /** An entry's own metadata (links are not followed). */
  lstatChild(dir: OpenDir, name: string): CompletionStat;
  /**
   * Opens a regular file that is a child of `parent` for reading, never following a link at `name` (the parent was
   * reached without following any); throws an errno error (`ELOOP` for a link). Returns the descriptor.
   */
  openFile(parent: OpenDir, name: string): number;
  /** What a refused component is, for the audit line: `symlink`, `file`, `fifo`, … (never throws). */
  describeChild(parent: OpenDir, name: string): string;
  close(dir: OpenDir): void;
}

/** Node's `fs.constants` lacks O_PATH; directories are opened for reading instead (works for listing too). */
const C = fs.constants;
const DIR_FLAGS = C.O_RDONLY | (C.O_DIRECTORY ?? 0) | (C.O_NONBLOCK ?? 0);
const NOFOLLOW_DIR_FLAGS = DIR_FLAGS | (C.O_NOFOLLOW ?? 0);
/** O_NONBLOCK: a FIFO planted under the name must not block the open (it is then refused as not a file). */
const NOFOLLOW_FILE_FLAGS = C.O_RDONLY | (C.O_NOFOLLOW ?? 0) | (C.O_NONBLOCK ?? 0);

/** A component name that cannot be handed to an `…/<name>` open: empty, `.`, `..`, a separator or a NUL. */
function badComponent(name: string): boolean {
  return (
    name === '' ||
    name === '.' ||
    name === '..' ||
    name.includes('/') ||
    name.includes('\\') ||
    name.includes('\0')
  );
}

function errno(code: string, message: string): NodeJS.ErrnoException {
  const err = new Error(`${code}: ${message}`) as NodeJS.ErrnoException;
  err.code = code;
  return err;
}

function typeOf(st: fs.Stats): string {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isDirectory()) return 'directory';
  if (st.isFile()) return 'file';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device';
  return 'other';
}

const DELETED_SUFFIX = ' (deleted)';

/**
 * Linux: `openat(dirfd, name, O_DIRECTORY|O_NOFOLLOW)` emulated through `/proc/self/fd/<dirfd>/<name>`
 * (decision 7 of docs/architecture.md). The kernel follows the magic link to the open directory object, not to a
 * path, and applies O_NOFOLLOW to `name` alone, so a component swapped for a link after it was checked is
 * refused, and a directory renamed while it is held is still the one read. The witness is `readlink(/proc/self/fd/<fd>)`: the kernel's own name for
 * the descriptor; an unreadable one, or one the kernel marks deleted, is no witness (fail closed).
 */
export function procFdOpener(procFd = '/proc/self/fd'): DirOpener {
  const at = (dir: OpenDir, name?: string) =>
    name === undefined ? `${procFd}/${dir.fd}` : `${procFd}/${dir.fd}/${name}`;
  return {
    kind: 'proc-fd',
    openRoot(root) {
      return { fd: fs.openSync(root, NOFOLLOW_DIR_FLAGS), reachedAs: root };
    },
    openChild(parent, name) {
      if (badComponent(name)) throw errno('EINVAL', 'not a single path component');
      const fd = fs.openSync(at(parent, name), NOFOLLOW_DIR_FLAGS);
      return { fd, reachedAs: path.join(parent.reachedAs, name) };
    },
    witness(dir) {
      let name: string;
      try {
        name = fs.readlinkSync(at(dir));
      } catch {
        return null;
      }
      if (!path.isAbsolute(name)) return null;
      // A directory removed while held reads as "<path> (deleted)"; a directory may also be named that way. Only the
      // name we reached it by can settle which, so anything else ending that way is no witness.
      if (name.endsWith(DELETED_SUFFIX) && name !== dir.reachedAs) return null;
      return name;
    },
    readdir(dir) {
      return fs.opendirSync(at(dir), { bufferSize: 128 });
    },
    lstatChild(dir, name) {
      if (badComponent(name)) throw errno('EINVAL', 'not a single path component');
      return fs.lstatSync(at(dir, name));
    },
    openFile(parent, name) {
      if (badComponent(name)) throw errno('EINVAL', 'not a single path component');
      return fs.openSync(at(parent, name), NOFOLLOW_FILE_FLAGS);
    },
    describeChild(parent, name) {
      if (badComponent(name)) return 'invalid';
      try {
        return typeOf(fs.lstatSync(at(parent, name)));
      } catch (err) {
        return (err as NodeJS.ErrnoException).code ?? 'error';
      }
    },
    close(dir) {
      if (dir.fd >= 0) fs.closeSync(dir.fd);
    },
  };
}

/**
 * The race-narrowing fallback for platforms without a way to open a name relative to a descriptor from Node
 * (macOS, the BSDs, Windows): each component is `lstat`ed (a link or a non-directory is refused), opened with
 * O_NOFOLLOW where directories can be opened, and the descriptor's `dev:ino` must equal the `lstat`'s. A swap
 * between those steps at an ANCESTOR component is not caught by the open (O_NOFOLLOW guards the last component
 * only), which is why this is race-narrowing and not race-free. The witness is the path the walk built, confirmed
 * by a fresh `lstat` with the same identity.
 */
export function pathOpener(): DirOpener {
  const canOpenDirs = C.O_DIRECTORY !== undefined;
  const identity = new Map<number, { dev: number; ino: number }>();
  let pseudo = -2;
  const openChecked = (p: string): OpenDir => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) throw errno('ELOOP', 'a link');
    if (!st.isDirectory()) throw errno('ENOTDIR', 'not a directory');
    if (!canOpenDirs) {
      const fd = pseudo--;
      identity.set(fd, { dev: st.dev, ino: st.ino });
      return { fd, reachedAs: p };
    }
    const fd = fs.openSync(p, NOFOLLOW_DIR_FLAGS);
    const held = fs.fstatSync(fd);
    if (held.dev !== st.dev || held.ino !== st.ino) {
      fs.closeSync(fd);
      throw errno('ESTALE', 'the directory changed while it was opened');
    }
    identity.set(fd, { dev: st.dev, ino: st.ino });
    return { fd, reachedAs: p };
  };
  return {
    kind: 'path',
    openRoot: (root) => openChecked(root),
    openChild(parent, name) {
      if (badComponent(name)) throw errno('EINVAL', 'not a single path component');
      return openChecked(path.join(parent.reachedAs, name));
    },
    witness(dir) {
      const id = identity.get(dir.fd);
      if (!id) return null;
      try {
        const st = fs.lstatSync(dir.reachedAs);
        if (st.isSymbolicLink() || st.dev !== id.dev || st.ino !== id.ino) return null;
      } catch {
        return null;
      }
      return dir.reachedAs;
    },
    readdir: (dir) => fs.opendirSync(dir.reachedAs, { bufferSize: 128 }),
    lstatChild(dir, name) {
      if (badComponent(name)) throw errno('EINVAL', 'not a single path component');
      return fs.lstatSync(path.join(dir.reachedAs, name));
    },
    openFile(parent, name) {
      if (badComponent(name)) throw errno('EINVAL', 'not a single path component');
      const p = path.join(parent.reachedAs, name);
      const st = fs.lstatSync(p);
      if (st.isSymbolicLink()) throw errno('ELOOP', 'a link');
      const fd = fs.openSync(p, NOFOLLOW_FILE_FLAGS);
      const held = fs.fstatSync(fd);
      if (held.dev !== st.dev || held.ino !== st.ino) {
        fs.closeSync(fd);
        throw errno('ESTALE', 'the file changed while it was opened');
      }
      return fd;
    },
    describeChild(parent, name) {
      if (badComponent(name)) return 'invalid';
      try {
        return typeOf(fs.lstatSync(path.join(parent.reachedAs, name)));
      } catch (err) {
        return (err as NodeJS.ErrnoException).code ?? 'error';
      }
    },
    close(dir) {
      identity.delete(dir.fd);
      if (dir.fd >= 0) fs.closeSync(dir.fd);
    },
  };
}

/** Refuses every walk: Linux without a usable `/proc` (decision 7: fail closed where nothing can witness the descriptor). */
export function unavailableOpener(reason: string): DirOpener {
  const refuse = (): never => {
    throw errno('EOPNOTSUPP', reason);
  };
  return {
    kind: 'unavailable',
    openRoot: refuse,
    openChild: refuse,
    witness: () => null,
    readdir: refuse,
    lstatChild: refuse,
    openFile: refuse,
    describeChild: () => 'unavailable',
    close: () => {},
  };
}

/**
 * The opener for this platform: `/proc/self/fd` on Linux when it works (self-tested once: a descriptor opened on
 * `/` must read back as `/`), refusing everything on a Linux whose `/proc` does not (fail closed), and the
 * race-narrowing fallback elsewhere.
 */
export function platformDirOpener(platform: string = process.platform): DirOpener {
  if (platform !== 'linux') return pathOpener();
  cachedLinux ??= linuxOpener();
  return cachedLinux;
}

let cachedLinux: DirOpener | undefined;

function linuxOpener(): DirOpener {
  let fd = -1;
  try {
    fd = fs.openSync('/', DIR_FLAGS);
    if (fs.readlinkSync(`/proc/self/fd/${fd}`) !== '/') throw new Error('descriptor does not read back');
    return procFdOpener();
  } catch (err) {
    return unavailableOpener(`/proc/self/fd is not usable: ${(err as Error).message}`);
  } finally {
    if (fd >= 0) fs.closeSync(fd);
  }
}
