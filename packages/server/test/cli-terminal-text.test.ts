/**
 * What trawl's own commands print on a terminal cannot act on it: escape sequences and bidirectional overrides in
 * file names and contents are printed as visible escapes (`\x1b`, `\u202e`), as `ls` does on a terminal; piped,
 * the output stays byte-exact.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';
import { visibleText } from '../src/cli/visible.js';

class Capture extends Writable {
  text = '';
  constructor(readonly isTTY: boolean) {
    super();
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

const ESC = '\x1b';
const RLO = '\u202e';
let proj: string;
let home: string;
beforeAll(() => {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-tty-')));
  home = path.join(tmp, 'home');
  proj = path.join(home, 'proj');
  fs.mkdirSync(proj, { recursive: true });
  // A name that clears the screen and one that reads backwards; a line that would set the window title.
  fs.writeFileSync(path.join(proj, `evil${ESC}[2Jname.txt`), 'needle here\n');
  fs.writeFileSync(path.join(proj, `gnp${RLO}.exe.txt`), 'needle too\n');
  fs.writeFileSync(path.join(proj, 'title.txt'), `needle ${ESC}]0;owned${'\x07'} title\n`);
  fs.writeFileSync(path.join(proj, 'forged\nrow.txt'), 'a forgery\n');
});
afterAll(() => fs.rmSync(path.dirname(home), { recursive: true, force: true }));

async function run(args: string[], tty: boolean): Promise<string> {
  const stdout = new Capture(tty);
  const stderr = new Capture(false);
  const code = await main(args, { stdout, stderr, cwd: proj, env: { HOME: home } });
  expect(code, stderr.text).toBe(0);
  return stdout.text;
}

const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('trawl commands on a terminal show control characters instead of sending them', () => {
  it.each([
    ['grep', ['grep', 'needle', '--root', '.', '--engine', 'js']],
    ['find', ['find', 'evil', '--root', '.']],
    ['find (bidi)', ['find', 'gnp', '--root', '.']],
    ['complete', ['complete', './', '--root', '.']],
    ['search', ['search', 'needle', '.', '--engine', 'js']],
  ] as Array<[string, string[]]>)('%s', async (_name, args) => {
    const out = await run(args, true);
    expect(out).not.toMatch(raw);
    expect(out).toMatch(/\\x1b|\\u202e/);
  });

  it('a newline in a file name is shown as an escape, not as a row of its own', async () => {
    expect(await run(['find', 'forged', '--root', '.'], true)).toBe(`${proj}/forged\\x0arow.txt\n`);
    const grep = await run(['grep', 'forgery', '--root', '.', '--engine', 'js'], true);
    expect(grep).toBe('forged\\x0arow.txt:1: a forgery\n');
  });

  it('piped, the output is exact (a program reading it gets the real names)', async () => {
    const out = await run(['find', 'evil', '--root', '.'], false);
    expect(out).toContain(`evil${ESC}[2Jname.txt`);
  });

  it('writes each control as its escape and keeps newlines and tabs', () => {
    expect(visibleText(`a${ESC}[31mb\tc\n${RLO}d\u0085`)).toBe('a\\x1b[31mb\tc\n\\u202ed\\x85');
  });
});
