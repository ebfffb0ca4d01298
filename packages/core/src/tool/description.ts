import type { OutputFormat } from './format.js';
import { loadSearchToolInputSchema } from './input.js';
import {
  LIST_PAGE_FILES,
  MAX_CONTEXT_LINES,
  MAX_LINE_BYTES,
  MAX_OUTPUT_BYTES,
  MULTI_FILE_MATCHES,
  PAGE_FILES,
  SINGLE_FILE_MATCHES,
} from './limits.js';
import { defaultResourceRouter } from './resources.js';

/** The tool's name as hosts register it (`search`). */
export const SEARCH_TOOL_NAME = 'search';

/**
 * What a host registers the tool with: its name (`search`), what the model is told ({@link searchToolDescription},
 * for the output `format` and the resource `schemes` served: by default those of a search given no router) and
 * the input shape (zod, tolerant of the spellings models send; JSON Schema is generated from it). Async: the schema
 * module (zod) loads on first use.
 */
export async function searchToolDefinition(
  options: { format?: OutputFormat; schemes?: string[] } = {},
): Promise<{
  name: 'search';
  description: string;
  inputShape: typeof import('./input-schema.js')['tolerantSearchToolInputShape'];
}> {
  const { tolerantSearchToolInputShape } = await loadSearchToolInputSchema();
  // The schemes default to those a search serves when given no router of its own.
  const schemes = options.schemes ?? defaultResourceRouter().schemes;
  return {
    name: SEARCH_TOOL_NAME,
    description: searchToolDescription({ ...options, schemes }),
    inputShape: tolerantSearchToolInputShape,
  };
}

/** What a model is told about the tool: syntax, targets, output shape and paging, in our words. */
export function searchToolDescription(options: { format?: OutputFormat; schemes?: string[] } = {}): string {
  const hashline = (options.format ?? 'hashline') === 'hashline';
  const schemes = (options.schemes ?? ['docs']).map((s) => `${s}://`).join(', ');
  // Kept short (every connection pays for it); the full reference is docs://search-tool.md, searchable by this tool.
  const lines = [
    'Search file contents for a regular expression. Read-only; fast on large trees.',
    '',
    'pattern: Rust regex (as ripgrep): \\b \\d (?i) [a-z] a|b; no look-around or backreferences; `\\|` is a literal bar. Escape literal ( ) [ ] { } . * + ?; literal=true takes the pattern as text, word=true matches whole words, multiline=true (or a \\n in the pattern) lets a match span lines ((?s) lets . cross them).',
    '',
    'paths (required): a string or an array, one target each (never "a,b"): a file; a directory (recursive; .gitignore respected unless gitignore=false; dot files included unless hidden=false; .git and node_modules skipped unless named, and every directory not searched is named with its file count); a glob (`*.ts` at any depth, `src/*.ts` anchored, `**` crosses directories); an archive member `bundle.zip:src/a.ts` (zip, jar, whl, tar, tgz); a URL (' +
      `${schemes}). One file may take line ranges: \`f.ts:40\`, \`:40-80\`, \`:40-\`, \`:40+20\`, \`:5,40-80\`. type="py" or ["ts","!test"] filters by rg's file types; exclude: globs to leave out.`,
    '',
    hashline
      ? 'Output: one file: `¶path#TAG` then lines; several: `# dir/` then `## name#TAG` per file (TAG identifies the content for editing tools). `*42:text` is a match, ` 43:text` context (`|` instead of `:` for untagged files); `...` marks skipped lines.'
      : 'Output: one file: `# path` then lines; several: `# dir/` then `## name` per file. `*42|text` is a match, ` 43|text` context; `...` marks skipped lines.',
    `Context: 1 line before, 3 after (context, before, after: 0-${MAX_CONTEXT_LINES}). output="files" lists names only (${LIST_PAGE_FILES} a page, cheapest), output="count" matching lines per file and the total.`,
    '',
    `Caps, each stated in the text when it hides something: ${PAGE_FILES} files a page (limit: 1-${LIST_PAGE_FILES}), ${MULTI_FILE_MATCHES} matching lines per file (${SINGLE_FILE_MATCHES} for one file; perFile), lines cut at ${MAX_LINE_BYTES} bytes, ${MAX_OUTPUT_BYTES / 1024} KiB of text. A page ends "Showing files 1-${PAGE_FILES} of N. Use skip=${PAGE_FILES} …": call again with that skip. Reference: docs://search-tool.md.`,
  ];
  return lines.join('\n');
}
