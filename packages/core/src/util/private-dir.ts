import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The data directory (indexes, conversations, the audit log and its key) is trusted only when it is this
 * account's alone: owned by the current user, not writable by group or others, and its subdirectories real
 * directories, never links. Anyone else able to write there could plant a link (`conversations -> elsewhere`)
 * or a file for us to read as our own. Checked when a process starts using it; once it checks out, only this
 * account can change it. Windows has no such modes: the checks are POSIX-only.
 */

/** Why a data directory is refused. */
export type PrivateDirCode = 'data_dir_owner' | 'data_dir_mode' | 'data_dir_link';

/** The data directory (or one of its subdirectories) is not safe to use; the message says how to fix it. */
export class PrivateDirError extends Error {
  constructor(
    message: string,
    readonly code: PrivateDirCode,
  ) {
    super(message);
    this.name = 'PrivateDirError';
  }
}

export interface PrivateDirOptions {
  /** The account that must own it (default: this process's). */
  uid?: number;
  platform?: NodeJS.Platform;
}

/**
 * Makes the data directory (mode 0700, parents included) or checks the existing one: a directory (a link to
 * one is allowed: the operator chose where it lives), owned by `uid`, not group- or world-writable. Throws
 * PrivateDirError when it is not; other failures (ENOTDIR, EACCES) as they come.
 */
export function ensurePrivateDir(dir: string, options: PrivateDirOptions = {}): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dir);
  if (!st.isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
  judge(dir, st, options);
}

/**
 * `<dataDir>/<names…>`, each component below the data directory made (0700) or checked with lstat: a link or
 * anything but a directory is refused (`data_dir_link`), as is one owned by another account or writable by
 * others. The data directory itself is checked by `ensurePrivateDir`. Returns the path.
 */
export function privateSubdir(
  dataDir: string,
  names: readonly string[],
  options: PrivateDirOptions = {},
): string {
  let at = dataDir;
  for (const name of names) {
    at = path.join(at, name);
    let st = fs.lstatSync(at, { throwIfNoEntry: false });
    if (!st) {
      try {
        fs.mkdirSync(at, { mode: 0o700 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      st = fs.lstatSync(at);
    }
    if (st.isSymbolicLink() || !st.isDirectory())
      throw new PrivateDirError(
        `${at} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}: the data directory's subdirectories are never followed; remove it`,
        'data_dir_link',
      );
    judge(at, st, options);
  }
  return at;
}

/**
 * Makes or checks a data directory ({@link ensurePrivateDir}) and each subdirectory of it named, one level below it
 * ({@link privateSubdir}): this account's alone, none of the subdirectories a link. Throws PrivateDirError when one
 * is not; other failures (EACCES, ENOTDIR) as they come.
 */
export function ensurePrivateDataDir(dataDir: string, subdirs: readonly string[] = []): void {
  ensurePrivateDir(dataDir);
  for (const sub of subdirs) privateSubdir(dataDir, [sub]);
}

function judge(dir: string, st: fs.Stats, options: PrivateDirOptions): void {
  if ((options.platform ?? process.platform) === 'win32') return;
  const uid = options.uid ?? process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw new PrivateDirError(
      `${dir} belongs to another account (uid ${st.uid}, this is ${uid}): use a data directory of your own (--data-dir)`,
      'data_dir_owner',
    );
  if ((st.mode & 0o022) !== 0)
    throw new PrivateDirError(
      `${dir} is writable by other accounts (mode ${(st.mode & 0o777).toString(8)}); run: chmod 700 ${dir}`,
      'data_dir_mode',
    );
}
