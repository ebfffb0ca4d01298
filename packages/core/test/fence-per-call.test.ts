import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSensitiveFence } from '../src/fence/index.js';
import { makeTree, run } from './fixtures/tool/helpers.js';

/**
 * 🔒 Each search-tool call resolves the fence's table afresh: a credential store, or an ancestor of one, that
 * becomes a link between two calls is fenced at its new canonical place by the next call. (The construction
 * resolves each path once however many anchors share it; that must not carry over from one fence to the next.)
 */
describe('fence: a fresh canonical table per call', () => {
  it('fences a store and an ancestor of a store swapped for links between two calls', async () => {
    const home = makeTree({ 'notes/plain.txt': 'plain\n' });
    const project = makeTree({
      'keys/id_ed25519': 'CANARY key\n',
      'conf/gcloud/credentials.json': 'CANARY token\n',
      'src/app.ts': 'CANARY control\n',
    });
    const env = { ...process.env };
    delete env.XDG_CONFIG_HOME;
    delete env.CLOUDSDK_CONFIG;
    const call = async () =>
      (
        await run(project, { pattern: 'CANARY', paths: ['.'], output: 'files' }, { homeDir: home })
      ).details.files.sort();
    const seen = await call();
    expect(seen).toEqual(['conf/gcloud/credentials.json', 'keys/id_ed25519', 'src/app.ts']);

    // ~/.ssh (a store) and ~/.config (an ancestor of ~/.config/gcloud) become links into the project.
    fs.symlinkSync(path.join(project, 'keys'), path.join(home, '.ssh'));
    fs.symlinkSync(path.join(project, 'conf'), path.join(home, '.config'));
    expect(await call()).toEqual(['src/app.ts']);
    const fence = createSensitiveFence({ home, env });
    expect(fence.isSensitiveCanonical(path.join(project, 'keys', 'id_ed25519'))).toBe(true);
    expect(fence.isSensitiveCanonical(path.join(project, 'conf', 'gcloud', 'credentials.json'))).toBe(true);

    // And back: the links removed, the next call searches the project's own directories again.
    fs.rmSync(path.join(home, '.ssh'));
    fs.rmSync(path.join(home, '.config'));
    expect(await call()).toEqual(seen);
  });

  it('resolves a path shared by many anchors once per construction, to the same table', () => {
    const home = makeTree({ '.config/x': 'x\n' });
    const calls: string[] = [];
    const counted = createSensitiveFence({
      home,
      env: {},
      realpathSync: (p) => {
        calls.push(p);
        return fs.realpathSync.native(p);
      },
    });
    expect(calls.length).toBe(new Set(calls).size);
    expect(counted.targets).toEqual(createSensitiveFence({ home, env: {} }).targets);
    expect(counted.targets).toContain(path.join(home, '.ssh').toLowerCase());
  });
});
