import * as path from 'node:path';
import { GlobError } from '../glob/glob.js';
import { IgnoreRules } from '../walk/ignore-rules.js';
import {
  type ArchiveSelector,
  normaliseMemberPath,
  parseArchiveSelector,
  sniffArchiveFormat,
} from './archive.js';
import { SearchToolError } from './errors.js';
import { type Exclusion, parseExclusion } from './exclusions.js';
import { type LineRange, mergeRanges, parseLineRanges, splitSelector } from './line-ranges.js';
import {
  closeBraces,
  hasGlobChars,
  hasTopLevelComma,
  normaliseEntry,
  splitGlob,
  splitTopLevelCommas,
  statPath,
  urlScheme,
} from './paths.js';
import type { ResourceHandler, ResourceRouter } from './resources.js';

/** One `paths` entry, understood. */
export type Target =
  | { kind: 'file'; input: string; abs: string; size: number; ranges: LineRange[] | null }
  | { kind: 'special'; input: string; abs: string }
  | { kind: 'dir'; input: string; abs: string }
  | { kind: 'glob'; input: string; baseAbs: string; rest: string; bare: boolean }
  | {
      kind: 'archive';
      input: string;
      archiveAbs: string;
      selector: ArchiveSelector;
      memberKey: string;
      ranges: LineRange[] | null;
    }
  | { kind: 'resource'; input: string; url: string; handler: ResourceHandler; ranges: LineRange[] | null }
  /** `!glob`: takes out what it matches (see exclusions.ts). */
  | { kind: 'exclude'; input: string; exclusion: Exclusion }
  | { kind: 'missing'; input: string; shown: string }
  | { kind: 'unreadable'; input: string; shown: string; code: string };

export interface TargetContext {
  cwd: string;
  home?: string;
  resources: ResourceRouter;
  /** `paths` was one string, not an array (its comma error then says how to pass several). */
  pathsWasString?: boolean;
}

/** The reference's text, for an array entry holding commas. */
const COMMA_ERROR = 'paths is an array — pass ["a", "b"] not ["a,b"]';

/**
 * A single string holding commas: "paths is an array" alone left callers unsure what to change (issue 11
 * item 11), so the answer spells the array they meant.
 */
function commaError(entry: string, ctx: TargetContext): SearchToolError {
  if (!ctx.pathsWasString) return new SearchToolError('comma_joined_paths', COMMA_ERROR);
  const parts = splitTopLevelCommas(entry).filter((p) => p !== '');
  return new SearchToolError(
    'comma_joined_paths',
    `paths "${entry}" joins several paths with commas: pass them as an array, [${parts.map((p) => JSON.stringify(p)).join(', ')}]`,
  );
}

/**
 * Understands every entry, in order, so the first bad entry decides the error (the reference's precedence:
 * selector and comma errors first, then archives and URLs, then existence).
 */
export async function resolveTargets(rawEntries: readonly string[], ctx: TargetContext): Promise<Target[]> {
  const entries = rawEntries.map((e) => normaliseEntry(e, ctx.home));
  if (entries.some((e) => e === '')) {
    throw new SearchToolError('empty_path', '`paths` must contain non-empty paths or globs');
  }
  const out: Target[] = [];
  for (const entry of entries) out.push(await resolveTarget(entry, ctx));
  return out;
}

