/**
 * The agent tool's pattern never reaches a child's argv: another local account can read every process's command
 * line (/proc/<pid>/cmdline, ps), and an agent's pattern may hold what it is looking for — a secret included.
 * Every spawn the tool makes is recorded (the real spawn runs), and no argument may hold the pattern.
 */
import type * as ChildProcess from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { makeTree, run } from './fixtures/tool/helpers.js';

const spawned = vi.hoisted(() => [] as string[][]);
vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof ChildProcess>();
  const spawn = ((cmd: string, args: readonly string[], options: ChildProcess.SpawnOptions) => {
    spawned.push([cmd, ...args]);
    return real.spawn(cmd, args, options);
  }) as typeof real.spawn;
  return { ...real, default: { ...real, spawn }, spawn };
});

const SECRET = 'hunter2-canary';

describe('the search tool keeps its pattern off every child process argv', () => {
  const dir = makeTree({
    'a.txt': `one ${SECRET}\ntwo\n`,
    'src/b.txt': `${SECRET} again\nthree\n`,
    'src/c.txt': 'nothing here\n',
  });

  it.each([
    ['content', { pattern: SECRET }],
    ['files', { pattern: SECRET, output: 'files' }],
    ['count', { pattern: SECRET, output: 'count' }],
    ['a regex with a newline', { pattern: `${SECRET}\\n(two|three)` }],
    ['a literal newline', { pattern: `${SECRET}\nthree` }],
    ['no match (the empty answer explains itself)', { pattern: `${SECRET}-absent` }],
  ] as Array<[string, Record<string, unknown>]>)('%s, on the rg engine', async (_, args) => {
    spawned.length = 0;
    const r = await run(dir, { paths: '.', ...args }, { engine: 'rg' });
    expect(r.details.notes.join('\n')).not.toMatch(/ripgrep (is )?unavailable|js engine/);
    expect(spawned.length).toBeGreaterThan(0);
    for (const argv of spawned) for (const arg of argv) expect(arg).not.toContain('hunter2');
    if (args['pattern'] === SECRET) expect(r.details.fileCount).toBe(2);
  });
});
