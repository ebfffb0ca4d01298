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
  caseInsensitive: boolean;
  gitignore: boolean;
  skip: number;
}

/**
 * Validates arguments in the reference's order: shape first, then the pattern (checked trimmed, searched
 * as given), then `skip` (floored; negative, non-finite or absurd values refused).
 */
export async function parseSearchToolArgs(raw: unknown): Promise<ParsedSearchToolArgs> {
  const { lenientSearchToolInputSchema } = await loadSearchToolInputSchema();
  const parsed = lenientSearchToolInputSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
      return `${where}: ${issue.message}`;
    });
    throw new SearchToolError('invalid_arguments', `Invalid arguments for search: ${problems.join('; ')}`);
  }
  const args = parsed.data;
  if (args.pattern.trim() === '') throw new SearchToolError('empty_pattern', 'Pattern must not be empty');
  return {
    pattern: args.pattern,
    paths: typeof args.paths === 'string' ? [args.paths] : args.paths,
    caseInsensitive: args.i ?? false,
    gitignore: args.gitignore ?? true,
    skip: parseSkip(args.skip),
  };
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
