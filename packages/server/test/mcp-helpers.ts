// Shared set-up for the MCP tool tests: a server with the tools a test registers, and an SDK client linked to it
// over the SDK's InMemoryTransport (no process, no stdio framing — `mcp-search` covers those); or a real
// `trawl mcp` process over stdio (stdioClient).
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpServer, type TrawlMcpOptions } from '../src/mcp/server.js';
import { judgedRoot } from './roots.js';

export { judgedRoot };

export type ToolResult = {
  content: Array<{ type: string; text: string }>;
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

export interface LinkedTools {
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  client: Client;
  close(): Promise<void>;
}

export async function linkTools(register: (server: McpServer) => void): Promise<LinkedTools> {
  const server = new McpServer({ name: 'trawl-test', version: '0.0.0' });
  register(server);
  const client = await linkedClient(server);
  return {
    client,
    call: callOf(client),
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/**
 * The whole `trawl mcp` server (every tool, as createMcpServer registers them), linked in-process; its root judged
 * by {@link judgedRoot} first.
 */
export async function linkServer(
  options: Omit<TrawlMcpOptions, 'root'> & { root: string },
): Promise<LinkedTools> {
  const made = await createMcpServer({ ...options, root: await judgedRoot(options.root) });
  const client = await linkedClient(made.server);
  return {
    client,
    call: callOf(client),
    async close() {
      await client.close();
      made.dispose();
      await made.server.close();
    },
  };
}

/** An SDK client connected to `server` over an in-memory pair. */
async function linkedClient(server: McpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

function callOf(client: Client): LinkedTools['call'] {
  return async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult;
}

const BIN = path.resolve(__dirname, '../bin/trawl.js');

/** A real `trawl mcp --root ROOT FLAGS…` process, HOME as given, with an SDK client on its stdio. */
export async function stdioClient(
  root: string,
  flags: string[],
  where: { cwd: string; home: string; name: string },
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--root', root, ...flags],
    cwd: where.cwd,
    stderr: 'ignore',
    env: { PATH: process.env['PATH'] ?? '', HOME: where.home },
  });
  const client = new Client({ name: where.name, version: '0.0.0' });
  await client.connect(transport);
  return client;
}
