// trawl's data directory: where it is and how it is checked. Apart from server.ts so that a command that only keeps
// files there (`trawl grep`'s document text, `trawl index`) does not load the HTTP server to find it.
import * as path from 'node:path';
import { ensurePrivateDataDir, PrivateDirError } from '@trawl/core/content-index';

/**
 * The data directory cannot be made or used (a file in its place, no permission: `data_dir`), or is not this
 * account's alone (`data_dir_owner`, `data_dir_mode`, `data_dir_link`: util/private-dir.ts in core).
 */
export class DataDirError extends Error {
  constructor(
    message: string,
    readonly code: string = 'data_dir',
  ) {
    super(message);
    this.name = 'DataDirError';
  }
}

/** What went wrong with the data directory, as a DataDirError with its code. */
export function dataDirProblem(dataDir: string, err: unknown): DataDirError {
  if (err instanceof DataDirError) return err;
  if (err instanceof PrivateDirError)
    return new DataDirError(`cannot use the data directory: ${err.message} (${err.code})`, err.code);
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'EEXIST' || code === 'ENOTDIR'
      ? 'a file is in the way of a directory'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EROFS'
          ? 'read-only file system'
          : code === 'ENOSPC'
            ? 'no space left'
            : (code ?? (err as Error).message);
  return new DataDirError(`cannot use the data directory ${dataDir}: ${why}`);
}

/**
 * Makes or checks the data directory and the subdirectories named (util/private-dir.ts in core: this account's
 * alone, never a link); a DataDirError with its code otherwise.
 */
export function checkDataDir(dataDir: string, subdirs: readonly string[]): void {
  try {
    ensurePrivateDataDir(dataDir, subdirs);
  } catch (err) {
    throw dataDirProblem(dataDir, err);
  }
}

/** The default data directory: `$TRAWL_DATA_DIR`, else `$XDG_DATA_HOME/trawl`, else `~/.local/share/trawl`. */
export function defaultDataDir(env: Readonly<Record<string, string | undefined>>, home: string): string {
  if (env['TRAWL_DATA_DIR']) return path.resolve(env['TRAWL_DATA_DIR']);
  const xdg = env['XDG_DATA_HOME'];
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share'), 'trawl');
}
