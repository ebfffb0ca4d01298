import { Command, CommanderError } from 'commander';
import { version } from '../version.js';
import { registerAudit } from './commands/audit.js';
import { registerComplete } from './commands/complete.js';
import { registerFind } from './commands/find.js';
import { registerGrep } from './commands/grep.js';
import { registerIndex } from './commands/index-cmd.js';
import { registerMcp } from './commands/mcp.js';
import { registerRg } from './commands/rg.js';
import { registerSearch } from './commands/search.js';
import { registerServe } from './commands/serve.js';
import { type CliIO, processIO, UsageError } from './io.js';

/**
 * The `trawl` command line. Each subcommand lives in `./commands/<name>.ts` and registers itself here;
 * `main` maps every caller mistake to one line on stderr and exit code 2.
 */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  let exitCode = 0;
  const program = new Command('trawl')
    .description('File search for AI coding agents and the dashboards around them.')
    .version(version, '-V, --version')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: () => {},
    });

  const setExit = (code: number) => {
    exitCode = code;
  };
  for (const register of commandRegistry) register(program, io, setExit);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    return reportError(err, io);
  }
  return exitCode;
}

/** A subcommand's registration: it adds itself to `program` and reports its exit code through `setExit`. */
export type RegisterCommand = (program: Command, io: CliIO, setExit: (code: number) => void) => void;

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

function reportError(err: unknown, io: CliIO): number {
  if (err instanceof CommanderError) {
    // --help and --version are "errors" to commander; they are successes to the user.
    if (
      err.code === 'commander.helpDisplayed' ||
      err.code === 'commander.version' ||
      err.code === 'commander.help'
    ) {
      return 0;
    }
    io.stderr.write(`trawl: ${err.message.replace(/^error: /, '')}\n`);
    return 2;
  }
  if (err instanceof UsageError) {
    io.stderr.write(`${err.program}: ${err.message}\n`);
    return 2;
  }
  const message = err instanceof Error ? err.message : String(err);
  io.stderr.write(`trawl: internal error: ${message}\n`);
  return 2;
}
