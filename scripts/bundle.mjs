#!/usr/bin/env node
// The bundles a package ships, built after `tsc -b` over its dist/ (each package's `prepack`, and the root build).
//
//   node scripts/bundle.mjs core     dist/docs/pdf-child.js with pdf.js inside it: the package does not depend on
//                                    pdfjs-dist (41 MB of builds, viewers and maps; the text extractor is ~3 MB)
//   node scripts/bundle.mjs server   bundle/: the CLI as ES modules, one chunk per command group, with the engine's
//                                    code, commander, hono and the MCP SDK inside (so neither their install nor ~100
//                                    module loads a command). Flat, so each module finds its workers and
//                                    ../package.json as dist/'s did; the engine's own workers are entries too
//                                    (core-<name>.js, found by core's util/package-files.ts). bin/trawl.js runs dist/
//                                    where it exists (a checkout), else bundle/.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';

const repo = path.resolve(import.meta.dirname, '..');

/**
 * What each package bundles. `entries` are dist/ files (tsc's output); a `[source, out]` pair bundles a source file
 * over tsc's output for it, so running this again gives the same bytes (it never bundles a bundle).
 */
const TARGETS = {
  core: {
    dir: 'packages/core',
    entries: [['src/docs/pdf-child.ts', 'dist/docs/pdf-child.js']],
    // pdf.js asks for these with require() at run time and does without them: the canvas renderer (never used:
    // trawl extracts text) and a stream polyfill for Node versions older than trawl supports.
    external: ['@napi-rs/canvas', 'node-readable-to-web-readable-stream'],
    // pdf.js is Apache-2.0: its notice travels with the bundle.
    banner:
      '/*! Contains pdf.js (pdfjs-dist), Copyright Mozilla Foundation, Apache-2.0: see pdf-child.LICENSE.txt */',
    notices: [['../../node_modules/pdfjs-dist/LICENSE', 'dist/docs/pdf-child.LICENSE.txt']],
  },
  server: {
    dir: 'packages/server',
    // The entries keep the names their callers use: bin/trawl.js, builtScriptUrl('worker.js' | 'index-worker.js' |
    // 'agent-watchdog-child.js' | 'grep-host-worker.js'); the engine's workers are `core-<name>`
    // (packages/core/src/util/package-files.ts coreScriptUrl).
    entries: [
      'dist/cli/main.js',
      'dist/cli/rg-process.js',
      'dist/http/worker.js',
      'dist/http/index-worker.js',
      'dist/conversations/agent-watchdog-child.js',
      'dist/http/grep-host-worker.js',
      'dist/index.js',
      { in: '../core/dist/engine/js/search-worker.js', out: 'core-search-worker' },
      { in: '../core/dist/content-index/index-worker.js', out: 'core-index-worker' },
    ],
    outdir: 'bundle',
    // The engine's code is inside; the @trawl/core package is still installed beside trawl, for the files it ships
    // (docs/, the PDF child, ripgrep as its optional dependency: util/package-files.ts corePackageDir). Also
    // installed: the workbench's assets, and zod, which trawl depends on itself.
    external: ['@trawl/web', 'zod'],
    // Tells core's code it runs from this flat bundle (packages/core/src/util/package-files.ts).
    define: { TRAWL_FLAT_BUNDLE: 'true' },
    // CommonJS inside the bundle (commander; ajv, under the MCP SDK) calls require() for Node's own modules. Made on
    // first use: every chunk carries the banner, and a createRequire per chunk loaded cost a command ~4 ms.
    banner:
      "import { createRequire as __trawlCreateRequire } from 'node:module'; let __trawlRequire; const require = (id) => (__trawlRequire ??= __trawlCreateRequire(import.meta.url))(id);",
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
  if (target.outdir) {
    const outdir = path.join(dir, target.outdir);
    fs.rmSync(outdir, { recursive: true, force: true });
    const result = await build({
      entryPoints: target.entries.map((e) =>
        typeof e === 'string' ? path.join(dir, e) : { in: path.join(dir, e.in), out: e.out },
      ),
      outdir,
      entryNames: '[name]',
      chunkNames: 'chunk-[hash]',
      splitting: true,
      absWorkingDir: repo, // metafile paths relative to the repository, wherever npm runs this from
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      minify: true,
      legalComments: 'none', // the packages' own license files go to THIRD_PARTY_LICENSES.txt
      sourcemap: false,
      external: target.external,
      logLevel: 'warning',
      metafile: true,
      banner: { js: target.banner },
      define: target.define ?? {},
    });
    writeNotices(result.metafile, path.join(outdir, 'THIRD_PARTY_LICENSES.txt'));
    const outputs = Object.entries(result.metafile.outputs);
    const bytes = outputs.reduce((n, [, o]) => n + o.bytes, 0);
    console.log(
      `bundle: ${target.dir}/${target.outdir}: ${outputs.length} files, ${(bytes / 1024 / 1024).toFixed(2)} MiB`,
    );
    continue;
  }
  for (const [source, out] of target.entries) {
    const file = path.join(dir, out);
    const result = await build({
      entryPoints: [path.join(dir, source)],
      outfile: file,
      absWorkingDir: repo,
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

/** The license text of every package the bundle carries code of, in one file beside it (MIT and ISC ask for it). */
function writeNotices(metafile, file) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) packages.set(m[1], path.join(repo, input.slice(0, m.index + m[0].length)));
  }
  const parts = [];
  for (const [name, dir] of [...packages].sort(([a], [b]) => a.localeCompare(b))) {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const license = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
    const text = license
      ? fs.readFileSync(path.join(dir, license), 'utf8').trim()
      : `License: ${pkg.license}`;
    parts.push(`${name}@${pkg.version} (${pkg.license})\n\n${text}\n`);
  }
  fs.writeFileSync(file, `${parts.join(`\n${'-'.repeat(78)}\n\n`)}`);
}
