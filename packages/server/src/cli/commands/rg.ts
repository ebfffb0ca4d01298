import type { SearchRequest, SearchSummary } from '@trawl/core/engine';
import { Option } from 'commander';
import { UsageError, write } from '../io.js';
import type { RegisterCommand } from '../main.js';
import { RgPrinter } from '../rg-printer.js';

interface RgFlags {
  engine: 'auto' | 'js' | 'rg';
  json?: boolean;
  ignoreCase?: boolean;
  fixedStrings?: boolean;
  multiline?: boolean;
  wordRegexp?: boolean;
  afterContext?: number;
  beforeContext?: number;
  context?: number;
  maxCount?: number;
  filesWithMatches?: boolean;
  count?: boolean;
  hidden?: boolean;
  ignore: boolean;
  requireGit: boolean;
  glob: string[];
  globCaseInsensitive?: boolean;
  maxFilesize?: number;
  maxColumns?: number;
  lineNumber?: boolean;
  heading?: boolean;
  withFilename?: boolean;
  filename: boolean;
  threads?: number;
  timeout?: number;
  rgPath?: string;
}

const count = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v)) throw new UsageError(`${name} expects a non-negative integer, got '${v}'`);
  return Number(v);
};

/** ripgrep's size syntax: a number with an optional K, M or G suffix. */
export function parseSize(v: string): number {
  const m = /^(\d+)([KMG])?$/i.exec(v.trim());
  if (!m) throw new UsageError(`--max-filesize expects a size like 512K, 2M or 1G, got '${v}'`);
  const unit = { K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(m[2] ?? '').toUpperCase() as 'K' | 'M' | 'G'] ?? 1;
  return Number(m[1]) * unit;
}

