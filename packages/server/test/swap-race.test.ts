// A writer in the tree swaps a directory for a link to a credential store in a loop (renameat2 RENAME_EXCHANGE),
// while the content surfaces are asked to search it. What a search reports must come from what was opened inside
// the root: no answer may ever carry the store's bytes. Bounded by a number of requests, not by time.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './http-helpers.js';
import { stdioClient } from './mcp-helpers.js';

const REQUESTS = 120;
const CANARY = 'CANARYssh7f3a9c';

/** Exchanges `d` and `l` (in the working directory) until its parent is gone. */
const RACER = `
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
int main(void) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  for (;;) {
    if (syscall(SYS_renameat2, AT_FDCWD, "d", AT_FDCWD, "l", RENAME_EXCHANGE) != 0) { perror("renameat2"); return 1; }
  }
}
`;

function gccPath(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v gcc'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

const gcc = gccPath();
if (!gcc && process.env['TRAWL_REQUIRE_SYSTEM_DEPS'] === '1')
  throw new Error(
    'TRAWL_REQUIRE_SYSTEM_DEPS=1 but gcc is not installed (the swap racer is compiled with it)',
  );
const linux = process.platform === 'linux';

let tmp: string;
let home: string;
let proj: string;
let racer: ChildProcess | undefined;
let scanning: TestServer;
let indexed: TestServer;
let mcp: Client;
let mcpRg: Client;

beforeAll(async () => {
  if (!gcc || !linux) return;
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-swap-race-')));
  home = path.join(tmp, 'home');
  proj = path.join(tmp, 'proj');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), `needle ${CANARY}\n`);
  // A name only the store has: a listing that shows it listed the store.
  fs.writeFileSync(path.join(home, '.ssh', `${CANARY}_key`), 'needle\n');
  fs.mkdirSync(path.join(proj, 'd'), { recursive: true });
  fs.writeFileSync(path.join(proj, 'd', 'id_ed25519'), 'needle decoy\n');
  fs.writeFileSync(path.join(proj, 'notes.txt'), 'needle in the project\n');
  fs.symlinkSync(path.join(home, '.ssh'), path.join(proj, 'l'));
  const racerSrc = path.join(tmp, 'racer.c');
  fs.writeFileSync(racerSrc, RACER);
  execFileSync(gcc, ['-O2', '-o', path.join(tmp, 'racer'), racerSrc]);

  // Every answer must say something (the file's text or a named refusal), so a content search gets the time it
  // needs: on a loaded machine the contract's 2 s budget can pass before the first file, answering [] truncated.
  const grepBudgetMs = 30_000;
  scanning = await startTestServer({
    projects: [proj],
    home,
    dataDir: path.join(tmp, 'data1'),
    grepBudgetMs,
  });
  indexed = await startTestServer({
    projects: [proj],
    home,
    dataDir: path.join(tmp, 'data2'),
    indexes: undefined,
    grepBudgetMs,
  });
  await indexed.server.context.grepHost!.whenSettled(proj);
  mcp = await mcpClient([]);
  // rg itself reading the files named (no index to answer, no warm worker chosen).
  mcpRg = await mcpClient(['--engine', 'rg', '--no-index']);
  racer = spawn(path.join(tmp, 'racer'), [], { cwd: proj, stdio: 'ignore' });
}, 120_000);

function mcpClient(flags: string[]): Promise<Client> {
  return stdioClient(proj, flags, { cwd: tmp, home, name: 'swap-race' });
}

afterAll(async () => {
  racer?.kill('SIGKILL');
  await mcp?.close();
  await mcpRg?.close();
  await scanning?.close();
  await indexed?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/**
 * How many of `REQUESTS` answers carry the store's bytes or names. Every answer must be one of `expected`: an
 * error nobody looked at would count as no leak and prove nothing.
 */
async function leaks(ask: () => Promise<string>, ...expected: string[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const answer = await ask();
    expect(
      expected.some((e) => answer.includes(e)),
      answer,
    ).toBe(true);
    if (answer.includes(CANARY)) n++;
  }
  return n;
}

function fileGrep(s: TestServer): () => Promise<string> {
  return async () =>
    (
      await s.request('/api/file-grep', {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ root: proj, q: 'needle' }),
      })
    ).text;
}

function tool(name: string, args: Record<string, unknown>, client = () => mcp): () => Promise<string> {
  return async () => JSON.stringify(await client().callTool({ name, arguments: args }));
}

describe.skipIf(!gcc || !linux)('a directory swapped for a link to a credential store while searched', () => {
  it('never makes /api/file-grep (scanning or indexed), grep_files or a search of the tree or of named files (js or rg) answer with the store', async () => {
    const project = 'needle in the project';
    const found = {
      fileGrep: await leaks(fileGrep(scanning), project),
      fileGrepIndexed: await leaks(fileGrep(indexed), project),
      grepFiles: await leaks(tool('grep_files', { query: 'needle' }), project),
      searchTree: await leaks(tool('search', { pattern: 'needle', paths: '.' }), project),
      // A named file reads as the decoy, or is refused (it led out of the root when planned or opened): never as
      // the store.
      searchNamed: await leaks(tool('search', { pattern: 'needle', paths: 'd/id_ed25519' }), 'd/id_ed25519'),
      // rg walking the tree itself (by path): the names it lists must be the tree's.
      searchTreeRg: await leaks(
        tool('search', { pattern: 'needle', paths: '.', output: 'files' }, () => mcpRg),
        'notes.txt',
      ),
      searchNamedRg: await leaks(
        tool('search', { pattern: 'needle', paths: ['d/id_ed25519', 'notes.txt'] }, () => mcpRg),
        project,
        'Path outside the allowed roots',
      ),
    };
    expect(racer?.exitCode).toBeNull(); // the writer raced throughout
    expect(found).toEqual({
      fileGrep: 0,
      fileGrepIndexed: 0,
      grepFiles: 0,
      searchTree: 0,
      searchNamed: 0,
      searchTreeRg: 0,
      searchNamedRg: 0,
    });
  }, 600_000);
});

if (!gcc || !linux)
  describe('a directory swapped for a link to a credential store while searched', () => {
    it.skip(`skipped: ${!linux ? 'renameat2 is Linux-only' : 'gcc is not installed (set TRAWL_REQUIRE_SYSTEM_DEPS=1 to require it)'}`, () => {});
  });
