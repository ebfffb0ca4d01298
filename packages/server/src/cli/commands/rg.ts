import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SearchEvent, SearchRequest, SearchSummary } from '@trawl/core/engine';
import { type Command, Option } from 'commander';
import { type CliIO, UsageError, write } from '../io.js';
import type { RegisterCommand } from '../program.js';
import { colorWanted, paint, parseColors, type RgColors } from '../rg-colors.js';
import { plainStats, type RgOutputMode, RgPrinter } from '../rg-printer.js';

interface RgFlags {
  engine: 'auto' | 'js' | 'rg';
  regexp: string[];
  file: string[];
  fixedStrings?: boolean;
  wordRegexp?: boolean;
  lineRegexp?: boolean;
  multiline?: boolean;
  multilineDotall?: boolean;
  crlf?: boolean;
  nullData?: boolean;
  encoding?: string;
  invertMatch?: boolean;
  text?: boolean;
  binary?: boolean;
  afterContext?: number;
  beforeContext?: number;
  context?: number;
  passthru?: boolean;
  maxCount?: number;
  json?: boolean;
  lineNumber?: boolean;
  column?: boolean;
  byteOffset?: boolean;
  heading?: boolean;
  withFilename?: boolean;
  filename: boolean;
  null?: boolean;
  onlyMatching?: boolean;
  vimgrep?: boolean;
  trim?: boolean;
  replace?: string;
  maxColumns?: number;
  maxColumnsPreview?: boolean;
  pathSeparator?: string;
  includeZero?: boolean;
  /** false: --no-context-separator. */
  contextSeparator?: string | false;
  fieldMatchSeparator?: string;
  fieldContextSeparator?: string;
  stats?: boolean;
  color: 'never' | 'auto' | 'always' | 'ansi';
  colors: string[];
  messages: boolean;
  hidden?: boolean;
  ignore: boolean;
  ignoreVcs: boolean;
  ignoreDot: boolean;
  ignoreParent: boolean;
  requireGit?: boolean;
  ignoreFile: string[];
  /** false: --no-ignore-files (the --ignore-file flags are not used). */
  ignoreFiles?: boolean;
  /** false: --no-unicode. */
  unicode?: boolean;
  stopOnNonmatch?: boolean;
  /** false: --no-mmap (ripgrep's buffered reading decides how named binary files print). */
  mmap?: boolean;
  /** ripgrep's old spellings, kept as it keeps them: --maxdepth, --sort-files. */
  maxdepth?: number;
  sortFiles?: boolean;
  glob: string[];
  iglob: string[];
  globCaseInsensitive?: boolean;
  type: string[];
  typeNot: string[];
  typeAdd: string[];
  typeClear: string[];
  typeList?: boolean;
  maxDepth?: number;
  follow?: boolean;
  maxFilesize?: number;
  unrestricted: number;
  sort?: string;
  sortr?: string;
  files?: boolean;
  threads?: number;
  deadline?: number;
  /** The old spelling of `deadline`. */
  timeout?: number;
  rgPath?: string;
}

/**
 * Flags ripgrep lets override one another, last one winning (`-i … -s`, `-l … -c`). Commander keeps one
 * value per option, so their order is recorded as they are parsed.
 */
interface LastWins {
  caseMode: 'sensitive' | 'insensitive' | 'smart';
  mode: RgOutputMode | null;
  /** --crlf and --null-data override each other. */
  terminator: 'lf' | 'crlf' | 'nul';
}

/**
 * How the caller spelled a flag (`-m`, `--max-count`): ripgrep names it so in a bad value's message. Found in
 * the raw arguments, since commander hands a value parser only the value.
 */
type Spelling = (names: readonly string[], value: string) => string;

function spellingIn(rawArgs: () => readonly string[]): Spelling {
  return (names, value) => {
    const args = rawArgs();
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      for (const n of names) {
        if (a === n && args[i + 1] === value) return n;
        if (a === `${n}=${value}` || (n.length === 2 && a === `${n}${value}`)) return n;
      }
    }
    return names[names.length - 1]!;
  };
}

/** A bad flag value, in ripgrep's words (`rg: error parsing flag -m: …`). */
function flagError(flag: string, message: string): UsageError {
  return new UsageError(`error parsing flag ${flag}: ${message}`, 'usage', 'rg');
}

/** A count, parsed as ripgrep parses one (Rust's u64), with its messages. */
const count =
  (spelled: Spelling, ...names: string[]) =>
  (v: string) => {
    const problem =
      v === ''
        ? 'cannot parse integer from empty string'
        : !/^\+?\d+$/.test(v)
          ? 'invalid digit found in string'
          : BigInt(v) > 2n ** 64n - 1n
            ? 'number too large to fit in target type'
            : null;
    if (problem) throw flagError(spelled(names, v), `value is not a valid number: ${problem}`);
    return Number(v);
  };

