import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LinkedTools, linkServer } from './mcp-helpers.js';

/**
 * 🔒 The MCP server keeps one fence for its life (not one per search): a credential store swapped for a link into
 * the project between two searches is still left out by the next one, and searched again once the link is gone.
 */
let tmp: string;
let home: string;
let project: string;
let savedHome: string | undefined;
let tools: LinkedTools;

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-mcp-fence-')));
  home = path.join(tmp, 'home');
  project = path.join(tmp, 'project');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(path.join(project, 'keys'), { recursive: true });
  fs.mkdirSync(path.join(project, 'src'), { recursive: true });
  fs.writeFileSync(path.join(project, 'keys', 'id_ed25519'), 'CANARY key\n');
  fs.writeFileSync(path.join(project, 'src', 'app.ts'), 'CANARY control\n');
  // The server's fence is anchored at this process's HOME.
  savedHome = process.env['HOME'];
  process.env['HOME'] = home;
  tools = await linkServer({ root: project });
});

afterAll(async () => {
  await tools?.close();
  if (savedHome === undefined) delete process.env['HOME'];
  else process.env['HOME'] = savedHome;
  fs.rmSync(tmp, { recursive: true, force: true });
});

const files = async () =>
  (
    (await tools.call('search', { pattern: 'CANARY', paths: ['.'], output: 'files' })).structuredContent as {
      files: string[];
    }
  ).files.sort();

describe('the MCP server’s one fence', () => {
  it('leaves out a store made a link into the project between two searches, and takes it back after', async () => {
    expect(await files()).toEqual(['keys/id_ed25519', 'src/app.ts']);
    fs.symlinkSync(path.join(project, 'keys'), path.join(home, '.ssh'));
    expect(await files()).toEqual(['src/app.ts']);
    fs.rmSync(path.join(home, '.ssh'));
    expect(await files()).toEqual(['keys/id_ed25519', 'src/app.ts']);
  });

  it('is the fence of every tool: grep_files leaves out a store made a link between two calls too', async () => {
    const grepped = async () =>
      (
        (await tools.call('grep_files', { query: 'CANARY' })).structuredContent as {
          results: Array<{ file: string }>;
        }
      ).results
        .map((r) => r.file)
        .sort();
    expect(await grepped()).toEqual(['keys/id_ed25519', 'src/app.ts']);
    fs.symlinkSync(path.join(project, 'keys'), path.join(home, '.ssh'));
    try {
      expect(await grepped()).toEqual(['src/app.ts']);
    } finally {
      fs.rmSync(path.join(home, '.ssh'));
    }
    expect(await grepped()).toEqual(['keys/id_ed25519', 'src/app.ts']);
  });
});
