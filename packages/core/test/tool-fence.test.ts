import { beforeAll, describe, expect, it } from 'vitest';
import { type Engine, makeTree, run } from './fixtures/tool/helpers.js';

/** 🔒 The sensitive-path fence (DESIGN decision 6) on the search tool: no surface returns what it guards. */
let home: string;
/** A HOME elsewhere: the same tree's credential stores are then ordinary files (the positive controls). */
let elsewhere: string;
beforeAll(() => {
  elsewhere = makeTree({ 'empty.txt': '' });
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
    // Positive control: the same walk, with HOME elsewhere, does report them; the fence is what hid them.
    const control = await run(home, { pattern: 'needle', paths: '.' }, { engine, homeDir: elsewhere });
    expect(control.text).toMatch(/id_ed25519/);
    expect(control.text).toMatch(/aws_secret/);
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
    const control = await run(
      home,
      { pattern: 'needle', paths: ['.ssh/id_ed25519', 'project/notes.md'] },
      { engine, homeDir: elsewhere },
    );
    expect(control.text).toContain('PRIVATE KEY');
  });

  it('🔒 a glob below a credential directory finds nothing in it', async () => {
    const r = await run(home, { pattern: 'needle', paths: '.aws/*' }, { engine, homeDir: home });
    expect(r.text).not.toContain('aws_secret_access_key');
    const control = await run(home, { pattern: 'needle', paths: '.aws/*' }, { engine, homeDir: elsewhere });
    expect(control.text).toContain('aws_secret_access_key');
  });
});
