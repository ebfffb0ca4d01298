import * as fs from 'node:fs';
import * as path from 'node:path';
import { Random } from './random.js';

/**
 * Generated trees for the parity suite. Every tree holds the fixed hard cases (ignore-rule shapes,
 * hidden entries, binary files, CRLF, unicode names, symlinks, deep nesting) plus seeded random files,
 * so one seed reproduces one tree exactly.
 */

const WORDS = [
  'needle',
  'Needle',
  'NEEDLE',
  'needles',
  'foo',
  'bar',
  'foo_bar',
  'fooBar',
  'FOO',
  'hello',
  'world',
  'café',
  'naïve',
  'Σίσυφος',
  'σοφία',
  '東京',
  'ǅemal',
  'Straße',
  'x1234',
  'abc2024',
  'v8_probe(',
  'init_probe (',
  'a.b',
  'a+b',
  '(paren)',
  '[bracket]',
  '{brace}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text `${name}` is test data
  '${name}',
  'end$',
  '^start',
  'word-boundary',
  'under_score',
  'tab\tsep',
  '1999',
  'éa',
  'e\u0301',
  'Ωmega',
  'ΣΑΣ',
  'İstanbul',
  'ﬁle',
  '\u00a0nbsp',
  'K',
  '\u212a',
  'ſ',
];

const PUNCT = [' ', ' ', ' ', '  ', ', ', '.', '-', '_', '(', ')', ': ', '\t'];

function randomLine(rng: Random): string {
  const n = rng.int(7);
  let line = rng.chance(0.1) ? '    ' : '';
  for (let i = 0; i < n; i++) {
    if (i > 0) line += rng.pick(PUNCT);
    line += rng.pick(WORDS);
  }
  return line;
}

function randomText(rng: Random, lines: number, eol = '\n'): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(randomLine(rng));
  return out.join(eol) + (rng.chance(0.85) ? eol : '');
}

const DIR_NAMES = [
  'src',
  'lib',
  'docs',
  'app',
  'pkg',
  'util',
  'core',
  'café',
  'with space',
  'a-b',
  'a.b',
  'z',
];
const FILE_NAMES = [
  'a.ts',
  'b.js',
  'notes.md',
  'main.c',
  'x.txt',
  'data.log',
  'keep.log',
  'README',
  'A.ts',
  'a-b.ts',
  'ünï.ts',
  '東京.md',
  'sp ace.txt',
];

export interface ParityTree {
  root: string;
  seed: number;
  /** Files holding a NUL after the first 64 KiB (see the late-nul-binary exclusion). */
  lateBinary: Set<string>;
}

