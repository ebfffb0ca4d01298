/**
 * Issue 11 item 7: a bad message gets an error reply and the server goes on serving; it never wedges.
 * Before, a message over 10 MiB made the SDK's stdio transport close itself: trawl then neither answered
 * nor exited. Malformed JSON was dropped without a reply.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
let proj: string;
let child: ChildProcessWithoutNullStreams;
let stderr = '';
const replies: Array<Record<string, unknown>> = [];
const waiters: Array<() => void> = [];

beforeAll(() => {
  proj = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-mcp-wire-')));
  fs.writeFileSync(path.join(proj, 'a.txt'), 'needle\n');
  child = spawn(process.execPath, [BIN, 'mcp', '--root', proj], {
    cwd: proj,
    env: { PATH: process.env['PATH'] ?? '', HOME: proj },
  });
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
      replies.push(JSON.parse(pending.slice(0, nl)) as Record<string, unknown>);
      pending = pending.slice(nl + 1);
      for (const w of waiters.splice(0)) w();
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
});

afterAll(() => {
  if (child.exitCode === null) child.kill();
  fs.rmSync(proj, { recursive: true, force: true });
});

/** The next reply on stdout (waits for it: a wedged server fails the test by its timeout). */
async function nextReply(): Promise<Record<string, unknown>> {
  while (replies.length === 0) await new Promise<void>((resolve) => waiters.push(resolve));
  return replies.shift()!;
}

function send(text: string): void {
  child.stdin.write(text);
}

describe('trawl mcp on the wire: every bad message is answered', () => {
  it('malformed JSON gets a -32700 parse error with id null', async () => {
    send('{"jsonrpc": "2.0", "id": 1, "method": \n');
    const r = await nextReply();
    expect(r).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('JSON that is not JSON-RPC gets -32600, with its id when it has one', async () => {
    send('{"id": 5, "hello": "world"}\n');
    expect(await nextReply()).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code: -32600 } });
  });

  it('a message over 10 MiB is refused with -32600, and the server goes on answering', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'ping',
      params: { x: 'a'.repeat(11 * 1024 * 1024) },
    });
    send(`${big}\n`);
    const refused = await nextReply();
    expect(refused).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect((refused['error'] as { message: string }).message).toMatch(/larger than 10485760 bytes/);
    send('{"jsonrpc":"2.0","id":8,"method":"ping"}\n');
    expect(await nextReply()).toEqual({ jsonrpc: '2.0', id: 8, result: {} });
    expect(stderr).toMatch(/refused a message/);
  });

  it('exits when the client closes its end', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});
