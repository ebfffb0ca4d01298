import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SENSITIVE_HOME_LOCATIONS, SensitiveFence } from '../src/fence/index.js';

// Every test runs against a fake HOME under a temp dir: the real ~/.ssh is never touched.
let tmp: string;
let home: string;
let fence: SensitiveFence;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-fence-')));
  home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'key');
  fs.mkdirSync(path.join(home, 'project'), { recursive: true });
  fs.writeFileSync(path.join(home, 'project', '.npmrc'), 'registry=x');
  fs.mkdirSync(path.join(tmp, 'elsewhere'), { recursive: true });
  fs.symlinkSync(path.join(home, '.ssh'), path.join(tmp, 'elsewhere', 'keys'));
  fs.symlinkSync(path.join(home, '.ssh', 'id_ed25519'), path.join(tmp, 'elsewhere', 'key-file'));
  fs.symlinkSync(path.join(home, 'project'), path.join(tmp, 'elsewhere', 'proj'));
  fence = new SensitiveFence({ home, env: {} });
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the sensitive-location table', () => {
  const required = [
    '.ssh',
    '.aws',
    '.gnupg',
    '.config/gcloud',
    '.azure',
    '.docker/config.json',
    '.kube/config',
    '.npmrc',
    '.pypirc',
    '.netrc',
    '.git-credentials',
    '.codex/auth.json',
    '.claude/.credentials.json',
  ];

  it.each(required)('refuses ~/%s and what lies under it', (rel) => {
    expect(fence.isSensitiveCanonical(path.join(home, rel))).toBe(true);
    expect(fence.isSensitiveCanonical(path.join(home, rel, 'child'))).toBe(true);
  });

  it('holds every location of decision 6 of docs/architecture.md in the one table', () => {
    const homes = new Set(SENSITIVE_HOME_LOCATIONS.map((l) => l.home));
    for (const rel of required) expect(homes.has(rel)).toBe(true);
  });

  it('matches whole components only: ~/.ssh-notes is not ~/.ssh', () => {
    expect(fence.isSensitiveCanonical(path.join(home, '.ssh-notes'))).toBe(false);
    expect(fence.isSensitiveCanonical(path.join(home, '.sshx', 'a'))).toBe(false);
  });

  it("is anchored at HOME: a project's own .npmrc is an ordinary file", () => {
    expect(fence.isSensitiveCanonical(path.join(home, 'project', '.npmrc'))).toBe(false);
    expect(fence.isSensitiveCanonical(path.join(home, '.npmrc'))).toBe(true);
  });

  it('compares case-folded', () => {
    expect(fence.isSensitiveCanonical(path.join(home, '.SSH', 'id_rsa'))).toBe(true);
  });

  it("refuses trawl's own data directories, by default and when TRAWL_HOME moves them", () => {
    expect(fence.isSensitiveCanonical(path.join(home, '.local/share/trawl/token'))).toBe(true);
    expect(fence.isSensitiveCanonical(path.join(home, '.config/trawl'))).toBe(true);
    const moved = new SensitiveFence({ home, env: { TRAWL_HOME: path.join(tmp, 'trawl-data') } });
    expect(moved.isSensitiveCanonical(path.join(tmp, 'trawl-data', 'audit.jsonl'))).toBe(true);
    expect(fence.isSensitiveCanonical(path.join(tmp, 'trawl-data', 'audit.jsonl'))).toBe(false);
  });

  it('refuses operator additions, absolute and ~-relative', () => {
    const f = new SensitiveFence({ home, env: {}, extra: [path.join(tmp, 'secrets'), '~/vault'] });
    expect(f.isSensitiveCanonical(path.join(tmp, 'secrets', 'db.txt'))).toBe(true);
    expect(f.isSensitiveCanonical(path.join(home, 'vault'))).toBe(true);
    expect(fence.isSensitiveCanonical(path.join(home, 'vault'))).toBe(false);
  });

  it('follows stores an environment variable relocates (CODEX_HOME, KUBECONFIG lists, XDG_CONFIG_HOME)', () => {
    const f = new SensitiveFence({
      home,
      env: {
        CODEX_HOME: path.join(tmp, 'codex'),
        KUBECONFIG: `${path.join(tmp, 'k1')}${path.delimiter}${path.join(tmp, 'k2')}`,
        XDG_CONFIG_HOME: path.join(tmp, 'xdg'),
      },
    });
    expect(f.isSensitiveCanonical(path.join(tmp, 'codex', 'auth.json'))).toBe(true);
    expect(f.isSensitiveCanonical(path.join(tmp, 'codex', 'config.toml'))).toBe(false);
    expect(f.isSensitiveCanonical(path.join(tmp, 'k2'))).toBe(true);
    expect(f.isSensitiveCanonical(path.join(tmp, 'xdg', 'gcloud', 'credentials.db'))).toBe(true);
    // the HOME spelling stays sensitive too
    expect(f.isSensitiveCanonical(path.join(home, '.codex', 'auth.json'))).toBe(true);
  });

  it('anchors a symlinked HOME at both its spelling and its real path', () => {
    const linkHome = path.join(tmp, 'home-link');
    fs.symlinkSync(home, linkHome);
    const f = new SensitiveFence({ home: linkHome, env: {} });
    expect(f.isSensitiveCanonical(path.join(linkHome, '.ssh'))).toBe(true);
    expect(f.isSensitiveCanonical(path.join(home, '.ssh', 'id_ed25519'))).toBe(true);
  });
});

