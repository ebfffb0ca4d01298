// The PDF extractor child (spawned by pdf.ts with a V8 heap ceiling, an RSS watchdog and a wall-time limit): reads
// one PDF from stdin, writes one JSON line per page with text (`{"page", "text"}`), then `{"end": "whole"|"cut"}`,
// or `{"error": "parse", "message"}` when the parser rejects the file. Only its limits come from argv.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const [maxPagesArg, maxCharsArg] = process.argv.slice(2);
const maxPages = Number(maxPagesArg);
let room = Number(maxCharsArg);

function send(msg: unknown): Promise<void> {
  return new Promise((resolve) => process.stdout.write(`${JSON.stringify(msg)}\n`, () => resolve()));
}

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin as AsyncIterable<Buffer>) chunks.push(c);
  const data = new Uint8Array(Buffer.concat(chunks));
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
    await send({ error: 'parse', message: (err as Error).message });
    return;
  }
  const pages = Math.min(doc.numPages, maxPages);
  let cut = doc.numPages > maxPages;
  for (let n = 1; n <= pages && room > 0; n++) {
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
      cut = true;
    }
    room -= text.length;
    if (room <= 0 && n < doc.numPages) cut = true;
    page.cleanup();
    if (text.trim() !== '') await send({ page: n, text });
  }
  await send({ end: cut ? 'cut' : 'whole' });
  await doc.destroy();
}

main().then(
  () => process.exit(0),
  async (err: unknown) => {
    await send({ error: 'parse', message: err instanceof Error ? err.message : String(err) });
    process.exit(0);
  },
);
