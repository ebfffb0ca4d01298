#!/usr/bin/env node
// `npm run bench [-- [NAME] ARGS...]`: builds the corpora that are missing, then runs the benchmarks.
// With NAME (one of BENCHMARKS) only that one runs; ARGS go to each benchmark unchanged
// (e.g. `npm run bench -- engine --corpus npm --runs 3 --write`).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// Corpus builders: each is idempotent and prints "ready" at once when its corpus is already built.
const CORPORA = {
  linux: ['bash', join(here, 'corpora/linux.sh')],
  npm: ['node', join(here, 'corpora/npm.mjs')],
};

// One line per benchmark script (a sibling of this file). Add new ones here.
const BENCHMARKS = {
  engine: 'engine.mjs',
  grep: 'grep.mjs',
  names: 'names.mjs',
  'search-tool': 'search-tool.mjs',
  serve: 'serve.mjs',
};

function run(argv) {
  const r = spawnSync(argv[0], argv.slice(1), { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

let args = process.argv.slice(2);
let names = Object.keys(BENCHMARKS);
if (args[0] in BENCHMARKS) {
  names = [args[0]];
  args = args.slice(1);
}
// Build only what --corpus asks for (default: all).
const i = args.indexOf('--corpus');
const corpus = i !== -1 ? args[i + 1] : (args.find((a) => a.startsWith('--corpus='))?.split('=')[1] ?? 'all');
for (const [name, argv] of Object.entries(CORPORA)) if (corpus === 'all' || corpus === name) run(argv);
for (const name of names) run(['node', join(here, BENCHMARKS[name]), ...args]);
