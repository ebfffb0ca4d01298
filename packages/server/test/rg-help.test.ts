/**
 * `trawl rg --help` names every flag the command accepts: an old spelling kept working without a line of its own
 * (ripgrep's --maxdepth, --sort-files; this command's --timeout) is named in the description of the flag it spells.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerRg } from '../src/cli/commands/rg.js';
import type { CliIO } from '../src/cli/io.js';

describe('trawl rg --help', () => {
  it('names every accepted flag, the hidden spellings included', async () => {
    const program = new Command('trawl');
    const io = { cwd: '/', env: {} } as unknown as CliIO;
    await registerRg(program, io, () => {})?.();
    const rg = program.commands.find((c) => c.name() === 'rg')!;
    const help = rg.helpInformation();
    const hidden = rg.options.filter((o) => o.hidden);
    expect(hidden.map((o) => o.long).sort()).toEqual([
      '--maxdepth',
      '--no-sort-files',
      '--sort-files',
      '--timeout',
    ]);
    for (const o of rg.options) expect(help, o.long).toContain(o.long!);
  });
});
