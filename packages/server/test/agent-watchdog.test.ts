/**
 * An agent's process group does not outlive `trawl serve`, however the server ends: SIGKILLed (it kills nothing
 * itself then), its watchdog process sees the server's pipe close and kills the groups still running. A real
 * server, a real agent that ignores SIGTERM and leaves a child in its group; every wait is on /proc, bounded only
 * by a generous timeout.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-agent-watchdog-')));
const home = path.join(tmp, 'home');
const proj = path.join(tmp, 'proj');
fs.mkdirSync(home);
fs.mkdirSync(proj);
const pidFile = path.join(tmp, 'agent.pids');
const agentFile = path.join(tmp, 'agent.mjs');
fs.writeFileSync(
  agentFile,
  `
  import { spawn } from 'node:child_process';
  import * as fs from 'node:fs';
  process.on('SIGTERM', () => {});
  const child = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  fs.writeFileSync(${JSON.stringify(pidFile)}, process.pid + ' ' + child.pid);
  process.stdout.write('working');
  setInterval(() => {}, 1000);
`,
);
const pending: number[] = [];
afterAll(() => {
  for (const pid of pending) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The pids of every process in group `pgid` that has not exited (/proc/<pid>/stat: state, then ppid, pgrp). */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state !== 'Z' && Number(pgrp) === pgid) out.push(Number(name));
  }
  return out;
}

async function until(cond: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`still waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(process.platform !== 'linux')('agents do not outlive trawl serve', () => {
  it("a SIGKILLed server's running agent, and what the agent started, are killed", async () => {
    const serve = spawn(
      process.execPath,
      [
        BIN,
        'serve',
        proj,
        '--port',
        '0',
        '--no-open',
        '--no-index',
        '--agent',
        `${process.execPath} ${agentFile}`,
      ],
      {
        env: { PATH: process.env['PATH'] ?? '', HOME: home, TRAWL_DATA_DIR: path.join(tmp, 'data') },
        cwd: proj,
      },
    );
    const exited = new Promise((resolve) => serve.on('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      serve.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
      });
      serve.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    const origin = url.slice(0, url.indexOf('/#token='));
    const headers = {
      authorization: `Bearer ${url.slice(url.indexOf('token=') + 6)}`,
      'content-type': 'application/json',
    };
    const created = await fetch(`${origin}/api/conversations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ project: proj }),
    });
    const id = ((await created.json()) as { conversation: { id: string } }).conversation.id;
    const sent = await fetch(`${origin}/api/conversations/${id}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: 'go', wire: 'go', meta: {} }),
    });
    expect(sent.status).toBe(201);
    await until(
      () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').includes(' '),
      'the agent to start',
    );
    const [agent, child] = fs.readFileSync(pidFile, 'utf8').split(' ').map(Number) as [number, number];
    pending.push(agent);
    expect(groupMembers(agent).sort()).toEqual([agent, child].sort());

    serve.kill('SIGKILL');
    await exited;
    // The watchdog sends SIGTERM (ignored by both), then SIGKILL after the grace period.
    await until(() => groupMembers(agent).length === 0, "the agent's process group to be gone");
    expect(groupMembers(agent)).toEqual([]);
  });
});
