import type { Command } from 'commander';
import type { RegisterCommand } from '../program.js';
import type { RgFlags } from './rg-flags.js';

/**
 * `trawl rg`: ripgrep's command line over trawl's engines. Its flags are parsed in rg-flags.ts, what they mean
 * together is decided in rg-arguments.ts, and rg-run.ts searches and prints — as ripgrep goes from low-level
 * arguments to high-level ones to the search.
 */
export const registerRg: RegisterCommand = (program, io, setExit) => {
  const cmd = program
    .command('rg')
    .description(
      "Search file contents, ripgrep-style (ripgrep's flags and output). Exit 0: matches, 1: none, 2: error.",
    )
    .argument('[pattern]', 'a regular expression (Rust regex syntax, as ripgrep) or, with -F, a literal')
    .argument('[paths...]', 'files or directories to search (default: the current directory)');
  // Its ~95 flags are built, and its modules loaded, only when `rg` is named (program.ts): `trawl --help` and
  // `trawl search` do not pay for them.
  return async () => {
    const [{ addRgFlags, spellingIn }, { runRg }] = await Promise.all([
      import('./rg-flags.js'),
      import('./rg-run.js'),
    ]);
    // Commander keeps the arguments it is parsing as `rawArgs` (set at the start of a parse; not in its types).
    const spelled = spellingIn(() => (program as Command & { rawArgs?: string[] }).rawArgs ?? []);
    const last = addRgFlags(cmd, spelled);
    cmd.action(async (pattern: string | undefined, paths: string[], flags: RgFlags) => {
      setExit(await runRg(pattern, paths, flags, last, io));
    });
  };
};
