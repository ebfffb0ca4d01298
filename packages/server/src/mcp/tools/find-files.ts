import * as path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CanonicalRoot, SensitiveFence } from '@trawl/core/fence';
import { NAME_LIMITS, type NameKinds, type NameResult, searchNames, walkNameSearch } from '@trawl/core/names';
import { redactedWords } from '@trawl/core/redact';
import { agentTree, type TreeSurvey } from '@trawl/core/tool';
import { z } from 'zod';
import { FIND_SKIPPED_BUDGET_MS, FIND_SKIPPED_SHOWN } from '../limits.js';
import { entryRowShape, NameRedaction, unenteredShape } from './entry-row.js';
import { findByGlob, globRows, globText, looksLikeGlob } from './find-glob.js';

export const FIND_FILES_TOOL_NAME = 'find_files';

export interface FindFilesRegistration {
  /** The project root, judged by the root policy: every search is scoped to it. */
  root: CanonicalRoot;
  /** The server's one fence (mcp/server.ts builds it). */
  fence: SensitiveFence;
  /** Redact credential-shaped values in the names returned, and say how many (default true). */
  redact?: boolean;
}

/** Input: the /api/file-search parameters an agent needs (the root is the server's). */
export const findFilesInputShape = {
  query: z
    .string()
    // The schema says what the server accepts (it refused shorter queries a schema allowed).
    .min(NAME_LIMITS.minQueryChars)
    .max(1024)
    .optional()
    .describe(
      `What to look for in file and directory NAMES (at least ${NAME_LIMITS.minQueryChars} characters): fuzzy, so "flspy" finds files.py; a "/" scores against the path ("src/app"). Not a content search. Give query or glob.`,
    ),
  glob: z
    .union([z.string().min(1).max(1024), z.array(z.string().min(1).max(1024)).min(1).max(16)])
    .optional()
    .describe(
      'Path globs instead of a fuzzy name: "*.test.ts" (a name at any depth), "src/**/*.py" (anchored at the root). Files only.',
    ),
  sort: z
    .enum(['path', 'newest'])
    .optional()
    .describe('Order of glob results: path (default) or newest first (by modification time).'),
  kinds: z
    .enum(['all', 'files', 'dirs'])
    .optional()
    .describe('Restrict to files or directories (default all).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(NAME_LIMITS.maxLimit)
    .optional()
    .describe(`Results wanted (default ${NAME_LIMITS.defaultLimit}, at most ${NAME_LIMITS.maxLimit}).`),
};

const DESCRIPTION = [
  "Find files and directories by NAME under the project root, ranked like an editor's file picker (exact name,",
  'then prefix, substring, path, fuzzy; files before directories on a tie; shorter and newer first).',
  'Returns paths relative to the root, directories with a trailing "/". The tree is the one `search` sees:',
  '.gitignore respected, dot files offered, .git and node_modules not entered (every directory not entered is',
  'named with its file count); credential stores are never offered. glob takes path globs instead ("*.test.ts",',
  '"src/**/*.py"; sort: "newest" for the most recently changed first). To search file CONTENTS use `search`.',
].join(' ');

/**
 * Registers `find_files` on an MCP server: name search ranked as /api/file-search ranks, over the agent's tree
 * (tool/tree-view.ts: what `search` walks), scoped to the root. It walks on every call: the dashboard's name index
 * keeps the seed's rules (no ignore files, build output and dot directories left out), which are not the agent's.
 */
export function registerFindFilesTool(server: McpServer, options: FindFilesRegistration): void {
  const { fence, root } = options;

  server.registerTool(
    FIND_FILES_TOOL_NAME,
    {
      title: 'Find files by name',
      description: DESCRIPTION,
      inputSchema: findFilesInputShape,
      outputSchema: {
        results: z.array(entryRowShape),
        root: z.string(),
        source: z.enum(['index', 'walk', 'short-query', 'glob']),
        total: z.number().optional(),
        partial: z.boolean(),
        unentered: z.array(unenteredShape).optional(),
        redacted: z.number().optional(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      // The server's fence is long-lived: what changed before this call is in its table.
      await fence.settled();
      const query = args.query ?? '';
      if (args.glob !== undefined || looksLikeGlob(query)) {
        const globs =
          args.glob === undefined ? [query.trim()] : typeof args.glob === 'string' ? [args.glob] : args.glob;
        const sort = args.sort ?? 'path';
        const found = findByGlob(root, globs, { sort, limit: args.limit ?? NAME_LIMITS.maxLimit, fence });
        const names = new NameRedaction(options.redact !== false);
        for (const h of found.hits) h.rel = names.text(h.rel);
        let text = globText(globs, found, sort);
        if (args.glob === undefined)
          text = `"${query}" is a glob, so it was matched as one (pass it as glob to say so).\n${text}`;
        if (names.count > 0) text += `\n${redactedWords(names.count)}`;
        return {
          content: [{ type: 'text' as const, text }],
          structuredContent: {
            results: globRows(found),
            root,
            source: 'glob' as const,
            partial: found.partial,
            total: found.total,
            ...(options.redact !== false ? { redacted: names.count } : {}),
          },
        };
      }
      if (args.query === undefined) {
        return {
          content: [{ type: 'text' as const, text: 'Give query (a name, fuzzy) or glob (path globs).' }],
          isError: true,
        };
      }
      if (query.trim().length < NAME_LIMITS.minQueryChars) {
        return {
          content: [
            {
              type: 'text' as const,
              text: `The query must be at least ${NAME_LIMITS.minQueryChars} characters (not counting spaces).`,
            },
          ],
          isError: true,
        };
      }
      const view = agentTree.admission(root);
      const answer = await searchNames({
        query,
        roots: [root],
        scoped: true,
        limit: args.limit,
        kinds: args.kinds,
        dotFiles: true,
        fence,
        walk: {
          skipDirs: agentTree.walkOptions.skipDirs,
          dotDirs: true,
          admit: (abs, isDir) => view.why(abs, isDir) === null,
        },
      });
      const limit = args.limit ?? NAME_LIMITS.defaultLimit;
      const names = new NameRedaction(options.redact !== false);
      const results = answer.results.map((r) => ({ ...r, ...names.row(root, r) }));
      let text = formatFound(query, results, root, limit, answer.partial === true);
      const survey = agentTree.survey({
        cwd: root,
        roots: [root],
        exclude: (abs) => fence.isSensitiveCanonical(abs),
      });
      if (answer.results.length === 0) {
        const hidden = await namesNotEntered(query, root, args.kinds ?? 'all', fence, survey);
        if (hidden) text += `\n${names.text(hidden)}`;
      }
      const note = agentTree.describe(
        survey,
        'entered',
        'To look there, list_dir the directory, or `search` with paths naming it.',
      );
      if (note) text += `\n\n${names.text(note)}`;
      if (names.count > 0) text += `\n${redactedWords(names.count)}`;
      return {
        content: [{ type: 'text' as const, text }],
        structuredContent: {
          // Relative to the root, as the description and the text say.
          results: results.map((r) => ({ ...r, path: path.relative(root, r.path) || '.' })),
          root,
          source: answer.source,
          partial: answer.partial === true,
          ...(survey.unentered.length > 0 ? { unentered: survey.unentered } : {}),
          ...(options.redact !== false ? { redacted: names.count } : {}),
        },
      };
    },
  );
}

/**
 * An empty answer asks whether the directories the tree leaves out (node_modules, ignored build output …) hold the
 * name: a short walk that enters them, and a note naming what it found there.
 */
async function namesNotEntered(
  query: string,
  root: string,
  kinds: NameKinds,
  fence: SensitiveFence,
  survey: TreeSurvey,
): Promise<string | null> {
  if (survey.unentered.length === 0) return null;
  const dirs = survey.unentered.map((d) => d.path);
  const walked = await walkNameSearch({
    query: query.trim(),
    roots: dirs.map((d) => path.join(root, d)),
    scoped: true,
    kinds,
    fence,
    dotFiles: true,
    dotDirs: true,
    limit: FIND_SKIPPED_SHOWN,
    timeBudgetMs: FIND_SKIPPED_BUDGET_MS,
    skipDirs: new Set(),
  });
  if (walked.results.length === 0) return null;
  const names = walked.results.map((r) => {
    const rel = path.relative(root, r.path);
    return r.kind === 'dir' ? `${rel}/` : rel;
  });
  return `Directories find_files does not enter hold matching names: ${names.join(', ')}.`;
}

function formatFound(
  query: string,
  rows: NameResult[],
  root: string,
  limit: number,
  partial: boolean,
): string {
  if (rows.length === 0) {
    return `No file or directory names match "${query}"${partial ? ' in the part of the tree walked (the walk stopped at its budget before covering the tree)' : ''}.`;
  }
  const lines = rows.map((r) => {
    const rel = path.relative(root, r.path) || '.';
    return r.kind === 'dir' ? `${rel}/` : rel;
  });
  const notes: string[] = [];
  if (rows.length >= limit) {
    notes.push(
      limit < NAME_LIMITS.maxLimit
        ? `Showing the best ${rows.length}; pass a larger limit (up to ${NAME_LIMITS.maxLimit}) or a more specific query for more.`
        : `Showing the best ${rows.length} (the maximum); use a more specific query for others.`,
    );
  }
  if (partial) notes.push('The walk stopped at its time budget; results may be incomplete.');
  return `${lines.join('\n')}${notes.length ? `\n\n${notes.join('\n')}` : ''}`;
}
