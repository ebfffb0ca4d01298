import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { searchTool } from '@trawl/core/tool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docx } from '../../core/test/fixtures/office-docs.js';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
let tmp: string;
let proj: string;
let dataDir: string;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-index-cli-')));
  proj = path.join(tmp, 'proj');
  dataDir = path.join(tmp, 'data');
  for (let i = 0; i < 400; i++) {
    const rel = `src/m${i % 12}/file${i}.ts`;
    fs.mkdirSync(path.dirname(path.join(proj, rel)), { recursive: true });
    const body = [`export const value${i} = ${i};`, i % 37 === 0 ? 'call(sched_clock_rare);' : 'plain();'];
    if (i % 5 === 0) body.push('// TODO: Common marker');
    fs.writeFileSync(path.join(proj, rel), `${body.join('\n')}\n`);
  }
  fs.writeFileSync(path.join(proj, '.gitignore'), 'src/m11/\n');
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function trawl(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: tmp },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('trawl index', () => {
  it('builds, reports files, bytes, index size and time; --status says how fresh it is', () => {
    const none = trawl(['index', proj, '--status', '--data-dir', dataDir]);
    expect(none.code).toBe(1);
    expect(none.stdout).toMatch(/no usable index/);

    const built = trawl(['index', proj, '--data-dir', dataDir]);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/401 files, [\d.]+ KB of text; index [\d.]+ KB/);
    expect(built.stdout).toMatch(/built in [\d.]+ s/);
    expect(built.stderr).toMatch(/^indexing: /m);

    const fresh = trawl(['index', proj, '--status', '--data-dir', dataDir, '--json']);
    expect(fresh.code).toBe(0);
    expect(JSON.parse(fresh.stdout)).toMatchObject({ state: 'ready', files: 401, changedSinceBuild: 0 });

    fs.appendFileSync(path.join(proj, 'src/m1/file1.ts'), 'more\n');
    const stale = trawl(['index', proj, '--status', '--data-dir', dataDir]);
    expect(stale.stdout).toMatch(/1 file\(s\) changed since it was built/);
    const updated = trawl(['index', proj, '--data-dir', dataDir]);
    expect(updated.code).toBe(0);
    expect(trawl(['index', proj, '--status', '--data-dir', dataDir]).stdout).toMatch(/up to date/);
  });

  it("extracts the documents into the text store after the text index, with a progress line; --status tells the store's state", () => {
    const docs = path.join(tmp, 'docs');
    fs.mkdirSync(docs, { recursive: true });
    fs.writeFileSync(path.join(docs, 'plan.docx'), docx(['the WIDGET plan']));
    fs.writeFileSync(path.join(docs, 'notes.txt'), 'widget\n');
    const past = new Date(Date.now() - 3_600_000);
    fs.utimesSync(path.join(docs, 'plan.docx'), past, past);
    const built = trawl(['index', docs, '--data-dir', dataDir]);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toMatch(/^extracting documents: 1\/1$/m);
    expect(built.stdout).toMatch(
      /document text: 1 document\(s\) stored, 1\/1 of the indexed documents, [\d.]+ KB on disk/,
    );
    const status = trawl(['index', docs, '--status', '--data-dir', dataDir]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/document text: 1 document\(s\) stored, [\d.]+ KB on disk/);
  });

  it('refuses what is not a directory, and sensitive locations, in one line with exit 2', () => {
    const missing = trawl(['index', path.join(tmp, 'nope'), '--data-dir', dataDir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    fs.mkdirSync(path.join(tmp, '.ssh'), { recursive: true });
    const ssh = trawl(['index', '~/.ssh', '--data-dir', dataDir]);
    expect(ssh.code).toBe(2);
    expect(ssh.stderr).toMatch(/sensitive location/);
  });
});

type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

describe('trawl mcp with the content index', () => {
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--root', proj, '--engine', 'js', '--data-dir', path.join(tmp, 'mcp-data')],
      cwd: os.tmpdir(),
      stderr: 'pipe',
      env: { PATH: process.env['PATH'] ?? '', HOME: tmp },
    });
    const ready = new Promise<void>((resolve) => {
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (/content index ready/.test(stderr)) resolve();
      });
    });
    client = new Client({ name: 'trawl-test', version: '0.0.0' });
    await client.connect(transport);
    await ready;
  }, 120_000);
  afterAll(async () => client?.close());

  const call = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: 'search', arguments: args })) as ToolResult;
  const scan = async (args: { pattern: string; paths: string[]; i?: boolean; gitignore?: boolean }) =>
    (
      await searchTool(
        {
          pattern: args.pattern,
          paths: args.paths,
          i: args.i ?? false,
          gitignore: args.gitignore ?? true,
          skip: 0,
        },
        // The MCP server's own options: its answers name what they did not enter and are redacted.
        { cwd: proj, engine: 'js', homeDir: tmp, nameUnentered: true, redact: true },
      )
    ).text;

  it('answers every query exactly as a scan does, and sees an edit made just before the call', async () => {
    expect(stderr).toMatch(/content index ready \(40\d files/);
    const queries = [
      { pattern: 'sched_clock_rare', paths: ['.'] },
      { pattern: 'SCHED_CLOCK', paths: ['.'], i: true },
      { pattern: 'value1[0-9]+ =', paths: ['src'] },
      { pattern: 'TODO|sched_clock', paths: ['.'] },
      { pattern: 'sched_clock_rare', paths: ['src/*.ts', 'src/**/*.ts'] },
      { pattern: 'sched_clock_rare', paths: ['.'], gitignore: false },
      { pattern: 'plain', paths: ['.'] },
    ];
    for (const q of queries) {
      const got = await call(q);
      expect(got.isError, JSON.stringify(q)).toBeFalsy();
      expect(got.content[0]!.text, JSON.stringify(q)).toBe(await scan(q));
    }
    fs.writeFileSync(path.join(proj, 'src/m3/file3.ts'), 'sched_clock_rare(); // just written\n');
    const after = await call({ pattern: 'sched_clock_rare', paths: ['.'] });
    expect(after.content[0]!.text).toContain('just written');
    expect(after.content[0]!.text).toBe(await scan({ pattern: 'sched_clock_rare', paths: ['.'] }));
  });
});
