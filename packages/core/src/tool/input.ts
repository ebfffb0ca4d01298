import type { z } from 'zod';
import { FILE_TYPES } from '../walk/file-types.js';
import { SearchToolError } from './errors.js';
import type { searchToolInputSchema } from './input-schema.js';
import {
  LIST_PAGE_FILES,
  MAX_CONTEXT_LINES,
  MAX_EXCLUDE_GLOBS,
  MAX_PAGE_FILES,
  MAX_PER_FILE_MATCHES,
  MAX_SKIP,
  MAX_TYPES,
} from './limits.js';

/** The zod schemas of the tool's arguments, loaded on first use (zod is slow to load; most CLI runs never need it). */
export function loadSearchToolInputSchema(): Promise<typeof import('./input-schema.js')> {
  return import('./input-schema.js');
}

/** Arguments as callers pass them (library, CLI, MCP). */
export type SearchToolArgs = z.input<typeof searchToolInputSchema>;

/** Arguments after validation. */
export interface ParsedSearchToolArgs {
  pattern: string;
  paths: string[];
  /** `paths` came as one string (its errors word themselves for that). */
  pathsWasString: boolean;
  caseInsensitive: boolean;
  gitignore: boolean;
  skip: number;
  /** Context lines asked for; undefined keeps the host's (or the seed's) default. */
  before: number | undefined;
  after: number | undefined;
  /** `content` (lines, the default), `files` (names only) or `count` (matching lines per file, and the total). */
  output: SearchOutput;
  /** `!glob` entries, appended after `paths` (so they win over what paths names). */
  exclude: string[];
  /** Walks include dot files and directories (the seed's default: true). */
  hidden: boolean;
  /** Matching lines shown per file; undefined keeps the default (20, or 200 for one file). */
  perFile: number | undefined;
  /** rg's `-t`/`-T`: the file-name globs of the types asked for and of those excluded (`!name`); null: none. */
  types: { include: string[]; exclude: string[] } | null;
  /** rg -w: a match must not have a word character right before or after it. */
  word: boolean;
  /** rg -F: the pattern is a literal string. */
  literal: boolean;
  /** rg -U: matches may span lines (also on when the pattern holds a newline or \n). */
  multiline: boolean;
  /** Files a page; undefined keeps the output's default (20 with lines, 100 names or counts). */
  limit: number | undefined;
}

export const SEARCH_OUTPUTS = ['content', 'files', 'count'] as const;
export type SearchOutput = (typeof SEARCH_OUTPUTS)[number];

/**
 * Validates arguments in the reference's order: shape first, then the pattern (checked trimmed, searched
 * as given), then `skip` (floored; negative, non-finite or absurd values refused).
 */
export async function parseSearchToolArgs(raw: unknown): Promise<ParsedSearchToolArgs> {
  const args = wellTyped(raw) ?? (await parseWithSchema(raw));
  if (args.pattern.trim() === '') throw new SearchToolError('empty_pattern', 'Pattern must not be empty');
  const context = count(args.context, 'context', 0, MAX_CONTEXT_LINES, 'invalid_context');
  return {
    pattern: args.pattern,
    paths: typeof args.paths === 'string' ? [args.paths] : args.paths,
    pathsWasString: typeof args.paths === 'string',
    caseInsensitive: args.i ?? false,
    gitignore: args.gitignore ?? true,
    skip: parseSkip(args.skip),
    before: count(args.before, 'before', 0, MAX_CONTEXT_LINES, 'invalid_context') ?? context,
    after: count(args.after, 'after', 0, MAX_CONTEXT_LINES, 'invalid_context') ?? context,
    output: parseOutput(args.output),
    exclude: parseExclude(args.exclude),
    hidden: args.hidden ?? true,
    perFile: count(args.perFile, 'perFile', 1, MAX_PER_FILE_MATCHES, 'invalid_per_file'),
    types: parseTypes(args.type),
    word: bool(args.word, 'word'),
    literal: bool(args.literal, 'literal'),
    multiline: bool(args.multiline, 'multiline'),
    limit: count(args.limit, 'limit', 1, MAX_PAGE_FILES, 'invalid_limit'),
  };
}

function bool(value: unknown, name: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  throw new SearchToolError(
    'invalid_arguments',
    `${name} must be true or false, got ${JSON.stringify(value)}`,
  );
}

/**
 * `type`: a name of rg's type table or a list of them (`"ts"`, `["py", "!test"]`); `!name` excludes. Each becomes its
 * file-name globs, as rg -t / -T. An unknown name is refused with the names it may have meant.
 */
function parseTypes(value: unknown): { include: string[]; exclude: string[] } | null {
  if (value === undefined || value === null) return null;
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((t) => typeof t === 'string'))
    throw new SearchToolError('invalid_type', 'type must be a file type name or an array of them');
  if (list.length > MAX_TYPES)
    throw new SearchToolError('invalid_type', `type takes at most ${MAX_TYPES} names`);
  const out = { include: [] as string[], exclude: [] as string[] };
  for (const raw of list) {
    const t = raw.trim();
    const negated = t.startsWith('!');
    const name = (negated ? t.slice(1) : t).trim().toLowerCase();
    const globs = Object.hasOwn(FILE_TYPES, name) ? FILE_TYPES[name] : undefined;
    if (!globs) {
      const near = Object.keys(FILE_TYPES).filter(
        (k) => name !== '' && (k.startsWith(name.slice(0, 2)) || k.includes(name)),
      );
      throw new SearchToolError(
        'invalid_type',
        `Unknown file type "${raw}" (rg's type names, e.g. ts, js, py, rust, go, md${near.length > 0 ? `; close: ${near.slice(0, 8).join(', ')}` : ''}). For other names use a glob in paths or exclude.`,
      );
    }
    (negated ? out.exclude : out.include).push(...globs);
  }
  return out;
}

