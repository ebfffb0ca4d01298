import type { EngineChoice } from '@trawl/core/engine';
import type { CanonicalRoot } from '@trawl/core/fence';
import { Option } from 'commander';
import { MCP_TOOLS } from '../../mcp/tool-list.js';
import { version } from '../../version.js';
import { dataDirOf } from '../data-dir.js';
import { UsageError } from '../io.js';
import { untilStopped } from '../lifetime.js';
import type { RegisterCommand } from '../program.js';
import { cliHome, cliRoot } from '../root.js';

interface McpFlags {
  root: string[];
  allowOutside?: boolean;
  engine: EngineChoice;
  deadline?: number;
  index: boolean;
  dataDir?: string;
  redact: boolean;
}

/** `trawl mcp`: an MCP server on stdio. Protocol on stdout, logs on stderr. */
export const registerMcp: RegisterCommand = (program, io, setExit) => {
  program
    .command('mcp')
    .description(
      `Serve trawl tools over MCP on stdin/stdout (tools: ${MCP_TOOLS.map((t) => t.name).join(', ')}).`,
    )
    .version(
      version,
      '-V, --version',
      "print trawl's version (the version the server reports in its handshake)",
    )
    .option(
      '--root <dir>',
      'a directory the tools may read; repeat for several (the first is where relative paths resolve; default: the current directory)',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--allow-outside', 'let search read paths outside the roots (default: confined to them)')
    .addOption(
      new Option('--engine <engine>', 'which engine searches files')
        .choices(['auto', 'js', 'rg'])
        .default('auto'),
    )
    .option('--deadline <seconds>', 'per-call search deadline in seconds (default 30)', (v: string) => {
      const n = Number(v);
      if (v.trim() === '' || !Number.isFinite(n) || n <= 0) {
        throw new UsageError(`--deadline expects a positive number of seconds, got '${v}'`);
      }
      return n;
    })
    .option(
      '--data-dir <dir>',
      'where content indexes live (default: $TRAWL_DATA_DIR, else the data directory of trawl serve)',
    )
    .option(
      '--no-redact',
      'return credential-shaped values as the files hold them (by default every tool replaces them with [REDACTED: kind] and says how many)',
    )
    .option(
      '--no-index',
      'search without the content index (by default it is loaded or built in the background)',
    )
    .action(async (flags: McpFlags) => {
      const { createSensitiveFence } = await import('@trawl/core/fence');
      const indexDataDir = flags.index ? await dataDirOf(flags.dataDir, io) : undefined;
      // The roots judged by one fence, the index's data directory in it (the server keeps a live one of its own).
      const fence = createSensitiveFence({
        home: cliHome(io),
        env: io.env,
        ...(indexDataDir ? { extra: [indexDataDir] } : {}),
      });
      // Each root by the one root policy: a sensitive location (~/.ssh) or a non-directory is refused.
      const roots: CanonicalRoot[] = [];
      for (const typed of flags.root.length > 0 ? flags.root : ['.']) {
        const { root } = await cliRoot(typed, io, { fence, label: '--root' });
        if (!roots.includes(root)) roots.push(root);
      }
      // The MCP SDK takes a while to load; only this command needs it.
      const { serveMcpStdio } = await import('../../mcp/server.js');
      const lifetime = untilStopped();
      const stop = new AbortController();
      void lifetime.stopped.then((reason) => stop.abort(reason));
      await serveMcpStdio(
        {
          root: roots[0]!,
          roots,
          allowOutside: flags.allowOutside === true,
          engine: flags.engine,
          redact: flags.redact,
          ...(flags.deadline !== undefined ? { deadlineMs: flags.deadline * 1000 } : {}),
          ...(indexDataDir ? { indexDataDir } : {}),
        },
        (line) => io.stderr.write(`${line}\n`),
        stop.signal,
      );
      lifetime.dispose();
      setExit(0);
    });
};
