import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TreeWitness } from '../src/util/fs-safety.js';

let tmp: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-fs-safety-')));
  fs.mkdirSync(path.join(tmp, 'sub'));
  fs.writeFileSync(path.join(tmp, 'a.txt'), 'a');
  fs.symlinkSync(path.join(tmp, 'a.txt'), path.join(tmp, 'link.txt'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A directory entry of unknown type, as readdir gives it where the filesystem reports none. */
function untyped(name: string): fs.Dirent {
  const no = () => false;
  return {
    name,
    isFile: no,
    isDirectory: no,
    isSymbolicLink: no,
    isFIFO: no,
    isSocket: no,
    isBlockDevice: no,
    isCharacterDevice: no,
  } as unknown as fs.Dirent;
}

describe('TreeWitness', () => {
  it('knows the regular files of a directory by its listing: not links, not directories, not absent names', () => {
    const w = new TreeWitness();
    expect(w.isFile(path.join(tmp, 'a.txt'))).toBe(true);
    expect(w.isFile(path.join(tmp, 'link.txt'))).toBe(false);
    expect(w.isFile(path.join(tmp, 'sub'))).toBe(false);
    expect(w.isFile(path.join(tmp, 'absent.txt'))).toBe(false);
    expect(w.isFile(path.join(tmp, 'nowhere', 'x'))).toBe(false);
  });

  it('asks lstat for entries a filesystem listed without a type', () => {
    const readdir = fs.readdirSync;
    // As XFS without ftype and some FUSE filesystems list: every entry of unknown type (UV_DIRENT_UNKNOWN).
    fs.readdirSync = ((p: fs.PathLike, o?: { withFileTypes?: boolean }) => {
      const real = readdir(p, o as { withFileTypes: true });
      return o?.withFileTypes ? real.map((d) => untyped(d.name)) : real;
    }) as typeof fs.readdirSync;
    syncBuiltinESMExports();
    try {
      const w = new TreeWitness();
      expect(w.isFile(path.join(tmp, 'a.txt'))).toBe(true);
      expect(w.isFile(path.join(tmp, 'link.txt'))).toBe(false);
      expect(w.isFile(path.join(tmp, 'sub'))).toBe(false);
    } finally {
      fs.readdirSync = readdir;
      syncBuiltinESMExports();
    }
  });
});