describe('containment helpers', () => {
  it('tells whether a directory holds a sensitive location', () => {
    expect(fence.containsSensitive(home)).toBe(true);
    expect(fence.containsSensitive(path.join(home, 'project'))).toBe(false);
    expect(fence.containsSensitive(path.join(home, '.ssh', 'sub'))).toBe(true);
  });

  it('gives a per-root checker that only knows the locations inside the root', () => {
    const none = fence.canonicalCheckerFor(path.join(home, 'project'));
    expect(none(path.join(home, 'project', 'a.ts'))).toBe(false);
    const atHome = fence.canonicalCheckerFor(home);
    expect(atHome(path.join(home, '.ssh', 'id_ed25519'))).toBe(true);
    expect(atHome(path.join(home, 'project', 'a.ts'))).toBe(false);
    const inside = fence.canonicalCheckerFor(path.join(home, '.ssh'));
    expect(inside(path.join(home, '.ssh', 'anything'))).toBe(true);
  });
});

describe('the resolving predicate', () => {
  it('refuses a symlink whose target is sensitive, which the canonical predicate cannot see', async () => {
    const link = path.join(tmp, 'elsewhere', 'keys');
    expect(fence.isSensitiveCanonical(link)).toBe(false);
    expect(await fence.isSensitive(link)).toBe(true);
    expect(await fence.isSensitive(path.join(tmp, 'elsewhere', 'key-file'))).toBe(true);
  });

  it('clears a symlink whose target is not sensitive', async () => {
    expect(await fence.isSensitive(path.join(tmp, 'elsewhere', 'proj'))).toBe(false);
    expect(await fence.verdict(path.join(tmp, 'elsewhere', 'proj'))).toBe('clear');
  });

  it('refuses a missing path below a link into a sensitive location (resolved through its existing ancestor)', async () => {
    expect(await fence.isSensitive(path.join(tmp, 'elsewhere', 'keys', 'not-yet', 'there'))).toBe(true);
  });

  it('refuses a sensitive path that does not exist, and one spelled with ..', async () => {
    expect(await fence.isSensitive(path.join(home, '.aws', 'credentials'))).toBe(true);
    expect(await fence.isSensitive(`${home}/project/../.ssh/id_ed25519`)).toBe(true);
  });

  it('fails closed when resolution stalls past the time bound', async () => {
    const stalled = new SensitiveFence({
      home,
      env: {},
      realpath: () => new Promise<string>(() => {}),
      resolveDeadlineMs: 20,
    });
    expect(await stalled.verdict(path.join(tmp, 'elsewhere', 'proj'))).toBe('unresolved');
    expect(await stalled.isSensitive(path.join(tmp, 'elsewhere', 'proj'))).toBe(true);
  });

  it('fails closed when resolution fails for a reason other than absence', async () => {
    const denied = new SensitiveFence({
      home,
      env: {},
      realpath: () => Promise.reject(Object.assign(new Error('denied'), { code: 'EACCES' })),
    });
    expect(await denied.isSensitive(path.join(tmp, 'elsewhere', 'proj'))).toBe(true);
  });

  it('after a stall refuses the same prefix without resolving until the cooldown ends', async () => {
    let calls = 0;
    let clock = 0;
    const stalled = new SensitiveFence({
      home,
      env: {},
      realpath: () => {
        calls++;
        return new Promise<string>(() => {});
      },
      resolveDeadlineMs: 10,
      now: () => clock,
    });
    expect(await stalled.isSensitive('/mnt/dead/a')).toBe(true);
    expect(calls).toBe(1);
    expect(await stalled.isSensitive('/mnt/dead/b/c')).toBe(true);
    expect(calls).toBe(1);
    clock += 31_000;
    expect(await stalled.isSensitive('/mnt/dead/b/c')).toBe(true);
    expect(calls).toBe(2);
  });

  it('refuses a path containing NUL', async () => {
    expect(await fence.isSensitive(`${home}/project/a\0b`)).toBe(true);
  });
});
