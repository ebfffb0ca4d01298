/**
 * `trawl rg`'s flags as typed (ripgrep's low-level arguments): each option, its value parsed and refused in
 * ripgrep's words, and the order of the flags that override one another. What they mean together is decided in
 * rg-arguments.ts.
 */
import { type Command, Option } from 'commander';
import { UsageError } from '../io.js';
import type { RgOutputMode } from '../rg-printer.js';

/** The flags as commander parsed them (one value per option; see `LastWins` for those whose order matters). */
export interface RgFlags {
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
export interface LastWins {
  caseMode: 'sensitive' | 'insensitive' | 'smart';
  mode: RgOutputMode | null;
  /** --crlf and --null-data override each other. */
  terminator: 'lf' | 'crlf' | 'nul';
}

/**
 * How the caller spelled a flag (`-m`, `--max-count`): ripgrep names it so in a bad value's message. Found in
 * the raw arguments, since commander hands a value parser only the value.
 */
export type Spelling = (names: readonly string[], value: string) => string;

export function spellingIn(rawArgs: () => readonly string[]): Spelling {
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
export function flagError(flag: string, message: string): UsageError {
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

/**
 * Adds `trawl rg`'s flags to its command, as ripgrep spells them. Returns the last-wins record the parse fills in
 * (see `LastWins`).
 */
export function addRgFlags(cmd: Command, spelled: Spelling): LastWins {
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
  cmd
    .addOption(
      new Option('--engine <engine>', 'which engine searches').choices(['auto', 'js', 'rg']).default('auto'),
    )
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
    .option('-S, --smart-case', 'case-insensitive unless a pattern has an uppercase letter', setCase('smart'))
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
      'descend at most NUM directories below each root (also spelt --maxdepth)',
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
    .option(
      '--sort <by>',
      `sort the output (${SORT_KEYS.join(', ')}; --sort-files: by path, --no-sort-files: none)`,
      choice('--sort', SORT_KEYS),
    )
    .option(
      '--sortr <by>',
      `sort the output, descending (${SORT_KEYS.join(', ')})`,
      choice('--sortr', SORT_KEYS),
    )
    // Engines
    .option('-j, --threads <num>', 'worker threads for the js engine', count(spelled, '-j', '--threads'))
    .option(
      '--deadline <seconds>',
      'stop the search after SECONDS and say so (exit 2; also spelt --timeout)',
      parseSeconds,
    )
    // trawl's other commands spell it --deadline; --timeout was this command's first name for it.
    .addOption(new Option('--timeout <seconds>').argParser(parseSeconds).hideHelp())
    .option('--rg-path <path>', 'the ripgrep binary the rg engine runs (still vetted)');
  return last;
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
