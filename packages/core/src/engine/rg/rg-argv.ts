/**
 * The rg engine's command lines: the flags that ask ripgrep for the search a run describes, and how a long list
 * of named files is cut to fit the kernel's argument limit. What comes back is decoded in rg-output.ts.
 */
import * as path from 'node:path';
import { escapeGlob } from '../../glob/glob.js';
import type { EngineRun } from '../run.js';

/**
 * Consecutive stretches of `paths` whose argv bytes stay within `budget`: each path, its NUL and its pointer in
 * the argument vector (what the kernel counts against ARG_MAX).
 */
export function* argvBatches(paths: readonly string[], budget: number): Generator<string[], void, undefined> {
  let batch: string[] = [];
  let bytes = 0;
  for (const p of paths) {
    const n = Buffer.byteLength(p, 'utf8') + 1 + ARGV_POINTER_BYTES;
    if (batch.length > 0 && bytes + n > budget) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(p);
    bytes += n;
  }
  if (batch.length > 0) yield batch;
}

/** An argument's pointer in the vector execve copies (64-bit). */
const ARGV_POINTER_BYTES = 8;

/** A file named `-` in the working directory, as rg is given it among named files (see `outputSpelling`). */
export const NAMED_DASH = './-';

/**
 * rg's arguments for one run over `roots` (the flags, the pattern or `--file -`, then the roots), and what to write
 * to its standard input: the pattern, when it goes there, else null.
 */
export function buildRgArgs(
  run: EngineRun,
  roots: string[],
  /** The roots are files read as named (a candidate list): no walk flag, glob or size cap applies to them. */
  named = false,
): { args: string[]; stdin: string | null } {
  const p = run.pattern;
  const w = run.walk;
  const s = run.searcher;
  // Files-with-matches needs paths only: `--count --max-count 1` is a tenth of the JSON and cheap to
  // read. Not rg's own `-l`, which lists a file with a late NUL only sometimes (its sink decides at the
  // file's end); like `--json -m1`, `-c -m1` stops at the first match and reports it.
  const pathsOnly = s.mode === 'files-with-matches' && !run.reportUnmatched;
  // Counts only (-c, the tool's count, a detail horizon's count run): rg's --count, a path and a number per
  // file instead of every match as JSON (34 MB of matches counted in 81 ms, not 3–5 s). With reportUnmatched
  // (--files-without-match, --include-zero) every searched file with its count: rg's own --include-zero.
  const allCounts = run.reportUnmatched === true;
  const counts = allCounts || s.mode === 'count';
  const args = pathsOnly
    ? [
        '--count',
        '--max-count',
        '1',
        '--with-filename',
        '--null',
        '--stats',
        '--no-config',
        '--no-ignore-global',
      ]
    : counts
      ? [
          run.countMatches ? '--count-matches' : '--count',
          ...(allCounts ? ['--include-zero'] : []),
          '--with-filename',
          '--null',
          '--stats',
          '--no-config',
          '--no-ignore-global',
        ]
      : ['--json', '--no-config', '--no-ignore-global'];
  if (p.caseInsensitive) args.push('--ignore-case');
  if (p.fixedStrings) args.push('--fixed-strings');
  if (p.wordRegexp) args.push('--word-regexp');
  if (p.multiline) args.push('--multiline');
  if (!named) args.push(...rgWalkArgs(w));
  if (s.invert) args.push('--invert-match');
  if (s.nullData) args.push('--null-data');
  if (s.stopOnNonmatch) args.push('--stop-on-nonmatch');
  if (s.encoding !== undefined) args.push('--encoding', s.encoding);
  if (s.binaryDetection === 'none') args.push('--text');
  else if (s.binaryDetection === 'search') args.push('--binary');
  if (!named) {
    for (const dir of w.skipDirs ?? []) args.push('--glob', `!${escapeGlob(dir)}/`);
    for (const g of run.rgExcludeIglobs ?? []) args.push('--iglob', g);
  }
  if (run.rgNoMmap) args.push('--no-mmap');
  // rg names the files it skips for size only in its debug log (read by rg-stderr.ts), as the js engine names them.
  if (!named && Number.isFinite(run.maxFilesize) && !run.sizesWithinCap)
    args.push('--max-filesize', String(run.maxFilesize), '--debug');
  if (!pathsOnly && s.maxCount !== undefined) args.push('--max-count', String(s.maxCount));
  if (s.mode === 'lines') {
    if (s.afterContext > 0) args.push('--after-context', String(s.afterContext));
    if (s.beforeContext > 0) args.push('--before-context', String(s.beforeContext));
  } else if (s.mode === 'count' && !pathsOnly && s.maxCount !== undefined && s.afterContext > 0) {
    // ripgrep's -c -m N -A M also counts the matches inside the last match's after-context.
    args.push('--after-context', String(s.afterContext));
  }
  let stdin: string | null = null;
  if (run.patternChannel === 'stdin') {
    // `--file -` reads one pattern per line, so a pattern holding a newline is sent in escaped form.
    stdin = `${p.rust.includes('\n') ? newlineFree(p) : p.rust}\n`;
    if (p.rust.includes('\n') && p.fixedStrings) args.splice(args.indexOf('--fixed-strings'), 1);
    args.push('--file', '-');
  } else {
    args.push('--regexp', p.rust);
  }
  // The root '' means "the working directory, paths unprefixed": rg's `.`, with `./` taken off again.
  args.push('--', ...roots.map((r) => (r === '' ? '.' : r)));
  return { args, stdin };
}

/** The rg flags that choose the same files as the walk options do (the searching flags aside). */
export function rgWalkArgs(w: EngineRun['walk']): string[] {
  const args: string[] = [];
  if (w.hidden) args.push('--hidden');
  if (w.ignoreFiles === false) args.push('--no-ignore');
  if (w.requireGit === false) args.push('--no-require-git');
  if (w.parents === false) args.push('--no-ignore-parent');
  if (w.vcsIgnore === false) args.push('--no-ignore-vcs');
  if (w.dotIgnore === false) args.push('--no-ignore-dot');
  for (const f of w.extraIgnoreFiles ?? []) args.push('--ignore-file', path.resolve(w.cwd, f));
  if (w.maxDepth !== undefined) args.push('--max-depth', String(w.maxDepth));
  if (w.followLinks) args.push('--follow');
  // Our type table, given to rg as two ad-hoc types, so both engines select the same files.
  for (const g of w.fileTypes?.include ?? []) args.push('--type-add', `trawlselected:${g}`);
  for (const g of w.fileTypes?.exclude ?? []) args.push('--type-add', `trawlnegated:${g}`);
  if (w.fileTypes?.include.length) args.push('--type', 'trawlselected');
  if (w.fileTypes?.exclude.length) args.push('--type-not', 'trawlnegated');
  if (w.globCaseInsensitive) args.push('--glob-case-insensitive');
  for (const g of w.globs ?? []) args.push('--glob', g);
  return args;
}

function newlineFree(p: EngineRun['pattern']): string {
  if (p.fixedStrings) return p.rust.replace(/[\\.+*?()|[\]{}^$#&~-]/g, '\\$&').replace(/\n/g, '\\n');
  return p.rust.replace(/\n/g, '\\n');
}
