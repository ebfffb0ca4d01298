import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SensitiveFence, type SensitiveFenceOptions } from '../src/fence/index.js';

/**
 * 🔒 A live fence (a long-lived process's one fence) resolves its table once, not per use, and again when an
 * entry changes in a directory it was resolved through or once its TTL runs out: a store (or a directory on the
 * way to one) swapped for a link is fenced at its new canonical place at the next use.
 */
const made: string[] = [];
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

function tree(): { home: string; project: string } {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-fence-live-')));
  made.push(tmp);
  const home = path.join(tmp, 'home');
  const project = path.join(tmp, 'project');
  fs.mkdirSync(path.join(home, 'notes'), { recursive: true });
  fs.mkdirSync(path.join(project, 'keys'), { recursive: true });
  fs.writeFileSync(path.join(project, 'keys', 'id_ed25519'), 'key\n');
  return { home, project };
}

/** Watches and a timer the test fires by hand; realpaths counted. */
function seams() {
  const watched = new Map<string, (name: string | null) => void>();
  const timers: Array<() => void> = [];
  const resolved: string[] = [];
  const options: Partial<SensitiveFenceOptions> = {
    live: true,
    env: {},
    realpathSync: (p) => {
      resolved.push(p);
      return fs.realpathSync.native(p);
    },
    watchDir: (dir, onChange) => {
      watched.set(dir, onChange);
      return { close: () => watched.delete(dir) };
    },
    setTimer: (_ms, fn) => {
      timers.push(fn);
      return () => timers.splice(timers.indexOf(fn), 1);
    },
  };
  return { watched, timers, resolved, options };
}

describe('a live fence', () => {
  it('resolves its table once however often it is asked', () => {
    const { home, project } = tree();
    const s = seams();
    const fence = new SensitiveFence({ home, ...s.options });
    const once = s.resolved.length;
    expect(once).toBeGreaterThan(0);
    const check = fence.canonicalCheckerFor(project);
    for (let k = 0; k < 100; k++) {
      fence.isSensitiveCanonical(path.join(project, 'keys', 'id_ed25519'));
      check(path.join(project, 'keys', 'id_ed25519'));
      void fence.targets;
      fence.containsSensitive(project);
    }
    expect(s.resolved.length).toBe(once);
    fence.close();
  });

  it('fences a store swapped for a link once the directory holding it reports the change', () => {
    const { home, project } = tree();
    const s = seams();
    const fence = new SensitiveFence({ home, ...s.options });
    const key = path.join(project, 'keys', 'id_ed25519');
    const check = fence.canonicalCheckerFor(project);
    expect(fence.isSensitiveCanonical(key)).toBe(false);
    expect(check(key)).toBe(false);

    fs.symlinkSync(path.join(project, 'keys'), path.join(home, '.ssh'));
    // Not yet reported: the table is the one resolved before (the watcher's event is what tells).
    expect(fence.isSensitiveCanonical(key)).toBe(false);
    s.watched.get(home)!('.ssh');
    expect(fence.isSensitiveCanonical(key)).toBe(true);
    // A checker made before the change follows the new table.
    expect(check(key)).toBe(true);

    // And back: the link removed and reported, the project's keys are plain files again.
    fs.rmSync(path.join(home, '.ssh'));
    s.watched.get(home)!('.ssh');
    expect(check(key)).toBe(false);
    fence.close();
    expect(s.watched.size).toBe(0);
  });

  it('fences a store under a directory on the way that became a link (~/.config → the project)', () => {
    const { home, project } = tree();
    fs.mkdirSync(path.join(project, 'conf', 'gcloud'), { recursive: true });
    const token = path.join(project, 'conf', 'gcloud', 'credentials.json');
    fs.writeFileSync(token, 'token\n');
    const s = seams();
    const fence = new SensitiveFence({ home, ...s.options });
    expect(fence.isSensitiveCanonical(token)).toBe(false);
    fs.symlinkSync(path.join(project, 'conf'), path.join(home, '.config'));
    s.watched.get(home)!('.config');
    expect(fence.isSensitiveCanonical(token)).toBe(true);
    fence.close();
  });

  it('ignores a change of a name the table was not resolved through', () => {
    const { home } = tree();
    const s = seams();
    const fence = new SensitiveFence({ home, ...s.options });
    const once = s.resolved.length;
    s.watched.get(home)!('notes');
    s.watched.get(home)!('.bash_history');
    fence.isSensitiveCanonical(path.join(home, 'notes', 'a.txt'));
    expect(s.resolved.length).toBe(once);
    // A change the watcher cannot name is taken as one that matters.
    s.watched.get(home)!(null);
    fence.isSensitiveCanonical(path.join(home, 'notes', 'a.txt'));
    expect(s.resolved.length).toBeGreaterThan(once);
    fence.close();
  });

  it('resolves again once its TTL runs out, for what no watcher sees', () => {
    const { home, project } = tree();
    // A chain: ~/.ssh → hop (outside every watched directory's names) → first; then hop is retargeted.
    const hopDir = path.join(project, 'hops');
    fs.mkdirSync(hopDir);
    fs.mkdirSync(path.join(project, 'first'));
    fs.symlinkSync(path.join(project, 'first'), path.join(hopDir, 'hop'));
    fs.symlinkSync(path.join(hopDir, 'hop'), path.join(home, '.ssh'));
    const s = seams();
    const fence = new SensitiveFence({ home, ...s.options });
    const key = path.join(project, 'keys', 'id_ed25519');
    expect(fence.isSensitiveCanonical(path.join(project, 'first', 'x'))).toBe(true);
    fs.rmSync(path.join(hopDir, 'hop'));
    fs.symlinkSync(path.join(project, 'keys'), path.join(hopDir, 'hop'));
    expect(fence.isSensitiveCanonical(key)).toBe(false);
    expect(s.timers).toHaveLength(1);
    s.timers[0]!();
    expect(fence.isSensitiveCanonical(key)).toBe(true);
    fence.close();
  });

  it('has every swap made before settled() in its table once it resolves (fs.watch)', async () => {
    const { home, project } = tree();
    const fence = new SensitiveFence({ home, env: {}, live: true });
    const key = path.join(project, 'keys', 'id_ed25519');
    const config = path.join(project, 'conf', 'gcloud', 'credentials.json');
    fs.mkdirSync(path.dirname(config), { recursive: true });
    fs.writeFileSync(config, 'token\n');
    expect(fence.isSensitiveCanonical(key)).toBe(false);
    fs.symlinkSync(path.join(project, 'keys'), path.join(home, '.ssh'));
    fs.symlinkSync(path.join(project, 'conf'), path.join(home, '.config'));
    // Not read from the watchers' queue yet: the table is the one resolved before.
    expect(fence.isSensitiveCanonical(key)).toBe(false);
    await fence.settled();
    expect(fence.isSensitiveCanonical(key)).toBe(true);
    expect(fence.isSensitiveCanonical(config)).toBe(true);
    fs.rmSync(path.join(home, '.ssh'));
    await fence.settled();
    expect(fence.isSensitiveCanonical(key)).toBe(false);
    fence.close();
  });

  it('a fence that is not live watches nothing and keeps its table', () => {
    const { home, project } = tree();
    const s = seams();
    const fence = new SensitiveFence({ home, ...s.options, live: false });
    expect(s.watched.size).toBe(0);
    expect(s.timers).toHaveLength(0);
    fs.symlinkSync(path.join(project, 'keys'), path.join(home, '.ssh'));
    expect(fence.isSensitiveCanonical(path.join(project, 'keys', 'id_ed25519'))).toBe(false);
  });
});
