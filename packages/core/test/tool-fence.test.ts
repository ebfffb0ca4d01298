import { beforeAll, describe, expect, it } from 'vitest';
import { type Engine, makeTree, run } from './fixtures/tool/helpers.js';

/** 🔒 The sensitive-path fence (DESIGN decision 6) on the search tool: no surface returns what it guards. */
let home: string;
beforeAll(() => {
  home = makeTree({
    '.ssh/id_ed25519': 'needle PRIVATE KEY\n',
    '.aws/credentials': 'needle aws_secret_access_key\n',
    'project/notes.md': 'needle in a note\n',
    'project/.npmrc': 'needle in a project npmrc is fine\n',
  });
});

describe.each<Engine>(['js', 'rg'])('search tool fence (%s engine)', (engine) => {
  it('🔒 a walk of HOME never reports credential stores', async () => {
    const r = await run(home, { pattern: 'needle', paths: '.' }, { engine, homeDir: home });
    expect(r.text).toContain('notes.md');
    expect(r.text).not.toMatch(/id_ed25519|credentials|PRIVATE KEY|aws_secret/);
  });

  it('🔒 a credential file named by the caller is refused, and its content never shown', async () => {
    const r = await run(
      home,
      { pattern: 'needle', paths: ['.ssh/id_ed25519', 'project/notes.md'] },
      { engine, homeDir: home },
    );
    expect(r.text).toContain('notes.md');
    expect(r.text).toMatch(/Not searched: .*id_ed25519 \(sensitive location\)/);
    expect(r.text).not.toContain('PRIVATE KEY');
  });

  it('🔒 a glob below a credential directory finds nothing in it', async () => {
    const r = await run(home, { pattern: 'needle', paths: '.aws/*' }, { engine, homeDir: home });
    expect(r.text).not.toContain('aws_secret_access_key');
  });
});
