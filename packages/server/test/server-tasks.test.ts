import * as os from 'node:os';
import { describe, expect, it } from 'vitest';
import { createTaskContext, InlineRunner, runTaskMessage } from '../src/http/tasks.js';

const context = () => createTaskContext({ home: os.tmpdir(), env: {}, extra: [] });

describe("the server's task table", () => {
  it("takes a task by a name of the table and that task's payload, and answers that task's result", async () => {
    const runner = new InlineRunner(context());
    const answer = await runner.run('probe-roots', { roots: ['relative/dir'], dropHome: false });
    // The answer is typed by the table: a probed root's status, no cast.
    const status: 'ok' | 'not-dir' | 'sensitive' | 'home' | undefined = answer[0]?.status;
    expect(status).toBe('not-dir');
    // Checked by `npm run typecheck`: each line below is a type error.
    const typeErrors = () => [
      // @ts-expect-error: no task has this name
      runner.run('probe-root', { roots: [], dropHome: false }),
      // @ts-expect-error: another task's payload
      runner.run('resolve-project', { root: '/' }),
    ];
    expect(typeof typeErrors).toBe('function');
  });

  it('refuses a message naming no task (a programming error), and runs one that does', async () => {
    await expect(runTaskMessage(context(), 'no-such-task', {})).rejects.toThrow('unknown task no-such-task');
    await expect(runTaskMessage(context(), 'toString', {})).rejects.toThrow('unknown task toString');
    expect(await runTaskMessage(context(), 'resolve-project', { project: 'relative/dir' })).toMatchObject({
      status: 'not-dir',
    });
  });
});
