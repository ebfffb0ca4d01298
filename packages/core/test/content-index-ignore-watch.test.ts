import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IgnoreFilesWatch } from '../src/content-index/ignore-watch.js';
import { openIndex } from '../src/content-index/index.js';
import type { WatchDir } from '../src/content-index/watch.js';
import { searchTool } from '../src/tool/index.js';

/**
 * The ignore files no tree watcher sees (above the root, `.git/info/exclude`) are watched, not stat'ed per search:
 * the signature a kept walk is checked against costs no stat while nothing changes, and moves with every change
 * there.
 */
const made: string[] = [];
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

function layout() {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-ignore-watch-')));
  made.push(tmp);
  const repo = path.join(tmp, 'repo');
  const root = path.join(repo, 'sub', 'root');
  fs.mkdirSync(path.join(repo, '.git', 'info'), { recursive: true });
  fs.mkdirSync(path.join(root, 'inner', '.git'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.gitignore'), '*.log\n');
  return { tmp, repo, root };
}

/** Watches the test fires by hand; a directory listed in `refuse` cannot be watched (EACCES). */
function seams(refuse: string[] = []) {
  const watched = new Map<string, (kind: 'rename' | 'change', name: string | null) => void>();
  const stats: string[] = [];
  const watchDir: WatchDir = (dir, onEvent) => {
    if (refuse.includes(dir)) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
    if (!fs.existsSync(dir)) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    watched.set(dir, onEvent);
    return { close: () => watched.delete(dir) };
  };
  const statOf = (p: string) => {
    stats.push(p);
    return fs.existsSync(p) ? String(fs.statSync(p).mtimeMs) : '-';
  };
  return { watched, stats, watchDir, statOf };
}

describe('the ignore files no tree watcher sees', () => {
  it('are watched above the root and in each repository, and stat nothing per signature', () => {
    const { repo, root } = layout();
    const s = seams();
    const w = new IgnoreFilesWatch(root, s.watchDir, s.statOf);
    const gitDirs = new Set(['inner']);
    const first = w.signature(true, gitDirs);
    expect([...s.watched.keys()]).toEqual(
      expect.arrayContaining([
        path.join(repo, 'sub'),
        repo,
        path.join(repo, '.git'),
        path.join(repo, '.git', 'info'),
        path.join(root, 'inner', '.git'),
        '/',
      ]),
    );
    for (let k = 0; k < 50; k++) expect(w.signature(true, gitDirs)).toBe(first);
    expect(s.stats).toEqual([]);
    w.close();
    expect(s.watched.size).toBe(0);
  });

  it('moves when an ancestor ignore file or an exclude file changes, not for other names', () => {
    const { repo, root } = layout();
    const s = seams();
    const w = new IgnoreFilesWatch(root, s.watchDir, s.statOf);
    const gitDirs = new Set<string>();
    const a = w.signature(true, gitDirs);
    s.watched.get(repo)!('change', 'notes.txt');
    expect(w.signature(true, gitDirs)).toBe(a);
    s.watched.get(repo)!('change', '.gitignore');
    const b = w.signature(true, gitDirs);
    expect(b).not.toBe(a);
    s.watched.get(path.join(repo, '.git', 'info'))!('change', 'exclude');
    expect(w.signature(true, gitDirs)).not.toBe(b);
  });

  it('watches a .git/info made later, once its .git reports it', () => {
    const { root } = layout();
    const s = seams();
    const w = new IgnoreFilesWatch(root, s.watchDir, s.statOf);
    const gitDirs = new Set(['inner']);
    const a = w.signature(true, gitDirs);
    const info = path.join(root, 'inner', '.git', 'info');
    expect(s.watched.has(info)).toBe(false);
    fs.mkdirSync(info);
    s.watched.get(path.join(root, 'inner', '.git'))!('rename', 'info');
    const b = w.signature(true, gitDirs);
    expect(b).not.toBe(a);
    expect(s.watched.has(info)).toBe(true);
    s.watched.get(info)!('rename', 'exclude');
    expect(w.signature(true, gitDirs)).not.toBe(b);
  });

  it('once closed, watches nothing again and no two signatures agree', () => {
    const { root } = layout();
    const s = seams();
    const w = new IgnoreFilesWatch(root, s.watchDir, s.statOf);
    w.signature(true, new Set());
    w.close();
    const a = w.signature(true, new Set(['inner']));
    expect(w.signature(true, new Set(['inner']))).not.toBe(a);
    expect(s.watched.size).toBe(0);
  });

  it('stats per signature what it could not watch', () => {
    const { repo, root } = layout();
    const s = seams([repo]);
    const w = new IgnoreFilesWatch(root, s.watchDir, s.statOf);
    const a = w.signature(true, new Set());
    expect(s.stats).toContain(path.join(repo, '.gitignore'));
    fs.writeFileSync(path.join(repo, '.gitignore'), '*.tmp\n');
    fs.utimesSync(path.join(repo, '.gitignore'), new Date(0), new Date(0));
    expect(w.signature(true, new Set())).not.toBe(a);
    // Without the parents' rules, what lies above the root is not asked about.
    s.stats.length = 0;
    w.signature(false, new Set());
    expect(s.stats).toEqual([]);
  });
});

describe('an index whose root lies in a repository', () => {
  it('sees a changed ancestor .gitignore at the next search (the walk it kept is listed again)', async () => {
    const { repo, root } = layout();
    fs.writeFileSync(path.join(root, 'kept.txt'), 'needle kept\n');
    fs.writeFileSync(path.join(root, 'app.log'), 'needle logged\n');
    const past = new Date(Date.now() - 3_600_000);
    for (const f of ['kept.txt', 'app.log']) fs.utimesSync(path.join(root, f), past, past);
    const index = openIndex(root, { dataDir: path.join(repo, '..', 'data') });
    try {
      await index.whenReady();
      expect(index.status().state).toBe('ready');
      const files = async () =>
        (
          await searchTool(
            { pattern: 'needle', paths: ['.'], output: 'files' },
            { cwd: root, format: 'hashline', index },
          )
        ).details.files.sort();
      expect(await files()).toEqual(['kept.txt']);
      expect(await files()).toEqual(['kept.txt']);
      fs.writeFileSync(path.join(repo, '.gitignore'), '*.tmp\n');
      expect(await files()).toEqual(['app.log', 'kept.txt']);
      fs.writeFileSync(path.join(repo, '.git', 'info', 'exclude'), 'app.log\n');
      expect(await files()).toEqual(['kept.txt']);
    } finally {
      await index.close();
    }
  });

  it('sees an ancestor .gitignore rewritten to the same size and times (no stat can tell)', async () => {
    const { repo, root } = layout();
    fs.writeFileSync(path.join(root, 'kept.txt'), 'needle kept\n');
    fs.writeFileSync(path.join(root, 'app.log'), 'needle logged\n');
    fs.writeFileSync(path.join(root, 'app.tmp'), 'needle temporary\n');
    const past = new Date(Date.now() - 3_600_000);
    for (const f of ['kept.txt', 'app.log', 'app.tmp', '../../.gitignore'])
      fs.utimesSync(path.join(root, f), past, past);
    const index = openIndex(root, { dataDir: path.join(repo, '..', 'data-same-stat') });
    try {
      await index.whenReady();
      expect(index.status().state).toBe('ready');
      const files = async () =>
        (
          await searchTool(
            { pattern: 'needle', paths: ['.'], output: 'files' },
            { cwd: root, format: 'hashline', index },
          )
        ).details.files.sort();
      expect(await files()).toEqual(['app.tmp', 'kept.txt']);
      // Same size, same inode, times set back: what a stat-based check would call unchanged.
      const ignore = path.join(repo, '.gitignore');
      fs.writeFileSync(ignore, '*.tmp\n');
      fs.utimesSync(ignore, past, past);
      expect(await files()).toEqual(['app.log', 'kept.txt']);
    } finally {
      await index.close();
    }
  });

  it('watches nothing above the root when it does not watch at all', async () => {
    const { repo, root } = layout();
    fs.writeFileSync(path.join(root, 'kept.txt'), 'needle kept\n');
    const s = seams();
    const index = openIndex(root, {
      dataDir: path.join(repo, '..', 'data-unwatched'),
      watch: false,
      watchDir: s.watchDir,
    });
    try {
      await index.whenReady();
      expect(index.status().freshness).toBe('stat');
      await searchTool({ pattern: 'needle', paths: ['.'] }, { cwd: root, format: 'hashline', index });
      expect(s.watched.size).toBe(0);
    } finally {
      await index.close();
    }
  });
});
