#!/usr/bin/env node
// The document text store (packages/core/src/docs/store.ts) on bench/grep-docs.mjs's generated corpus: the doc pass
// without a store (every search extracts), the store's build (the first search, which extracts every document whole),
// a warm search from memory, the persisted file's size and the time a new store takes to read it, and a search
// from the loaded store. Needs tsx (imports the sources):
//
//   node --import tsx bench/doc-store.mjs [COUNT]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { closeSharedPdfPool } from '../packages/core/src/docs/pdf-pool.ts';
import { DocumentTextStore } from '../packages/core/src/docs/store.ts';
import { SensitiveFence } from '../packages/core/src/fence/index.ts';
import { grepFiles } from '../packages/core/src/grep/index.ts';

const count = Number(process.argv[2] ?? 200);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-docstore-bench-'));
const root = path.join(dir, 'docs');
const gen = JSON.parse(
  execFileSync(process.execPath, ['--import', 'tsx', 'bench/grep-docs.mjs', root, String(count)], {
    encoding: 'utf8',
  }),
);
// An hour back: a version modified just before it is read is not kept (the store's racy rule).
const past = new Date(Date.now() - 3_600_000);
for (const f of fs.readdirSync(root, { recursive: true })) fs.utimesSync(path.join(root, f), past, past);
const fence = new SensitiveFence({ home: os.homedir(), env: {} });
const limits = { timeBudgetMs: 600_000, maxResults: 10_000 };
const time = async (documents, query) => {
  const t = performance.now();
  const { payload, detail } = await grepFiles({
    root,
    query,
    fence,
    limits,
    ...(documents ? { documents } : {}),
  });
  return {
    ms: Math.round(performance.now() - t),
    docMs: Math.round(detail.docMs),
    rows: payload.results.length,
    truncated: payload.truncated,
  };
};
const file = path.join(dir, 'documents.bin');
const out = {
  load: os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' '),
  documents: count,
  corpusBytes: gen.bytes,
};
await time(undefined, 'warm the pdf child');
out.noStore = [await time(undefined, 'quarterly zebra'), await time(undefined, 'quarterly zebra')];
const store = new DocumentTextStore({ file, flushMs: 3_600_000 });
out.build = await time(store, 'quarterly zebra');
out.warm = [
  await time(store, 'quarterly zebra'),
  await time(store, 'budget review'),
  await time(store, 'milestone'),
];
let t = performance.now();
await store.close();
out.flushMs = Math.round(performance.now() - t);
out.stats = store.stats();
out.fileBytes = fs.statSync(file).size;
t = performance.now();
const loaded = new DocumentTextStore({ file, flushMs: 3_600_000 });
await loaded.ready();
out.loadMs = Math.round(performance.now() - t);
out.fromFile = await time(loaded, 'quarterly zebra');
out.extractionsAfterLoad = loaded.stats().extractions;
console.log(JSON.stringify(out, null, 1));
await closeSharedPdfPool();
fs.rmSync(dir, { recursive: true, force: true });
