// A hard link in a project to a credential file is a path of the project and the bytes of the credential: every
// content surface refuses it by what it is (device and inode of a fenced file), as it refuses the fenced path.
// `find_files` and /api/tree list names only: the link's name is the project's own, and is listed.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docx } from '../../core/test/fixtures/office-docs.js';
import { startTestServer, type TestServer } from './http-helpers.js';
import { stdioClient } from './mcp-helpers.js';

const CANARY = 'CANARYlink4b1e';

let tmp: string;
let home: string;
let proj: string;
let scanning: TestServer;
let indexed: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-hard-links-')));
  home = path.join(tmp, 'home');
  proj = path.join(tmp, 'proj');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.mkdirSync(path.join(proj, 'src'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), `needle ${CANARY}\n`);
  fs.writeFileSync(path.join(home, '.ssh', 'notes.docx'), docx([`needle ${CANARY} in a document`]));
  // Same filesystem (one temporary directory): the project's names for the store's files.
  fs.linkSync(path.join(home, '.ssh', 'id_ed25519'), path.join(proj, 'src', 'key.txt'));
  fs.linkSync(path.join(home, '.ssh', 'notes.docx'), path.join(proj, 'report.docx'));
  fs.writeFileSync(path.join(proj, 'ok.txt'), 'needle of the project\n');

  scanning = await startTestServer({ projects: [proj], home, dataDir: path.join(tmp, 'data1') });
  indexed = await startTestServer({
    projects: [proj],
    home,
    dataDir: path.join(tmp, 'data2'),
    indexes: undefined,
  });
  await indexed.server.context.grepHost!.whenSettled(proj);
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close();
  await scanning?.close();
  await indexed?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function mcp(flags: string[]): Promise<Client> {
  const client = await stdioClient(proj, flags, { cwd: tmp, home, name: 'hard-links' });
  clients.push(client);
  return client;
}

async function fileGrep(s: TestServer): Promise<string> {
  const a = await s.request('/api/file-grep', {
    method: 'POST',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ root: proj, q: 'needle' }),
  });
  expect(a.status).toBe(200);
  return a.text;
}

async function call(c: Client, name: string, args: Record<string, unknown>): Promise<string> {
  return JSON.stringify(await c.callTool({ name, arguments: args }));
}

describe('a hard link in the project to a credential file', () => {
  it('is not returned by /api/file-grep, scanning or indexed (text and document passes)', async () => {
    for (const s of [scanning, indexed]) {
      const text = await fileGrep(s);
      expect(text).toContain('needle of the project');
      expect(text).not.toContain(CANARY);
    }
  });

  it('is refused by /api/file as the fenced file it is', async () => {
    const a = await scanning.get('/api/file', { project: proj, path: 'src/key.txt' });
    expect([a.status, a.body.code]).toEqual([403, 'sensitive_path']);
    expect(a.text).not.toContain(CANARY);
    const ok = await scanning.get('/api/file', { project: proj, path: 'ok.txt' });
    expect(ok.status).toBe(200);
  });

  it('is not returned by MCP search (tree or named, js or rg) or grep_files', async () => {
    for (const flags of [[], ['--engine', 'rg', '--no-index']]) {
      const c = await mcp(flags);
      const tree = await call(c, 'search', { pattern: 'needle', paths: '.' });
      expect(tree).toContain('needle of the project');
      // Not even listed as matching: a match is an answer about the credential's bytes (an oracle for them).
      for (const answer of [
        tree,
        await call(c, 'search', { pattern: 'needle', paths: '.', output: 'files' }),
        await call(c, 'search', { pattern: 'needle', paths: '.', output: 'count' }),
        await call(c, 'grep_files', { query: 'needle' }),
      ]) {
        expect(answer).toContain('ok.txt');
        expect(answer).not.toContain(CANARY);
        expect(answer).not.toContain('key.txt');
        expect(answer).not.toContain('report.docx');
      }
      for (const answer of [
        await call(c, 'search', { pattern: 'needle', paths: 'src/key.txt' }),
        await call(c, 'search', { pattern: 'needle', paths: ['src/key.txt', 'ok.txt'] }),
      ])
        expect(answer).not.toContain(CANARY);
    }
  }, 120_000);
});