export const registerRg: RegisterCommand = (program, io, setExit) => {
  program
    .command('rg')
    .description(
      'Search file contents, ripgrep-style (a compatible subset of rg). Exit 0: matches, 1: none, 2: error.',
    )
    .argument('<pattern>', 'a regular expression (Rust regex syntax, as ripgrep) or, with -F, a literal')
    .argument('[paths...]', 'files or directories to search (default: the current directory)')
    .addOption(
      new Option('--engine <engine>', 'which engine searches').choices(['auto', 'js', 'rg']).default('auto'),
    )
    .option('--json', 'print results as JSON Lines, the schema of rg --json')
    .option('-i, --ignore-case', 'match case-insensitively')
    .option('-F, --fixed-strings', 'treat the pattern as a literal string')
    .option('-U, --multiline', 'let matches span lines')
    .option('-w, --word-regexp', 'only match whole words')
    .option('-A, --after-context <num>', 'show NUM lines after each match', count('-A'))
    .option('-B, --before-context <num>', 'show NUM lines before each match', count('-B'))
    .option('-C, --context <num>', 'show NUM lines before and after each match', count('-C'))
    .option('-m, --max-count <num>', 'stop after NUM matching lines per file', count('-m'))
    .option('-l, --files-with-matches', 'print only the paths of files with at least one match')
    .option('-c, --count', 'print the number of matching lines per file')
    .option('-., --hidden', 'search hidden files and directories')
    .option('--no-ignore', 'do not honour .gitignore, .ignore, .rgignore or .git/info/exclude')
    .option('--no-require-git', 'honour .gitignore even outside a git repository')
    .option(
      '-g, --glob <glob>',
      'include (or, with a leading !, exclude) paths matching GLOB; repeatable',
      collect,
      [],
    )
    .option('--glob-case-insensitive', 'match -g globs case-insensitively')
    .option('--max-filesize <size>', 'skip files larger than SIZE (K, M, G suffixes)', parseSize)
    .option('-M, --max-columns <num>', 'omit lines longer than NUM bytes', count('--max-columns'))
    .option('-n, --line-number', 'show line numbers (default on a terminal)')
    .option('-N, --no-line-number', 'do not show line numbers')
    .option('--heading', 'group matches under each file name (default on a terminal)')
    .option('--no-heading', 'print the file name on every line')
    .option('-H, --with-filename', 'print the file name for every match')
    .option('-I, --no-filename', 'never print file names')
    .option('-j, --threads <num>', 'worker threads for the js engine', count('--threads'))
    .option('--timeout <seconds>', 'stop the search after SECONDS and say so (exit 2)', parseSeconds)
    .option('--rg-path <path>', 'the ripgrep binary the rg engine runs (still vetted)')
    .action(async (pattern: string, paths: string[], flags: RgFlags) => {
      setExit(await runRg(pattern, paths, flags, io));
    });
};

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseSeconds(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--timeout expects a positive number of seconds, got '${v}'`);
  return n;
}

async function runRg(
  pattern: string,
  paths: string[],
  flags: RgFlags,
  io: Parameters<RegisterCommand>[1],
): Promise<number> {
  const mode = flags.filesWithMatches ? 'files-with-matches' : flags.count ? 'count' : 'lines';
  if (flags.json && mode !== 'lines') {
    throw new UsageError('--json cannot be combined with --files-with-matches or --count');
  }
  const tty = io.stdout.isTTY === true;
  const singleFile = paths.length === 1 && (await isFile(paths[0]!, io.cwd));
  const request: SearchRequest = {
    pattern,
    paths,
    cwd: io.cwd,
    fixedStrings: flags.fixedStrings ?? false,
    caseInsensitive: flags.ignoreCase ?? false,
    wordRegexp: flags.wordRegexp ?? false,
    multiline: flags.multiline ?? false,
    hidden: flags.hidden ?? false,
    ignoreFiles: flags.ignore,
    requireGit: flags.requireGit,
    globs: flags.glob,
    globCaseInsensitive: flags.globCaseInsensitive ?? false,
    mode,
    beforeContext: flags.beforeContext ?? flags.context ?? 0,
    afterContext: flags.afterContext ?? flags.context ?? 0,
    ...(flags.maxCount !== undefined ? { maxCount: flags.maxCount } : {}),
    ...(flags.maxFilesize !== undefined ? { maxFilesize: flags.maxFilesize } : {}),
    engine: flags.engine,
    ...(flags.rgPath !== undefined ? { rgPath: flags.rgPath } : {}),
    ...(flags.threads !== undefined && flags.threads > 0 ? { workers: flags.threads } : {}),
    ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout * 1000 } : {}),
  };
  const printer = new RgPrinter({
    format: flags.json ? 'json' : 'plain',
    mode,
    lineNumbers: flags.lineNumber ?? tty,
    withFilename: flags.filename === false ? false : (flags.withFilename ?? !singleFile),
    heading: flags.heading ?? tty,
    ...(flags.maxColumns !== undefined ? { maxColumns: flags.maxColumns } : {}),
    contextRequested: (flags.beforeContext ?? flags.afterContext ?? flags.context ?? 0) > 0,
  });

  // Loaded here, not at start-up: `trawl --help` should not pay for the engine.
  const { EngineUnavailableError, PatternError, searchBatches } = await import('@trawl/core/engine');
  let matched = false;
  let failed = false;
  try {
    // One write per engine batch: a million matching lines must not mean a million awaited writes.
    for await (const batch of searchBatches(request)) {
      let text = '';
      for (const event of batch) {
        if (event.type === 'end') matched = true;
        if (event.type === 'summary') {
          failed = (await reportSummary(event.summary, io)) || failed;
          if (!flags.json) continue;
        }
        text += printer.print(event);
      }
      if (text) await write(io.stdout, text);
    }
  } catch (err) {
    if (err instanceof PatternError || err instanceof EngineUnavailableError)
      throw new UsageError(err.message, err.code);
    throw err;
  }
  if (failed) return 2;
  return matched ? 0 : 1;
}

/** Errors and partial outcomes go to stderr, as ripgrep's do; true when the exit code must be 2. */
async function reportSummary(s: SearchSummary, io: Parameters<RegisterCommand>[1]): Promise<boolean> {
  let failed = s.errors.length > 0;
  for (const e of s.errors) await write(io.stderr, `rg: ${e.path ? `${e.path}: ` : ''}${e.message}\n`);
  if (s.outcome === 'timeout') {
    await write(
      io.stderr,
      `trawl: search timed out after ${(s.elapsedMs / 1000).toFixed(1)}s; results are partial\n`,
    );
    failed = true;
  } else if (s.outcome === 'walk-budget') {
    await write(io.stderr, 'trawl: walk budget reached; results are partial\n');
  }
  return failed;
}

async function isFile(p: string, cwd: string): Promise<boolean> {
  const { stat } = await import('node:fs/promises');
  const { resolve } = await import('node:path');
  try {
    return (await stat(resolve(cwd, p))).isFile();
  } catch {
    return false;
  }
}
