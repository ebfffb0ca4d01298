import * as path from 'node:path';
import { type CliIO, UsageError } from './io.js';
import { cliHome } from './root.js';

/**
 * `--data-dir`, else the data directory `trawl serve` uses (its module loads only when needed: start-up time),
 * made or checked to be this account's alone with a real `content-index/` below it: a coded one-line error
 * otherwise (`data_dir_owner`, `data_dir_mode`, `data_dir_link`, `data_dir`).
 */
export async function dataDirOf(flag: string | undefined, io: CliIO): Promise<string> {
  const { dir, problem } = await dataDirChecked(flag, io);
  if (problem) throw problem;
  return dir;
}

/** As {@link dataDirOf}, the refusal handed back beside the directory (a command that can do without it goes on). */
export async function dataDirChecked(
  flag: string | undefined,
  io: CliIO,
): Promise<{ dir: string; problem?: UsageError }> {
  const { checkDataDir, DataDirError, defaultDataDir } = await import('../http/data-dir.js');
  const dir = flag ? path.resolve(io.cwd, flag) : defaultDataDir(io.env, cliHome(io));
  try {
    checkDataDir(dir, ['content-index']);
  } catch (err) {
    if (err instanceof DataDirError) return { dir, problem: new UsageError(err.message, err.code) };
    throw err;
  }
  return { dir };
}
