/**
 * `--agent` means what the operator typed, where they typed it: the agent runs in the project, so a relative
 * script (`node examples/agent.mjs`) must not be found there — a project shipping that file would run its own code
 * as the agent. Paths resolve where `trawl serve` started, the program is found on PATH at start, and serve says
 * what will run.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAgentCommand } from '../src/conversations/agent-command.js';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
let tmp: string;
let start: string;
let proj: string;
beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-agent-cmd-')));
  start = path.join(tmp, 'operator');
  proj = path.join(tmp, 'project');
  fs.mkdirSync(path.join(start, 'examples'), { recursive: true });
  fs.mkdirSync(path.join(proj, 'examples'), { recursive: true });
  fs.mkdirSync(path.join(proj, 'only-here'), { recursive: true });
  fs.writeFileSync(path.join(start, 'examples', 'agent.mjs'), 'console.log("the operator\'s agent")\n');
  fs.writeFileSync(path.join(proj, 'examples', 'agent.mjs'), 'console.log("the project\'s code")\n');
  fs.writeFileSync(path.join(proj, 'only-here', 'agent.mjs'), 'console.log("the project\'s code")\n');
  fs.writeFileSync(path.join(start, 'bare.mjs'), '\n');
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const env = { PATH: `${path.dirname(process.execPath)}${path.delimiter}relative/bin` };

describe('the --agent command is resolved where trawl serve started', () => {
  it('a relative script becomes the one beside the operator, the program its PATH entry', () => {
    expect(resolveAgentCommand(['node', 'examples/agent.mjs', '--flag', 'word'], start, env)).toEqual({
      argv: [process.execPath, path.join(start, 'examples', 'agent.mjs'), '--flag', 'word'],
    });
    expect(resolveAgentCommand(['node', 'bare.mjs'], start, env)).toEqual({
      argv: [process.execPath, path.join(start, 'bare.mjs')],
    });
  });

  it('refuses a relative path that is not where serve started (it would be read in the project)', () => {
    const r = resolveAgentCommand(['node', 'only-here/agent.mjs'], start, env);
    expect(r).toEqual({
      error: expect.stringMatching(
        /^--agent: only-here\/agent\.mjs is not in .* \(where trawl serve started\)/,
      ),
    });
    expect(resolveAgentCommand(['./missing-agent'], start, env)).toEqual({
      error: expect.stringMatching(/is not an executable file in /),
    });
    expect(resolveAgentCommand(['no-such-agent-cli'], start, env)).toEqual({
      error: '--agent: no-such-agent-cli is not on PATH',
    });
  });

  it('trawl serve prints the command it will run, absolute, and refuses one it cannot place', async () => {
    const run = (agent: string) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [BIN, 'serve', proj, '--port', '0', '--no-open', '--no-index', '--agent', agent],
          { cwd: start, env: { PATH: env.PATH, HOME: tmp, TRAWL_DATA_DIR: path.join(tmp, 'data') } },
        );
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => {
          stderr += c.toString();
          if (stderr.includes('trawl serve: agent')) child.kill('SIGTERM');
        });
        child.on('exit', (code) => resolve({ code, stderr }));
      });
    const ok = await run('node examples/agent.mjs');
    expect(ok.stderr).toContain(
      `trawl serve: agent (runs in the project): ${process.execPath} ${path.join(start, 'examples', 'agent.mjs')}`,
    );
    const refused = await run('node only-here/agent.mjs');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^trawl: --agent: only-here\/agent\.mjs is not in /);
  });
});
