import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { searchTool } from '@trawl/core/tool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
let proj: string;
let client: Client;
let transport: StdioClientTransport;
let stderr = '';
const stderrWaiters: Array<() => void> = [];

/** Resolves when the server's stderr holds `text` (the test's own timeout bounds the wait). */
async function stderrSays(text: string): Promise<void> {
  while (!stderr.includes(text)) await new Promise<void>((wake) => stderrWaiters.push(wake));
}

type ToolResult = {
  content: Array<{ type: string; text: string }>;
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

beforeAll(async () => {
  proj = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-mcp-')));
  const files: Record<string, string> = {
    'a.ts': 'one\nneedle two\nthree\nfour\nfive\nsix\n',
    'src/b.ts': 'needle b\n',
    // Runaway (polynomial) backtracking: exponential patterns run in linear time on the js engine now.
    'slow/zz-evil.txt': `!${'a'.repeat(200)}\n`,
  };
  for (let i = 1; i <= 23; i++) files[`many/f${String(i).padStart(2, '0')}.txt`] = `needle ${i}\n`;
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(proj, rel)), { recursive: true });
    fs.writeFileSync(path.join(proj, rel), content);
  }
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--root', proj, '--engine', 'js'],
    cwd: os.tmpdir(),
    stderr: 'pipe',
    env: { PATH: process.env['PATH'] ?? '', HOME: proj },
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    for (const waiter of stderrWaiters.splice(0)) waiter();
  });
  client = new Client({ name: 'trawl-test', version: '0.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  fs.rmSync(proj, { recursive: true, force: true });
});

const call = async (args: Record<string, unknown>) =>
  (await client.callTool({ name: 'search', arguments: args })) as ToolResult;

