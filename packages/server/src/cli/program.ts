import { Command, CommanderError } from 'commander';
import { version } from '../version.js';
import { type CliIO, UsageError } from './io.js';

/**
 * The program with only the given commands registered: `trawl rg`'s own process entry (cli/rg-process.ts,
 * chosen by bin/trawl.js) loads only its own module, not every other command's.
 */
export async function runCommands(argv: string[], io: CliIO, commands: RegisterCommand[]): Promise<number> {
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
  for (const register of commands) register(program, io, setExit);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    return reportError(err, io);
  }
  return exitCode;
}

/** A subcommand's registration: it adds itself to `program` and reports its exit code through `setExit`. */
export type RegisterCommand = (program: Command, io: CliIO, setExit: (code: number) => void) => void;

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
