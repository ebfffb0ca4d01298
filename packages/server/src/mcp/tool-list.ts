/**
 * The tools trawl's MCP server registers, in the order it registers them, each with the phrase that says what it is
 * for. The one list: the server's `instructions` (mcp/server.ts) and `trawl mcp --help` (cli/commands/mcp.ts) are
 * written from it, and a test holds it equal to what `tools/list` answers. No MCP SDK import: the CLI's help reads it
 * without loading the server.
 */
export const MCP_TOOLS: readonly { readonly name: string; readonly use: string }[] = [
  { name: 'search', use: 'for file contents (regex, globs, line ranges, paging)' },
  { name: 'find_files', use: 'to find files and folders by name or glob' },
  { name: 'grep_files', use: 'for which files (documents too) contain a text' },
  { name: 'list_dir', use: 'to list one directory level' },
  { name: 'file_info', use: 'for what a path is' },
];

/** The server's `instructions` in the initialize answer: every tool of MCP_TOOLS, by name, with its use. */
export function mcpInstructions(): string {
  const uses = MCP_TOOLS.map((t) => `\`${t.name}\` ${t.use}`);
  const last = uses.pop();
  return `trawl searches files. Use ${uses.length > 0 ? `${uses.join(', ')}, and ${last}` : last}.`;
}