export function buildTree(root: string, seed: number): ParityTree {
  const rng = new Random(seed);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const write = (rel: string, content: string | Buffer) => {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  };
  const lateBinary = new Set<string>();

  // A git work tree (rg applies git rules only inside one; a `.git` directory is what it looks for).
  write('.git/info/exclude', 'excluded-by-info.txt\n');
  write('.git/HEAD', 'needle in git internals\n');
  write(
    '.gitignore',
    [
      '# comment',
      '*.log',
      '!keep.log',
      '/build/',
      'tmp/',
      'docs/**/*.bak',
      'secret*',
      'trailing-space.txt   ',
      '\\#hash.txt',
      '/gen-*',
      '/*.out',
    ].join('\n') + '\n',
  );
  write('.ignore', 'ignored-by-dot-ignore.txt\n');
  write('excluded-by-info.txt', 'needle excluded by info/exclude\n');
  write('ignored-by-dot-ignore.txt', 'needle ignored by .ignore\n');
  write('trailing-space.txt', 'needle trailing space rule\n');
  write('#hash.txt', 'needle hash file\n');
  write('data.log', 'needle in a log\n');
  write('keep.log', 'needle kept log\n');
  write('build/out.txt', 'needle in anchored build\n');
  write('sub/build/out.txt', 'needle in unanchored build\n');
  write('tmp/t.txt', 'needle in tmp dir\n');
  write('sub/tmp', 'needle in a file named tmp\n');
  write('docs/x/old.bak', 'needle backup\n');
  write('docs/x/keep.txt', 'needle doc\n');
  write('secret.txt', 'needle secret\n');
  write('gen-x.txt', 'needle anchored prefix rule\n');
  write('sub/gen-y.txt', 'needle below the anchored prefix rule\n');
  write('run.out', 'needle anchored suffix rule\n');
  write('sub/run.out', 'needle below the anchored suffix rule\n');
  write('src/.gitignore', '!important.log\n*.gen.ts\n/local-only\n');
  write('src/important.log', 'needle important log\n');
  write('src/x.gen.ts', 'needle generated\n');
  write('src/local-only', 'needle local only\n');
  write('src/deeper/local-only', 'needle deeper local only\n');
  write('.hidden/h.ts', 'needle hidden dir\n');
  write('.env', 'NEEDLE=1\n');
  write('café/naïve file.txt', 'café needle naïve\n');
  write('東京/ファイル.md', '東京 needle\n');
  write('space name.txt', 'needle with space\n');
  write('crlf.txt', 'needle one\r\nfoo\r\nend$ needle\r\n\r\nlast\r\n');
  write('cr-only.txt', 'needle\rstill the same line\nfoo\r\n');
  write('no-final-newline.txt', 'foo\nneedle at the end');
  write('long-line.txt', `${'x'.repeat(3000)} needle ${'y'.repeat(3000)}\nshort needle\n`);
  write('empty.txt', '');
  write('only-newlines.txt', '\n\n\n');
  write(
    'binary-early.bin',
    Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2]), Buffer.from('needle\n')]),
  );
  write(
    'latin1.txt',
    Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' needle\nplain needle\n')]),
  );
  write('a/b/c/d/e/f/g/h/deep.txt', 'needle deep\n');
  write('a-b.ts', 'needle dash\n');
  write('a.ts', 'needle dot\n');
  write('a/x.ts', 'needle slash\n');
  // Byte-order marks: ripgrep drops a UTF-8 one and decodes UTF-16 before matching.
  write('bom-utf8.txt', '\ufeffneedle first\nfoo needle\n');
  fs.writeFileSync(
    path.join(root, 'bom-utf16le.txt'),
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('needle σοφία\r\nfoo\nneedle\n', 'utf16le')]),
  );
  fs.writeFileSync(
    path.join(root, 'bom-utf16be.txt'),
    Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('foo needle\n', 'utf16le').swap16()]),
  );
  if (rng.chance(0.5)) {
    const late = `needle before\n${'a'.repeat(70_000)}\nneedle near\n\0needle after\nneedle last\n`;
    write('late-binary.dat', late);
    lateBinary.add('late-binary.dat');
  }
  fs.symlinkSync('a.ts', path.join(root, 'link-to-file.ts'));
  fs.symlinkSync('src', path.join(root, 'link-to-dir'));

  // Random part: directories up to 5 deep, files with random text, some CRLF.
  const dirs = [''];
  const ndirs = 3 + rng.int(6);
  for (let i = 0; i < ndirs; i++) {
    const parent = rng.pick(dirs);
    if (parent.split('/').length >= 5) continue;
    const name = (rng.chance(0.15) ? '.' : '') + rng.pick(DIR_NAMES);
    dirs.push(parent ? `${parent}/${name}` : name);
  }
  const nfiles = 10 + rng.int(20);
  for (let i = 0; i < nfiles; i++) {
    const dir = rng.pick(dirs);
    const name = (rng.chance(0.1) ? '.' : '') + rng.pick(FILE_NAMES);
    const rel = dir ? `${dir}/${name}` : name;
    const eol = rng.chance(0.2) ? '\r\n' : '\n';
    try {
      write(rel, randomText(rng, rng.int(30), eol));
    } catch {
      // a file and a directory of the same name: keep the first
    }
  }
  return { root, seed, lateBinary };
}
