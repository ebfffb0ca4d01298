import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDocumentStores, documentStoreFile } from '../src/content-index/documents.js';
import { ContentIndexRegistry, openIndex, type SearchIndex } from '../src/content-index/index.js';
import { gramQuery } from '../src/content-index/query.js';
import { extractDocument } from '../src/docs/extract.js';
import { type DocumentExtractor, DocumentTextStore } from '../src/docs/store.js';
import { SensitiveFence } from '../src/fence/index.js';
import { docPass } from '../src/grep/doc-pass.js';
import { type GrepRequest, grepFiles } from '../src/grep/index.js';
import { compilePattern } from '../src/match/index.js';
import { docx } from './fixtures/office-docs.js';
import { TempTrees } from './fixtures/temp-trees.js';

const trees = new TempTrees('trawl-docstore-');
afterAll(() => trees.remove());
const fence = new SensitiveFence({ home: trees.home, env: {} });
/** A budget no search here can exhaust, however loaded the machine. */
const ROOMY_MS = 120_000;

/** A tree of documents whose times lie an hour back (a version just written is not kept: the racy rule). */
function tree(files: Record<string, Buffer>): string {
  const made = trees.fresh('d');
  fs.mkdirSync(made, { recursive: true });
  const root = fs.realpathSync(made);
  for (const [rel, bytes] of Object.entries(files)) write(root, rel, bytes);
  return root;
}

function write(root: string, rel: string, bytes: Buffer): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, bytes);
  const past = new Date(Date.now() - 3_600_000);
  fs.utimesSync(abs, past, past);
}

/** A store whose extractions are counted, persisting to `file` when given. */
function counted(file?: string): { store: DocumentTextStore; extracted: string[] } {
  const extracted: string[] = [];
  const extractor: DocumentExtractor = (kind, bytes, sink, options) => {
    extracted.push(kind);
    return extractDocument(kind, bytes, sink, options);
  };
  return {
    store: new DocumentTextStore({ extractor, ...(file ? { file } : {}), flushMs: 60_000 }),
    extracted,
  };
}

async function grep(root: string, query: string, extra: Partial<GrepRequest>) {
  return (await grepFiles({ root, query, fence, ...extra, limits: { timeBudgetMs: ROOMY_MS } })).payload;
}

