/**
 * `trawl serve` and `trawl mcp` end when they are told to (SIGTERM, SIGINT) and when whoever started them is gone,
 * and take their child processes (the warm PDF extractors) with them. Real processes; every wait is for an event
 * (an exit, a refused connection, a vanished pid), bounded only by a generous timeout.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pdf } from '../../core/test/fixtures/office-docs.js';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-lifetime-')));
const home = path.join(tmp, 'home');
const proj = path.join(tmp, 'proj');
fs.mkdirSync(home);
fs.mkdirSync(proj);
fs.writeFileSync(path.join(proj, 'notes.txt'), 'a plain needle\n');
fs.writeFileSync(path.join(proj, 'paper.pdf'), pdf(['the needle in a pdf']));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

let runs = 0;
/** Each process its own data directory: no content index or cached answer carries over from another test. */
const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env['PATH'] ?? '',
  HOME: home,
  TRAWL_DATA_DIR: path.join(tmp, `data-${++runs}`),
  ...extra,
});
/** `trawl serve` of proj with no content index (the PDF is read by an extractor) and no budget a slow machine misses. */
const SERVE = ['serve', proj, '--port', '0', '--no-open', '--no-index', '--grep-deadline', '30'];
const serveCmd = () => [process.execPath, BIN, ...SERVE].map((a) => JSON.stringify(a)).join(' ');

function track(child: ChildProcess) {
  started.push(child);
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}`)));
  });
}

/** The pids whose parent is `pid` (procps `ps`). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when it lists nothing
  }
}

function alive(pid: number): boolean {
  try {
    const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return state.slice(state.lastIndexOf(')') + 2, state.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function until(cond: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`still waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function refused(origin: string): Promise<boolean> {
  try {
    await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(5_000) });
    return false;
  } catch {
    return true;
  }
}

/** A `trawl serve` of proj that has read a PDF (so it has a warm extractor child); its origin and that child. */
async function servingWithPdfChild(child: ChildProcess, serverPid: () => number) {
  const url = await firstLine(child);
  const origin = url.slice(0, url.indexOf('/#token='));
  const token = url.slice(url.indexOf('token=') + 6);
  const grep = await fetch(`${origin}/api/file-grep`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ root: proj, q: 'needle' }),
  });
  expect(JSON.stringify(await grep.json())).toContain('paper.pdf');
  const extractors = childrenOf(serverPid());
  expect(extractors.length).toBeGreaterThan(0);
  return { origin, extractors };
}

describe('trawl serve ends, with its children', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'on %s: exit 0, the port let go, no PDF extractor left',
    async (signal) => {
      const s = track(spawn(process.execPath, [BIN, ...SERVE], { env: env(), cwd: proj }));
      const { origin, extractors } = await servingWithPdfChild(s.child, () => s.child.pid!);
      s.child.kill(signal);
      expect(await s.exited).toBe(0);
      expect(s.stderr()).toContain(`stopping (${signal})`);
      expect(await refused(origin)).toBe(true);
      await until(() => extractors.every((pid) => !alive(pid)), 'the PDF extractors to end');
    },
  );

  it('when a launcher between it and its caller is killed (as `npx` → `sh -c` → node)', async () => {
    // Two shells stand for npm exec's chain; `; :` keeps each shell from exec-ing its command. Killing the outer one
    // orphans the inner shell, which lives on: only the chain watch can notice.
    const inner = `${serveCmd()}; :`;
    const outer = track(
      spawn('sh', ['-c', `sh -c ${shellQuote(inner)}; :`], {
        env: env({ npm_command: 'exec' }),
        cwd: proj,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    const serverPid = () => {
      const [shell] = childrenOf(outer.child.pid!);
      return childrenOf(shell!)[0]!;
    };
    const { origin } = await servingWithPdfChild(outer.child, serverPid);
    const server = serverPid();
    outer.child.kill('SIGKILL');
    await until(() => !alive(server), 'the server to end after its launcher was killed');
    expect(await refused(origin)).toBe(true);
  });

  it('when its parent is killed', async () => {
    const cmd = `${serveCmd()}; :`;
    const shell = track(
      spawn('sh', ['-c', cmd], { env: env(), cwd: proj, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    const url = await firstLine(shell.child);
    const [server] = childrenOf(shell.child.pid!);
    shell.child.kill('SIGKILL');
    await until(() => !alive(server!), 'the server to end after its parent was killed');
    expect(await refused(url.slice(0, url.indexOf('/#token=')))).toBe(true);
  });
});

describe('trawl mcp ends', () => {
  const initialize = `${JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
  })}\n`;

  function mcp(extraEnv: Record<string, string> = {}) {
    const m = track(
      spawn(process.execPath, [BIN, 'mcp', '--root', proj, '--no-index'], { env: env(extraEnv), cwd: proj }),
    );
    m.child.stdin!.write(initialize);
    return { ...m, answered: firstLine(m.child) };
  }

  it.each(['SIGTERM', 'SIGINT'] as const)('on %s with its stdin still open: exit 0', async (signal) => {
    const m = mcp();
    expect(await m.answered).toContain('"id":1');
    m.child.kill(signal);
    expect(await m.exited).toBe(0);
    expect(m.stderr()).toContain(`stopping (${signal})`);
  });

  it('when its client closes stdin', async () => {
    const m = mcp();
    expect(await m.answered).toContain('"id":1');
    m.child.stdin!.end();
    expect(await m.exited).toBe(0);
    expect(m.stderr()).toContain('stopping (stdin closed)');
  });

  it('when the client is gone but its stdin stays open (a launcher killed)', async () => {
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} mcp --root ${JSON.stringify(proj)} --no-index; :`;
    const shell = track(spawn('sh', ['-c', cmd], { env: env(), cwd: proj }));
    shell.child.stdin!.write(initialize);
    expect(await firstLine(shell.child)).toContain('"id":1');
    const [server] = childrenOf(shell.child.pid!);
    shell.child.kill('SIGKILL'); // the test still holds the pipe: stdin never ends
    await until(() => !alive(server!), 'trawl mcp to end after its parent was killed');
  });
});

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
