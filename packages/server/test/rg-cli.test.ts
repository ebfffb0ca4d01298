import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_RG, itHasRipgrep } from '../../core/test/fixtures/ripgreps.js';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
let dir: string;

/** `input`: a pipe on standard input holding it; otherwise /dev/null (a pipe without a path is searched, as rg does). */
function trawl(args: string[], cwd = dir, input?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
    ...(input !== undefined ? { input } : { stdio: ['ignore', 'pipe', 'pipe'] }),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-rg-cli-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src/a.ts'), 'one\nneedle two\nthree\n');
  fs.writeFileSync(path.join(dir, 'b.txt'), 'needle b\n');
  fs.writeFileSync(path.join(dir, 'c.txt'), 'nothing\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('trawl rg', () => {
  for (const engine of ['js', 'rg']) {
    it(`prints path:text lines when piped, and exits 0 on a match (${engine} engine)`, () => {
      const r = trawl(['rg', '--engine', engine, 'needle']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('b.txt:needle b\nsrc/a.ts:needle two\n');
    });

    it(`exits 1 when nothing matches (${engine} engine)`, () => {
      const r = trawl(['rg', '--engine', engine, 'absent-word']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
    });
  }

  it('speaks the rg --json schema, line for line as ripgrep prints it', () => {
    const r = trawl(['rg', '--json', '--engine', 'js', 'needle', 'src/a.ts']);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['begin', 'match', 'end', 'summary']);
    expect(lines[1].data).toEqual({
      path: { text: 'src/a.ts' },
      lines: { text: 'needle two\n' },
      line_number: 2,
      absolute_offset: 4,
      submatches: [{ match: { text: 'needle' }, start: 0, end: 6 }],
    });
    expect(lines[2].data.stats).toMatchObject({ matched_lines: 1, matches: 1, bytes_searched: 21 });
    expect(lines[3].data.stats).toMatchObject({ searches: 1, searches_with_match: 1 });
  });

  itHasRipgrep(BUNDLED_RG, 'trawl rg');

  it.runIf(BUNDLED_RG.path)(
    'prints the same JSON Lines as ripgrep itself, but for timings (so rg --json readers accept it)',
    () => {
      fs.writeFileSync(path.join(dir, 'u.txt'), 'café needle\nx\r\nneedle needle\n');
      const rg = BUNDLED_RG.path!;
      // Per-file blocks, sorted: ripgrep's order across files depends on its thread scheduling.
      const normalise = (out: string) => {
        const blocks: string[][] = [];
        for (const line of out.trim().split('\n')) {
          const m = JSON.parse(line);
          if (m.type === 'summary') continue;
          if (m.type === 'begin') blocks.push([]);
          if (m.type === 'end') m.data.stats = { ...m.data.stats, elapsed: 0, bytes_printed: 0 };
          blocks.at(-1)!.push(JSON.stringify(m));
        }
        return blocks.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
      };
      const theirs = spawnSync(rg, ['--json', '--no-config', '-C1', 'needle', 'u.txt', 'src'], {
        cwd: dir,
        encoding: 'utf8',
      });
      try {
        for (const engine of ['js', 'rg']) {
          const ours = trawl(['rg', '--engine', engine, '--json', '-C1', 'needle', 'u.txt', 'src']);
          expect(normalise(ours.stdout)).toEqual(normalise(theirs.stdout));
        }
      } finally {
        fs.rmSync(path.join(dir, 'u.txt'));
      }
    },
  );

  it('prints line numbers and context separators like rg', () => {
    const r = trawl(['rg', '-n', '-C', '1', 'two', 'src/a.ts']);
    expect(r.stdout).toBe('1-one\n2:needle two\n3-three\n');
    fs.writeFileSync(path.join(dir, 'gaps.txt'), 'x1\na\nb\nc\nx2\n');
    const gaps = trawl(['rg', '-n', '-A', '1', 'x', 'gaps.txt']);
    fs.rmSync(path.join(dir, 'gaps.txt'));
    expect(gaps.stdout).toBe('1:x1\n2-a\n--\n5:x2\n');
  });

  it('lists files with -l and counts with -c', () => {
    expect(trawl(['rg', '-l', 'needle']).stdout).toBe('b.txt\nsrc/a.ts\n');
    expect(trawl(['rg', '-c', 'needle', '.']).stdout).toBe('./b.txt:1\n./src/a.ts:1\n');
  });

  it("searches a pipe on standard input when no path is given, and not /dev/null (ripgrep's rule)", () => {
    for (const engine of ['js', 'rg']) {
      const piped = trawl(['rg', '--engine', engine, '-n', 'needle'], dir, 'a\nneedle here\n');
      expect({ code: piped.code, stdout: piped.stdout }).toEqual({ code: 0, stdout: '2:needle here\n' });
      const named = trawl(['rg', '--engine', engine, '-H', 'needle', '-'], dir, 'needle\n');
      expect(named.stdout).toBe('<stdin>:needle\n');
    }
    // stdin is /dev/null here: the working directory is searched instead.
    expect(trawl(['rg', '--engine', 'js', '-l', 'needle']).stdout).toContain('src/a.ts');
  });

  it('refuses an invalid pattern with one line on stderr and exit 2', () => {
    const r = trawl(['rg', 'a[']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^trawl: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses a bad flag value with exit 2, in ripgrep's words, the flag as it was spelled", () => {
    const r = trawl(['rg', '-A', 'many', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'rg: error parsing flag -A: value is not a valid number: invalid digit found in string\n',
    );
    expect(trawl(['rg', '--after-context=many', 'x']).stderr).toMatch(
      /^rg: error parsing flag --after-context: /,
    );
  });

  it('offers no --pre: a search never runs a program the caller names (README)', () => {
    const r = trawl(['rg', '--pre', 'touch', 'x']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown option '--pre'/);
  });

  it('refuses --json with -l', () => {
    const r = trawl(['rg', '--json', '-l', 'x']);
    expect(r.code).toBe(2);
  });

  it('says so, with exit 2, when the rg engine is requested but the binary fails vetting', () => {
    const fake = path.join(dir, 'src', 'rg');
    fs.writeFileSync(fake, '#!/bin/sh\necho pwned\n', { mode: 0o755 });
    const r = trawl(['rg', '--engine', 'rg', '--rg-path', fake, 'needle', '.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/inside the searched tree/);
    expect(r.stdout).not.toMatch(/pwned/);
    fs.rmSync(fake);
  });

  it('reports a missing path on stderr and exits 2, still printing what it found', () => {
    const r = trawl(['rg', 'needle', 'b.txt', 'nope.txt']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('b.txt:needle b\n');
    expect(r.stderr).toMatch(/nope\.txt: No such file or directory/);
  });

  it('stops a runaway regex at --deadline (or its old name --timeout) and says the results are partial', () => {
    // Runaway (polynomial) backtracking: exponential patterns run in linear time on the js engine now.
    fs.writeFileSync(path.join(dir, 'evil.txt'), `!${'a'.repeat(200)}\n`);
    const r = trawl([
      'rg',
      '--engine',
      'js',
      '--deadline',
      '0.5',
      'a\\w*\\w*\\w*\\w*\\w*\\w*\\w*!',
      'evil.txt',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/timed out/);
    const old = trawl([
      'rg',
      '--engine',
      'js',
      '--timeout',
      '0.5',
      'a\\w*\\w*\\w*\\w*\\w*\\w*\\w*!',
      'evil.txt',
    ]);
    expect([old.code, old.stderr.includes('timed out')]).toEqual([2, true]);
    fs.rmSync(path.join(dir, 'evil.txt'));
  });

  it('has --help that names the engine and the json flag', () => {
    const r = trawl(['rg', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--engine/);
    expect(r.stdout).toMatch(/--json/);
  });
});

/**
 * Issue 13 (bounded memory): `trawl rg` waits for stdout to take each batch before it asks the engine for the
 * next, and runs with V8's heap flags of its own entry (cli/rg-process.ts). A reader that takes its output
 * slowly gets all of it, in order; one that stops early ends the command quietly.
 */
describe('trawl rg output through a pipe', () => {
  const LINES = 30_000;
  let big: string;
  beforeAll(() => {
    big = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-rg-pipe-'));
    for (const name of ['a.txt', 'b.txt'])
      fs.writeFileSync(
        path.join(big, name),
        Array.from({ length: LINES }, (_, i) => `needle ${name} ${i}\n`).join(''),
      );
  });
  afterAll(() => fs.rmSync(big, { recursive: true, force: true }));

  /** `trawl rg needle` over the two big files, its stdout a pipe the test reads as it pleases. */
  const spawnRg = (engine: string) => {
    const child = spawn(process.execPath, [BIN, 'rg', '--engine', engine, 'needle'], {
      cwd: big,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b) => {
      stderr += b;
    });
    return { child, stderr: () => stderr };
  };

  const expected = () =>
    ['a.txt', 'b.txt']
      .flatMap((name) => Array.from({ length: LINES }, (_, i) => `${name}:needle ${name} ${i}\n`))
      .join('');

  for (const engine of ['js', 'rg']) {
    it(`a slow reader gets everything, in order (${engine} engine)`, async () => {
      const { child, stderr } = spawnRg(engine);
      const chunks: Buffer[] = [];
      // One chunk at a time, with turns of the event loop between them: the writer keeps meeting a full pipe.
      for await (const chunk of child.stdout) {
        chunks.push(chunk as Buffer);
        for (let k = 0; k < 20; k++) await new Promise((r) => setImmediate(r));
      }
      const code = await new Promise((r) => child.on('close', r));
      expect(stderr()).toBe('');
      expect(code).toBe(0);
      expect(Buffer.concat(chunks).toString('utf8')).toBe(expected());
    });

    it(`a reader that stops early ends it quietly, exit 0 (${engine} engine)`, async () => {
      const { child, stderr } = spawnRg(engine);
      const first = await new Promise<Buffer>((r) => child.stdout.once('data', r));
      child.stdout.destroy();
      const code = await new Promise((r) => child.on('close', r));
      expect(first.toString('utf8')).toMatch(/^a\.txt:needle a\.txt 0\n/);
      expect(stderr()).toBe('');
      expect(code).toBe(0);
    });
  }
});
