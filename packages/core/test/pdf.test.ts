import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { type DocSegment, extractDocument } from '../src/docs/index.js';
import { SensitiveFence } from '../src/fence/index.js';
import { grepFiles } from '../src/grep/index.js';
import { write } from './fixtures/grep-trees.js';
import { docx, pdf } from './fixtures/office-docs.js';
import { TempTrees } from './fixtures/temp-trees.js';

/**
 * PDF, bounded: pdf.js runs in a child with a heap ceiling, an RSS watchdog, a wall-time limit, a page cap and the
 * character cap. Budgets here are roomy (the machine may be loaded); the ceilings under test are memory and pages.
 */
const trees = new TempTrees('trawl-pdf-');
afterAll(() => trees.remove());
const fence = new SensitiveFence({ home: trees.home, env: {} });
const ROOMY = { maxMs: 120_000 };

async function all(bytes: Buffer, options = {}) {
  const segments: DocSegment[] = [];
  const result = await extractDocument(
    'pdf',
    bytes,
    (s) => {
      segments.push(s);
      return false;
    },
    { pdf: ROOMY, ...options },
  );
  return { segments, result };
}

describe('PDF extraction in a bounded child', () => {
  it('reads pages in order, labelled p N', async () => {
    const { segments, result } = await all(pdf(['cover page', 'the WIDGET plan', 'end']));
    expect(segments.map((s) => [s.label, s.text.trim()])).toEqual([
      ['p 1', 'cover page'],
      ['p 2', 'the WIDGET plan'],
      ['p 3', 'end'],
    ]);
    expect(result).toEqual({ whole: true, stopped: false });
  }, 120_000);

  it('stops at the page cap and says the parse is not whole', async () => {
    const { segments, result } = await all(pdf(['one', 'two', 'three']), { pdf: { ...ROOMY, maxPages: 2 } });
    expect(segments.map((s) => s.label)).toEqual(['p 1', 'p 2']);
    expect(result.whole).toBe(false);
  }, 120_000);

  it('a decompression bomb is stopped by the memory ceiling: skipped, not read, and this process never held it', async () => {
    const bomb = pdf(['first page'], { bombBytes: 768 * 1024 * 1024 });
    expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
    const { result } = await all(bomb, { pdf: { ...ROOMY, maxRssMb: 200, heapMb: 128 } });
    expect(result.skipped).toMatch(/^(memory|signal:|exit:)/);
    expect(result.whole).toBe(false);
  }, 120_000);

  it('a file the parser refuses is a settled answer (refused), not a skipped one', async () => {
    const { result } = await all(Buffer.from('%PDF-1.4\nthis is not a pdf at all\n'));
    expect(result.skipped).toBeUndefined();
    expect(result.refused).toBeDefined();
    const notPdf = await all(Buffer.from('plain text'));
    expect(notPdf.result.refused).toBe('not a PDF');
  }, 120_000);
});

describe('PDF in the content grep', () => {
  const root = trees.fresh('g');
  fs.mkdirSync(root, { recursive: true });

  it('reports the page it matched', async () => {
    write(root, { 'paper.pdf': pdf(['intro', 'the WIDGET plan']), 'spec.docx': docx(['nothing here']) });
    const { payload } = await grepFiles({
      root,
      query: 'widget',
      fence,
      limits: { timeBudgetMs: 120_000 },
      extract: { pdf: ROOMY },
    });
    expect(payload.results).toEqual([
      { file: 'paper.pdf', line: 0, preview: 'the WIDGET plan', label: 'p 2', ranges: [[4, 10]] },
    ]);
    expect(payload.truncated).toBe(false);
    expect(payload.skipped_docs).toBe(0);
  }, 120_000);

  it('a bomb PDF counts in skipped_docs, marks the answer truncated, and the search still answers', async () => {
    const r = trees.fresh('b');
    write(r, {
      'bomb.pdf': pdf(['nothing on page one'], { bombBytes: 768 * 1024 * 1024 }),
      'spec.docx': docx(['the WIDGET spec']),
    });
    const { payload } = await grepFiles({
      root: r,
      query: 'widget',
      fence,
      limits: { timeBudgetMs: 120_000 },
      extract: { pdf: { ...ROOMY, maxRssMb: 200, heapMb: 128 } },
    });
    expect(payload.results.map((x) => x.file)).toEqual(['spec.docx']);
    expect(payload.skipped_docs).toBe(1);
    expect(payload.truncated).toBe(true);
  }, 120_000);
});
