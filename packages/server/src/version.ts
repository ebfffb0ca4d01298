import { createRequire } from 'node:module';

/**
 * trawl's version, read from this package's package.json (one place: `src/` and `dist/` both sit one level
 * below it); the CLI's `--version` and the MCP server's handshake both say it.
 */
export const version: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;
