import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SensitiveFence } from '../src/fence/index.js';
import { FENCE_IDENTITY_TTL_MS } from '../src/fence/limits.js';
import { isFencedDescriptor } from '../src/util/fs-safety.js';

let tmp: string;
let home: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-fence-ids-')));
  home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'key');
  fs.writeFileSync(path.join(home, '.netrc'), 'machine x password y');
  fs.writeFileSync(path.join(tmp, 'plain.txt'), 'not fenced');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function opened<T>(p: string, f: (fd: number) => T): T {
  const fd = fs.openSync(p, 'r');
  try {
    return f(fd);
  } finally {
    fs.closeSync(fd);
  }
}

describe('fence: fenced files by identity', () => {
  it('holds the fenced files that have other names, and sees a link made later once the set is looked up again', () => {
    let now = 0;
    const fence = new SensitiveFence({ home, now: () => now, dataDirs: [] });
    // One link each: no other name can reach them, nothing is held (and readers look nothing up).
    expect(fence.fencedIdentities().size).toBe(0);
    fs.linkSync(path.join(home, '.ssh', 'id_ed25519'), path.join(tmp, 'innocent.txt'));
    fs.linkSync(path.join(home, '.netrc'), path.join(tmp, 'netrc-copy'));
    fs.linkSync(path.join(tmp, 'plain.txt'), path.join(tmp, 'plain-too.txt'));
    expect(fence.fencedIdentities().size).toBe(0); // as of the last look-up
    now += FENCE_IDENTITY_TTL_MS;
    const ids = fence.fencedIdentities();
    expect(ids.size).toBe(2);
    expect(opened(path.join(tmp, 'innocent.txt'), (fd) => isFencedDescriptor(fd, ids))).toBe(true);
    expect(opened(path.join(tmp, 'netrc-copy'), (fd) => isFencedDescriptor(fd, ids))).toBe(true);
    // A hard link between files outside the fence is nobody's business.
    expect(opened(path.join(tmp, 'plain-too.txt'), (fd) => isFencedDescriptor(fd, ids))).toBe(false);
  });
});