/** A choice among fixed values (--sort, --color), refused in ripgrep's words. */
function choice<T extends string>(flag: string, values: readonly T[]) {
  return (v: string): T => {
    if ((values as readonly string[]).includes(v)) return v as T;
    throw flagError(flag, `choice '${v}' is unrecognized`);
  };
}

const SORT_KEYS = ['path', 'modified', 'accessed', 'created', 'none'] as const;

/** ripgrep's size syntax: a number with an optional K, M or G suffix. */
function parseSize(v: string): number {
  const m = /^(\d+)([KMG])?$/.exec(v);
  if (!m)
    throw flagError(
      '--max-filesize',
      `invalid size: invalid format for size '${v}', which should be a non-empty sequence of digits followed by an optional 'K', 'M' or 'G' suffix`,
    );
  const unit = { K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(m[2] ?? '') as 'K' | 'M' | 'G'] ?? 1;
  return Number(m[1]) * unit;
}

/** The most of standard input `trawl rg` reads (the js engine holds it whole); --max-filesize lowers it. */
const STDIN_MAX_BYTES = 1024 * 1024 * 1024;

/** What --passthru asks of the searcher: every line, as context when it does not match. */
const ALL_LINES = 2 ** 31 - 1;

export const registerRg: RegisterCommand = (program, io, setExit) => {
  const last: LastWins = { caseMode: 'sensitive', mode: null, terminator: 'lf' };
  const setCase = (m: LastWins['caseMode']) => () => {
    last.caseMode = m;
    return true;
  };
  const setMode = (m: RgOutputMode) => () => {
    last.mode = m;
    return true;
  };
  const setTerminator = (t: LastWins['terminator']) => () => {
    last.terminator = t;
    return true;
  };
  // Commander keeps the arguments it is parsing as `rawArgs` (set at the start of a parse; not in its types).
  const spelled = spellingIn(() => (program as Command & { rawArgs?: string[] }).rawArgs ?? []);
  const cmd = program
    .command('rg')
    .description(
      "Search file contents, ripgrep-style (ripgrep's flags and output). Exit 0: matches, 1: none, 2: error.",
    )
    .argument('[pattern]', 'a regular expression (Rust regex syntax, as ripgrep) or, with -F, a literal')
    .argument('[paths...]', 'files or directories to search (default: the current directory)')
    .addOption(
      new Option('--engine <engine>', 'which engine searches').choices(['auto', 'js', 'rg']).default('auto'),
    );
  addFlags(cmd, setCase, setMode, setTerminator, spelled).action(
    async (pattern: string | undefined, paths: string[], flags: RgFlags) => {
      setExit(await runRg(pattern, paths, flags, last, io));
    },
  );
};

