import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expandHome } from '@trawl/core/fence';
import { RECENT_PROJECTS_MAX, RECENT_PROJECTS_MAX_BYTES, RECENT_PROJECTS_RECHECK_MS } from './limits.js';

/** The recent-projects list in the data directory: a JSON array of directory strings. */
export const RECENT_PROJECTS_FILE = 'recent-projects.json';

export interface KnownProject {
  /** The server-held spelling: what gets resolved when this project is used. */
  path: string;
  name: string;
  source: 'serve' | 'recent';
}

export interface KnownProjectsOptions {
  /** The directories `trawl serve` was given (absolute). */
  dirs: readonly string[];
  dataDir: string;
  home: string;
  /** Monotonic clock (ms), for the re-read interval. */
  now?: () => number;
}

/**
 * The known-project allow-list (docs/http-api.md): the directories given to `trawl serve`, then the
 * string entries of `recent-projects.json` in the data directory. Matching is purely lexical — `~` expanded and
 * normalised on both sides, compared exactly — and answers the SERVER-HELD string, so nothing the caller spelled is
 * ever handed to the filesystem.
 */
export class KnownProjects {
  private cache: { key: string; entries: string[] } | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;
  /** Projects opened during this run: known even when recording them in the file failed. */
  private readonly opened: string[] = [];
  /** Writes of the file, one at a time (two opens at once must not lose one). */
  private writing: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: KnownProjectsOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Lexical form used for comparison. */
  normalise(p: string): string {
    const n = path.normalize(expandHome(p, this.options.home));
    return n.length > 1 ? n.replace(/[\\/]+$/, '') : n;
  }

  async list(): Promise<KnownProject[]> {
    const out: KnownProject[] = [];
    const seen = new Set<string>();
    const add = (p: string, source: KnownProject['source']) => {
      const key = this.normalise(p);
      if (seen.has(key)) return;
      seen.add(key);
      out.push({ path: p, name: path.basename(key) || key, source });
    };
    for (const d of this.options.dirs) add(d, 'serve');
    for (const r of await this.recent()) add(r, 'recent');
    for (const r of this.opened) add(r, 'recent');
    return out;
  }

  /**
   * Records a project opened in the workbench (a canonical directory the root policy accepted): first in
   * `recent-projects.json`, without duplicates, at most {@link RECENT_PROJECTS_MAX} entries, replaced atomically
   * (temp file, fsync, rename: a reader sees the old list or the new one). Known for this run at once, also when
   * the write fails (the error is returned for the log).
   */
  async open(root: string): Promise<{ project: KnownProject; writeError?: Error }> {
    if (!this.opened.some((p) => this.normalise(p) === this.normalise(root))) this.opened.push(root);
    const run = this.writing.then(() => this.writeRecent(root));
    this.writing = run.catch(() => {});
    let writeError: Error | undefined;
    try {
      await run;
    } catch (err) {
      writeError = err as Error;
    }
    const key = this.normalise(root);
    const project = (await this.list()).find((p) => this.normalise(p.path) === key)!;
    return { project, ...(writeError ? { writeError } : {}) };
  }

  private async writeRecent(root: string): Promise<void> {
    this.checkedAt = Number.NEGATIVE_INFINITY;
    const key = this.normalise(root);
    const next = [root, ...(await this.recent()).filter((e) => this.normalise(e) !== key)].slice(
      0,
      RECENT_PROJECTS_MAX,
    );
    const file = path.join(this.options.dataDir, RECENT_PROJECTS_FILE);
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const handle = await fs.promises.open(tmp, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(next, null, 2)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.promises.rename(tmp, file);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true }).catch(() => {});
      throw err;
    } finally {
      this.cache = undefined;
      this.checkedAt = Number.NEGATIVE_INFINITY;
    }
  }

  /** The server-held project a caller's spelling names, lexically; `undefined` when none does. */
  async match(raw: string): Promise<string | undefined> {
    if (raw.includes('\0')) return undefined;
    const wanted = this.normalise(raw);
    for (const p of await this.list()) if (this.normalise(p.path) === wanted) return p.path;
    return undefined;
  }

  /** The first known project whose directory name is `name` (how `?workspace=` is understood). */
  async byName(name: string): Promise<string | undefined> {
    for (const p of await this.list()) if (p.name === name) return p.path;
    return undefined;
  }

  private async recent(): Promise<string[]> {
    const t = this.now();
    if (this.cache && t - this.checkedAt < RECENT_PROJECTS_RECHECK_MS) return this.cache.entries;
    this.checkedAt = t;
    const file = path.join(this.options.dataDir, RECENT_PROJECTS_FILE);
    let handle: fs.promises.FileHandle | undefined;
    try {
      handle = await fs.promises.open(file, 'r');
      const st = await handle.stat();
      const key = `${st.mtimeMs}:${st.size}`;
      if (this.cache?.key === key) return this.cache.entries;
      let entries: string[] = [];
      if (st.isFile() && st.size <= RECENT_PROJECTS_MAX_BYTES) {
        const text = await handle.readFile('utf8');
        try {
          const parsed: unknown = JSON.parse(text);
          if (Array.isArray(parsed)) {
            entries = parsed.filter(
              (x): x is string =>
                typeof x === 'string' &&
                !x.includes('\0') &&
                path.isAbsolute(expandHome(x, this.options.home)),
            );
          }
        } catch {
          entries = [];
        }
      }
      this.cache = { key, entries };
      return entries;
    } catch {
      this.cache = { key: 'missing', entries: [] };
      return [];
    } finally {
      await handle?.close().catch(() => {});
    }
  }
}