async function resolveTarget(entry: string, ctx: TargetContext): Promise<Target> {
  const scheme = urlScheme(entry);
  if (scheme !== null) {
    const handler = ctx.resources.handler(scheme);
    if (!handler) {
      const known = ctx.resources.schemes.map((s) => `${s}://`).join(', ') || 'none';
      throw new SearchToolError(
        'unknown_scheme',
        `Unknown URL scheme "${scheme}://" in paths entry "${entry}" (searchable schemes: ${known})`,
      );
    }
    const { path: url, selector } = splitSelector(entry);
    const ranges = selector !== null ? parseLineRanges(selector, entry) : null;
    if (/[*[\]{}]/.test(url)) {
      throw new SearchToolError('url_glob', `Glob patterns are not supported for internal URLs: ${entry}`);
    }
    return { kind: 'resource', input: entry, url, handler, ranges };
  }

  const abs = path.resolve(ctx.cwd, entry);
  // A path that exists is a path, whatever characters it holds (`[id].tsx`, `a,b.txt`, `notes:1-2`).
  const literal = await statPath(abs);
  if (literal.kind === 'file') return { kind: 'file', input: entry, abs, size: literal.size, ranges: null };
  if (literal.kind === 'dir') return { kind: 'dir', input: entry, abs };
  if (literal.kind === 'other') return { kind: 'special', input: entry, abs };

  if (entry.startsWith('!')) return { kind: 'exclude', input: entry, exclusion: parseExclusion(entry) };

  const { path: bare, selector } = splitSelector(entry);
  if (selector !== null) {
    const ranges = parseLineRanges(selector, entry);
    const archive = parseArchiveSelector(bare, (p) => sniffArchiveFormat(path.resolve(ctx.cwd, p)));
    if (archive) return archiveTarget(entry, archive, ranges, ctx);
    const target = path.resolve(ctx.cwd, bare);
    const st = await statPath(target);
    if (st.kind === 'file') return { kind: 'file', input: entry, abs: target, size: st.size, ranges };
    if (st.kind === 'other') return { kind: 'special', input: entry, abs: target };
    if (st.kind === 'dir') {
      throw new SearchToolError(
        'line_range_target',
        `Line-range selector requires a single file: ${entry} is a directory`,
      );
    }
    if (hasGlobChars(bare)) {
      throw new SearchToolError(
        'line_range_target',
        `Line-range selector requires a single file, not a glob: ${entry}`,
      );
    }
    if (st.kind === 'error') {
      throw new SearchToolError('path_unreadable', `Cannot access ${entry}: ${describeCode(st.code)}`);
    }
    throw new SearchToolError('path_not_found', `Path not found for line-range selector: ${entry}`);
  }

  const archive = parseArchiveSelector(entry, (p) => sniffArchiveFormat(path.resolve(ctx.cwd, p)));
  if (archive) return archiveTarget(entry, archive, null, ctx);

  if (hasTopLevelComma(entry)) throw commaError(entry, ctx);

  if (hasGlobChars(entry)) {
    const split = splitGlob(entry);
    const rest = closeBraces(split.rest);
    validateGlob(rest, entry);
    const baseAbs = path.resolve(ctx.cwd, split.base);
    const st = await statPath(baseAbs);
    if (st.kind === 'dir') return { kind: 'glob', input: entry, baseAbs, rest, bare: split.bare };
    if (st.kind === 'error') return { kind: 'unreadable', input: entry, shown: split.base, code: st.code };
    return { kind: 'missing', input: entry, shown: split.base };
  }
  if (literal.kind === 'error') return { kind: 'unreadable', input: entry, shown: entry, code: literal.code };
  return { kind: 'missing', input: entry, shown: entry };
}

function archiveTarget(
  entry: string,
  selector: ArchiveSelector,
  ranges: LineRange[] | null,
  ctx: TargetContext,
): Target {
  const archiveAbs = path.resolve(ctx.cwd, selector.archive);
  const member = normaliseMemberPath(selector.member) ?? selector.member;
  return {
    kind: 'archive',
    input: entry,
    archiveAbs,
    selector,
    memberKey: `${archiveAbs}\u0000${member}`,
    ranges,
  };
}

/** The glob as the engine will compile it; an error names the entry and the reason. */
function validateGlob(glob: string, entry: string): void {
  try {
    IgnoreRules.overrides([glob], '');
  } catch (err) {
    if (err instanceof GlobError) {
      const reason = err.message.replace(/^invalid glob '.*?': /, '');
      throw new SearchToolError('invalid_glob', `Invalid glob pattern in paths entry "${entry}": ${reason}`);
    }
    throw err;
  }
}

export function describeCode(code: string): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'ENAMETOOLONG':
      return 'name too long';
    default:
      return code;
  }
}

/** Line ranges of one file named several times: any whole-file mention wins, else the union. */
export function unionRanges(a: LineRange[] | null, b: LineRange[] | null): LineRange[] | null {
  if (a === null || b === null) return null;
  return mergeRanges([...a, ...b]);
}
