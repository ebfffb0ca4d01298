import type { OutputFormat } from './format.js';
import {
  LIST_PAGE_FILES,
  MAX_CONTEXT_LINES,
  MAX_LINE_BYTES,
  MAX_OUTPUT_BYTES,
  MULTI_FILE_MATCHES,
  PAGE_FILES,
  SINGLE_FILE_MATCHES,
} from './limits.js';

/** The tool's name as hosts register it (`search`). */
export const SEARCH_TOOL_NAME = 'search';

/** What a model is told about the tool: syntax, targets, output shape and paging, in our words. */
export function searchToolDescription(options: { format?: OutputFormat; schemes?: string[] } = {}): string {
  const hashline = (options.format ?? 'hashline') === 'hashline';
  const schemes = (options.schemes ?? ['docs']).map((s) => `${s}://`).join(', ');
  const lines = [
    'Search file contents for a regular expression. Read-only; fast on large trees.',
    '',
    'Pattern: Rust regex syntax (as ripgrep): \\b, \\d, (?i), classes, alternation a|b. No look-around or backreferences. `\\|` is a literal bar, not alternation. Escape literal ( ) [ ] { } . * + ? with a backslash; a lone unbalanced paren or a brace that is not a repetition is taken literally (refused when an alternation beside it makes that ambiguous). The pattern is searched exactly as given, spaces included. A literal newline or \\n in the pattern lets a match span lines.',
    '',
    'paths (required): one string or an array of strings, one target per element (never "a,b"):',
    '- a file, a directory (searched recursively; .gitignore respected unless gitignore=false; hidden files included; .git and node_modules skipped unless named);',
    '- a glob: `*` and `?` never cross `/`; `**` crosses directories. A glob without `/` matches file names at any depth (`*.ts`); a glob with `/` is anchored (`src/*.ts` = files directly in src, `src/**/*.ts` = all .ts under src);',
    '- an archive member: `bundle.zip:src/a.ts`, `.tar`, `.tar.gz`, `.tgz` (UTF-8 text members);',
    `- a URL of a registered scheme (${schemes}); \`docs://\` searches trawl's own documentation.`,
    'Line ranges, for a single file, archive member or URL: `f.ts:40` (that line), `f.ts:40-80`, `f.ts:40-`, `f.ts:40+20`, `f.ts:5,40-80`.',
    'Files you name are searched even if ignored. Results follow the order of your paths; files found in a directory or by globs come in path order.',
    '',
    'Output:',
    hashline
      ? '- one file: a header `¶path#TAG`, then lines. Several files: `# dir/` headings with `## name#TAG` per file (`# name#TAG` at the top level; a file whose directory was headed above a subdirectory shows its full path, `# dir/name#TAG`). TAG identifies the file content for editing tools. Lines: `*42:text` is a match, ` 43:text` context; files without a tag (archive members, URLs) use `|` instead of `:`.'
      : '- one file: a header `# path`, then lines. Several files: `# dir/` headings with `## name` per file. Lines: `*42|text` is a match, ` 43|text` context.',
    '- `...` marks skipped lines. Context: 1 line before and 3 after each match unless you pass context/before/after.',
    `- Caps (always stated at the end of the text when they hide something): ${PAGE_FILES} files per page, ${MULTI_FILE_MATCHES} matching lines per file (${SINGLE_FILE_MATCHES} when one file is searched), lines cut at ${MAX_LINE_BYTES} bytes, ${MAX_OUTPUT_BYTES / 1024} KiB of text.`,
    '',
    `Options, by what they cost in output: output="files" lists only the names of matching files (one short line each, ${LIST_PAGE_FILES} a page: the cheapest way to find where something is); output="count" lists matching lines per file and the total (as cheap in text; every match is counted, so slower on huge trees); output="content" (default) shows lines. context (0-${MAX_CONTEXT_LINES}, or before/after) adds that many lines around every match; 0 shows matches only. perFile (1-${SINGLE_FILE_MATCHES}) changes the per-file cap. exclude: globs to leave out ("*.test.ts", "dist", "src/gen/**"). hidden=false leaves dot files out (default: searched).`,
    '',
    `Paging: a multi-file result shows ${PAGE_FILES} files at a time and ends with "Showing files 1-${PAGE_FILES} of N. Use skip=${PAGE_FILES} …": call again with that skip for the next page. To see more matches of one file, search that file alone or with a range (the text says which). A search cut by its deadline says so and gives "at least N".`,
  ];
  return lines.join('\n');
}
