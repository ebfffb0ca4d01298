import { describe, expect, it } from 'vitest';
import { type DocSegment, documentKindOf, extractDocument } from '../src/docs/index.js';
import { docx, pptx, xlsx } from './fixtures/office-docs.js';
import { zip } from './fixtures/zip.js';

async function all(kind: 'docx' | 'pptx' | 'xlsx', bytes: Buffer, options = {}) {
  const segments: DocSegment[] = [];
  const result = await extractDocument(
    kind,
    bytes,
    (s) => {
      segments.push(s);
      return false;
    },
    options,
  );
  return { segments, result };
}

describe('document kinds', () => {
  it('are claimed by extension, case-insensitively, and only by the last one', () => {
    expect(documentKindOf('a/REPORT.DOCX')).toBe('docx');
    expect(documentKindOf('Deck.PpTx')).toBe('pptx');
    expect(documentKindOf('book.xlsx')).toBe('xlsx');
    expect(documentKindOf('book.xlsx.bak')).toBeNull();
    expect(documentKindOf('dir.docx/readme')).toBeNull();
    expect(documentKindOf('paper.PDF')).toBe('pdf');
    expect(documentKindOf('notes.txt')).toBeNull();
  });
});

describe('extraction', () => {
  it('docx: paragraphs in order, runs joined, no label', async () => {
    const { segments, result } = await all('docx', docx(['intro', 'the WID|GET decision', '', 'outro']));
    expect(segments).toEqual([
      { label: '', text: 'intro' },
      { label: '', text: 'the WIDGET decision' },
      { label: '', text: 'outro' },
    ]);
    expect(result).toEqual({ whole: true, stopped: false });
  });

  it('pptx: slides by part number, labelled, empty slides dropped', async () => {
    const { segments } = await all('pptx', pptx([['cover', 'sub'], [], ['the WIDGET roadmap']]));
    expect(segments).toEqual([
      { label: 'slide 1', text: 'cover\nsub' },
      { label: 'slide 3', text: 'the WIDGET roadmap' },
    ]);
  });

  it('xlsx: every kind of cell, TAB-joined, sheets in workbook order, rows by their own number', async () => {
    const book = xlsx([
      {
        name: 'Costs',
        rows: [['item', 'price'], [], ['WIDGET', 12.5, true, false, { formula: 'B3*2', cached: 25 }]],
      },
      { name: 'Notes', rows: [[{ inline: 'inline text' }, { formula: 'A1&"!"', cached: 'str result' }]] },
    ]);
    const { segments, result } = await all('xlsx', book);
    expect(segments).toEqual([
      { label: 'Costs · row 1', text: 'item\tprice' },
      { label: 'Costs · row 3', text: 'WIDGET\t12.5\tTRUE\tFALSE\t25' },
      { label: 'Notes · row 1', text: 'inline text\tstr result' },
    ]);
    expect(result.whole).toBe(true);
  });

  it('stops when the sink has what it wants', async () => {
    const seen: string[] = [];
    const result = await extractDocument('docx', docx(['a', 'b', 'c']), (s) => {
      seen.push(s.text);
      return s.text === 'b';
    });
    expect(seen).toEqual(['a', 'b']);
    expect(result.stopped).toBe(true);
  });

  it('a character cap is not whole', async () => {
    const { result } = await all('docx', docx(['x'.repeat(50), 'y']), { maxChars: 20 });
    expect(result.whole).toBe(false);
  });

  it('a wide row is built inside the budget, never joined then cut', async () => {
    const row = Array.from({ length: 200 }, (_, i) => (i === 0 ? `WIDGET${'w'.repeat(82)}` : 'c'.repeat(88)));
    const { segments, result } = await all('xlsx', xlsx([{ name: 'S', rows: [row] }]), { maxChars: 100 });
    const total = segments.reduce((n, s) => n + s.text.length, 0);
    expect(total).toBeLessThanOrEqual(100);
    expect(segments[0]!.text).toContain('WIDGET');
    expect(result.whole).toBe(false);
  });

  it('a workbook of empty rows stops at a spent deadline (sampled every stride rows)', async () => {
    const rows = Array.from({ length: 4000 }, () => [] as never[]);
    let t = 0;
    const now = () => t++;
    const { segments, result } = await all('xlsx', xlsx([{ name: 'E', rows }]), {
      deadline: 50,
      now,
      rowStride: 1,
    });
    expect(segments).toEqual([]);
    expect(result.whole).toBe(false);
  });

  it('a workbook read within the deadline reports complete', async () => {
    const rows = Array.from({ length: 600 }, (_, i) => [i]);
    const { segments, result } = await all('xlsx', xlsx([{ name: 'E', rows }]), {
      deadline: Date.now() + 60_000,
    });
    expect(segments).toHaveLength(600);
    expect(result.whole).toBe(true);
  });

  it('a member cut part-way keeps what was read and is not whole', async () => {
    const good = docx(['first paragraph', 'second paragraph']);
    const cut = Buffer.from(good);
    // Corrupt the compressed body of word/document.xml near its end: inflate fails after the early paragraphs.
    const at = cut.indexOf(Buffer.from('word/document.xml')) + 'word/document.xml'.length;
    for (let i = at + 40; i < at + 60; i++) cut[i] = 0xff;
    const { result } = await all('docx', cut);
    expect(result.whole).toBe(false);
  });
});

describe('the zip vet runs before anything is inflated', () => {
  it('refuses a container with more members than the cap: skipped, not a settled answer', async () => {
    const { segments, result } = await all('docx', docx(['WIDGET']), { zip: { maxMembers: 2 } });
    expect(segments).toEqual([]);
    expect(result.skipped).toMatch(/members/);
    expect(result.refused).toBeUndefined();
    expect(result.whole).toBe(false); // its text was never searched
  });

  it('refuses a workbook whose members declare more than the expansion cap', async () => {
    const book = xlsx([{ name: 'S', rows: [['x'.repeat(2 * 1024 * 1024)]] }]);
    const { segments, result } = await all('xlsx', book, { zip: { maxTotalBytes: 1024 } });
    expect(segments).toEqual([]);
    expect(result.skipped).toMatch(/declare/);
  });

  it('refuses a compression-ratio bomb', async () => {
    const bomb = zip([
      {
        name: 'word/document.xml',
        data: `<w:document><w:body>${'<w:p/>'.repeat(2_000_000)}</w:body></w:document>`,
      },
    ]);
    const { result } = await all('docx', bomb);
    expect(result.skipped).toMatch(/compresses/);
  });

  it('refuses a member that inflates past its declared size (yauzl checks as it inflates)', async () => {
    const liar = zip([
      {
        name: 'word/document.xml',
        data: `<w:document><w:body><w:p><w:t>${'a'.repeat(100_000)} WIDGET</w:t></w:p></w:body></w:document>`,
        declaredSize: 100,
      },
    ]);
    const { segments, result } = await all('docx', liar);
    expect(segments.some((s) => s.text.includes('WIDGET'))).toBe(false);
    expect(result.whole).toBe(false);
  });

  it('a file that is not a zip is refused (a settled answer), not thrown', async () => {
    const { result } = await all('xlsx', Buffer.from('not a zip at all'));
    expect(result.refused).toMatch(/not a readable zip/);
    expect(result.skipped).toBeUndefined();
    expect(result.whole).toBe(true);
  });
});
