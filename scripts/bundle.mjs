#!/usr/bin/env node
// The bundles a package ships, built after `tsc -b` over its dist/ (each package's `prepack`, and the root build).
//
//   node scripts/bundle.mjs core     dist/docs/pdf-child.js with pdf.js inside it: the package does not depend on
//                                    pdfjs-dist (41 MB of builds, viewers and maps; the text extractor is ~3 MB)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';

const repo = path.resolve(import.meta.dirname, '..');

/** What each package bundles: entry (in its dist/) → the same path, overwritten with the bundle. */
const TARGETS = {
  core: {
    dir: 'packages/core',
    entries: ['dist/docs/pdf-child.js'],
    // pdf.js asks for these with require() at run time and does without them: the canvas renderer (never used:
    // trawl extracts text) and a stream polyfill for Node versions older than trawl supports.
    external: ['@napi-rs/canvas', 'node-readable-to-web-readable-stream'],
    // pdf.js is Apache-2.0: its notice travels with the bundle.
    banner:
      '/*! Contains pdf.js (pdfjs-dist), Copyright Mozilla Foundation, Apache-2.0: see pdf-child.LICENSE.txt */',
    notices: [['../../node_modules/pdfjs-dist/LICENSE', 'dist/docs/pdf-child.LICENSE.txt']],
  },
};

const which = process.argv.slice(2);
if (which.length === 0 || which.some((w) => !(w in TARGETS))) {
  console.error(`bundle: name one or more of: ${Object.keys(TARGETS).join(', ')}`);
  process.exit(2);
}

for (const name of which) {
  const target = TARGETS[name];
  const dir = path.join(repo, target.dir);
  for (const entry of target.entries) {
    const file = path.join(dir, entry);
    const result = await build({
      entryPoints: [file],
      outfile: file,
      allowOverwrite: true,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      minify: true,
      legalComments: 'eof',
      sourcemap: false,
      external: target.external,
      logLevel: 'warning',
      metafile: true,
      ...(target.banner ? { banner: { js: target.banner } } : {}),
    });
    const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
    console.log(`bundle: ${path.relative(repo, file)} ${(bytes / 1024 / 1024).toFixed(2)} MiB`);
  }
  for (const [from, to] of target.notices ?? []) fs.copyFileSync(path.join(dir, from), path.join(dir, to));
}