/** A whole number within bounds (a numeric string, as models send them, is a number); null/absent: undefined. */
function count(
  value: unknown,
  name: string,
  min: number,
  max: number,
  code: 'invalid_context' | 'invalid_per_file' | 'invalid_limit',
): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new SearchToolError(
      code,
      `${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value) ?? String(value)}`,
    );
  }
  return n;
}

function parseOutput(value: unknown): SearchOutput {
  if (value === undefined || value === null) return 'content';
  if (typeof value === 'string' && (SEARCH_OUTPUTS as readonly string[]).includes(value))
    return value as SearchOutput;
  throw new SearchToolError(
    'invalid_output',
    `output must be one of ${SEARCH_OUTPUTS.map((o) => `"${o}"`).join(', ')}, got ${JSON.stringify(value) ?? String(value)}`,
  );
}

/** `exclude`: one glob or an array of them, each taken as a `!glob` entry of paths (the `!` is optional). */
function parseExclude(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((g) => typeof g === 'string')) {
    throw new SearchToolError('invalid_exclude', 'exclude must be a glob or an array of globs');
  }
  if (list.length > MAX_EXCLUDE_GLOBS) {
    throw new SearchToolError('invalid_exclude', `exclude takes at most ${MAX_EXCLUDE_GLOBS} globs`);
  }
  return list.map((g) => {
    const glob = g.trim();
    if (glob === '' || glob === '!')
      throw new SearchToolError('invalid_exclude', 'exclude globs must not be empty');
    return glob.startsWith('!') ? glob : `!${glob}`;
  });
}

/** Files per page for an output mode: names and counts are a line each. */
export function pageFilesFor(output: SearchOutput, contentPage: number): number {
  return output === 'content' ? contentPage : LIST_PAGE_FILES;
}

interface ShapedArgs {
  pattern: string;
  paths: string | string[];
  i?: boolean | null | undefined;
  gitignore?: boolean | null | undefined;
  hidden?: boolean | null | undefined;
  // Checked (and worded) by parseSearchToolArgs whichever way the arguments came.
  skip?: unknown;
  context?: unknown;
  before?: unknown;
  after?: unknown;
  output?: unknown;
  exclude?: unknown;
  perFile?: unknown;
  type?: unknown;
  word?: unknown;
  literal?: unknown;
  multiline?: unknown;
  limit?: unknown;
}

/**
 * Arguments that already have the schema's types (the CLI's always do) pass without zod, which takes
 * ~0.1 s to load; anything else goes through the schema, which also words the errors. Stricter than the
 * schema, never looser: what it accepts, the schema accepts as the same values.
 */
function wellTyped(raw: unknown): ShapedArgs | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const { pattern, paths, i, gitignore, hidden } = r;
  const flag = (v: unknown) => v === undefined || v === null || typeof v === 'boolean';
  const pathsOk =
    typeof paths === 'string' ||
    (Array.isArray(paths) && paths.length > 0 && paths.every((p) => typeof p === 'string'));
  if (typeof pattern !== 'string' || !pathsOk || !flag(i) || !flag(gitignore) || !flag(hidden)) return null;
  return {
    pattern,
    paths: paths as string | string[],
    i: i as boolean | null,
    gitignore: gitignore as boolean | null,
    hidden: hidden as boolean | null,
    skip: r['skip'],
    context: r['context'],
    before: r['before'],
    after: r['after'],
    output: r['output'],
    exclude: r['exclude'],
    perFile: r['perFile'],
    type: r['type'],
    word: r['word'],
    literal: r['literal'],
    multiline: r['multiline'],
    limit: r['limit'],
  };
}

async function parseWithSchema(raw: unknown): Promise<ShapedArgs> {
  const { lenientSearchToolInputSchema } = await loadSearchToolInputSchema();
  const parsed = lenientSearchToolInputSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
    return `${where}: ${issue.message}`;
  });
  throw new SearchToolError('invalid_arguments', `Invalid arguments for search: ${problems.join('; ')}`);
}

function parseSkip(value: unknown): number {
  if (value === undefined || value === null) return 0;
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\s*[-+]?\d+(?:\.\d+)?\s*$/.test(value)) n = Number(value);
  else throw new SearchToolError('invalid_skip', 'Skip must be a non-negative number');
  if (!Number.isFinite(n) || n < 0)
    throw new SearchToolError('invalid_skip', 'Skip must be a non-negative number');
  const floored = Math.floor(n);
  if (floored > MAX_SKIP) throw new SearchToolError('invalid_skip', `Skip must be at most ${MAX_SKIP}`);
  return floored;
}
