import type { NameResult } from '@trawl/core/names';
// The limits alone at registration; the name search is loaded when the command runs (`trawl --help` is fast).
import { NAME_LIMITS } from '@trawl/core/names/limits';
import { write } from '../io.js';
import type { RegisterCommand } from '../program.js';
import { cliHome, cliRoot } from '../root.js';
import { fieldForTerminal } from '../visible.js';

interface FindFlags {
  root?: string;
  kinds?: string;
  limit?: string;
  json?: boolean;
}

/** A progress line appears only when the build is slow enough to notice. */
const PROGRESS_AFTER_MS = 250;

/**
 * `trawl find QUERY [--root DIR] [--kinds all|files|dirs] [--limit N] [--json]`: name search with the semantics of
 * `/api/file-search` scoped to one root — the index when the root fits under the entry cap, else the budgeted walk.
 */
export const registerFind: RegisterCommand = (program, io, setExit) => {
  program
    .command('find')
    .description(
      'Find files and directories by name, ranked as the @-picker ranks them. Exit 0 even with no match.',
    )
    .argument(
      '<query>',
      `what to look for (at least ${NAME_LIMITS.minQueryChars} characters; a / scores against the path)`,
    )
    .option('--root <dir>', 'directory to search (default: the current directory)')
    .option('--kinds <kinds>', 'all, files or dirs (anything else is all)', 'all')
    .option('--limit <n>', 'how many results (default 15, clamped to 1..60; not an integer: 15)')
    .option('--json', 'print {"results": [{path, name, kind, size, mtime}], "root"}')
    .action(async (query: string, flags: FindFlags) => {
      setExit(await runFind(query, flags, io));
    });
};

async function runFind(query: string, flags: FindFlags, io: Parameters<RegisterCommand>[1]): Promise<number> {
  // Subpath imports: the name-search half of core only.
  const [{ createSensitiveFence }, { FileIndex, searchNames }] = await Promise.all([
    import('@trawl/core/fence'),
    import('@trawl/core/names'),
  ]);
  const home = cliHome(io);
  const fence = createSensitiveFence({ home, env: io.env });
  const { root } = await cliRoot(flags.root ?? '.', io, { fence });

  if (query.trim().length < NAME_LIMITS.minQueryChars) {
    if (flags.json) await write(io.stdout, `${JSON.stringify({ results: [] })}\n`);
    return 0;
  }

  const progress = progressLine(io);
  const index = new FileIndex(root, {
    fence,
    home,
    watch: false,
    pollMs: 0,
    fullRebuildMs: 0,
    onProgress: (p) => progress.update(p.entries),
  });
  try {
    await index.start();
  } finally {
    progress.done();
    index.stop();
  }
  const answer = await searchNames({
    query,
    roots: [root],
    scoped: true,
    limit: flags.limit,
    kinds: flags.kinds,
    index,
    fence,
  });
  if (flags.json) {
    await write(io.stdout, `${JSON.stringify({ results: answer.results, root: answer.root ?? root })}\n`);
  } else {
    await write(io.stdout, answer.results.map((r) => plainRow(r, io.stdout)).join(''));
  }
  return 0;
}

/** One path a line; on a terminal a name's controls, newlines included (a forged row), shown as escapes. */
function plainRow(r: NameResult, stdout: { isTTY?: boolean }): string {
  return `${fieldForTerminal(stdout, r.path)}${r.kind === 'dir' ? '/' : ''}\n`;
}

function progressLine(io: Parameters<RegisterCommand>[1]): { update(entries: number): void; done(): void } {
  const started = performance.now();
  let shown = false;
  return {
    update(entries) {
      if (!io.stderr.isTTY || performance.now() - started < PROGRESS_AFTER_MS) return;
      shown = true;
      io.stderr.write(`\rtrawl: indexing… ${entries.toLocaleString('en-US')} entries`);
    },
    done() {
      if (shown) io.stderr.write('\r\x1b[2K');
    },
  };
}
