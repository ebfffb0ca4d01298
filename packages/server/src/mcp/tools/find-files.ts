import * as fs from 'node:fs';
import * as path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createSensitiveFence, type SensitiveFence } from '@trawl/core/fence';
import {
  FileIndex,
  NAME_DEFAULT_LIMIT,
  NAME_LIMIT_CEILING,
  NAME_MIN_QUERY_CHARS,
  NAME_SKIP_DIRS,
  type NameKinds,
  type NameResult,
  searchNames,
  walkNameSearch,
} from '@trawl/core/names';
import { z } from 'zod';
import { FIND_SKIPPED_BUDGET_MS, FIND_SKIPPED_SHOWN } from '../limits.js';
import { entryRowShape } from './entry-row.js';

export const FIND_FILES_TOOL_NAME = 'find_files';

export interface FindFilesRegistration {
  /** The project root: every search is scoped to it. */
  root: string;
  fence?: SensitiveFence;
  /**
   * Keep a name index of the root (built in the background on the first call, kept fresh by watchers); until it
   * is ready, and when the tree is over the index's entry cap, calls walk. Default true.
   */
  index?: boolean;
  /** Operational log (stderr for the stdio server). */
  log?: (line: string) => void;
}

/** Input: the /api/file-search parameters an agent needs (the root is the server's). */
export const findFilesInputShape = {
  query: z
    .string()
    // The schema says what the server accepts (it refused shorter queries a schema allowed).
    .min(NAME_MIN_QUERY_CHARS)
    .max(1024)
    .describe(
      `What to look for in file and directory NAMES (at least ${NAME_MIN_QUERY_CHARS} characters): fuzzy, so "flspy" finds files.py; a "/" scores against the path ("src/app"). Not a content search.`,
    ),
  kinds: z
    .enum(['all', 'files', 'dirs'])
    .optional()
    .describe('Restrict to files or directories (default all).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(NAME_LIMIT_CEILING)
    .optional()
    .describe(`Results wanted (default ${NAME_DEFAULT_LIMIT}, at most ${NAME_LIMIT_CEILING}).`),
};

const DESCRIPTION = [
  "Find files and directories by NAME under the project root, ranked like an editor's file picker (exact name,",
  'then prefix, substring, path, fuzzy; files before directories on a tie; shorter and newer first).',
  'Returns paths relative to the root, directories with a trailing "/". Dot files, .git, node_modules and build',
  'output directories are not offered, nor are credential stores. To search file CONTENTS use `search`.',
].join(' ');

/**
 * Registers `find_files` on an MCP server: name search with the /api/file-search semantics, scoped to the root.
 * Returns a disposer that stops the background index (call it when the server closes).
 */
export function registerFindFilesTool(server: McpServer, options: FindFilesRegistration): () => void {
  const fence = options.fence ?? createSensitiveFence();
  let canonicalRoot: string | undefined;
  let index: FileIndex | undefined;
  const rootOf = (): string => {
    canonicalRoot ??= fs.realpathSync(options.root);
    return canonicalRoot;
  };
  const ensureIndex = (root: string) => {
    if (options.index === false || index) return;
    index = new FileIndex(root, { fence });
    index.start().catch((err: unknown) => {
      options.log?.(`find_files: index of ${root} unavailable (${(err as Error).message}); searches walk`);
    });
  };

  server.registerTool(
    FIND_FILES_TOOL_NAME,
    {
      title: 'Find files by name',
      description: DESCRIPTION,
      inputSchema: findFilesInputShape,
      outputSchema: {
        results: z.array(entryRowShape),
        root: z.string(),
        source: z.enum(['index', 'walk', 'short-query']),
        partial: z.boolean(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      let root: string;
      try {
        root = rootOf();
      } catch {
        return {
          content: [{ type: 'text' as const, text: `The project root ${options.root} does not exist.` }],
          isError: true,
        };
      }
      if (await fence.isSensitive(root)) {
        return {
          content: [{ type: 'text' as const, text: 'The project root is a sensitive location.' }],
          isError: true,
        };
      }
      if (args.query.trim().length < NAME_MIN_QUERY_CHARS) {
        return {
          content: [
            {
              type: 'text' as const,
              text: `The query must be at least ${NAME_MIN_QUERY_CHARS} characters (not counting spaces).`,
            },
          ],
          isError: true,
        };
      }
      ensureIndex(root);
      const answer = await searchNames({
        query: args.query,
        roots: [root],
        scoped: true,
        limit: args.limit,
        kinds: args.kinds,
        index,
        fence,
      });
      const limit = args.limit ?? NAME_DEFAULT_LIMIT;
      let text = formatFound(args.query, answer.results, root, limit, answer.partial === true);
      if (answer.results.length === 0) {
        const hidden = await namesInSkipDirs(args.query, root, args.kinds ?? 'all', fence);
        if (hidden) text += `\n${hidden}`;
      }
      return {
        content: [{ type: 'text' as const, text }],
        structuredContent: {
          // Relative to the root, as the description and the text say.
          results: answer.results.map((r) => ({ ...r, path: path.relative(root, r.path) || '.' })),
          root,
          source: answer.source,
          partial: answer.partial === true,
        },
      };
    },
  );
  return () => index?.stop();
}

/**
 * An empty answer asks whether skip directories (dist/, build/, node_modules …, never offered) hid the name
 * (issue 11 item 4): a short walk that enters them, and a note naming what it found and how to look there.
 */
async function namesInSkipDirs(
  query: string,
  root: string,
  kinds: NameKinds,
  fence: SensitiveFence,
): Promise<string | null> {
  const walked = await walkNameSearch({
    query: query.trim(),
    roots: [root],
    scoped: true,
    kinds,
    fence,
    limit: FIND_SKIPPED_SHOWN,
    timeBudgetMs: FIND_SKIPPED_BUDGET_MS,
    skipDirs: new Set(['.git']),
  });
  const rel = walked.results
    .map((r) => ({ rel: path.relative(root, r.path), dir: r.kind === 'dir' }))
    .filter((r) => r.rel.split('/').some((seg) => NAME_SKIP_DIRS.has(seg)));
  if (rel.length === 0) return null;
  const dirs = [...new Set(rel.map((r) => `${r.rel.split('/').find((seg) => NAME_SKIP_DIRS.has(seg))}/`))];
  const names = rel.map((r) => (r.dir ? `${r.rel}/` : r.rel));
  return `Skipped directories (${dirs.join(', ')}), which find_files never enters, hold matching names: ${names.join(', ')}. To look there, list_dir the directory, or search its contents with \`search\` and paths naming it.`;
}

function formatFound(
  query: string,
  rows: NameResult[],
  root: string,
  limit: number,
  partial: boolean,
): string {
  if (rows.length === 0) {
    return `No file or directory names match "${query}"${partial ? ' (the walk stopped at its time budget; the tree is large: try a more specific name)' : ''}.`;
  }
  const lines = rows.map((r) => {
    const rel = path.relative(root, r.path) || '.';
    return r.kind === 'dir' ? `${rel}/` : rel;
  });
  const notes: string[] = [];
  if (rows.length >= limit) {
    notes.push(
      limit < NAME_LIMIT_CEILING
        ? `Showing the best ${rows.length}; pass a larger limit (up to ${NAME_LIMIT_CEILING}) or a more specific query for more.`
        : `Showing the best ${rows.length} (the maximum); use a more specific query for others.`,
    );
  }
  if (partial) notes.push('The walk stopped at its time budget; results may be incomplete.');
  return `${lines.join('\n')}${notes.length ? `\n\n${notes.join('\n')}` : ''}`;
}
