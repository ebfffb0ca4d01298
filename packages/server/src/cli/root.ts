import * as os from 'node:os';
import type { CanonicalRoot, SensitiveFence } from '@trawl/core/fence';
import { type CliIO, UsageError } from './io.js';

/**
 * A directory typed on the command line (`--root`, `trawl serve DIR`), resolved by the fence's one root policy;
 * a refusal is a one-line usage error (exit 2). Answers the canonical directory and the absolute spelling.
 */
export async function cliRoot(
  typed: string,
  io: CliIO,
  options: { fence?: SensitiveFence; label?: string } = {},
): Promise<{ root: CanonicalRoot; lexical: string }> {
  // Loaded on use: every command module imports this one, and `trawl --help` should load none of the engine.
  const { createSensitiveFence, resolveUserRoot } = await import('@trawl/core/fence');
  const home = cliHome(io);
  const fence = options.fence ?? createSensitiveFence({ home, env: io.env });
  const r = await resolveUserRoot(typed, { fence, home, cwd: io.cwd });
  if (r.ok) return { root: r.root, lexical: r.lexical };
  const label = options.label ? `${options.label}: ` : '';
  if (r.code === 'sensitive_path')
    throw new UsageError(`${label}access denied: ${typed} is a sensitive location`);
  throw new UsageError(`${label}${r.message}: ${typed}`);
}

/**
 * HOME as a command sees it: the environment's, else the account's — core's `homeDir` rule, kept here so that
 * `--help` and the commands' definitions load no layer of @trawl/core (test/cli-startup.test.ts).
 */
export function cliHome(io: Pick<CliIO, 'env'>): string {
  return io.env['HOME'] || os.homedir();
}
