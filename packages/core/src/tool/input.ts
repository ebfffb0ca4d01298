import type { z } from 'zod';
import { SearchToolError } from './errors.js';
import type { searchToolInputSchema } from './input-schema.js';
import { MAX_SKIP } from './limits.js';

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
}

/**
 * Validates arguments in the reference's order: shape first, then the pattern (checked trimmed, searched
 * as given), then `skip` (floored; negative, non-finite or absurd values refused).
 */
export async function parseSearchToolArgs(raw: unknown): Promise<ParsedSearchToolArgs> {
  const args = wellTyped(raw) ?? (await parseWithSchema(raw));
  if (args.pattern.trim() === '') throw new SearchToolError('empty_pattern', 'Pattern must not be empty');
  return {
    pattern: args.pattern,
    paths: typeof args.paths === 'string' ? [args.paths] : args.paths,
    pathsWasString: typeof args.paths === 'string',
    caseInsensitive: args.i ?? false,
    gitignore: args.gitignore ?? true,
    skip: parseSkip(args.skip),
  };
}

interface ShapedArgs {
  pattern: string;
  paths: string | string[];
  i?: boolean | null | undefined;
  gitignore?: boolean | null | undefined;
  skip?: unknown;
}

/**
 * Arguments that already have the schema's types (the CLI's always do) pass without zod, which takes
 * ~0.1 s to load; anything else goes through the schema, which also words the errors. Stricter than the
 * schema, never looser: what it accepts, the schema accepts as the same values.
 */
function wellTyped(raw: unknown): ShapedArgs | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { pattern, paths, i, gitignore, skip } = raw as Record<string, unknown>;
  const flag = (v: unknown) => v === undefined || v === null || typeof v === 'boolean';
  const pathsOk =
    typeof paths === 'string' ||
    (Array.isArray(paths) && paths.length > 0 && paths.every((p) => typeof p === 'string'));
  if (typeof pattern !== 'string' || !pathsOk || !flag(i) || !flag(gitignore)) return null;
  return {
    pattern,
    paths: paths as string | string[],
    i: i as boolean | null,
    gitignore: gitignore as boolean | null,
    skip,
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
