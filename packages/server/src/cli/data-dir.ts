import * as path from 'node:path';
import type { CliIO } from './io.js';
import { cliHome } from './root.js';

/** `--data-dir`, else the data directory `trawl serve` uses (its module loads only when needed: start-up time). */
export async function dataDirOf(flag: string | undefined, io: CliIO): Promise<string> {
  if (flag) return path.resolve(io.cwd, flag);
  const { defaultDataDir } = await import('../http/server.js');
  return defaultDataDir(io.env, cliHome(io));
}
