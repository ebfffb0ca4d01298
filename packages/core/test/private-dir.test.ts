import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openIndex } from '../src/content-index/index.js';
import { search } from '../src/engine/search.js';
import {
  ensurePrivateDataDir,
  ensurePrivateDir,
  PrivateDirError,
  privateSubdir,
} from '../src/util/private-dir.js';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-private-dir-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const posix = process.platform !== 'win32';
let n = 0;
const fresh = () => path.join(tmp, `d${n++}`);

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (err) {
    if (err instanceof PrivateDirError) return err.code;
    throw err;
  }
  return undefined;
}

describe.runIf(posix)('the data directory is this account’s alone', () => {
  it('is made 0700 with its parents when missing', () => {
    const dir = path.join(fresh(), 'deep', 'data');
    ensurePrivateDir(dir);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(privateSubdir(dir, ['content-index', 'abc'])).toBe(path.join(dir, 'content-index', 'abc'));
    expect(fs.statSync(path.join(dir, 'content-index', 'abc')).mode & 0o777).toBe(0o700);
  });

  it('refuses an existing one writable by group or others, and one owned by another account', () => {
    const dir = fresh();
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o777);
    expect(codeOf(() => ensurePrivateDir(dir))).toBe('data_dir_mode');
    fs.chmodSync(dir, 0o720);
    expect(codeOf(() => ensurePrivateDir(dir))).toBe('data_dir_mode');
    fs.chmodSync(dir, 0o755);
    expect(codeOf(() => ensurePrivateDir(dir))).toBeUndefined();
    expect(codeOf(() => ensurePrivateDir(dir, { uid: fs.statSync(dir).uid + 1 }))).toBe('data_dir_owner');
    const sub = path.join(dir, 'conversations');
    fs.mkdirSync(sub, { mode: 0o700 });
    fs.chmodSync(sub, 0o777);
    expect(codeOf(() => privateSubdir(dir, ['conversations']))).toBe('data_dir_mode');
  });

  it.runIf(process.getuid?.() === 0)('refuses a directory chowned to another account', () => {
    const dir = fresh();
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.chownSync(dir, 65534, 65534);
    expect(codeOf(() => ensurePrivateDir(dir))).toBe('data_dir_owner');
  });

  it('never follows a link for a subdirectory, nor takes a file for one', () => {
    const dir = fresh();
    ensurePrivateDir(dir);
    const elsewhere = fresh();
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    fs.symlinkSync(elsewhere, path.join(dir, 'conversations'));
    expect(codeOf(() => privateSubdir(dir, ['conversations']))).toBe('data_dir_link');
    fs.writeFileSync(path.join(dir, 'content-index'), 'x');
    expect(codeOf(() => privateSubdir(dir, ['content-index']))).toBe('data_dir_link');
    // Deeper components too (an index's own directory).
    fs.rmSync(path.join(dir, 'content-index'));
    fs.mkdirSync(path.join(dir, 'content-index'), { mode: 0o700 });
    fs.symlinkSync(elsewhere, path.join(dir, 'content-index', 'abc'));
    expect(codeOf(() => privateSubdir(dir, ['content-index', 'abc']))).toBe('data_dir_link');
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('a data directory and its named subdirectories are made or checked in one call, a linked one refused', () => {
    const dir = path.join(fresh(), 'data');
    ensurePrivateDataDir(dir, ['conversations', 'content-index']);
    for (const d of [dir, path.join(dir, 'conversations'), path.join(dir, 'content-index')])
      expect(fs.statSync(d).mode & 0o777).toBe(0o700);
    fs.chmodSync(dir, 0o777);
    expect(codeOf(() => ensurePrivateDataDir(dir))).toBe('data_dir_mode');
    fs.chmodSync(dir, 0o700);
    const elsewhere = fresh();
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    fs.symlinkSync(elsewhere, path.join(dir, 'audit'));
    expect(codeOf(() => ensurePrivateDataDir(dir, ['conversations', 'audit']))).toBe('data_dir_link');
  });

  it('a content index under a linked content-index/ fails (nothing written through the link) and searches scan', async () => {
    const root = fresh();
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.txt'), 'a rare_token_xyz here\n');
    const dataDir = fresh();
    ensurePrivateDir(dataDir);
    const elsewhere = fresh();
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    fs.symlinkSync(elsewhere, path.join(dataDir, 'content-index'));
    const index = openIndex(root, { dataDir, buildIn: 'inline', watch: false });
    await index.whenReady();
    expect(index.status().state).toBe('failed');
    expect(index.status().reason).toMatch(/content-index is a symbolic link/);
    let files = 0;
    for await (const e of search({ pattern: 'rare_token_xyz', cwd: root, engine: 'js', index }))
      if (e.type === 'summary') files = e.summary.filesWithMatch;
    expect(files).toBe(1);
    await index.close();
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });
});
