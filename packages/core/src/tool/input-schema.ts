import { z } from 'zod';

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
};

/** The lenient parse: `null` means absent and a numeric string is a number, as models tend to send them. */
export const lenientSearchToolInputSchema = z.object({
  pattern: z.string(),
  paths: z.union([z.string(), z.array(z.string()).min(1)]),
  i: z.boolean().nullish(),
  gitignore: z.boolean().nullish(),
  skip: z.unknown().optional(),
});
