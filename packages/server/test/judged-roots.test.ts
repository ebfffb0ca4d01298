import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createSensitiveFence, resolveUserRoot } from '@trawl/core/fence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrepHostOptions } from '../src/http/grep-host.js';
import type { IndexHost } from '../src/http/index-host.js';
import type { TrawlMcpOptions } from '../src/mcp/server.js';
import { registerFileInfoTool } from '../src/mcp/tools/file-info.js';
import { registerFindFilesTool } from '../src/mcp/tools/find-files.js';
import { registerGrepFilesTool } from '../src/mcp/tools/grep-files.js';
import { registerListDirTool } from '../src/mcp/tools/list-dir.js';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-judged-'));
  fs.mkdirSync(path.join(tmp, 'proj'));
  fs.symlinkSync(path.join(tmp, 'proj'), path.join(tmp, 'link'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('roots the server searches, lists and indexes', () => {
  it('are only roots the root policy judged: a plain string is a type error', async () => {
    const fence = createSensitiveFence({ home: tmp, env: {} });
    const r = await resolveUserRoot(path.join(tmp, 'link'), { fence, home: tmp });
    if (!r.ok) throw new Error(r.message);
    // The judged root is the canonical directory, not the spelling that led to it.
    expect(r.root).toBe(fs.realpathSync(path.join(tmp, 'proj')));
    const server = new McpServer({ name: 'judged-roots', version: '0.0.0' });
    for (const register of [
      registerFindFilesTool,
      registerGrepFilesTool,
      registerListDirTool,
      registerFileInfoTool,
    ])
      register(server, { root: r.root, fence });
    // Checked by `npm run typecheck`: each line below is a type error.
    const typeErrors = () => {
      // @ts-expect-error: a spelling nobody judged
      registerGrepFilesTool(server, { root: path.join(tmp, 'link'), fence });
      // @ts-expect-error: a spelling nobody judged
      registerListDirTool(server, { root: '/', fence });
      // @ts-expect-error: a spelling nobody judged
      const options: TrawlMcpOptions = { root: tmp };
      // @ts-expect-error: `trawl serve`'s hosts index only judged roots
      const grepHost: Pick<GrepHostOptions, 'roots'> = { roots: [tmp] };
      const keep = (host: IndexHost) => {
        // @ts-expect-error: `trawl serve`'s hosts index only judged roots
        host.keep(tmp);
      };
      return [options, grepHost, keep];
    };
    expect(typeof typeErrors).toBe('function');
    await server.close();
  });
});
