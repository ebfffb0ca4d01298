import { UsageError, write } from '../io.js';
import type { RegisterCommand } from '../program.js';
import { cliHome, cliRoot } from '../root.js';
import { forTerminal } from '../visible.js';

interface CompleteFlags {
  root?: string;
  json?: boolean;
}

/**
 * `trawl complete TOKEN [--root DIR] [--json]`: one directory level for a `./` token, with /api/path-complete's
 * semantics (lexical containment in the root, no link ever followed or offered, sensitive entries skipped).
 * Plain output is one completed token per line (directories end with `/`), ready for a shell's completion.
 */
export const registerComplete: RegisterCommand = (program, io, setExit) => {
  program
    .command('complete')
    .description('List completions for a ./ path token inside a project directory (one level, no links).')
    .argument('<token>', 'what has been typed: ./src/ap, ../proj/, .\\a\\ (both separators work)')
    .option('--root <dir>', 'the project directory (default: the current directory)')
    .option('--json', 'print {"results": [{path, name, kind, size, mtime}], "root"} (+ "outside": true)')
    .action(async (token: string, flags: CompleteFlags) => {
      // Loaded when the command runs: `trawl --help` and the other commands never pay for them.
      const [{ listCompletion, splitCompletionToken }, { createSensitiveFence }] = await Promise.all([
        import('@trawl/core/complete'),
        import('@trawl/core/fence'),
      ]);
      const home = cliHome(io);
      const fence = createSensitiveFence({ home, env: io.env });
      const { root } = await cliRoot(flags.root ?? '.', io, { fence });
      if (token.includes('\0')) throw new UsageError('the token contains a NUL byte');
      const { dir, q } = splitCompletionToken(token);
      const o = listCompletion({ project: root, dir, q, fence, home });
      if (o.status === 'sensitive')
        throw new UsageError(`access denied: ${dir || '.'} is a sensitive location`);
      if (flags.json) {
        const body =
          o.status === 'outside'
            ? { results: [], root: '', outside: true }
            : { results: o.status === 'ok' ? o.rows : [], root: o.root };
        await write(io.stdout, `${JSON.stringify(body)}\n`);
      } else {
        await write(
          io.stdout,
          forTerminal(
            io.stdout,
            o.rows.map((r) => `${dir}${r.name}${r.kind === 'dir' ? '/' : ''}\n`).join(''),
          ),
        );
        if (o.status === 'outside') io.stderr.write(`trawl: ${dir} leads outside ${o.root}\n`);
        else if (o.status === 'refused')
          io.stderr.write(`trawl: ${dir} is not a real directory (${o.detail})\n`);
      }
      setExit(0);
    });
};
