import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { searchTool } from '@trawl/core/tool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zip } from '../../core/test/fixtures/zip.js';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
let proj: string;

function trawl(args: string[], cwd = proj) {
  const r = spawnSync(process.execPath, [BIN, 'search', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env['PATH'] ?? '', HOME: proj },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  proj = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-search-cli-')));
  const files: Record<string, string> = {
    'a.ts': 'one\nneedle two\nthree\nfour\nfive\nsix\n',
    'src/b.ts': 'needle b\nNEEDLE upper\n',
    '.gitignore': 'ignored.txt\n',
    'ignored.txt': 'needle ignored\n',
    '-dash.txt': '-needle dash\n',
  };
  for (let i = 1; i <= 23; i++) files[`many/f${String(i).padStart(2, '0')}.txt`] = `needle ${i}\n`;
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(proj, rel)), { recursive: true });
    fs.writeFileSync(path.join(proj, rel), content);
  }
  // a stored member holding a NUL byte
  fs.writeFileSync(
    path.join(proj, 'bundle.zip'),
    zip([{ name: 'bin.dat', data: Buffer.from('needle\u0000x\n'), deflate: false }]),
  );
});
afterAll(() => fs.rmSync(proj, { recursive: true, force: true }));

describe('trawl search (CLI process)', () => {
  it('prints exactly the tool’s text and exits 0', async () => {
    const r = trawl(['needle']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lib = await searchTool({ pattern: 'needle', paths: ['.'] }, { cwd: proj });
    expect(r.stdout).toBe(`${lib.text}\n`);
    expect(r.stdout.startsWith('# -dash.txt#')).toBe(true);
  });

  // One `trawl search` process per test: each spawn is a whole Node start-up, slow on a loaded machine, and a test
  // holding eight of them ran past its timeout.
  it('takes a single file, hashline by default', () => {
    expect(trawl(['needle', 'a.ts']).stdout).toBe(
      '¶a.ts#7ABB\n 1:one\n*2:needle two\n 3:three\n 4:four\n 5:five\n',
    );
  });

  it('prints --format plain', () => {
    expect(trawl(['needle', 'a.ts', '--format', 'plain']).stdout).toBe(
      '# a.ts\n 1|one\n*2|needle two\n 3|three\n 4|four\n 5|five\n',
    );
  });

  it('takes -i', () => {
    expect(trawl(['-i', 'needle', 'src/b.ts']).stdout).toContain('*2:NEEDLE upper');
  });

  it('honours .gitignore, and --no-gitignore turns it off', () => {
    expect(trawl(['needle', '.']).stdout).not.toContain('ignored.txt');
    expect(trawl(['needle', '.', '--no-gitignore']).stdout).toContain('# ignored.txt#');
  });

  it('pages with --skip', () => {
    expect(trawl(['needle', 'many']).stdout).toContain(
      'Showing files 1-20 of 23. Use skip=20 for the next page',
    );
    expect(trawl(['needle', 'many', '--skip', '20']).stdout).toMatch(/^# many\/\n## f21\.txt#/);
  });

  it('prints --format json: the tool’s text and its details', async () => {
    const json = trawl(['needle', 'many', '--format', 'json']);
    const parsed = JSON.parse(json.stdout) as {
      text: string;
      details: { totalFiles: number; nextSkip: number };
    };
    const lib = await searchTool({ pattern: 'needle', paths: ['many'] }, { cwd: proj });
    expect(parsed.text).toBe(lib.text);
    expect(parsed.details).toMatchObject({ totalFiles: 23, nextSkip: 20 });
  });

  // Issue 11 item 10: the options agents reach for. One process per test (a Node start-up each): eleven in one test
  // ran past its 30 s timeout under load.
  it.each([
    [['needle two', 'a.ts', '-C', '1'], /^¶a\.ts#\w+\n 1:one\n\*2:needle two\n 3:three\n$/],
    [['needle two', 'a.ts', '-B', '0', '-A', '1'], /^¶a\.ts#\w+\n\*2:needle two\n 3:three\n$/],
    [['needle', 'src', 'a.ts', '-l'], 'src/b.ts\na.ts\n'],
    [['needle', 'src', 'a.ts', '--output', 'files'], 'src/b.ts\na.ts\n'],
    [['-i', 'needle', 'src', 'a.ts', '-c'], 'src/b.ts:2\na.ts:1\n\n3 matching lines in 2 files.\n'],
    [
      ['needle', 'many', '-l', '--exclude', 'f0*', 'f1*'],
      'many/f20.txt\nmany/f21.txt\nmany/f22.txt\nmany/f23.txt\n',
    ],
    [
      ['-i', 'needle', 'src/b.ts', '--per-file', '1'],
      /Showing the first 1 of \d+ matching lines of this file/,
    ],
  ] as Array<[string[], string | RegExp]>)('takes the options agents reach for: %j', (args, out) => {
    const r = trawl(args);
    if (typeof out === 'string') expect(r.stdout).toBe(out);
    else expect(r.stdout).toMatch(out);
  });

  describe('with a dot directory', () => {
    beforeAll(() => {
      fs.mkdirSync(path.join(proj, '.dot'), { recursive: true });
      fs.writeFileSync(path.join(proj, '.dot', 'x.txt'), 'needle dot\n');
    });
    afterAll(() => fs.rmSync(path.join(proj, '.dot'), { recursive: true, force: true }));

    it('searches hidden entries by default', () => {
      expect(trawl(['needle dot', '-l']).stdout).toBe('.dot/x.txt\n');
    });

    it('--no-hidden leaves them out and says how to search them', () => {
      expect(trawl(['needle dot', '-l', '--no-hidden']).stdout).toMatch(
        /^No matches found\n.*pass hidden: true/,
      );
    });
  });

  it.each([
    [['-C', '-1'], 'trawl: context must be a whole number from 0 to 10, got "-1"\n'],
    [['-A', '99'], 'trawl: after must be a whole number from 0 to 10, got "99"\n'],
    [['--output', 'lines'], 'trawl: output must be one of "content", "files", "count", got "lines"\n'],
    [['--per-file', '0'], 'trawl: perFile must be a whole number from 1 to 200, got "0"\n'],
    [['-l', '-c'], 'trawl: choose one output: files, count were asked for\n'],
  ] as Array<[string[], string]>)(
    'bad option values are one line on stderr and exit 2: %j',
    (args, message) => {
      const r = trawl(['needle', ...args]);
      expect(r.stderr, args.join(' ')).toBe(message);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    },
  );

  it('runs with either engine and a deadline', () => {
    for (const engine of ['js', 'rg']) {
      const r = trawl(['needle', 'src', '--engine', engine, '--deadline', '10']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^# src\/\n## b\.ts#[0-9A-F]{4}\n\*1:needle b\n 2:NEEDLE upper\n$/);
    }
  });

  it('no matches is success (exit 0) with the tool’s text', () => {
    const r = trawl(['zzz-nothing']);
    expect(r).toEqual({ code: 0, stdout: 'No matches found\n', stderr: '' });
  });

  it('a pattern starting with a dash after --', () => {
    const r = trawl(['--', '-needle', '-dash.txt']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('*1:-needle dash');
  });

  it.each([
    [['   '], 'trawl: Pattern must not be empty'],
    [['needle', '--skip', '-1'], 'trawl: Skip must be a non-negative number'],
    [['needle', '--skip', 'abc'], 'trawl: Skip must be a non-negative number'],
    [['needle', '--skip', '1e20'], 'trawl: Skip must be a non-negative number'],
    [['needle', '--skip', '99999999'], 'trawl: Skip must be at most 1000000'],
    [['needle', ''], 'trawl: `paths` must contain non-empty paths or globs'],
    [['needle', 'nope.ts'], 'trawl: Path not found: nope.ts'],
    [['needle', 'a.ts,src'], 'trawl: paths is an array — pass ["a", "b"] not ["a,b"]'],
    [['a[', '.'], /^trawl: Invalid regex: /],
    [
      ['needle', 'foo://x'],
      'trawl: Unknown URL scheme "foo://" in paths entry "foo://x" (searchable schemes: docs://)',
    ],
    [['needle', 'src/[a.ts'], /^trawl: Invalid glob pattern in paths entry "src\/\[a\.ts": /],
    [['needle', 'src:1-5'], 'trawl: Line-range selector requires a single file: src:1-5 is a directory'],
    [['needle', 'a.ts:0'], 'trawl: Line selector 0 is invalid; lines are 1-indexed. Use :1.'],
    [
      ['needle', 'bundle.zip:bin.dat'],
      /^trawl: Cannot search archive member\(s\): bundle\.zip:bin\.dat \(binary archive entry\)\./,
    ],
    [['needle', '--deadline', '0'], "trawl: --deadline expects a positive number of seconds, got '0'"],
    [['needle', '--format', 'xml'], /^trawl: option '--format <format>' argument 'xml' is invalid/],
    [['needle', '--engine', 'grep'], /^trawl: option '--engine <engine>' argument 'grep' is invalid/],
  ] as Array<[string[], string | RegExp]>)('bad input %j → exit 2, one line on stderr', (args, message) => {
    const r = trawl(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    if (typeof message === 'string') expect(lines[0]).toBe(message);
    else expect(lines[0]).toMatch(message);
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('a missing pattern is a usage error', () => {
    const r = trawl([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^trawl: missing required argument 'pattern'\n$/);
  });
});

describe('trawl search through a link to HOME (CLI process)', () => {
  it.each(['js', 'rg'])('🔒 prints what HOME holds but never a credential store (%s engine)', (engine) => {
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-search-cli-home-')));
    const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-search-cli-proj-')));
    try {
      for (const [rel, content] of Object.entries({
        'notes.txt': 'CANARY plain\n',
        '.ssh/id_ed25519': 'CANARY-SECRET ssh\n',
        '.aws/credentials': 'CANARY-SECRET aws\n',
      })) {
        fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
        fs.writeFileSync(path.join(home, rel), content);
      }
      fs.symlinkSync(home, path.join(work, 'homelink'));
      const r = spawnSync(process.execPath, [BIN, 'search', 'CANARY', 'homelink', '--engine', engine], {
        cwd: work,
        encoding: 'utf8',
        timeout: 30_000,
        env: { PATH: process.env['PATH'] ?? '', HOME: home },
      });
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('CANARY plain');
      expect(r.stdout).not.toContain('CANARY-SECRET');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
