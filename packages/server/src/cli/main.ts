import { registerAudit } from './commands/audit.js';
import { registerComplete } from './commands/complete.js';
import { registerFind } from './commands/find.js';
import { registerGrep } from './commands/grep.js';
import { registerIndex } from './commands/index-cmd.js';
import { registerMcp } from './commands/mcp.js';
import { registerRg } from './commands/rg.js';
import { registerSearch } from './commands/search.js';
import { registerServe } from './commands/serve.js';
import { type CliIO, processIO } from './io.js';
import { type RegisterCommand, runCommands } from './program.js';

/**
 * The `trawl` command line. Each subcommand lives in `./commands/<name>.ts` and registers itself here;
 * `main` maps every caller mistake to one line on stderr and exit code 2.
 */
export function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  return runCommands(argv, io, commandRegistry);
}

const commandRegistry: RegisterCommand[] = [
  registerRg,
  registerFind,
  registerGrep,
  registerSearch,
  registerMcp,
  registerServe,
  registerComplete,
  registerAudit,
  registerIndex,
];
