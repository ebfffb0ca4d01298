import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
let tmp: string;
let home: string;
let proj: string;

/** Runs the built CLI with a fake HOME (the real ~/.ssh is never involved). */
function trawl(args: string[], cwd = proj) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env['PATH'] ?? '', HOME: home },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Row {
  path: string;
  name: string;
  kind: string;
  size: number;
  mtime: number;
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-find-cli-')));
  home = path.join(tmp, 'home');
  proj = path.join(home, 'proj');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_hello'), 'key');
  for (const f of ['hello.py', 'hello_world.py', 'readme.md', 'src/hello_util.py', 'src/.secret']) {
    fs.mkdirSync(path.dirname(path.join(proj, f)), { recursive: true });
    fs.writeFileSync(path.join(proj, f), 'x');
  }
  fs.mkdirSync(path.join(proj, 'hello_dir'));
  fs.mkdirSync(path.join(proj, 'node_modules', 'hello_dep'), { recursive: true });
  fs.symlinkSync(path.join(home, '.ssh', 'id_hello'), path.join(proj, 'hello_key'));
  fs.mkdirSync(path.join(proj, 'many'));
  for (let i = 0; i < 70; i++)
    fs.writeFileSync(path.join(proj, 'many', `item_${String(i).padStart(2, '0')}.txt`), 'x');
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('trawl find', () => {
  it('prints rows and the root as JSON', () => {
    const r = trawl(['find', 'hello', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { results: Row[]; root: string };
    expect(out.root).toBe(proj);
    expect(out.results.map((x) => x.name)).toEqual(
      expect.arrayContaining(['hello.py', 'hello_world.py', 'hello_util.py', 'hello_dir']),
    );
    expect(out.results[0]).toMatchObject({ path: path.join(proj, 'hello.py'), kind: 'file' });
    for (const row of out.results)
      expect(Object.keys(row).sort()).toEqual(['kind', 'mtime', 'name', 'path', 'size']);
  });

  it('never lists a symlink into a credential store, dot files or skip directories', () => {
    const names = (
      JSON.parse(trawl(['find', 'hello', '--json', '--limit', '60']).stdout) as { results: Row[] }
    ).results.map((x) => x.name);
    expect(names).not.toContain('hello_key');
    expect(names).not.toContain('hello_dep');
    expect((JSON.parse(trawl(['find', 'secret', '--json']).stdout) as { results: Row[] }).results).toEqual(
      [],
    );
  });

  it('prints one path per line, directories with a trailing slash', () => {
    const r = trawl(['find', 'hello_dir']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${path.join(proj, 'hello_dir')}/\n`);
    expect(r.stderr).toBe('');
  });

  it('filters kinds, and reads an unknown kind as all', () => {
    const kinds = (args: string[]) =>
      new Set(
        (JSON.parse(trawl(['find', 'hello', '--json', ...args]).stdout) as { results: Row[] }).results.map(
          (x) => x.kind,
        ),
      );
    expect(kinds(['--kinds', 'dirs'])).toEqual(new Set(['dir']));
    expect(kinds(['--kinds', 'files'])).toEqual(new Set(['file']));
    expect(kinds(['--kinds', 'folders'])).toEqual(new Set(['file', 'dir']));
  });

  it('defaults to 15 rows and clamps --limit to [1, 60]; a non-integer limit is the default', () => {
    const count = (args: string[]) =>
      (JSON.parse(trawl(['find', 'item', '--json', ...args]).stdout) as { results: Row[] }).results.length;
    expect(count([])).toBe(15);
    expect(count(['--limit', '30'])).toBe(30);
    expect(count(['--limit', '1000'])).toBe(60);
    expect(count(['--limit', 'abc'])).toBe(15);
    expect(count(['--limit', '0'])).toBe(1);
  });

  it('answers a query shorter than two characters with nothing, successfully', () => {
    expect(trawl(['find', 'h', '--json'])).toMatchObject({ code: 0, stdout: '{"results":[]}\n' });
    expect(trawl(['find', ' h '])).toMatchObject({ code: 0, stdout: '' });
  });

  it('exits 0 with no output when nothing matches', () => {
    expect(trawl(['find', 'zzqx'])).toMatchObject({ code: 0, stdout: '' });
  });

  it('takes --root, expanding ~ against HOME', () => {
    const r = trawl(['find', 'hello_util', '--root', '~/proj/src', '--json'], tmp);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      root: path.join(proj, 'src'),
      results: [{ name: 'hello_util.py' }],
    });
  });

  it('refuses a sensitive root in one line with exit 2, even one that does not exist', () => {
    for (const root of [path.join(home, '.ssh'), path.join(home, '.aws')]) {
      const r = trawl(['find', 'hello', '--root', root]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^trawl: access denied: .* is a sensitive location\n$/);
    }
  });

  it('refuses a missing or non-directory root in one line with exit 2', () => {
    for (const [root, why] of [
      [path.join(tmp, 'nope'), 'no such directory'],
      [path.join(proj, 'hello.py'), 'not a directory'],
    ] as const) {
      const r = trawl(['find', 'hello', '--root', root]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`trawl: ${why}: ${root}\n`);
    }
  });
});
