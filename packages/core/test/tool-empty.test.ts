/**
 * Issue 11 item 4: an empty answer says when ignore rules, skipped directories or a glob that matches no
 * file are why, and how to include what was hidden. Before, each of these answered "No matches found".
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Engine, makeTree, run } from './fixtures/tool/helpers.js';

let kernel: string;
let project: string;
beforeAll(() => {
  // The Debian kernel tree's .gitignore ignores everything but debian/.
  kernel = makeTree({
    '.gitignore': '/*\n!/debian/\n',
    'kernel/power/main.c': '#define PM_RESUME 1\n',
    'include/linux/pm.h': 'PM_RESUME\n',
    'debian/rules': 'nothing here\n',
  });
  project = makeTree({
    '.gitignore': 'generated.ts\n',
    'src/a.ts': 'export const a = 1;\n',
    'src/generated.ts': 'export const onlyInGenerated = 1;\n',
    'node_modules/zod/index.js': 'export const zodOnly = 1;\n',
  });
});

describe.each<Engine>(['js', 'rg'])('search tool: why nothing was found, engine %s', (engine) => {
  it('matches hidden by ignore rules are counted and named, with how to include them', async () => {
    const r = await run(kernel, { pattern: 'PM_RESUME', paths: '.' }, { engine });
    expect(r.text).toBe(
      'No matches found\n2 files hidden by ignore rules (.gitignore, .ignore) or skipped directories match: include/linux/pm.h, kernel/power/main.c. To search them, pass gitignore: false to include ignored files.',
    );
    const all = await run(kernel, { pattern: 'PM_RESUME', paths: '.', gitignore: false }, { engine });
    expect(all.details.files).toEqual(['include/linux/pm.h', 'kernel/power/main.c']);
  });

  it('a match only in a git-ignored file, and one only under node_modules', async () => {
    const ignored = await run(project, { pattern: 'onlyInGenerated', paths: 'src' }, { engine });
    expect(ignored.text).toBe(
      'No matches found\n1 file hidden by ignore rules (.gitignore, .ignore) or skipped directories matches: src/generated.ts. To search it, pass gitignore: false to include ignored files.',
    );
    const skipped = await run(project, { pattern: 'zodOnly', paths: '.', gitignore: false }, { engine });
    expect(skipped.text).toBe(
      'No matches found\n1 file hidden by skipped directories matches: node_modules/zod/index.js. To search it, name a node_modules directory in paths.',
    );
  });

  it('a glob that matches no file says so', async () => {
    const r = await run(project, { pattern: 'export', paths: 'src/*.tsx' }, { engine });
    expect(r.text).toBe('No matches found\nNo file matches src/*.tsx.');
  });

  it('a plain empty answer stays plain', async () => {
    expect((await run(project, { pattern: 'absent-everywhere', paths: '.' }, { engine })).text).toBe(
      'No matches found',
    );
  });
});
