import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SearchIndex } from '@trawl/core/content-index';
import { type EngineChoice, PatternError } from '@trawl/core/engine';
import type { CanonicalRoot, SensitiveFence } from '@trawl/core/fence';
import {
  emptyGrepPayload,
  formatGrepText,
  GREP_LIMITS,
  type GrepRequest,
  grepFiles,
  grepQuery,
} from '@trawl/core/grep';
import { redactedWords } from '@trawl/core/redact';
import { agentTree } from '@trawl/core/tool';
import { z } from 'zod';
import { unenteredShape } from './entry-row.js';

export const GREP_FILES_TOOL_NAME = 'grep_files';

export interface GrepFilesRegistration {
  /** The project root, judged by the root policy: every search is scoped to it. */
  root: CanonicalRoot;
  /** The server's one fence (mcp/server.ts builds it). */
  fence: SensitiveFence;
  engine?: EngineChoice;
  /** Seams (tests shrink the budget). */
  grep?: Partial<Pick<GrepRequest, 'limits' | 'now' | 'rgPath'>>;
  /** The root's content index: the text pass reads only the files it may match in. */
  index?: SearchIndex;
  /** Redact credential-shaped values in previews and labels, and say how many (default true). */
  redact?: boolean;
}

/** Input: /api/file-grep's body (the root is the server's). */
export const grepFilesInputShape = {
  query: z
    .string()
    .max(4096)
    .describe(
      `Text to look for in file CONTENTS (${GREP_LIMITS.minQueryChars}–${GREP_LIMITS.maxQueryChars} characters, one line): a literal, case-insensitive unless told otherwise.`,
    ),
  case_sensitive: z.boolean().optional().describe('Match case exactly (default false).'),
  whole_word: z
    .boolean()
    .optional()
    .describe('Only where no word character is right before or after (default false).'),
  regex: z
    .boolean()
    .optional()
    .describe('The query is a Rust-syntax regular expression, as ripgrep takes (default false: a literal).'),
};

const rowShape = z.object({
  file: z.string(),
  line: z.number(),
  preview: z.string(),
  label: z.string().optional(),
  doc_line: z.number().optional(),
  ranges: z.array(z.tuple([z.number(), z.number()])).optional(),
});

const DESCRIPTION = [
  'Which files under the project root CONTAIN a text: one row per file (its first matching line), Word, PowerPoint',
  `and Excel documents included (with the slide or sheet row). At most ${GREP_LIMITS.maxResults} rows within a 2 s budget;`,
  'the answer says when it is partial. The tree is the one `search` sees: .gitignore respected, dot files searched,',
  '.git and node_modules skipped (every directory not searched is named with its file count); credential stores are',
  'never read. For every matching line, context or paging use `search`.',
].join(' ');

/** Registers `grep_files` on an MCP server: content search with the /api/file-grep semantics, scoped to the root. */
export function registerGrepFilesTool(server: McpServer, options: GrepFilesRegistration): void {
  const { fence, root } = options;
  server.registerTool(
    GREP_FILES_TOOL_NAME,
    {
      title: 'Find files by content',
      description: DESCRIPTION,
      inputSchema: grepFilesInputShape,
      outputSchema: {
        results: z.array(rowShape),
        truncated: z.boolean(),
        engine: z.string(),
        skipped_docs: z.number(),
        root: z.string(),
        total_files: z.number().optional(),
        total_files_at_least: z.number().optional(),
        partial_reasons: z.array(z.string()).optional(),
        unentered: z.array(unenteredShape).optional(),
        redacted: z.number().optional(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      // The server's fence is long-lived: what changed before this call is in its table.
      await fence.settled();
      const fail = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: true });
      const query = grepQuery(args.query);
      if (query === null) {
        return {
          content: [
            {
              type: 'text' as const,
              text: `Not a search: the query must be ${GREP_LIMITS.minQueryChars}–${GREP_LIMITS.maxQueryChars} characters on one line.`,
            },
          ],
          structuredContent: { ...emptyGrepPayload() },
          isError: true,
        };
      }
      try {
        const { payload, detail } = await grepFiles({
          root,
          query,
          fence,
          caseSensitive: args.case_sensitive === true,
          wholeWord: args.whole_word === true,
          regex: args.regex === true,
          ...(options.engine ? { engine: options.engine } : {}),
          ...(options.index ? { index: options.index } : {}),
          walk: agentTree.walkOptions,
          ...(options.redact === false ? { raw: true } : {}),
          ...options.grep,
        });
        const survey = agentTree.survey({
          cwd: root,
          roots: [root],
          exclude: (abs) => fence.isSensitiveCanonical(abs),
        });
        const note = agentTree.describe(
          survey,
          'searched',
          'To look there, use `search` with paths naming the directory (gitignore: false for ignored files).',
        );
        const tail = [
          ...(note ? [note] : []),
          ...(detail.redacted > 0 ? [redactedWords(detail.redacted)] : []),
        ];
        const text = formatGrepText(payload, detail, query);
        return {
          content: [
            { type: 'text' as const, text: tail.length > 0 ? `${text}\n\n${tail.join('\n')}` : text },
          ],
          structuredContent: {
            ...payload,
            ...(options.redact === false ? {} : { redacted: detail.redacted }),
            ...(survey.unentered.length > 0 ? { unentered: survey.unentered } : {}),
          },
        };
      } catch (err) {
        if (err instanceof PatternError) return fail(`Invalid regular expression: ${err.message}`);
        throw err;
      }
    },
  );
}
