// Shared set-up for the in-process MCP tool tests: a server with the tools a test registers, and an SDK client
// linked to it over the SDK's InMemoryTransport (no process, no stdio framing — `mcp-search` covers those).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpServer, type TrawlMcpOptions } from '../src/mcp/server.js';

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
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(clientSide);
  return {
    client,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** The whole `trawl mcp` server (every tool, as createMcpServer registers them), linked in-process. */
export async function linkServer(options: TrawlMcpOptions): Promise<LinkedTools> {
  const made = await createMcpServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await made.server.connect(serverSide);
  const client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(clientSide);
  return {
    client,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
    async close() {
      await client.close();
      made.dispose();
      await made.server.close();
    },
  };
}