describe('the document text store', () => {
  it('answers a second search from the store without extracting again', async () => {
    const root = tree({ 'a.docx': docx(['the WIDGET plan']), 'b.docx': docx(['nothing here']) });
    const { store, extracted } = counted();
    const first = await grep(root, 'widget', { documents: store });
    expect(first.results.map((r) => r.file)).toEqual(['a.docx']);
    expect(extracted).toHaveLength(2);
    const second = await grep(root, 'plan', { documents: store });
    expect(second.results.map((r) => [r.file, r.preview])).toEqual([['a.docx', 'the WIDGET plan']]);
    expect(second.truncated).toBe(false);
    expect(extracted).toHaveLength(2);
    expect(store.stats().documents).toBe(2);
  });

  it('re-extracts a changed document and finds its new text on the very next search', async () => {
    const root = tree({ 'a.docx': docx(['the old words']) });
    const { store, extracted } = counted();
    expect((await grep(root, 'old words', { documents: store })).results).toHaveLength(1);
    write(root, 'a.docx', docx(['the fresh sentence, longer than before']));
    const after = await grep(root, 'fresh sentence', { documents: store });
    expect(after.results.map((r) => r.file)).toEqual(['a.docx']);
    expect((await grep(root, 'old words', { documents: store })).results).toEqual([]);
    expect(extracted).toHaveLength(2);
  });

  it('re-extracts a rewrite of the same size made in the same second as the version it read', async () => {
    const root = tree({});
    const abs = path.join(root, 'a.docx');
    const { store, extracted } = counted();
    fs.writeFileSync(abs, docx(['alpha words']));
    expect((await grep(root, 'alpha', { documents: store })).results).toHaveLength(1);
    fs.writeFileSync(abs, docx(['bravo words']));
    expect((await grep(root, 'bravo', { documents: store })).results).toHaveLength(1);
    expect(extracted).toHaveLength(2);
  });

  it('keeps a document cut by the character cap as partial: a search that misses its text is not complete', async () => {
    const root = tree({ 'long.docx': docx(['x'.repeat(30), 'WIDGET']) });
    const { store, extracted } = counted();
    const extract = { maxChars: 20 };
    const first = await grep(root, 'widget', { documents: store, extract });
    expect(first.results).toEqual([]);
    expect(first.truncated).toBe(true);
    const again = await grep(root, 'widget', { documents: store, extract });
    expect(again.truncated).toBe(true);
    expect(extracted).toHaveLength(1);
    expect(store.stats().partial).toBe(1);
  });

  it('persists beside the content index and a new store answers from the file', async () => {
    const root = tree({ 'a.docx': docx(['the WIDGET plan']) });
    const dataDir = trees.fresh('data');
    fs.mkdirSync(path.dirname(documentStoreFile(dataDir, root)), { recursive: true, mode: 0o700 });
    const file = documentStoreFile(dataDir, root);
    const one = counted(file);
    await grep(root, 'widget', { documents: one.store });
    await one.store.close();
    expect(fs.statSync(file).size).toBeGreaterThan(0);
    const two = counted(file);
    await two.store.ready();
    expect(two.store.stats().loaded).toBe('loaded');
    expect((await grep(root, 'plan', { documents: two.store })).results).toHaveLength(1);
    expect(two.extracted).toHaveLength(0);
  });

  it("shares one file between stores (threads, processes): each reads in the other's extractions and keeps them when it writes", async () => {
    const root = tree({ 'a.docx': docx(['the WIDGET plan']), 'b.docx': docx(['the GADGET plan']) });
    const dir = trees.fresh('data');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'documents.bin');
    const one = counted(file);
    const two = counted(file);
    await Promise.all([one.store.ready(), two.store.ready()]);
    await grep(root, 'widget', { documents: one.store, include: ['a.docx'] });
    await grep(root, 'gadget', { documents: two.store, include: ['b.docx'] });
    await one.store.flush();
    // two read one's write before its own: its file holds both documents.
    await two.store.flush();
    expect(two.store.stats().documents).toBe(2);
    await one.store.refresh();
    expect((await grep(root, 'plan', { documents: one.store })).results.map((r) => r.file)).toEqual([
      'a.docx',
      'b.docx',
    ]);
    expect([one.extracted, two.extracted]).toEqual([['docx'], ['docx']]);
    const three = counted(file);
    await three.store.ready();
    expect(three.store.stats().documents).toBe(2);
  });

  it("keeps the text of a root no index covers in the request's data directory, for the next process", async () => {
    const root = tree({ 'a.docx': docx(['the WIDGET plan']) });
    const dataDir = trees.fresh('data');
    expect((await grep(root, 'widget', { dataDir })).results).toHaveLength(1);
    await closeDocumentStores();
    const file = documentStoreFile(dataDir, root);
    const next = counted(file);
    await next.store.ready();
    expect(next.store.stats()).toMatchObject({ loaded: 'loaded', documents: 1 });
    expect((await grep(root, 'plan', { documents: next.store })).results).toHaveLength(1);
    expect(next.extracted).toEqual([]);
  });

  it('rebuilds from the documents when its file is corrupt', async () => {
    const root = tree({ 'a.docx': docx(['the WIDGET plan']) });
    const dir = trees.fresh('data');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'documents.bin');
    const one = counted(file);
    await grep(root, 'widget', { documents: one.store });
    await one.store.close();
    const bytes = fs.readFileSync(file);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 3) ^ 0xff, bytes.length - 3);
    fs.writeFileSync(file, bytes);
    const two = counted(file);
    await two.store.ready();
    expect(two.store.stats().loaded).toBe('rebuilt: checksum mismatch');
    expect((await grep(root, 'widget', { documents: two.store })).results).toHaveLength(1);
    expect(two.extracted).toHaveLength(1);
    await two.store.close();
    const three = counted(file);
    await three.store.ready();
    expect(three.store.stats()).toMatchObject({ loaded: 'loaded', documents: 1 });
    fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 60));
    const four = counted(file);
    await four.store.ready();
    expect(four.store.stats()).toMatchObject({ loaded: 'rebuilt: the file is cut short', documents: 0 });
  });

  it('never holds the text of a sensitive path, and drops one from a file it loads', async () => {
    const root = tree({ 'a.docx': docx(['the WIDGET plan']) });
    const dir = trees.fresh('data');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'documents.bin');
    const open = new DocumentTextStore({ file, flushMs: 60_000 });
    await grep(root, 'widget', { documents: open });
    await open.close();
    const abs = path.join(root, 'a.docx');
    const fenced = new DocumentTextStore({ file, sensitive: (p) => p === abs, flushMs: 60_000 });
    await fenced.ready();
    expect(fenced.stats().documents).toBe(0);
    await fenced.close();
    expect(fs.readFileSync(file).includes(Buffer.from('WIDGET'))).toBe(false);
  });

  it('does not search a stored document whose text lacks one of the query grams', async () => {
    const root = tree({ 'a.docx': docx(['the WIDGET plan']), 'b.docx': docx(['other words']) });
    const { store } = counted();
    await grep(root, 'widget', { documents: store });
    const seen: string[] = [];
    class Recording extends RegExp {
      override exec(s: string): RegExpExecArray | null {
        seen.push(s);
        return super.exec(s);
      }
    }
    const p = await docPass({
      walk: { roots: [''], cwd: root, hidden: true, ignoreFiles: false, requireGit: false, parents: false },
      room: 10,
      deadline: Date.now() + ROOMY_MS,
      now: Date.now,
      matcher: new Recording('widget plan', 'gi'),
      maxDocBytes: 1 << 20,
      sensitive: () => false,
      documents: store,
      grams: gramQuery(compilePattern('widget plan', { fixedStrings: true, caseInsensitive: true }).required),
    });
    expect(p.hits.map((h) => h.file)).toEqual(['a.docx']);
    expect(seen).toEqual(['the WIDGET plan']);
  });

  it("is the covering content index's own: every search of the root shares it, and it persists beside the index", async () => {
    const root = tree({ 'a.docx': docx(['the WIDGET plan']), 'sub/b.docx': docx(['a widget too']) });
    const dataDir = trees.fresh('data');
    const index = openIndex(root, { dataDir, fence, watch: false, buildIn: 'inline' });
    try {
      await index.whenReady();
      const store = index.documentsFor(root)!;
      expect((await grep(root, 'widget', { index })).results.map((r) => r.file)).toEqual([
        'a.docx',
        'sub/b.docx',
      ]);
      expect(store.stats().extractions).toBe(2);
      const sub = await grep(path.join(root, 'sub'), 'widget', { index });
      expect(sub.results.map((r) => r.file)).toEqual(['b.docx']);
      expect(store.stats().extractions).toBe(2);
    } finally {
      await index.close();
    }
    expect(fs.existsSync(documentStoreFile(dataDir, root))).toBe(true);
  });

  it('leaves a document the store lacks to the background extraction while it runs: counted as not extracted, not parsed', async () => {
    const root = tree({ 'a.docx': docx(['the WIDGET plan']), 'b.docx': docx(['a widget too']) });
    const { store, extracted } = counted();
    await grep(root, 'widget', { documents: store, include: ['a.docx'] });
    let extracting = true;
    // An index as a search sees it: it selects nothing (the text pass scans) and reports its extraction's state.
    const index: SearchIndex = {
      select: async () => ({ use: { used: false, reason: 'a stand-in' } }),
      documentsFor: () => store,
      extractingDocuments: () => extracting,
    };
    const during = await grep(root, 'widget', { index });
    expect(during.results.map((r) => r.file)).toEqual(['a.docx']);
    expect(during).toMatchObject({ skipped_docs: 1, partial_reasons: ['doc_not_extracted'] });
    expect(during.total_files).toBeUndefined();
    expect(extracted).toHaveLength(1);
    extracting = false;
    const after = await grep(root, 'widget', { index });
    expect(after.results.map((r) => r.file)).toEqual(['a.docx', 'b.docx']);
    expect(after).toMatchObject({ skipped_docs: 0, total_files: 2 });
    expect(extracted).toHaveLength(2);
  });

  it("says it is extracting an indexed root's documents while the background extraction runs, and not after", async () => {
    const root = tree({ 'a.docx': docx(['one']), 'b.docx': docx(['two']) });
    const registry = new ContentIndexRegistry();
    const seen: Array<[string, boolean]> = [];
    const index = registry.add(
      openIndex(root, {
        dataDir: trees.fresh('data'),
        fence,
        watch: false,
        buildIn: 'inline',
        onDocumentProgress: (p) => seen.push([p.state, registry.extractingDocuments(root)]),
      }),
    );
    try {
      await index.whenDocumentsExtracted();
      expect(seen).toEqual([
        ['extracting', true],
        ['extracting', true],
        ['done', false],
      ]);
    } finally {
      await registry.close();
    }
  });

  it("extracts an indexed root's documents in the background once the text index is ready, and says so", async () => {
    const root = tree({
      'a.docx': docx(['the WIDGET plan']),
      'deep/b.docx': docx(['a widget too']),
      'c.txt': Buffer.from('widget\n'),
    });
    const dataDir = trees.fresh('data');
    const seen: string[] = [];
    const index = openIndex(root, {
      dataDir,
      fence,
      watch: false,
      buildIn: 'inline',
      onDocumentProgress: (p) => seen.push(`${p.state} ${p.stored}/${p.total}`),
    });
    try {
      await index.whenDocumentsExtracted();
      expect(index.status().documents).toEqual({ state: 'done', total: 2, stored: 2, partial: 0 });
      expect(seen.at(-1)).toBe('done 2/2');
      const store = index.documentsFor(root)!;
      expect(store.stats().extractions).toBe(2);
      const p = await grep(root, 'widget', { index });
      expect(p.results.map((r) => r.file)).toEqual(['c.txt', 'a.docx', 'deep/b.docx']);
      expect(store.stats().extractions).toBe(2);
    } finally {
      await index.close();
    }
    const off = openIndex(root, { dataDir, fence, watch: false, buildIn: 'inline', extractDocuments: false });
    try {
      await off.whenDocumentsExtracted();
      expect(off.status().documents).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});
