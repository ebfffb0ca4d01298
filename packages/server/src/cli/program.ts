import { Command, CommanderError, Help } from 'commander';
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
  const pending = new Map<Command, CompleteCommand>();
  for (const register of commands) {
    const complete = register(program, io, setExit);
    if (complete) pending.set(program.commands.at(-1)!, complete);
  }
  // A command with many flags is completed only when the arguments name it (it runs, or `help NAME` shows it):
  // `trawl --help` and the other commands do not build its flags. Matching the name anywhere in argv may complete
  // one needlessly (a pattern spelled like it), never too late.
  for (const [cmd, complete] of pending) {
    if (!argv.includes(cmd.name())) continue;
    await complete();
    pending.delete(cmd);
  }
  if (pending.size > 0) {
    program.configureHelp({
      // The listing says a command has options ("NAME [options] ARGS") from its flags, not yet built here.
      subcommandTerm(cmd: Command) {
        const term = Help.prototype.subcommandTerm.call(this, cmd);
        return pending.has(cmd) ? term.replace(cmd.name(), `${cmd.name()} [options]`) : term;
      },
    });
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    return reportError(err, io);
  }
  return exitCode;
}

/**
 * A subcommand's registration: it adds itself to `program` and reports its exit code through `setExit`. One with
 * many flags may add only its name, arguments and description (what the program's help lists) and return the
 * rest, which runCommands calls before parsing arguments that name the command.
 */
export type RegisterCommand = (
  program: Command,
  io: CliIO,
  setExit: (code: number) => void,
) => undefined | CompleteCommand;

/**
 * The rest of a subcommand's registration (its flags and action), deferred until the command is named; it may
 * load the modules it needs first.
 */
export type CompleteCommand = () => void | Promise<void>;

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
