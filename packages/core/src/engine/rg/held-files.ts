import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeError } from '../../util/errors.js';
import { descriptorPath, FENCED_LINK_MESSAGE, isFencedDescriptor } from '../../util/fs-safety.js';

/**
 * Named files handed to rg as descriptors. Given a path, rg opens it itself, later, through whatever the
 * directories on the way have become: one swapped for a link (`renameat2(RENAME_EXCHANGE)`) makes `d/key` read
 * `~/.ssh/key`, and no check of the path before or after rg ran can tell which file it read. So each named file is
 * opened here, judged by what was opened (its descriptor's real path, util/fs-safety.ts), and given to rg as an
 * inherited descriptor it reaches as `/dev/fd/N`: rg reads the very file that was judged.
 */

/** Where a child reaches its inherited descriptors; absent (Windows), named files go to rg as paths. */
const DEV_FD = '/dev/fd';
let devFd: boolean | undefined;

/** One rg run's named files: its argument for each root, the descriptors it inherits, their paths spelled back. */
export interface HeldFiles {
  /** The roots as rg is given them: a held file as `/dev/fd/N`, anything else as it was. */
  roots: string[];
  /** Descriptors for the child's stdio slots 3, 4, …, in order (slot 3 + i is `/dev/fd/${3 + i}`). */
  fds: number[];
  /** `/dev/fd/N` → the root's spelling, for rg's output and its error messages. */
  spelling: Map<string, string>;
  /**
   * Roots left out: excluded where they are (silently, as the walk leaves out an excluded root), unreadable, or
   * another name of a fenced file.
   */
  errors: Array<{ path: string; code: string; message: string }>;
  /** Closes this process's copies (the child has its own once it is spawned). */
  close(): void;
}

/** The first descriptor slot after stdin, stdout and stderr. */
const FIRST_SLOT = 3;

/**
 * Opens the roots in `named` (spellings of regular files, resolved against `cwd`) and judges each where it is:
 * `exclude` (canonical path → left out) is asked about the descriptor's real path, so a file reached through a
 * directory swapped for a link is judged as the store it is. Other roots pass through as spelled. Roots are
 * followed when they are links, as ripgrep follows them.
 */
export function holdNamedFiles(
  roots: readonly string[],
  named: ReadonlySet<string>,
  cwd: string,
  exclude: ((canonical: string) => boolean) | undefined,
  /** Identities of fenced files with other names: a root that is one is left out (SearchRequest.fencedIdentities). */
  fenced?: ReadonlySet<string>,
): HeldFiles {
  devFd ??= fs.existsSync(DEV_FD);
  const held: HeldFiles = { roots: [], fds: [], spelling: new Map(), errors: [], close };
  function close(): void {
    for (const fd of held.fds.splice(0)) fs.closeSync(fd);
  }
  for (const root of roots) {
    if (!devFd || !named.has(root)) {
      held.roots.push(root);
      continue;
    }
    const abs = path.resolve(cwd, root);
    let fd: number;
    try {
      fd = fs.openSync(abs, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
      held.errors.push({ path: root, code, message: describeError(err) });
      continue;
    }
    if (!fs.fstatSync(fd).isFile()) {
      // No longer a file (a directory now): rg walks it as it would have, and its results are judged as a walk's.
      fs.closeSync(fd);
      held.roots.push(root);
      continue;
    }
    const canon = descriptorPath(fd, realpathOr(abs));
    if (canon === null || exclude?.(canon)) {
      fs.closeSync(fd);
      if (canon === null)
        held.errors.push({ path: root, code: 'ESTALE', message: 'changed while it was opened' });
      continue;
    }
    if (isFencedDescriptor(fd, fenced)) {
      fs.closeSync(fd);
      held.errors.push({ path: root, code: 'EFENCED', message: FENCED_LINK_MESSAGE });
      continue;
    }
    const name = `${DEV_FD}/${FIRST_SLOT + held.fds.length}`;
    held.fds.push(fd);
    held.roots.push(name);
    held.spelling.set(name, root);
  }
  return held;
}

/** Where `abs` leads now: only consulted where no /proc names a descriptor (see descriptorPath). */
function realpathOr(abs: string): string {
  try {
    return fs.realpathSync.native(abs);
  } catch {
    return abs;
  }
}
