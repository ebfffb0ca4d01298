import { z } from 'zod';
import {
  DEFAULT_CONTEXT_AFTER,
  DEFAULT_CONTEXT_BEFORE,
  LIST_PAGE_FILES,
  MAX_CONTEXT_LINES,
  MAX_EXCLUDE_GLOBS,
  MAX_PAGE_FILES,
  MAX_PER_FILE_MATCHES,
  MAX_SKIP,
  MAX_TYPES,
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
    .min(0)
    .max(MAX_SKIP)
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
    .min(0)
    .max(MAX_CONTEXT_LINES)
    .optional()
    .describe(
      `Context lines before and after each match, 0-${MAX_CONTEXT_LINES} (default ${DEFAULT_CONTEXT_BEFORE} before, ${DEFAULT_CONTEXT_AFTER} after). Each line costs output; 0 shows matches only.`,
    ),
  before: z
    .number()
    .int()
    .min(0)
    .max(MAX_CONTEXT_LINES)
    .optional()
    .describe(`Context lines before each match, 0-${MAX_CONTEXT_LINES}; overrides context for that side.`),
  after: z
    .number()
    .int()
    .min(0)
    .max(MAX_CONTEXT_LINES)
    .optional()
    .describe(`Context lines after each match, 0-${MAX_CONTEXT_LINES}; overrides context for that side.`),
  perFile: z
    .number()
    .int()
    .min(1)
    .max(MAX_PER_FILE_MATCHES)
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
  type: z
    .union([z.string(), z.array(z.string()).max(MAX_TYPES)])
    .optional()
    .describe(
      'File types, as rg -t: "ts", "py", ["js", "!test"] ("!" excludes). rg\'s type table; named files are searched whatever their type.',
    ),
  word: z.boolean().optional().describe('Whole words only, as rg -w (default false).'),
  literal: z.boolean().optional().describe('The pattern is a literal string, as rg -F (default false).'),
  multiline: z
    .boolean()
    .optional()
    .describe('Matches may span lines, as rg -U (default false); (?s) lets . match a newline.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_FILES)
    .optional()
    .describe(
      `Files a page, 1-${MAX_PAGE_FILES} (default ${PAGE_FILES} with lines, ${LIST_PAGE_FILES} for names or counts).`,
    ),
};

export const searchToolInputSchema = z.object(searchToolInputShape);

/** A whole number shown with its bounds but not checked against them here (the tool words that refusal). */
function shownBounds(strict: z.ZodOptional<z.ZodNumber>, minimum: number, maximum: number) {
  return z.number().int().optional().meta({ description: strict.description, minimum, maximum });
}

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
  skip: z.preprocess(
    numberIfNumeric,
    z
      .number()
      .optional()
      .meta({ description: searchToolInputShape.skip.description, minimum: 0, maximum: MAX_SKIP }),
  ),
  hidden: z.preprocess(absentIfNull, searchToolInputShape.hidden),
  output: z.preprocess(absentIfNull, searchToolInputShape.output),
  exclude: z.preprocess(absentIfNull, searchToolInputShape.exclude),
  // Bounds are checked after the schema, so an out-of-range number gets the tool's coded message; the client is
  // still shown them (JSON Schema minimum/maximum, from the metadata).
  context: z.preprocess(numberIfNumeric, shownBounds(searchToolInputShape.context, 0, MAX_CONTEXT_LINES)),
  before: z.preprocess(numberIfNumeric, shownBounds(searchToolInputShape.before, 0, MAX_CONTEXT_LINES)),
  after: z.preprocess(numberIfNumeric, shownBounds(searchToolInputShape.after, 0, MAX_CONTEXT_LINES)),
  perFile: z.preprocess(numberIfNumeric, shownBounds(searchToolInputShape.perFile, 1, MAX_PER_FILE_MATCHES)),
  limit: z.preprocess(numberIfNumeric, shownBounds(searchToolInputShape.limit, 1, MAX_PAGE_FILES)),
  type: z.preprocess(absentIfNull, searchToolInputShape.type),
  word: z.preprocess(absentIfNull, searchToolInputShape.word),
  literal: z.preprocess(absentIfNull, searchToolInputShape.literal),
  multiline: z.preprocess(absentIfNull, searchToolInputShape.multiline),
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
  type: z.unknown().optional(),
  word: z.unknown().optional(),
  literal: z.unknown().optional(),
  multiline: z.unknown().optional(),
  limit: z.unknown().optional(),
});
