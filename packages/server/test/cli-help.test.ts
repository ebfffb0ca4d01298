// Help and handshake text that says what trawl really has. The MCP server's tools are written in one list
// (src/mcp/tool-list.ts): what tools/list answers, the server's instructions and `trawl mcp --help` all come from
// it, so a tool added to the server cannot be left out of either.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import { MCP_TOOLS, mcpInstructions } from '../src/mcp/tool-list.js';
import { version } from '../src/version.js';
import { type LinkedTools, linkServer } from './mcp-helpers.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

async function trawl(args: string[]) {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(args, { stdout, stderr, cwd: os.tmpdir(), env: {} });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Help text as one line: commander wraps it at the terminal's width. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ');

let tmp: string;
let linked: LinkedTools;

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-mcp-list-')));
  fs.writeFileSync(path.join(tmp, 'a.txt'), 'x\n');
  linked = await linkServer({ root: tmp });
});

afterAll(async () => {
  await linked?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the MCP tool list', () => {
  it('is exactly the tools the server registers, in their order', async () => {
    const listed = (await linked.client.listTools()).tools.map((t) => t.name);
    expect(MCP_TOOLS.map((t) => t.name)).toEqual(listed);
  });

  it("names every registered tool in the server's instructions", async () => {
    const instructions = linked.client.getInstructions() ?? '';
    expect(instructions).toBe(mcpInstructions());
    for (const { name } of (await linked.client.listTools()).tools)
      expect(instructions).toContain(`\`${name}\``);
  });

  it('names every registered tool in `trawl mcp --help` and `trawl --help`', async () => {
    const listed = (await linked.client.listTools()).tools.map((t) => t.name);
    const help = await trawl(['mcp', '--help']);
    expect(help.code).toBe(0);
    expect(oneLine(help.stdout)).toContain(`(tools: ${listed.join(', ')})`);
    const top = await trawl(['--help']);
    expect(oneLine(top.stdout)).toContain(`(tools: ${listed.join(', ')})`);
  });
});

describe('trawl mcp --version', () => {
  it('prints the version the server reports, and --help lists it', async () => {
    const out = await trawl(['mcp', '--version']);
    expect(out).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect(linked.client.getServerVersion()?.version).toBe(version);
    expect((await trawl(['mcp', '--help'])).stdout).toMatch(/-V, --version +print trawl's version/);
  });
});

describe('help that says what the command has', () => {
  it('trawl grep --help names every document kind it reads', async () => {
    const help = oneLine((await trawl(['grep', '--help'])).stdout);
    for (const ext of ['.docx', '.pptx', '.xlsx', '.pdf']) expect(help).toContain(ext);
  });
});