describe('trawl mcp (stdio child process, real protocol)', () => {
  it('lists the search tool with its schema, read-only hint and a description that teaches paging', async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search');
    expect(search).toBeDefined();
    expect(search!.annotations?.readOnlyHint).toBe(true);
    const schema = search!.inputSchema as { properties: Record<string, unknown>; required?: string[] };
    expect(Object.keys(schema.properties).sort()).toEqual([
      'after',
      'before',
      'context',
      'exclude',
      'gitignore',
      'hidden',
      'i',
      'limit',
      'literal',
      'multiline',
      'output',
      'paths',
      'pattern',
      'perFile',
      'skip',
      'type',
      'word',
    ]);
    // Real bounds, shown to the client (the tool still words an out-of-range value itself).
    const bounds = schema.properties as Record<string, { minimum?: number; maximum?: number }>;
    expect(bounds['context']).toMatchObject({ minimum: 0, maximum: 10 });
    expect(bounds['limit']).toMatchObject({ minimum: 1, maximum: 100 });
    // Each option says what it costs in output (issue 11 item 10).
    const props = schema.properties as Record<string, { description?: string; enum?: string[] }>;
    expect(props['output']!.enum).toEqual(['content', 'files', 'count']);
    expect(props['output']!.description).toMatch(/cheapest/);
    expect(props['context']!.description).toMatch(/0-10/);
    expect(schema.required?.sort()).toEqual(['paths', 'pattern']);
    expect(search!.description).toMatch(/skip=20/);
    expect(search!.description).toMatch(/src\/\*\.ts/);
    expect(search!.outputSchema).toBeDefined();
  });

  it('serves find_files and list_dir beside search, read-only, over the same stdio server', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'file_info',
      'find_files',
      'grep_files',
      'list_dir',
      'search',
    ]);
    for (const t of tools) expect(t.annotations?.readOnlyHint).toBe(true);
    // Every connection pays for the descriptions: together they stay within 4 KiB (the reference is docs://).
    expect(tools.reduce((n, t) => n + Buffer.byteLength(t.description ?? ''), 0)).toBeLessThanOrEqual(4096);
    const found = (await client.callTool({ name: 'find_files', arguments: { query: 'f07' } })) as ToolResult;
    expect(found.isError).toBeFalsy();
    expect(found.content[0]!.text).toContain('f07.txt');
    const listed = (await client.callTool({ name: 'list_dir', arguments: { dir: './src/' } })) as ToolResult;
    expect(listed.isError).toBeFalsy();
    expect(listed.content[0]!.text).toContain('b.ts');
  });

  it('answers with the tool’s text and the details as structured content; relative paths resolve at --root', async () => {
    const r = await call({ pattern: 'needle', paths: ['a.ts', 'src'] });
    const lib = await searchTool({ pattern: 'needle', paths: ['a.ts', 'src'] }, { cwd: proj });
    expect(r.isError).toBeFalsy();
    expect(r.content).toEqual([{ type: 'text', text: lib.text }]);
    expect(r.structuredContent).toMatchObject({
      files: ['a.ts', 'src/b.ts'],
      totalFiles: 2,
      totalFilesExact: true,
      outcome: 'complete',
    });
    expect(JSON.stringify(r.structuredContent)).not.toContain(lib.text);
  });

  it('pages with skip', async () => {
    const first = await call({ pattern: 'needle', paths: 'many' });
    expect(first.content[0]!.text).toContain('Showing files 1-20 of 23. Use skip=20 for the next page');
    const next = await call({ pattern: 'needle', paths: 'many', skip: 20 });
    expect(next.structuredContent).toMatchObject({
      files: ['many/f21.txt', 'many/f22.txt', 'many/f23.txt'],
      skip: 20,
    });
  });

  it('takes what models tend to send: null for an absent option, a number as a string', async () => {
    const r = await call({ pattern: 'needle', paths: 'many', skip: '20', i: null, gitignore: null });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      files: ['many/f21.txt', 'many/f22.txt', 'many/f23.txt'],
      skip: 20,
    });
  });

  it('a refused call is an error result with the one-line message', async () => {
    const r = await call({ pattern: '  ', paths: '.' });
    expect(r).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Pattern must not be empty' }],
    });
    const range = await call({ pattern: 'x', paths: 'src:1-5' });
    expect(range.content[0]!.text).toBe('Line-range selector requires a single file: src:1-5 is a directory');
  });

  it('search is confined to its root: ../ and absolute paths outside it are refused', async () => {
    for (const paths of ['../../../../../../../etc/passwd', '/etc/passwd', '../']) {
      const r = await call({ pattern: 'root', paths });
      expect(r.isError, paths).toBe(true);
      expect(r.content[0]!.text).toMatch(/^Path outside the allowed roots: /);
    }
  });

  it('the options agents reach for work over the protocol, and bad values get the coded message', async () => {
    const files = await call({ pattern: 'needle', paths: 'many', output: 'files', exclude: 'f2*' });
    expect(files.isError).toBeFalsy();
    expect(files.content[0]!.text.split('\n').slice(0, 2)).toEqual(['many/f01.txt', 'many/f02.txt']);
    expect(files.structuredContent).toMatchObject({ output: 'files', totalFiles: 19 });
    const count = await call({ pattern: 'needle', paths: 'many', output: 'count', context: '2' });
    expect(count.content[0]!.text).toContain('23 matching lines in 23 files.');
    const ctx = await call({ pattern: 'needle two', paths: 'a.ts', context: 1 });
    expect(ctx.content[0]!.text).toMatch(/^¶a\.ts#\w+\n 1:one\n\*2:needle two\n 3:three$/);
    for (const [args, text] of [
      [{ context: -1 }, 'context must be a whole number from 0 to 10, got -1'],
      [{ perFile: 500 }, 'perFile must be a whole number from 1 to 200, got 500'],
    ] as const) {
      const r = await call({ pattern: 'needle', paths: '.', ...args });
      expect(r).toMatchObject({ isError: true, content: [{ type: 'text', text }] });
    }
    const mode = await call({ pattern: 'needle', paths: '.', output: 'lines' });
    expect(mode.isError).toBe(true);
    expect(mode.content[0]!.text).toMatch(/output/);
  });

  it('arguments of the wrong shape are refused by the schema', async () => {
    const r = await call({ pattern: 'x' });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/paths/);
  });

  it('serves docs://', async () => {
    const r = await call({ pattern: 'Line ranges', paths: 'docs://' });
    expect(r.content[0]!.text).toMatch(/^# docs:\/\/search-tool\.md\n/);
  });

  it('a cancelled call stops, and the server goes on answering', async () => {
    const ac = new AbortController();
    const pending = client.callTool(
      { name: 'search', arguments: { pattern: 'a\\w*\\w*\\w*\\w*\\w*\\w*\\w*!', paths: 'slow' } },
      undefined,
      { signal: ac.signal },
    );
    // The server reads its stdin in order: once a later ping is answered, the search has been dispatched.
    await client.ping();
    ac.abort();
    await expect(pending).rejects.toThrow();
    // The server saw the cancellation reach the search (which only returns once the engine has stopped).
    await stderrSays('search: cancelled');
    expect(stderr).toMatch(/search: cancelled by the client after \d+ ms; the search was stopped/);
    const after = await call({ pattern: 'needle', paths: 'src' });
    expect(after.structuredContent).toMatchObject({ files: ['src/b.ts'] });
  });

  it('logs only to stderr', () => {
    expect(stderr).toContain(`trawl mcp: serving ${proj} on stdio`);
  });
});
