import { afterAll, describe, expect, it } from 'vitest';
import { SensitiveFence } from '../src/fence/index.js';
import { type GrepRequest, grepFiles } from '../src/grep/index.js';
import { grepEngines, write } from './fixtures/grep-trees.js';
import { docx, pptx, xlsx } from './fixtures/office-docs.js';
import { TempTrees } from './fixtures/temp-trees.js';
import { rng } from './parity/random.js';

/**
 * Two engines, one contract: both engines over one generated tree must return the same rows — file, line, preview,
 * label and ranges — for every query shape the endpoint accepts. The tree holds every trap the contract names.
 */
const trees = new TempTrees('trawl-grep-parity-');
afterAll(() => trees.remove());
const fence = new SensitiveFence({ home: trees.home, env: {} });
const hasRg = grepEngines().includes('rg');

const WORDS = [
  'needle',
  'Needle',
  'NEEDLE',
  'haystack',
  'widget',
  'Straße',
  'σίσυφος',
  'naïve',
  'a.c',
  'x(y',
  'needles',
  'café',
];
const NAMES = ['a', 'b', 'ünï', '日本', 'space name', 'dash-x', 'UPPER', 'mixed.Case'];

function generatedTree(seed: number): string {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const line = () => Array.from({ length: 1 + Math.floor(r() * 6) }, () => pick(WORDS)).join(' ');
  const text = (crlf: boolean) => {
    const lines = Array.from({ length: 1 + Math.floor(r() * 8) }, line);
    return lines.join(crlf ? '\r\n' : '\n') + (r() < 0.8 ? (crlf ? '\r\n' : '\n') : '');
  };
  const files: Record<string, string | Buffer> = {};
  const dirs = ['', 'src/', 'src/deep/', '.hidden/', 'docs/', 'ünï dir/'];
  for (let i = 0; i < 120; i++) {
    const name = `${pick(dirs)}${pick(NAMES)}${i}.${pick(['txt', 'md', 'ts', 'TXT'])}`;
    files[name] = text(r() < 0.3);
  }
  Object.assign(files, {
    '.dotfile': 'a needle in a dotfile\n',
    'bin/blob.bin': Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2]), Buffer.from('needle\n')]),
    'bin/late.dat': Buffer.concat([
      Buffer.from('x\n'.repeat(2048)),
      Buffer.from([0]),
      Buffer.from('needle\n'),
    ]),
    'big/huge.txt': `${'filler line\n'.repeat(200)}needle\n`,
    'node_modules/pkg/index.js': 'needle\n',
    'Node_Modules/kept.js': 'needle\n',
    'build/out.js': 'needle\n',
    'src/target/gone.rs': 'needle\n',
    '.git/HEAD': 'needle\n',
    '.gitignore': '*.md\n',
    'crlf.txt': 'one\r\nneedle two\r\nthree\r\n',
    'REPORT.DOCX': docx(['the needle report', 'widget']),
    'slides/Deck.PPTX': pptx([['cover'], ['needle slide', 'café'], ['widget']]),
    'sheets/book.xlsx': xlsx([
      { name: 'Sheet A', rows: [['x'], [1, 'needle cell', true], [{ formula: 'A1&"w"', cached: 'widget' }]] },
    ]),
    'docs/plain.docx': docx(['Straße naïve']),
  });
  return write(trees.fresh(`tree${seed}-`), files);
}

const QUERIES: Array<[string, Partial<GrepRequest>]> = [
  ['needle', {}],
  ['NEEDLE', {}],
  ['needle', { caseSensitive: true }],
  ['needle', { wholeWord: true }],
  ['a.c', {}],
  ['x(y', {}],
  ['σίσυφος', {}],
  ['ΣΊΣΥΦΟΣ', {}],
  ['straße', {}],
  ['café', {}],
  ['widget|naïve', { regex: true }],
  ['ne+dle\\b', { regex: true }],
  ['haystack', { limits: { maxResults: 5 } }],
];

// Skip reason: no usable ripgrep here; grepEngines() warns so, and throws instead under TRAWL_REQUIRE_SYSTEM_DEPS=1 (CI).
describe.skipIf(!hasRg)('content grep: the js and rg engines agree row for row', () => {
  for (const seed of [1, 2]) {
    it(`generated tree ${seed}`, async () => {
      const root = generatedTree(seed);
      for (const [query, extra] of QUERIES) {
        const limits = { maxFileBytes: 2000, ...extra.limits, timeBudgetMs: 60_000 };
        const js = await grepFiles({ root, query, fence, engine: 'js', ...extra, limits });
        const rg = await grepFiles({ root, query, fence, engine: 'rg', ...extra, limits });
        expect(js.payload.engine).toBe('js');
        expect(rg.payload.engine).toBe('rg');
        expect({ query, rows: rg.payload.results }).toEqual({ query, rows: js.payload.results });
        expect([query, rg.payload.truncated, rg.payload.skipped_docs]).toEqual([
          query,
          js.payload.truncated,
          js.payload.skipped_docs,
        ]);
      }
      const files = (await grepFiles({ root, query: 'needle', fence, engine: 'js' })).payload.results.map(
        (r) => r.file,
      );
      // The traps did what they are for (so agreement is not agreement on nothing).
      expect(files).toContain('.dotfile');
      expect(files).toContain('Node_Modules/kept.js');
      expect(files).toContain('crlf.txt');
      expect(files).toContain('REPORT.DOCX');
      for (const gone of [
        'bin/blob.bin',
        'bin/late.dat',
        'node_modules/pkg/index.js',
        'build/out.js',
        'src/target/gone.rs',
        '.git/HEAD',
      ])
        expect(files).not.toContain(gone);
    });
  }

  it('agree with HOME as the root: the stores are excluded by both', async () => {
    write(trees.home, {
      '.ssh/needle_key': 'needle\n',
      '.aws/credentials': 'needle\n',
      'work/a.txt': 'needle\n',
    });
    const js = await grepFiles({ root: trees.home, query: 'needle', fence, engine: 'js' });
    const rg = await grepFiles({ root: trees.home, query: 'needle', fence, engine: 'rg' });
    expect(rg.payload.results).toEqual(js.payload.results);
    expect(js.payload.results.map((r) => r.file)).toEqual(['work/a.txt']);
  });
});
