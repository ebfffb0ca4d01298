import { z } from 'zod';
import {
  DEFAULT_CONTEXT_AFTER,
  DEFAULT_CONTEXT_BEFORE,
  LIST_PAGE_FILES,
  MAX_CONTEXT_LINES,
  MAX_EXCLUDE_GLOBS,
  MAX_PER_FILE_MATCHES,
  MULTI_FILE_MATCHES,
  PAGE_FILES,
  SINGLE_FILE_MATCHES,
} from './limits.js';

// zod costs a few hundred milliseconds to load, so this module is loaded on first use (see input.ts).

/**
 * The tool's arguments as a model sees them (JSON Schema is generated from this shape). Unknown keys are
 * dropped, as the reference's framework does.
 */
export const searchToolInputShape = {
  pattern: z
    .string()
    .describe(
      'Regular expression (Rust regex syntax, as ripgrep: no look-around or backreferences). Searched as given, spaces included. A literal newline or \\n in the pattern lets a match span lines.',
    ),
  paths: z
    .union([z.string(), z.array(z.string()).min(1)])
    .describe(
      'What to search: a file, a directory, a glob, an archive member (bundle.zip:src/a.ts) or a docs:// URL; or an array of those. Append :N, :N-M, :N- or :N+K (comma lists allowed) to a single file to search only those lines.',
    ),
  i: z.boolean().optional().describe('Case-insensitive search (default false).'),
  gitignore: z.boolean().optional().describe('Respect .gitignore and .ignore files (default true).'),
  skip: z
    .number()
    .optional()
    .describe(
      'Files to skip: the page offset of a multi-file result. The text says which value gives the next page.',
    ),
  output: z
    .enum(['content', 'files', 'count'])
    .optional()
    .describe(
      `What to show (default "content"): "content" = matching lines with context, ${PAGE_FILES} files a page (the costliest, up to 50 KiB); "files" = only the names of matching files, one line each, ${LIST_PAGE_FILES} a page (cheapest: use it to find where, then search those files); "count" = matching lines per file and the total, ${LIST_PAGE_FILES} files a page (reads every match of every file: slower on big trees, small text).`,
    ),
  context: z
    .number()
    .int()
    .optional()
    .describe(
      `Context lines before and after each match, 0-${MAX_CONTEXT_LINES} (default ${DEFAULT_CONTEXT_BEFORE} before, ${DEFAULT_CONTEXT_AFTER} after). Each line costs output; 0 shows matches only.`,
    ),
  before: z
    .number()
    .int()
    .optional()
    .describe(`Context lines before each match, 0-${MAX_CONTEXT_LINES}; overrides context for that side.`),
  after: z
    .number()
    .int()
    .optional()
    .describe(`Context lines after each match, 0-${MAX_CONTEXT_LINES}; overrides context for that side.`),
  perFile: z
    .number()
    .int()
    .optional()
    .describe(
      `Matching lines shown per file, 1-${MAX_PER_FILE_MATCHES} (default ${MULTI_FILE_MATCHES}, ${SINGLE_FILE_MATCHES} when one file is searched). Lower it to skim many files; a capped file says where its next match is.`,
    ),
  exclude: z
    .union([z.string(), z.array(z.string()).max(MAX_EXCLUDE_GLOBS)])
    .optional()
    .describe(
      'Globs to leave out, e.g. "*.test.ts" or ["dist", "src/generated/**"]: without "/" they match a file or directory name at any depth, with "/" a path from the working directory. The same as "!glob" entries at the end of paths.',
    ),
  hidden: z
    .boolean()
    .optional()
    .describe(
      'Search dot files and dot directories (default true; .git is never searched). false leaves them out.',
    ),
};

export const searchToolInputSchema = z.object(searchToolInputShape);

const absentIfNull = (v: unknown) => (v === null ? undefined : v);
const numberIfNumeric = (v: unknown) =>
  v === null ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;

/**
 * The shape as an MCP server should register it: tolerant of what models send (`null` for an absent
 * option, a number as a string: "20"), while the JSON Schema a client is shown stays the strict one.
 */
export const tolerantSearchToolInputShape = {
  ...searchToolInputShape,
  i: z.preprocess(absentIfNull, searchToolInputShape.i),
  gitignore: z.preprocess(absentIfNull, searchToolInputShape.gitignore),
  skip: z.preprocess(numberIfNumeric, searchToolInputShape.skip),
  hidden: z.preprocess(absentIfNull, searchToolInputShape.hidden),
  output: z.preprocess(absentIfNull, searchToolInputShape.output),
  exclude: z.preprocess(absentIfNull, searchToolInputShape.exclude),
  // Bounds are checked after the schema, so an out-of-range number gets the tool's coded message.
  context: z.preprocess(numberIfNumeric, searchToolInputShape.context),
  before: z.preprocess(numberIfNumeric, searchToolInputShape.before),
  after: z.preprocess(numberIfNumeric, searchToolInputShape.after),
  perFile: z.preprocess(numberIfNumeric, searchToolInputShape.perFile),
};

/** The lenient parse: `null` means absent and a numeric string is a number, as models tend to send them. */
export const lenientSearchToolInputSchema = z.object({
  pattern: z.string(),
  paths: z.union([z.string(), z.array(z.string()).min(1)]),
  i: z.boolean().nullish(),
  gitignore: z.boolean().nullish(),
  hidden: z.boolean().nullish(),
  // Checked and worded by parseSearchToolArgs.
  skip: z.unknown().optional(),
  context: z.unknown().optional(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  output: z.unknown().optional(),
  exclude: z.unknown().optional(),
  perFile: z.unknown().optional(),
});
