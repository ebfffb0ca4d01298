/**
 * What `trawl rg`'s flags mean together (ripgrep's high-level arguments): the paths and patterns, the walk, the
 * engine's request and the printer's options, with ripgrep's rules for flags that imply or override others.
 * Decided before anything is searched; rg-run.ts then runs what is decided here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SearchRequest } from '@trawl/core/engine';
import { type CliIO, UsageError } from '../io.js';
import { colorWanted, parseColors, type RgColors } from '../rg-colors.js';
import type { RgOutputMode, RgPrintOptions } from '../rg-printer.js';
import { flagError, type LastWins, type RgFlags } from './rg-flags.js';
import type { ErrorWording } from './rg-messages.js';

/** The engine module, loaded only once a command runs (see rg-run.ts). */
export type Core = typeof import('@trawl/core/engine');

/** A --sort/--sortr key that orders the output (`none` leaves the engine's order). */
export type SortKey = 'path' | 'modified' | 'accessed' | 'created';

/** What one `trawl rg` invocation is to do. */
export type RgArguments =
  /** --type-list: print the type table. */
  | { kind: 'type-list'; text: string }
  /** --files: list what would be searched. */
  | {
      kind: 'files';
      request: Omit<SearchRequest, 'pattern'>;
      colors: RgColors | undefined;
      /** --sortr: the list in reverse. */
      reverse: boolean;
      /** What follows each path: a NUL with -0. */
      terminator: '\0' | '\n';
      pathSeparator?: string;
      messages: boolean;
      wording: ErrorWording;
    }
  /** No match is possible (no pattern, or -m 0): nothing is searched, exit 1. */
  | { kind: 'no-match' }
  | {
      kind: 'search';
      request: SearchRequest;
      print: RgPrintOptions;
      mode: RgOutputMode;
      /** --sort/--sortr: the output held and printed in this order. */
      sort: { by: SortKey; reverse: boolean } | null;
      json: boolean;
      stats: boolean;
      messages: boolean;
      wording: ErrorWording;
      /** No path was given: a walk that finds nothing to search says so, as ripgrep does. */
      warnNoFiles: boolean;
    };

/**
 * The invocation `pattern paths… flags` decided: standard input read if it is searched, pattern files read, and
 * every refusal ripgrep makes of a flag combination thrown as a UsageError (in the order ripgrep makes them).
 */
export async function rgArguments(
  core: Core,
  positional: string | undefined,
  rest: string[],
  flags: RgFlags,
  last: LastWins,
  io: CliIO,
): Promise<RgArguments> {
  const types = fileTypeTable(core.rgFlags.fileTypes, flags);
  if (flags.typeList) {
    let text = '';
    for (const name of Object.keys(types).sort())
      if (types[name]!.length) text += `${name}: ${types[name]!.join(', ')}\n`;
    return { kind: 'type-list', text };
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
  const walk = walkOptions(flags, types);
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
  const wording: ErrorWording = {
    paths,
    serialWalk: Boolean(flags.sort || flags.sortr) || flags.threads === 1,
    cwd: io.cwd,
  };
  if (flags.files) {
    return {
      kind: 'files',
      request: {
        paths,
        cwd: io.cwd,
        ...walk,
        ...engineChoice,
        ...(flags.maxFilesize !== undefined ? { maxFilesize: flags.maxFilesize } : {}),
      },
      colors,
      reverse: Boolean(flags.sortr),
      terminator: flags.null ? '\0' : '\n',
      ...pathSeparatorOf(flags),
      messages: flags.messages,
      wording,
    };
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
    (last.caseMode === 'smart' && core.rgFlags.smartCaseInsensitive(patterns, fixedStrings));
  // ripgrep searches nothing when no match is possible: no pattern (an empty -f file), or -m 0. Inverted,
  // no pattern matches every line: a pattern that matches nothing stands in.
  if ((patterns.length === 0 && !flags.invertMatch) || flags.maxCount === 0) return { kind: 'no-match' };
  if (patterns.length === 0) patterns.push('[a&&b]');
  const rgPatterns = core.rgFlags.combinePatterns(patterns, {
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
    binary: flags.text ? 'text' : flags.binary || flags.unrestricted >= 3 ? 'search' : 'auto',
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
  const print: RgPrintOptions = {
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
          replace: core.rgFlags.replacerFor(
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
      mode === 'count' &&
      request.multiline === true &&
      core.rgFlags.patternMatchesNewline({ ...request, pattern }),
    contextSeparator:
      flags.contextSeparator === false ? null : unescapeSeparator(flags.contextSeparator ?? '--'),
    fieldMatchSeparator: unescapeSeparator(flags.fieldMatchSeparator ?? ':'),
    fieldContextSeparator: unescapeSeparator(flags.fieldContextSeparator ?? '-'),
    contextRequested: before > 0 || after > 0,
    // --no-mmap: named files are read in buffers, and print as --binary has walked ones print.
    binarySearch: request.binary === 'search' || (flags.mmap === false && namedOnly()),
    // --mmap maps walked files too, and then their NULs are looked for only at the start and in matches.
    namedBinaryRule: flags.mmap === true || (flags.mmap !== false && paths.length <= 10 && namedOnly()),
  };
  const sortBy = flags.sortr ?? flags.sort ?? (flags.sortFiles ? 'path' : undefined);
  return {
    kind: 'search',
    request,
    print,
    mode,
    sort: sortBy && sortBy !== 'none' ? { by: sortBy as SortKey, reverse: flags.sortr !== undefined } : null,
    json: flags.json ?? false,
    stats: flags.stats ?? false,
    messages: flags.messages,
    wording,
    // ripgrep warns when a walk it was given no path for found nothing to search.
    warnNoFiles: paths.length === 0,
  };
}

/** The most of standard input `trawl rg` reads (the js engine holds it whole); --max-filesize lowers it. */
const STDIN_MAX_BYTES = 1024 * 1024 * 1024;

/** What --passthru asks of the searcher: every line, as context when it does not match. */
const ALL_LINES = 2 ** 31 - 1;

/** Which files the flags select: ignore rules, hidden files, globs, types, depth and links. */
function walkOptions(flags: RgFlags, types: Record<string, string[]>) {
  const unrestricted = flags.unrestricted;
  const noIgnore = !flags.ignore || unrestricted >= 1;
  const extraIgnore = flags.ignoreFile.length > 0 && flags.ignoreFiles !== false;
  return {
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

function isFile(p: string, cwd: string): boolean {
  try {
    return fs.statSync(path.resolve(cwd, p)).isFile();
  } catch {
    return false;
  }
}
