import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SearchIndex } from '@trawl/core/content-index';
import type { EngineChoice } from '@trawl/core/engine';
import type { CanonicalRoot, SensitiveFence } from '@trawl/core/fence';
import {
  prepareSearchTool,
  SearchToolError,
  searchTool,
  searchToolDefinition,
  TagCache,
} from '@trawl/core/tool';
import { z } from 'zod';

export interface SearchToolRegistration {
  /** Relative paths resolve here. */
  root: CanonicalRoot;
  /** Directories the tool may read; default: `root` alone. */
  roots?: readonly CanonicalRoot[];
  /** The server's one fence (mcp/server.ts builds it). */
  fence: SensitiveFence;
  /** No confinement to the roots. */
  allowOutside?: boolean;
  engine?: EngineChoice;
  deadlineMs?: number;
  /** The content index searches go through (they scan while it is not ready). */
  index?: SearchIndex;
  /** Operational log lines (stderr for the stdio server). */
  log?: (line: string) => void;
  /** Redact credential-shaped values in every line returned (default true). */
  redact?: boolean;
}

/** The structured result: the tool's details (the text is in `content`). Loose: details may grow. */
const detailsShape = {
  scopePath: z.string(),
  searchPath: z.string(),
  matchCount: z.number(),
  fileCount: z.number(),
  files: z.array(z.string()),
  totalFiles: z.number(),
  totalFilesExact: z.boolean(),
  skip: z.number(),
  nextSkip: z.number().optional(),
  truncated: z.boolean(),
  outcome: z.enum(['complete', 'timeout']),
  output: z.enum(['content', 'files', 'count']),
  totalMatches: z.number().optional(),
  notes: z.array(z.string()),
  redacted: z.number().optional(),
};

/**
 * Registers the agent `search` tool on an MCP server. Returns what readies the index for the tool's usual calls
 * (prepareSearchTool: the walks of a call on the root, listed ahead); the server calls it once the index is ready.
 */
export async function registerSearchTool(
  server: McpServer,
  options: SearchToolRegistration,
): Promise<{ prepare(): Promise<number> }> {
  // One cache per server: an agent paging through a tree does not re-hash the files it has seen.
  const tagCache = new TagCache();
  const toolOptions = {
    cwd: options.root,
    fence: options.fence,
    ...(options.allowOutside ? {} : { roots: [...(options.roots ?? [options.root])] }),
    format: 'hashline' as const,
    // Its answers name what they did not enter, as the server's other tools do (one view of the tree).
    nameUnentered: true,
    redact: options.redact !== false,
    tagCache,
    ...(options.engine ? { engine: options.engine } : {}),
    ...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
  };
  const tool = await searchToolDefinition({ format: 'hashline' });
  server.registerTool(
    tool.name,
    {
      title: 'Search file contents',
      description:
        tool.description +
        (options.allowOutside
          ? ''
          : `\n\nRoots: ${(options.roots ?? [options.root]).join(', ')}. Relative paths resolve in the first; a path outside every root (../, an absolute path elsewhere, a link leading out) is refused.`),
      inputSchema: tool.inputShape,
      outputSchema: z.looseObject(detailsShape),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args, extra) => {
      const started = Date.now();
      try {
        const result = await searchTool(args, {
          ...toolOptions,
          signal: extra.signal,
          ...(options.index ? { index: options.index } : {}),
        });
        return {
          content: [{ type: 'text' as const, text: result.text }],
          structuredContent: result.details as unknown as Record<string, unknown>,
        };
      } catch (err) {
        if (err instanceof SearchToolError) {
          return { content: [{ type: 'text' as const, text: err.message }], isError: true };
        }
        if (extra.signal.aborted) {
          options.log?.(
            `search: cancelled by the client after ${Date.now() - started} ms; the search was stopped`,
          );
        } else {
          // Unexpected: logged with its stack on stderr; the client gets the message only.
          options.log?.(`search: internal error: ${(err as Error)?.stack ?? String(err)}`);
        }
        throw err;
      }
    },
  );
  return {
    prepare: async () => (options.index ? prepareSearchTool({ ...toolOptions, index: options.index }) : 0),
  };
}
