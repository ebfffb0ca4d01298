import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { search } from '../src/engine/index.js';
import { createSensitiveFence, SENSITIVE_HOME_LOCATIONS, trawlDataDirs } from '../src/fence/index.js';
import type { SearchEvent } from '../src/search/events.js';
import { makeTree, run } from './fixtures/tool/helpers.js';

/**
 * 🔒 The fence holds through links (issue 11 item 6): a search root that is a link, or a chain of links, into HOME or
 * into a credential store never reports what the store holds, under every engine. Every store of the table is
 * planted with a secret; a plain file beside them is the positive control that proves the search went through
 * the link.
 */

const SECRET = 'CANARY-SECRET';
/** Stores as they really look, for the ones the audit saw leak; every other table entry is planted as a file. */
const REALISTIC: Record<string, string> = {
  '.ssh/id_ed25519': 'ssh private key',
  '.aws/credentials': 'aws_secret_access_key',
  '.config/gcloud/application_default_credentials.json': 'gcloud refresh token',
  '.docker/config.json': 'docker registry auth',
  '.kube/config': 'kube client key',
  '.netrc': 'machine password',
  '.git-credentials': 'git credential',
};

let home: string;
let project: string;
let elsewhere: string;
const planted: string[] = [];

beforeAll(() => {
  home = makeTree({
    'notes/plain.txt': 'CANARY plain note\n',
    '.config/other/settings': 'CANARY plain config\n',
    '.kube/cache/discovery': 'CANARY plain kube cache\n',
  });
  const plant = (rel: string, what: string) => {
    const abs = path.join(home, rel);
    if (fs.existsSync(abs)) return;
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, `${SECRET} ${what}\n`);
    planted.push(rel);
  };
  for (const [rel, what] of Object.entries(REALISTIC)) plant(rel, what);
  for (const loc of SENSITIVE_HOME_LOCATIONS) {
    // A location under one already planted as a file is covered by it.
    if (!Object.keys(REALISTIC).some((r) => loc.home.startsWith(`${r}/`))) plant(loc.home, loc.what);
  }
  for (const dataDir of trawlDataDirs(home, {})) {
    plant(path.join(path.relative(home, dataDir), 'audit', 'audit.key'), "trawl's audit HMAC key");
  }

  project = makeTree({ 'src/app.ts': 'export const x = 1;\n' });
  elsewhere = makeTree({});
  fs.symlinkSync(home, path.join(project, 'homelink'));
  fs.symlinkSync(path.join(home, '.kube'), path.join(project, 'kubelink'));
  fs.symlinkSync(path.join(home, '.config'), path.join(project, 'configlink'));
  fs.symlinkSync(path.join(home, '.ssh'), path.join(project, 'sshlink'));
  fs.symlinkSync(path.join(home, '.ssh', 'id_ed25519'), path.join(project, 'keylink'));
  // A chain: project/chain -> elsewhere/hop -> HOME.
  fs.symlinkSync(home, path.join(elsewhere, 'hop'));
  fs.symlinkSync(path.join(elsewhere, 'hop'), path.join(project, 'chain'));
});

function expectNoSecret(r: unknown): void {
  expect(JSON.stringify(r)).not.toContain(SECRET);
}

describe.each(['js', 'rg', 'auto'] as const)('the fence through links (%s engine)', (engine) => {
  const opts = () => ({ engine, homeDir: home });

  it('planted a secret in every store of the table (the fixture is what the tests below rely on)', () => {
    expect(planted.length).toBeGreaterThanOrEqual(SENSITIVE_HOME_LOCATIONS.length - 2);
    for (const loc of SENSITIVE_HOME_LOCATIONS) {
      expect(
        planted.some((p) => p === loc.home || p.startsWith(`${loc.home}/`) || loc.home.startsWith(`${p}/`)),
      ).toBe(true);
    }
  });

  it.each([
    ['a link to HOME', 'homelink'],
    ['a link to HOME with a trailing slash', 'homelink/'],
    ['a recursive glob through a link to HOME', 'homelink/**'],
    ['a chain of links to HOME', 'chain'],
  ])('🔒 %s: the plain file is found, no store is', async (_what, paths) => {
    const r = await run(project, { pattern: 'CANARY', paths }, opts());
    expect(r.text).toContain('plain.txt');
    expect(r.text).toContain('CANARY plain note');
    expectNoSecret(r);
  });

  it('🔒 searching from inside a link to HOME (cwd is the link)', async () => {
    const r = await run(path.join(project, 'homelink'), { pattern: 'CANARY', paths: '.' }, opts());
    expect(r.text).toContain('CANARY plain note');
    expectNoSecret(r);
  });

  it.each([
    ['~/.config', 'configlink', 'CANARY plain config'],
    ['~/.kube', 'kubelink', 'CANARY plain kube cache'],
  ])(
    '🔒 a link to %s: its other contents are searched, its credential stores are not',
    async (_what, paths, plain) => {
      const r = await run(project, { pattern: 'CANARY', paths }, opts());
      expect(r.text).toContain(plain);
      expectNoSecret(r);
    },
  );

  it.each([
    ['a link to ~/.ssh', 'sshlink'],
    ['a glob below a link to ~/.ssh', 'sshlink/*'],
    ['a file through a link to ~/.ssh', 'sshlink/id_ed25519'],
    ['a link to a key file', 'keylink'],
    ['a store below a link to HOME, named', 'homelink/.aws/credentials'],
    ['a store below a chain, named', 'chain/.kube/config'],
  ])('🔒 %s is refused and nothing of it is shown', async (_what, paths) => {
    const r = await run(project, { pattern: 'CANARY', paths: [paths, 'src'] }, opts());
    expect(r.text).toContain('sensitive location');
    expectNoSecret(r);
  });

  it('🔒 a walk of the project does not follow its links at all', async () => {
    const r = await run(project, { pattern: 'CANARY', paths: '.' }, opts());
    expect(r.text).not.toContain('CANARY plain');
    expectNoSecret(r);
  });
});

/**
 * 🔒 -L (followLinks, issue 13): a walk that follows links decides each link on where it leads, so the fence's
 * canonical predicate still refuses every store reached through one, under both engines; the plain files
 * reached through the same links are the positive control. Without the realpath decision (deciding a followed
 * link by its parent's canonical path plus its own name) every store below `homelink` leaks.
 */
describe.each(['js', 'rg'] as const)('the fence through followed links (%s engine)', (engine) => {
  it('🔒 a walk of the project with followLinks finds the plain files behind its links and no store', async () => {
    const fence = createSensitiveFence({ home, env: {} });
    const events: SearchEvent[] = [];
    for await (const e of search({
      pattern: 'CANARY',
      cwd: project,
      paths: ['.'],
      hidden: true,
      followLinks: true,
      exclude: (canonical) => fence.isSensitiveCanonical(canonical),
      engine,
    }))
      events.push(e);
    const text = JSON.stringify(events);
    expect(text).toContain('CANARY plain note');
    expect(text).toContain('CANARY plain config');
    expect(text).toContain('homelink/notes/plain.txt');
    expectNoSecret(events);
  });
});
