// Help and handshake text that says what trawl really has. The MCP server's tools are written in one list
// (src/mcp/tool-list.ts): what tools/list answers, the server's instructions and `trawl mcp --help` all come from
// it, so a tool added to the server cannot be left out of either.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchToolInputShape } from '../../core/src/tool/input-schema.js';
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

async function trawl(args: string[], cwd = os.tmpdir()) {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await main(args, { stdout, stderr, cwd, env: {} });
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

describe('trawl search takes every argument of the search tool', () => {
  /** The flag of `trawl search` for each argument of the tool (pattern and paths are its positionals). */
  const FLAGS: Record<string, string> = {
    i: '--ignore-case',
    gitignore: '--no-gitignore',
    skip: '--skip',
    output: '--output',
    context: '--context',
    before: '--before',
    after: '--after',
    perFile: '--per-file',
    exclude: '--exclude',
    hidden: '--no-hidden',
    type: '--type',
    word: '--word-regexp',
    literal: '--fixed-strings',
    multiline: '--multiline',
    limit: '--limit',
  };

  it('has a flag, listed in --help, for every schema property', async () => {
    const properties = Object.keys(searchToolInputShape).filter((k) => k !== 'pattern' && k !== 'paths');
    expect(Object.keys(FLAGS).sort()).toEqual(properties.sort());
    const help = (await trawl(['search', '--help'])).stdout;
    for (const flag of Object.values(FLAGS)) expect(help).toContain(flag);
  });

  it('-t, -w, -F, -U and --limit reach the tool', async () => {
    fs.mkdirSync(path.join(tmp, 'flags'));
    const dir = path.join(tmp, 'flags');
    fs.writeFileSync(path.join(dir, 'a.ts'), 'foo bar\nfoobar\na.b\none\ntwo\n');
    fs.writeFileSync(path.join(dir, 'b.py'), 'foo\naxb\n');
    const lines = async (...args: string[]) => {
      const r = await trawl(['search', '--format', 'plain', '-C', '0', ...args], dir);
      expect(r.stderr).toBe('');
      return r.stdout;
    };
    expect(await lines('-t', 'py', 'foo', '.')).not.toContain('a.ts');
    expect(await lines('-w', 'foo', 'a.ts')).not.toContain('foobar');
    expect(await lines('foo', 'a.ts')).toContain('foobar');
    const literal = await lines('-F', 'a.b', '.');
    expect(literal).toContain('a.b');
    expect(literal).not.toContain('axb');
    expect(await lines('(?s)one.two', 'a.ts')).not.toContain('one');
    expect(await lines('-U', '(?s)one.two', 'a.ts')).toContain('one');
    expect(await lines('-l', '--limit', '1', 'foo', '.')).toMatch(/Showing files 1-1 of 2|next page/i);
  });
});