function addFlags(
  cmd: Command,
  setCase: (m: LastWins['caseMode']) => () => boolean,
  setMode: (m: RgOutputMode) => () => boolean,
  setTerminator: (t: LastWins['terminator']) => () => boolean,
  spelled: Spelling,
): Command {
  return (
    cmd
      // Patterns
      .option(
        '-e, --regexp <pattern>',
        'a pattern; repeatable (then the first positional is a path)',
        collect,
        [],
      )
      .option('-f, --file <patternfile>', 'patterns from a file, one a line; repeatable', collect, [])
      .option('-F, --fixed-strings', 'treat the patterns as literal strings')
      .option('-i, --ignore-case', 'match case-insensitively', setCase('insensitive'))
      .option('-s, --case-sensitive', 'match case-sensitively (the default)', setCase('sensitive'))
      .option(
        '-S, --smart-case',
        'case-insensitive unless a pattern has an uppercase letter',
        setCase('smart'),
      )
      .option('-w, --word-regexp', 'only match whole words')
      .option('-x, --line-regexp', 'only match whole lines')
      .option('-U, --multiline', 'let matches span lines')
      .option('--multiline-dotall', "with -U, let '.' match line ends")
      .option('--no-unicode', "ASCII-only classes and case folding (ripgrep's (?-u) for the whole pattern)")
      .option('--unicode', 'Unicode classes and case folding (the default)')
      .option('--no-pcre2', 'use the default regex engine (trawl has no other)')
      .option('--stop-on-nonmatch', 'stop reading a file at the first non-matching line after a match')
      .option(
        '--crlf',
        "treat CRLF as a line end: '$' matches before \\r\\n, '.' does not match \\r",
        setTerminator('crlf'),
      )
      .option('--no-crlf', 'treat only LF as a line end (the default)')
      .option(
        '--null-data',
        "lines end with NUL, not '\\n' (binary detection is then off)",
        setTerminator('nul'),
      )
      .option(
        '-E, --encoding <encoding>',
        "decode files from ENCODING (utf-16le, latin1, …; a BOM still wins); 'none': raw bytes, no BOM sniffing",
        (v: string) => parseEncoding(v, spelled),
      )
      .option('-v, --invert-match', 'print the lines that do not match')
      // Binary files
      .option('-a, --text', 'search binary files as if they were text')
      .option(
        '--mmap',
        'ripgrep reads up to ten named files through a memory map: how their binary content prints (the default)',
      )
      .option(
        '--no-mmap',
        "read named files in buffers: a binary one prints its lines before the NUL, then 'binary file matches'",
      )
      .option('--binary', 'search binary files found by walking too, and say when they match')
      // What is printed
      .option(
        '-A, --after-context <num>',
        'show NUM lines after each match',
        count(spelled, '-A', '--after-context'),
      )
      .option(
        '-B, --before-context <num>',
        'show NUM lines before each match',
        count(spelled, '-B', '--before-context'),
      )
      .option(
        '-C, --context <num>',
        'show NUM lines before and after each match',
        count(spelled, '-C', '--context'),
      )
      .option('--passthru', 'print every line, matching or not')
      .option(
        '-m, --max-count <num>',
        'stop after NUM matching lines per file',
        count(spelled, '-m', '--max-count'),
      )
      .option(
        '-l, --files-with-matches',
        'print only the paths of files with a match',
        setMode('files-with-matches'),
      )
      .option(
        '--files-without-match',
        'print only the paths of files without a match',
        setMode('files-without-match'),
      )
      .option('-c, --count', 'print the number of matching lines per file', setMode('count'))
      .option('--count-matches', 'print the number of matches per file', setMode('count-matches'))
      .option('--include-zero', 'with -c, print files with no match too')
      .option('--no-include-zero', 'with -c, leave out files with no match (the default)')
      .option('-q, --quiet', 'print nothing; exit 0 at the first match', setMode('quiet'))
      .option('--json', 'print results as JSON Lines, the schema of rg --json')
      .option('-o, --only-matching', 'print only the matched parts, one a line')
      .option('-r, --replace <text>', 'print each match replaced by TEXT ($1, $name, $$ for a dollar)')
      .option('--vimgrep', 'print every match as path:line:column:line')
      .option('-n, --line-number', 'show line numbers (default on a terminal)')
      .option('-N, --no-line-number', 'do not show line numbers')
      .option('--column', 'show the column of the first match (implies -n)')
      .option('--no-column', 'do not show columns')
      .option('-b, --byte-offset', 'show the byte offset of each line (of each match with -o)')
      .option('--heading', 'group matches under each file name (default on a terminal)')
      .option('--no-heading', 'print the file name on every line')
      .option('-H, --with-filename', 'print the file name for every match')
      .option('-I, --no-filename', 'never print file names')
      .option('-0, --null', 'print a NUL after every path')
      .option('--trim', 'strip leading whitespace from each printed line')
      .option(
        '-M, --max-columns <num>',
        'omit lines longer than NUM bytes',
        count(spelled, '-M', '--max-columns'),
      )
      .option('--max-columns-preview', 'with -M, print the start of a long line instead of omitting it')
      .option('--path-separator <sep>', "print paths with this one-byte separator instead of '/'")
      .option('--context-separator <sep>', "what separates non-adjacent context groups (default '--')")
      .option('--no-context-separator', 'print nothing between non-adjacent context groups')
      .option(
        '--field-match-separator <sep>',
        "what follows the path and numbers of a match line (default ':')",
      )
      .option(
        '--field-context-separator <sep>',
        "what follows the path and numbers of a context line (default '-')",
      )
      .option('--stats', 'print statistics after the results')
      .option(
        '--color <when>',
        'colours: never, auto (on a terminal, unless TERM is dumb or NO_COLOR is set), always, ansi',
        choice('--color', ['never', 'auto', 'always', 'ansi'] as const),
        'auto',
      )
      .option(
        '--colors <spec>',
        "a colour setting, e.g. 'match:fg:red', 'path:style:bold', 'line:none'; repeatable",
        collect,
        [],
      )
      .option('--no-messages', 'do not print error messages')
      // Which files
      .option('--files', 'print the files that would be searched, and search nothing')
      .option('-., --hidden', 'search hidden files and directories')
      .option('--no-ignore', 'do not honour .gitignore, .ignore, .rgignore or .git/info/exclude')
      .option('--no-ignore-vcs', 'do not honour .gitignore or .git/info/exclude')
      .option('--no-ignore-dot', 'do not honour .ignore files')
      .option('--no-ignore-parent', 'do not honour ignore files in the parent directories of the roots')
      .option('--no-require-git', 'honour .gitignore even outside a git repository')
      .option('--require-git', 'honour .gitignore only inside a git repository (the default)')
      .option('--ignore-file <path>', 'more ignore rules (gitignore syntax); repeatable', collect, [])
      .option('--no-ignore-files', 'do not use the --ignore-file flags')
      .option('--ignore-files', 'use the --ignore-file flags (the default)')
      .option(
        '-g, --glob <glob>',
        'include (or, with a leading !, exclude) paths matching GLOB; repeatable',
        collect,
        [],
      )
      .option('--iglob <glob>', 'as -g, matched case-insensitively; repeatable', collect, [])
      .option('--glob-case-insensitive', 'match -g globs case-insensitively')
      .option('-t, --type <type>', 'only files of TYPE (see --type-list); repeatable', collect, [])
      .option('-T, --type-not <type>', 'no files of TYPE; repeatable', collect, [])
      .option('--type-add <spec>', "define a type: 'name:glob[,glob…]'; repeatable", collect, [])
      .option('--type-clear <type>', 'forget the globs of TYPE; repeatable', collect, [])
      .option('--type-list', 'print the known file types and their globs')
      .option(
        '-d, --max-depth <num>',
        'descend at most NUM directories below each root',
        count(spelled, '-d', '--max-depth'),
      )
      .addOption(new Option('--maxdepth <num>').argParser(count(spelled, '--maxdepth')).hideHelp())
      .addOption(new Option('--sort-files').hideHelp())
      .addOption(new Option('--no-sort-files').hideHelp())
      .option('-L, --follow', 'follow symbolic links (loops and broken links are reported)')
      .option('--no-follow', 'do not follow symbolic links below the roots (the default)')
      .option('--max-filesize <size>', 'skip files larger than SIZE (K, M, G suffixes)', parseSize)
      .option(
        '-u, --unrestricted',
        '-u: --no-ignore; -uu: and --hidden; -uuu: and --text',
        (_v: unknown, n: number) => n + 1,
        0,
      )
      .option('--sort <by>', `sort the output (${SORT_KEYS.join(', ')})`, choice('--sort', SORT_KEYS))
      .option(
        '--sortr <by>',
        `sort the output, descending (${SORT_KEYS.join(', ')})`,
        choice('--sortr', SORT_KEYS),
      )
      // Engines
      .option('-j, --threads <num>', 'worker threads for the js engine', count(spelled, '-j', '--threads'))
      .option('--deadline <seconds>', 'stop the search after SECONDS and say so (exit 2)', parseSeconds)
      // trawl's other commands spell it --deadline; --timeout was this command's first name for it.
      .addOption(new Option('--timeout <seconds>').argParser(parseSeconds).hideHelp())
      .option('--rg-path <path>', 'the ripgrep binary the rg engine runs (still vetted)')
  );
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** An encoding label ripgrep knows (the WHATWG list, as encoding_rs), 'auto' or 'none'. */
function parseEncoding(v: string, spelled: Spelling): string {
  const label = v.trim().toLowerCase();
  if (label === 'auto' || label === 'none') return label;
  try {
    new TextDecoder(label);
  } catch {
    throw flagError(spelled(['-E', '--encoding'], v), `grep config error: unknown encoding: ${v}`);
  }
  return label;
}

function parseSeconds(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--deadline expects a positive number of seconds, got '${v}'`);
  return n;
}

async function runRg(
  positional: string | undefined,
  rest: string[],
  flags: RgFlags,
  last: LastWins,
  io: CliIO,
): Promise<number> {
  const core = await import('@trawl/core/engine');
  const types = fileTypeTable(core.FILE_TYPES, flags);
  if (flags.typeList) {
    let out = '';
    for (const name of Object.keys(types).sort())
      if (types[name]!.length) out += `${name}: ${types[name]!.join(', ')}\n`;
    await write(io.stdout, out);
    return 0;
  }
  // With -e or -f, every positional argument is a path; with --files there is no pattern at all.
  const explicitPatterns = flags.regexp.length > 0 || flags.file.length > 0;
  const named =
    explicitPatterns || flags.files ? [...(positional !== undefined ? [positional] : []), ...rest] : rest;
  // ripgrep searches standard input when no path is given and it is a file or a pipe, and for `-`.
  const paths =
    named.length === 0 && !flags.files && io.stdin?.searchable() === true && !flags.typeList ? ['-'] : named;
  const stdin =
    paths.includes('-') && !flags.files && io.stdin
      ? new Uint8Array(await io.stdin.read(flags.maxFilesize ?? STDIN_MAX_BYTES))
      : undefined;
  const patterns = [...flags.regexp, ...flags.file.flatMap((f) => readPatternFile(f, io.cwd))];
  if (!explicitPatterns && !flags.files) {
    if (positional === undefined)
      throw new UsageError('a pattern is required (or -e PATTERN, -f FILE, --files)');
    patterns.push(positional);
  }
  const unrestricted = flags.unrestricted;
  const noIgnore = !flags.ignore || unrestricted >= 1;
  const extraIgnore = flags.ignoreFile.length > 0 && flags.ignoreFiles !== false;
  const walk = {
    hidden: (flags.hidden ?? false) || unrestricted >= 2,
    // --no-ignore (and -u) turn off every ignore file but those --ignore-file names (ripgrep 15's rule).
    ...(noIgnore && !extraIgnore
      ? { ignoreFiles: false }
      : { ignoreFiles: true, ...(noIgnore ? { vcsIgnore: false, dotIgnore: false } : {}) }),
    ...(flags.ignoreVcs ? {} : { vcsIgnore: false }),
    ...(flags.ignoreDot ? {} : { dotIgnore: false }),
    parents: flags.ignoreParent && !noIgnore,
    requireGit: flags.requireGit ?? true,
    ...(extraIgnore ? { extraIgnoreFiles: flags.ignoreFile } : {}),
    globs: [...flags.glob, ...flags.iglob.map(caseFoldGlob)],
    globCaseInsensitive: flags.globCaseInsensitive ?? false,
    ...((flags.maxDepth ?? flags.maxdepth) !== undefined
      ? { maxDepth: (flags.maxDepth ?? flags.maxdepth)! }
      : {}),
    ...(flags.follow ? { followLinks: true } : {}),
    ...(flags.type.length > 0 || flags.typeNot.length > 0
      ? { fileTypes: { include: globsOf(types, flags.type), exclude: globsOf(types, flags.typeNot) } }
      : {}),
  };
  const engineChoice = {
    engine: flags.engine,
    ...(flags.rgPath !== undefined ? { rgPath: flags.rgPath } : {}),
    ...((flags.deadline ?? flags.timeout) !== undefined
      ? { deadlineMs: (flags.deadline ?? flags.timeout)! * 1000 }
      : {}),
  };
  // Parsed even when unused, so a bad spec is refused as ripgrep refuses it.
  const palette = parseColors(flags.colors);
  // --json is never coloured; --vimgrep only when colours are asked for.
  const when = flags.json ? 'never' : flags.vimgrep && flags.color === 'auto' ? 'never' : flags.color;
  const colors = colorWanted(when, io.stdout.isTTY === true, io.env) ? palette : undefined;
  if (flags.files) {
    return listFilesCommand(
      core,
      {
        paths,
        cwd: io.cwd,
        ...walk,
        ...engineChoice,
        ...(flags.maxFilesize !== undefined ? { maxFilesize: flags.maxFilesize } : {}),
      },
      flags,
      io,
      colors,
    );
  }

  // -c with -o counts matches, as --count-matches does.
  const mode: RgOutputMode =
    last.mode === 'count' && flags.onlyMatching ? 'count-matches' : (last.mode ?? 'lines');
  if (flags.json && mode !== 'lines') {
    throw new UsageError(
      '--json cannot be combined with -l, -c, --count-matches, --files-without-match or -q',
    );
  }
  const fixedStrings = flags.fixedStrings ?? false;
  const caseInsensitive =
    last.caseMode === 'insensitive' ||
    (last.caseMode === 'smart' && core.smartCaseInsensitive(patterns, fixedStrings));
  // ripgrep searches nothing when no match is possible: no pattern (an empty -f file), or -m 0. Inverted,
  // no pattern matches every line: a pattern that matches nothing stands in.
  if ((patterns.length === 0 && !flags.invertMatch) || flags.maxCount === 0) return 1;
  if (patterns.length === 0) patterns.push('[a&&b]');
  const rgPatterns = core.combineRgPatterns(patterns, {
    fixedStrings,
    lineRegexp: flags.lineRegexp ?? false,
  });
  // --no-unicode is ripgrep's (?-u) over the whole pattern (ASCII classes and case folding).
  const combined =
    flags.unicode === false && !rgPatterns.fixedStrings
      ? { ...rgPatterns, pattern: `(?-u:${rgPatterns.pattern})` }
      : rgPatterns;
  const dotall = flags.multiline && flags.multilineDotall;
  const nullData = last.terminator === 'nul';
  // --crlf is ripgrep's (?R) flag for the whole pattern; a literal has no anchors to change.
  const crlfMode = (flags.crlf ?? false) && last.terminator === 'crlf';
  const crlf = crlfMode && !combined.fixedStrings;
  const pattern = `${crlf ? '(?R)' : ''}${dotall ? `(?s:${combined.pattern})` : combined.pattern}`;

  const tty = io.stdout.isTTY === true;
  // Every path names a file (or standard input): stat'ed only when a rule below asks.
  const namedOnly = () => paths.length > 0 && paths.every((p) => (stdin && p === '-') || isFile(p, io.cwd));
  const singleFile = paths.length === 1 && namedOnly();
  const passthru = flags.passthru ?? false;
  const before = passthru ? ALL_LINES : (flags.beforeContext ?? flags.context ?? 0);
  const after = passthru ? ALL_LINES : (flags.afterContext ?? flags.context ?? 0);
  const engineMode =
    mode === 'lines'
      ? 'lines'
      : mode === 'files-with-matches' || mode === 'quiet'
        ? 'files-with-matches'
        : 'count';
  const reportUnmatched =
    mode === 'files-without-match' ||
    ((mode === 'count' || mode === 'count-matches') && flags.includeZero === true);
  const request: SearchRequest = {
    pattern,
    paths,
    cwd: io.cwd,
    fixedStrings: combined.fixedStrings,
    caseInsensitive,
    wordRegexp: flags.wordRegexp ?? false,
    multiline: flags.multiline ?? false,
    invertMatch: flags.invertMatch ?? false,
    // -uuu is --binary in ripgrep 15 (it was -a before).
    binary: flags.text ? 'text' : flags.binary || unrestricted >= 3 ? 'search' : 'auto',
    banNul: true,
    ...(nullData ? { nullData: true } : {}),
    ...(flags.stopOnNonmatch ? { stopOnNonmatch: true } : {}),
    ...(stdin ? { stdin } : {}),
    ...(flags.encoding !== undefined && flags.encoding !== 'auto' ? { encoding: flags.encoding } : {}),
    ...walk,
    mode: engineMode,
    ...(reportUnmatched ? { reportUnmatched: true } : {}),
    // The rg engine's count mode prints one count a file: the one asked for.
    ...(mode === 'count-matches' ? { countMatches: true } : {}),
    beforeContext: before,
    afterContext: after,
    ...(flags.maxCount !== undefined ? { maxCount: flags.maxCount } : {}),
    ...(flags.maxFilesize !== undefined ? { maxFilesize: flags.maxFilesize } : {}),
    ...engineChoice,
    ...(flags.mmap === false ? { rgNoMmap: true } : {}),
    ...(flags.threads !== undefined && flags.threads > 0 ? { workers: flags.threads } : {}),
  };
  const vimgrep = flags.vimgrep ?? false;
  const printer = new RgPrinter({
    format: flags.json ? 'json' : 'plain',
    mode,
    lineNumbers: vimgrep || (flags.column ?? false) || (flags.lineNumber ?? tty),
    column: vimgrep || (flags.column ?? false),
    byteOffset: flags.byteOffset ?? false,
    withFilename: flags.filename === false ? false : vimgrep || (flags.withFilename ?? !singleFile),
    heading: !vimgrep && (flags.heading ?? tty),
    nullAfterPath: flags.null ?? false,
    onlyMatching: flags.onlyMatching ?? false,
    invert: flags.invertMatch ?? false,
    vimgrep,
    trim: flags.trim ?? false,
    ...(flags.replace !== undefined
      ? {
          replace: core.replacerFor(
            { ...request, pattern, fixedStrings: combined.fixedStrings },
            flags.replace,
          ),
        }
      : {}),
    ...(flags.maxColumns !== undefined ? { maxColumns: flags.maxColumns } : {}),
    ...(flags.maxColumnsPreview ? { maxColumnsPreview: true } : {}),
    ...pathSeparatorOf(flags),
    ...(crlfMode ? { crlf: true } : {}),
    ...(nullData ? { nullData: true } : {}),
    ...(colors ? { colors } : {}),
    includeZero: flags.includeZero ?? false,
    countMatchesOnly:
      mode === 'count' && request.multiline === true && core.patternMatchesNewline({ ...request, pattern }),
    contextSeparator:
      flags.contextSeparator === false ? null : unescapeSeparator(flags.contextSeparator ?? '--'),
    fieldMatchSeparator: unescapeSeparator(flags.fieldMatchSeparator ?? ':'),
    fieldContextSeparator: unescapeSeparator(flags.fieldContextSeparator ?? '-'),
    contextRequested: before > 0 || after > 0,
    // --no-mmap: named files are read in buffers, and print as --binary has walked ones print.
    binarySearch: request.binary === 'search' || (flags.mmap === false && namedOnly()),
    // --mmap maps walked files too, and then their NULs are looked for only at the start and in matches.
    namedBinaryRule: flags.mmap === true || (flags.mmap !== false && paths.length <= 10 && namedOnly()),
  });

  const messages = flags.messages;
  const sortBy = flags.sortr ?? flags.sort ?? (flags.sortFiles ? 'path' : undefined);
  let summary: SearchSummary | null = null;
  let bytesPrinted = 0;
  const emit = async (text: string) => {
    if (!text) return;
    bytesPrinted += Buffer.byteLength(text);
    await write(io.stdout, text);
  };
  try {
    const held: SearchEvent[][] = [];
    let group: SearchEvent[] = [];
    // One write per engine batch: a million matching lines must not mean a million awaited writes.
    outer: for await (const batch of core.searchBatches(request)) {
      let text = '';
      for (const event of batch) {
        if (event.type === 'summary') {
          summary = event.summary;
          if (!flags.json) continue;
          if (sortBy && sortBy !== 'none')
            text += printHeld(printer, held, sortBy, flags.sortr !== undefined, io.cwd);
        }
        if (sortBy && sortBy !== 'none' && event.type !== 'summary') {
          group.push(event);
          if (event.type === 'end' || event.type === 'skip') {
            held.push(group);
            group = [];
          }
          continue;
        }
        text += printer.print(event);
        // -q: the first match decides; stopping the generator stops the engine.
        if (mode === 'quiet' && printer.matchedAny) {
          await emit(text);
          break outer;
        }
      }
      await emit(text);
    }
    if (sortBy && sortBy !== 'none' && !flags.json)
      await emit(printHeld(printer, held, sortBy, flags.sortr !== undefined, io.cwd));
  } catch (err) {
    if (err instanceof core.PatternError || err instanceof core.EngineUnavailableError)
      throw new UsageError(err.message, err.code);
    throw err;
  }
  let errored = false;
  if (summary) {
    errored = await reportSummary(summary, io, messages, errorWording(paths, flags, io.cwd));
    // ripgrep's warning when the walk found nothing to search (only when no path was given).
    if (
      paths.length === 0 &&
      summary.filesSearched + summary.skipped.binary === 0 &&
      summary.outcome === 'complete'
    ) {
      if (messages)
        await write(
          io.stderr,
          "rg: No files were searched, which means ripgrep probably applied a filter you didn't expect.\n" +
            'Running with --debug will show why files are being skipped.\n',
        );
      errored = true;
    }
    if (flags.stats && !flags.json)
      await write(io.stdout, plainStats(summary, bytesPrinted, summary.elapsedMs / 1000));
  }
  const matched = printer.matchedAny;
  if (matched && (mode === 'quiet' || !errored)) return 0;
  return errored ? 2 : 1;
}

/** Events held for --sort/--sortr, printed in the order asked for. */
function printHeld(
  printer: RgPrinter,
  held: SearchEvent[][],
  by: string,
  reverse: boolean,
  cwd: string,
): string {
  const keyed = held.map((g) => {
    const p = (g[0] as { path: string }).path;
    let key = 0;
    if (by !== 'path') {
      try {
        const st = fs.statSync(path.resolve(cwd, p));
        key = (by === 'modified' ? st.mtimeMs : by === 'accessed' ? st.atimeMs : st.birthtimeMs) || 0;
      } catch {}
    }
    return { g, key };
  });
  // Groups arrive in path order; a stable sort by time keeps it among equal times.
  if (by !== 'path') keyed.sort((a, b) => a.key - b.key);
  if (reverse) keyed.reverse();
  let out = '';
  for (const { g } of keyed) for (const e of g) out += printer.print(e);
  held.length = 0;
  return out;
}

async function listFilesCommand(
  core: typeof import('@trawl/core/engine'),
  request: Omit<SearchRequest, 'pattern'>,
  flags: RgFlags,
  io: CliIO,
  colors: RgColors | undefined,
): Promise<number> {
  let listing: Awaited<ReturnType<typeof core.listFiles>>;
  try {
    listing = await core.listFiles(request);
  } catch (err) {
    if (err instanceof core.EngineUnavailableError) throw new UsageError(err.message, err.code);
    throw err;
  }
  const files = flags.sortr ? [...listing.files].reverse() : listing.files;
  const sep = flags.null ? '\0' : '\n';
  const { pathSeparator } = pathSeparatorOf(flags);
  const shown = (f: string) => {
    const p = pathSeparator ? f.replaceAll('/', pathSeparator) : f;
    return paint(colors, 'path', p);
  };
  await write(io.stdout, files.map((f) => `${shown(f)}${sep}`).join(''));
  if (flags.messages) {
    const wording = errorWording(request.paths ?? [], flags, io.cwd);
    for (const e of listing.errors) await write(io.stderr, rgErrorLine(e, listing.missingRoots, wording));
  }
  if (listing.errors.length > 0) return 2;
  return files.length > 0 ? 0 : 1;
}

/** ripgrep's type table with --type-clear and --type-add applied. */
function fileTypeTable(
  defaults: Readonly<Record<string, readonly string[]>>,
  flags: RgFlags,
): Record<string, string[]> {
  const table: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(defaults)) table[k] = [...v];
  // ripgrep forgets a cleared type altogether: selecting it afterwards is an error.
  for (const t of flags.typeClear) delete table[t];
  for (const spec of flags.typeAdd) {
    const m = /^([^:]+):(.+)$/.exec(spec);
    if (!m)
      throw new UsageError('invalid definition (format is type:glob, e.g., html:*.html)', 'usage', 'rg');
    const [, name, rest] = m as unknown as [string, string, string];
    const include = /^include:(.+)$/.exec(rest);
    if (include) {
      for (const other of include[1]!.split(','))
        table[name] = [...(table[name] ?? []), ...globsOf(table, [other])];
    } else {
      table[name] = [...(table[name] ?? []), ...rest.split(',')];
    }
  }
  return table;
}

function globsOf(table: Record<string, string[]>, names: string[]): string[] {
  const out: string[] = [];
  for (const n of names) {
    if (n === 'all') {
      for (const g of Object.values(table)) out.push(...g);
      continue;
    }
    const globs = table[n];
    if (!globs) throw new UsageError(`unrecognized file type: ${n}`, 'usage', 'rg');
    out.push(...globs);
  }
  return out;
}

/** --iglob as a -g glob: every letter outside a [class] becomes a class of both its cases. */
function caseFoldGlob(glob: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\' && i + 1 < glob.length) {
      out += c + glob[++i];
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      if (glob[i + 1] === '!' || glob[i + 1] === '^') out += glob[++i];
      if (glob[i + 1] === ']') out += glob[++i];
      continue;
    }
    const lo = c.toLowerCase();
    const up = c.toUpperCase();
    out += lo !== up && lo.length === 1 && up.length === 1 ? `[${lo}${up}]` : c;
  }
  return out;
}

/** --path-separator, unescaped as ripgrep does; empty means the default. */
function pathSeparatorOf(flags: RgFlags): { pathSeparator?: string } {
  if (flags.pathSeparator === undefined) return {};
  const sep = unescapeSeparator(flags.pathSeparator);
  if (sep === '' || sep === '/') return {};
  const n = Buffer.byteLength(sep);
  if (n !== 1)
    throw flagError(
      '--path-separator',
      `A path separator must be exactly one byte, but the given separator is ${n} bytes: ${sep}`,
    );
  return { pathSeparator: sep };
}

/** ripgrep unescapes separators (`\t`, `\x7F`, `\n`, `\\`). */
function unescapeSeparator(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{2}|[tnr0\\])/g, (_m, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    return { t: '\t', n: '\n', r: '\r', '0': '\0', '\\': '\\' }[e]!;
  });
}

function readPatternFile(file: string, cwd: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (err) {
    throw new UsageError(
      `${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'No such file or directory' : (err as Error).message}`,
    );
  }
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l) => l.replace(/\r$/, ''));
}

/** What decides how ripgrep words an error: the paths as typed, whether it walks in one thread, where it runs. */
interface ErrorWording {
  paths: readonly string[];
  serialWalk: boolean;
  cwd: string;
}

function errorWording(paths: readonly string[], flags: RgFlags, cwd: string): ErrorWording {
  return { paths, serialWalk: Boolean(flags.sort || flags.sortr) || flags.threads === 1, cwd };
}

/**
 * An error met while walking or reading, in ripgrep 15's words. A path that is not there:
 * `P: IO error for operation on P: No such file or directory (os error 2)`, shortened to `P: No such file…` when
 * several paths go to its parallel walker. A file that cannot be opened: `P: Permission denied (os error 13)`, P as
 * its matches would be shown. A directory that cannot be read: named as walked (`./` below the implicit root), in
 * the single-threaded walker's longer words. A loop and other messages are already worded as ripgrep's.
 */
function rgErrorLine(
  e: { path: string; code: string; message: string },
  missingRoots: readonly string[],
  w: ErrorWording,
): string {
  if (!e.path) return `rg: ${e.message}\n`;
  if (e.code === 'ENOENT')
    return w.paths.length > 1 && !w.serialWalk && missingRoots.includes(e.path)
      ? `rg: ${e.path}: No such file or directory (os error 2)\n`
      : `rg: ${e.path}: IO error for operation on ${e.path}: No such file or directory (os error 2)\n`;
  if (e.code === 'EACCES') {
    const dir = isDirectory(e.path, w.cwd);
    const bare = e.path.startsWith('./') ? e.path.slice(2) : e.path;
    const p = w.paths.length > 0 ? e.path : dir ? `./${bare}` : bare;
    return dir && w.serialWalk
      ? `rg: ${p}: IO error for operation on ${p}: Permission denied (os error 13)\n`
      : `rg: ${p}: Permission denied (os error 13)\n`;
  }
  return `rg: ${e.path}: ${e.message}\n`;
}

/** Errors and partial outcomes go to stderr, as ripgrep's do; true when the exit code must be 2. */
async function reportSummary(
  s: SearchSummary,
  io: CliIO,
  messages: boolean,
  wording: ErrorWording,
): Promise<boolean> {
  let failed = s.errors.length > 0;
  if (messages) for (const e of s.errors) await write(io.stderr, rgErrorLine(e, s.missingRoots, wording));
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

function isDirectory(p: string, cwd: string): boolean {
  try {
    return fs.statSync(path.resolve(cwd, p)).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string, cwd: string): boolean {
  try {
    return fs.statSync(path.resolve(cwd, p)).isFile();
  } catch {
    return false;
  }
}
