import type { EngineChoice } from '@trawl/core/engine';
import type { OutputFormat, SearchToolResult } from '@trawl/core/tool';
import { Option } from 'commander';
import { UsageError, write } from '../io.js';
import type { RegisterCommand } from '../program.js';
import { forTerminal } from '../visible.js';

interface SearchFlags {
  ignoreCase?: boolean;
  gitignore: boolean;
  hidden: boolean;
  skip?: string;
  context?: string;
  before?: string;
  after?: string;
  output?: string;
  filesWithMatches?: boolean;
  count?: boolean;
  perFile?: string;
  exclude?: string[];
  type?: string[];
  wordRegexp?: boolean;
  fixedStrings?: boolean;
  multiline?: boolean;
  limit?: string;
  format: OutputFormat | 'json';
  engine: EngineChoice;
  deadline?: number;
  redact?: boolean;
}

/**
 * `trawl search`: the agent search tool on the command line. Prints exactly the tool's text (or, with
 * `--format json`, `{"text","details"}`); a refused call is one line on stderr and exit code 2.
 */
export const registerSearch: RegisterCommand = (program, io, setExit) => {
  program
    .command('search')
    .description('Search file contents the way the agent tool does: grouped, paged, every cap stated.')
    .argument(
      '<pattern>',
      'a regular expression (Rust syntax, as ripgrep); a newline or \\n lets matches span lines',
    )
    .argument(
      '[paths...]',
      'files, directories, globs, archive members (a.zip:x.ts) or docs:// URLs; ranges as f.ts:10-20 (default: .)',
    )
    .option('-i, --ignore-case', 'match case-insensitively')
    .option('--no-gitignore', 'do not respect .gitignore and .ignore files')
    .option('--skip <n>', 'files to skip: the next page of a multi-file result')
    .option(
      '-C, --context <n>',
      'context lines before and after each match, 0-10 (default 1 before, 3 after)',
    )
    .option('-B, --before <n>', 'context lines before each match, 0-10')
    .option('-A, --after <n>', 'context lines after each match, 0-10')
    .option(
      '--output <mode>',
      'content (lines, default), files (names only) or count (matching lines per file)',
    )
    .option('-l, --files-with-matches', 'names only: the same as --output files')
    .option('-c, --count', 'matching lines per file and the total: the same as --output count')
    .option('--per-file <n>', 'matching lines shown per file, 1-200 (default 20; 200 for one file)')
    .option('--exclude <glob...>', 'leave out what these globs match (the same as !glob in paths)')
    .option('--no-hidden', 'leave out dot files and directories')
    .option(
      '-t, --type <type>',
      "only files of this type of ripgrep's table (ts, py; !test excludes); repeat for several",
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .option('-w, --word-regexp', 'whole words only')
    .option('-F, --fixed-strings', 'the pattern is a literal string')
    .option('-U, --multiline', 'matches may span lines ((?s) lets . match a newline)')
    .option('--limit <n>', 'files a page, 1-100 (default 20 with lines, 100 for names or counts)')
    .addOption(
      new Option('--format <format>', 'output format')
        .choices(['hashline', 'plain', 'json'])
        .default('hashline'),
    )
    .addOption(
      new Option('--engine <engine>', 'which engine searches files')
        .choices(['auto', 'js', 'rg'])
        .default('auto'),
    )
    .option('--deadline <seconds>', 'stop after SECONDS and say so (default 30)', parseSeconds)
    .option(
      '--redact',
      'replace credential-shaped values with [REDACTED: kind] and say how many (as trawl mcp does)',
    )
    .action(async (pattern: string, paths: string[], flags: SearchFlags) => {
      const args = {
        pattern,
        paths: paths.length > 0 ? paths : ['.'],
        i: flags.ignoreCase ?? false,
        gitignore: flags.gitignore,
        hidden: flags.hidden,
        ...(flags.skip !== undefined ? { skip: flags.skip } : {}),
        // Given as typed: the tool checks each and words the error (the same codes as MCP's).
        ...(flags.context !== undefined ? { context: flags.context } : {}),
        ...(flags.before !== undefined ? { before: flags.before } : {}),
        ...(flags.after !== undefined ? { after: flags.after } : {}),
        ...(flags.perFile !== undefined ? { perFile: flags.perFile } : {}),
        ...(flags.exclude ? { exclude: flags.exclude } : {}),
        ...(flags.type ? { type: flags.type } : {}),
        ...(flags.wordRegexp ? { word: true } : {}),
        ...(flags.fixedStrings ? { literal: true } : {}),
        ...(flags.multiline ? { multiline: true } : {}),
        ...(flags.limit !== undefined ? { limit: flags.limit } : {}),
        ...outputOf(flags),
      };
      // Loaded when the command runs: `trawl --help` and the other commands never pay for the tool.
      const { SearchToolError, searchTool } = await import('@trawl/core/tool');
      let result: SearchToolResult;
      try {
        result = await searchTool(args, {
          cwd: io.cwd,
          format: flags.format === 'json' ? 'hashline' : flags.format,
          engine: flags.engine,
          // This process answers once: no worker is warmed for a next call that never comes.
          oneShot: true,
          ...(flags.redact ? { redact: true } : {}),
          ...(flags.deadline !== undefined ? { deadlineMs: flags.deadline * 1000 } : {}),
        });
      } catch (err) {
        if (err instanceof SearchToolError) throw new UsageError(err.message, err.code);
        throw err;
      }
      const out =
        flags.format === 'json'
          ? JSON.stringify({ text: result.text, details: result.details })
          : forTerminal(io.stdout, result.text);
      await write(io.stdout, `${out}\n`);
      setExit(0);
    });
};

function outputOf(flags: SearchFlags): { output?: string } {
  const asked = [
    ...(flags.output !== undefined ? [flags.output] : []),
    ...(flags.filesWithMatches ? ['files'] : []),
    ...(flags.count ? ['count'] : []),
  ];
  if (new Set(asked).size > 1) {
    throw new UsageError(`choose one output: ${asked.join(', ')} were asked for`);
  }
  return asked.length > 0 ? { output: asked[0]! } : {};
}

function parseSeconds(v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(`--deadline expects a positive number of seconds, got '${v}'`);
  }
  return n;
}
