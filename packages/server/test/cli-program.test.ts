/**
 * runCommands (cli/program.ts): a command with many flags may defer them. Its registration adds its name, arguments
 * and description, and returns the rest, which runs only when the arguments name the command.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../src/cli/io.js';
import { type RegisterCommand, runCommands } from '../src/cli/program.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

/** Runs `argv` over one eager command (`plain`) and one deferred one (`wide`); says whether `wide` was completed. */
async function run(argv: string[]) {
  const io: CliIO = { stdout: new Capture(), stderr: new Capture(), cwd: '/', env: {} };
  let completed = 0;
  let ran: string | null = null;
  const plain: RegisterCommand = (program, _io, setExit) => {
    program
      .command('plain')
      .description('an eager command')
      .option('--flag', 'a flag')
      .action(() => {
        ran = 'plain';
        setExit(0);
      });
    return undefined;
  };
  const wide: RegisterCommand = (program, _io, setExit) => {
    const cmd = program.command('wide').description('a command of many flags').argument('[what]', 'a thing');
    // It loads what it needs first (as `rg` loads its flag modules): runCommands waits for it.
    return async () => {
      await Promise.resolve();
      completed++;
      cmd.option('--many <n>', 'one of its many flags').action((_what: string, flags: { many?: string }) => {
        ran = `wide ${flags.many}`;
        setExit(0);
      });
    };
  };
  const code = await runCommands(argv, io, [plain, wide]);
  return { code, completed, ran, stdout: (io.stdout as Capture).text, stderr: (io.stderr as Capture).text };
}

describe('runCommands: a deferred command', () => {
  it('is listed by --help with its options marker, its flags never built', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.completed).toBe(0);
    expect(r.stdout).toMatch(/^ {2}wide \[options\] \[what\] +a command of many flags$/m);
    expect(r.stdout).toMatch(/^ {2}plain \[options\] +an eager command$/m);
  });

  it('is not completed when another command runs', async () => {
    const r = await run(['plain', '--flag']);
    expect(r).toMatchObject({ code: 0, completed: 0, ran: 'plain' });
  });

  it('is completed once when named: it runs with its flags, and `help NAME` shows them', async () => {
    expect(await run(['wide', 'x', '--many', '3'])).toMatchObject({ code: 0, completed: 1, ran: 'wide 3' });
    const help = await run(['help', 'wide']);
    expect(help.completed).toBe(1);
    expect(help.stdout).toMatch(/--many <n> +one of its many flags/);
    const own = await run(['wide', '--help']);
    expect(own.stdout).toMatch(/--many <n>/);
  });
});
