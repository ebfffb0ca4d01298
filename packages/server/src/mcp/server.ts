import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ContentIndex, openIndex } from '@trawl/core/content-index';
import { type EngineChoice, keepSearchWorkersWarm } from '@trawl/core/engine';
import { type CanonicalRoot, createSensitiveFence, type SensitiveFence } from '@trawl/core/fence';
import { version } from '../version.js';
import { registerSearchTool } from './search-tool.js';
import { LineTransport } from './stdio-transport.js';
import { mcpInstructions } from './tool-list.js';
import { registerFileInfoTool } from './tools/file-info.js';
import { registerFindFilesTool } from './tools/find-files.js';
import { registerGrepFilesTool } from './tools/grep-files.js';
import { registerListDirTool } from './tools/list-dir.js';

export interface TrawlMcpOptions {
  /** The project root (judged by the root policy): relative paths resolve here; the other tools serve it. */
  root: CanonicalRoot;
  /** Every directory `search` may read (default: `root` alone). */
  roots?: readonly CanonicalRoot[];
  /** Let `search` read outside the roots (default false: confined, as the reference filesystem server is). */
  allowOutside?: boolean;
  engine?: EngineChoice;
  deadlineMs?: number;
  /**
   * Where the root's content index lives (`trawl index --data-dir`); it is loaded or built in the background
   * and searches scan until it is ready. Absent: no index.
   */
  indexDataDir?: string;
  /**
   * Credential-shaped values in every line the tools return become `[REDACTED: kind]`, counted in the answer
   * (default true: a model's context is a place text leaves the machine from; `trawl mcp --no-redact` turns it off).
   */
  redact?: boolean;
}

/** An MCP server with trawl's tools, and what to call when it closes (the content index runs in the background). */
export interface TrawlMcpServer {
  server: McpServer;
  dispose(): void;
}

/** An MCP server with trawl's tools. Each tool registers itself from its own module. */
export async function createMcpServer(
  options: TrawlMcpOptions,
  log?: (line: string) => void,
): Promise<TrawlMcpServer> {
  const server = new McpServer(
    { name: 'trawl', version },
    {
      instructions: mcpInstructions(),
    },
  );
  // One fence for the server's life, kept current by its watchers: every tool, the search tool and the index judge
  // by it, and a search does not resolve the table again.
  const fence = createSensitiveFence({
    live: true,
    ...(options.indexDataDir ? { extra: [options.indexDataDir] } : {}),
  });
  const index = options.indexDataDir
    ? startContentIndex(options.root, options.indexDataDir, fence, log)
    : undefined;
  const searchTool = await registerSearchTool(server, {
    ...options,
    fence,
    ...(log ? { log } : {}),
    ...(index ? { index } : {}),
  });
  // A client pauses between calls (an agent thinks for minutes): the next search finds its worker warm. With an
  // index, once it is ready (the worker would compete with loading it).
  let releaseWorkers: (() => void) | null = index ? null : keepSearchWorkersWarm(1);
  let disposed = false;
  if (index)
    void prepareWhenReady(index, searchTool.prepare, log, () => {
      if (disposed) return false;
      releaseWorkers = keepSearchWorkersWarm(1);
      return true;
    });
  const redact = options.redact !== false;
  const scope = { root: options.root, fence, redact };
  registerFindFilesTool(server, scope);
  registerGrepFilesTool(server, {
    ...scope,
    ...(options.engine ? { engine: options.engine } : {}),
    ...(index ? { index } : {}),
  });
  registerListDirTool(server, scope);
  registerFileInfoTool(server, scope);
  return {
    server,
    dispose: () => {
      disposed = true;
      releaseWorkers?.();
      void index?.close();
      fence.close();
    },
  };
}

/** Opens the root's content index in the background and logs when it is ready (or why it is not). */
function startContentIndex(
  root: CanonicalRoot,
  dataDir: string,
  fence: SensitiveFence,
  log?: (line: string) => void,
): ContentIndex | undefined {
  try {
    const index = openIndex(root, { dataDir, fence });
    void index.whenReady().then(() => {
      const st = index.status();
      log?.(
        st.state === 'ready'
          ? `trawl mcp: content index ready (${st.files} files, ${st.reason}, freshness: ${st.freshness})`
          : `trawl mcp: no content index (${st.reason}); searches scan`,
      );
    });
    return index;
  } catch (err) {
    log?.(`trawl mcp: no content index (${(err as Error).message}); searches scan`);
    return undefined;
  }
}

/**
 * Once the index is ready, the walks of the search tool's usual calls are listed (prepareSearchTool), so the
 * agent's first searches do not each walk the tree. `onReady` says whether the server still serves (it warms a
 * worker then). Never rejects: nothing here may take the server down.
 */
async function prepareWhenReady(
  index: ContentIndex,
  prepare: () => Promise<number>,
  log: ((line: string) => void) | undefined,
  onReady: () => boolean,
): Promise<void> {
  try {
    await index.whenReady();
    if (!onReady() || index.status().state !== 'ready') return;
    const began = Date.now();
    const kept = await prepare();
    log?.(`trawl mcp: ${kept} walk(s) of the search tool listed ahead (${Date.now() - began} ms)`);
  } catch (err) {
    log?.(`trawl mcp: walks not listed ahead (${(err as Error).message}); the first searches walk`);
  }
}

/**
 * Serves MCP on stdin/stdout until the client closes stdin or `stop` aborts. stdout carries only protocol messages;
 * anything else goes to `log` (stderr). A message the transport refuses (too large, not JSON, not
 * JSON-RPC) is answered with a JSON-RPC error and logged; the server goes on serving.
 */
export async function serveMcpStdio(
  options: TrawlMcpOptions,
  log: (line: string) => void,
  stop?: AbortSignal,
): Promise<void> {
  const { server, dispose } = await createMcpServer(options, log);
  const transport = new LineTransport();
  const closed = new Promise<string>((resolve) => {
    transport.onclose = () => resolve('stdin closed');
  });
  // connect() chains these with the server's own handlers.
  transport.onerror = (err) => log(err.message);
  await server.connect(transport);
  log(`trawl mcp: serving ${options.root} on stdio`);
  // The client closing stdin is the usual end; `stop` (the CLI's: a signal, the client gone) is the other.
  const stopped = new Promise<string>((resolve) => {
    if (stop?.aborted) resolve(String(stop.reason));
    stop?.addEventListener('abort', () => resolve(String(stop.reason)), { once: true });
  });
  const reason = await Promise.race([closed, stopped]);
  log(`trawl mcp: stopping (${reason})`);
  dispose();
  await server.close();
}
