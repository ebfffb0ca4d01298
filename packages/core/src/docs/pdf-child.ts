// The PDF extractor child, kept warm by pdf-pool.ts (which spawns it with a V8 heap ceiling, under a kernel limit on
// its data where it can, and bounds every document with an RSS watchdog and a wall-time limit). It watches itself
// too, on a thread of its own (`--max-rss-mb=N`, each document's `wallMs`): the parent's watchdog shares a thread
// with the parent's work, and may not run while a document balloons. It loads pdf.js once, says `{"ready":true}`,
// then serves documents one at a time from stdin: a header line `{"doc", "bytes", "maxPages", "maxChars", "wallMs"}`
// followed by that many raw bytes, and possibly `{"stop": doc}` (the caller found its match). For each document it writes one JSON line per page with text
// (`{"doc", "page", "text"}`) and then `{"doc", "end": "whole"|"cut"|"stopped"}`, or `{"doc", "error": "parse",
// "message"}` when the parser rejects the file. The end of stdin (the parent closed it, exited, or died) ends the child
// at once, mid-document or not: no child outlives the process that started it.
import './pdf-child-globals.js';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PDF_CHILD_SELF_GRACE_MS, PDF_RSS_POLL_MS } from './limits.js';
import { startPdfWatchdog } from './pdf-watchdog.js';

interface Header {
  doc: number;
  bytes: number;
  maxPages: number;
  maxChars: number;
  /** Wall time the parent gave this document (ms). */
  wallMs: number;
}

/** A header line longer than this is a broken parent: the child leaves rather than buffer it. */
const MAX_HEADER_CHARS = 4096;

const maxRssMb = Number(process.argv.find((a) => a.startsWith('--max-rss-mb='))?.slice(13));
if (!(maxRssMb > 0)) process.exit(2); // a child without its own ceiling is never started
const watchdog = await startPdfWatchdog(maxRssMb, PDF_RSS_POLL_MS);

let pending: Buffer = Buffer.alloc(0);
let body: { header: Header; chunks: Buffer[]; got: number } | undefined;
let busy: number | undefined;
const stopped = new Set<number>();

function send(msg: unknown): Promise<void> {
  return new Promise((resolve) => process.stdout.write(`${JSON.stringify(msg)}\n`, () => resolve()));
}

process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));
process.stdin.on('data', (chunk: Buffer) => {
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  for (;;) {
    if (body) {
      const want = body.header.bytes - body.got;
      const take = pending.subarray(0, want);
      body.chunks.push(take);
      body.got += take.length;
      pending = pending.subarray(take.length);
      if (body.got < body.header.bytes) return;
      const { header, chunks } = body;
      body = undefined;
      if (busy !== undefined) process.exit(2); // the parent sends one document at a time
      busy = header.doc;
      // The parent's own timer normally ends an overrun first (and names it a timeout); this one holds when it cannot.
      watchdog.begin(header.wallMs + PDF_CHILD_SELF_GRACE_MS);
      void extract(header, new Uint8Array(Buffer.concat(chunks))).finally(() => {
        watchdog.end();
        stopped.delete(header.doc);
        busy = undefined;
      });
      continue;
    }
    const nl = pending.indexOf(10);
    if (nl < 0) {
      if (pending.length > MAX_HEADER_CHARS) process.exit(2);
      return;
    }
    const line = pending.subarray(0, nl).toString('utf8');
    pending = pending.subarray(nl + 1);
    const msg = JSON.parse(line) as Partial<Header> & { stop?: number };
    if (typeof msg.stop === 'number') {
      if (msg.stop === busy) stopped.add(msg.stop);
    } else if (
      typeof msg.doc === 'number' &&
      typeof msg.bytes === 'number' &&
      typeof msg.wallMs === 'number'
    ) {
      body = { header: msg as Header, chunks: [], got: 0 };
    } else process.exit(2);
  }
});

async function extract(header: Header, data: Uint8Array): Promise<void> {
  const id = header.doc;
  let doc: Awaited<ReturnType<typeof getDocument>['promise']>;
  try {
    doc = await getDocument({
      data,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: 0,
    }).promise;
  } catch (err) {
    await send({ doc: id, error: 'parse', message: (err as Error).message });
    return;
  }
  try {
    let room = header.maxChars;
    const pages = Math.min(doc.numPages, header.maxPages);
    let end: 'whole' | 'cut' | 'stopped' = doc.numPages > header.maxPages ? 'cut' : 'whole';
    for (let n = 1; n <= pages && room > 0; n++) {
      if (stopped.has(id)) {
        end = 'stopped';
        break;
      }
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : '');
        if (text.length >= room) break;
      }
      if (text.length > room) {
        text = text.slice(0, room);
        end = 'cut';
      }
      room -= text.length;
      if (room <= 0 && n < doc.numPages) end = 'cut';
      page.cleanup();
      if (text.trim() !== '') await send({ doc: id, page: n, text });
    }
    await send({ doc: id, end });
  } catch (err) {
    await send({ doc: id, error: 'parse', message: err instanceof Error ? err.message : String(err) });
  } finally {
    await doc.destroy();
  }
}

// pdf.js runs its parser on a "fake worker" in this thread, imported on the first document; importing it here puts
// that cost in the start-up, before `ready`, so no document pays it (and names it, so the packed child can carry it).
await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
await send({ ready: true });
