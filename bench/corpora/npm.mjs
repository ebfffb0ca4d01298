#!/usr/bin/env node
// Builds $CACHE/npm: a JS/TS corpus from a FIXED list of npm package tarballs (`npm pack name@version`),
// each extracted into its own directory ($CACHE/npm/<name>), plus a few deterministic .gitignore files so
// that ignore-rule cost is exercised, then makes it a git work tree (see git-init.sh).
// Idempotent: $CACHE/npm.done marks a finished build; $CACHE/npm.versions lists name@version + integrity.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CACHE = process.env.TRAWL_BENCH_CACHE || join(homedir(), '.cache/trawl-bench');
const DEST = join(CACHE, 'npm');
const here = dirname(fileURLToPath(import.meta.url));

// Popular packages with a lot of JS/TS source (plus .d.ts, .map and bundles, as real trees have).
// Exact versions: changing one changes the corpus, so bump them together and re-measure.
export const PACKAGES = [
  'typescript@5.6.3',
  '@babel/parser@7.26.2',
  '@babel/core@7.26.0',
  '@babel/traverse@7.25.9',
  '@babel/types@7.26.0',
  '@babel/generator@7.26.2',
  '@babel/runtime@7.26.0',
  'react@18.3.1',
  'react-dom@18.3.1',
  'lodash@4.17.21',
  'lodash-es@4.17.21',
  'rxjs@7.8.1',
  'three@0.169.0',
  'eslint@9.14.0',
  'webpack@5.96.1',
  'prettier@3.3.3',
  'next@14.2.15',
  'monaco-editor@0.52.0',
  'vue@3.5.12',
  '@vue/compiler-core@3.5.12',
  '@vue/runtime-core@3.5.12',
  'svelte@4.2.19',
  '@angular/core@18.2.8',
  '@angular/compiler@18.2.8',
  'date-fns@4.1.0',
  'core-js@3.39.0',
  'ajv@8.17.1',
  'rollup@4.24.0',
  'vite@5.4.10',
  'jquery@3.7.1',
  'moment@2.30.1',
  'chart.js@4.4.6',
  'zod@3.23.8',
  'ramda@0.30.1',
  'graphql@16.9.0',
  'acorn@8.14.0',
  'highlight.js@11.10.0',
  'echarts@5.5.1',
  'bootstrap@5.3.3',
  'tailwindcss@3.4.14',
  'postcss@8.4.47',
  'preact@10.24.3',
  '@reduxjs/toolkit@2.3.0',
  'mobx@6.13.5',
  'mongoose@8.8.0',
  'typeorm@0.3.20',
  '@nestjs/core@10.4.6',
  '@nestjs/common@10.4.6',
  'express@4.21.1',
  '@mui/material@6.1.6',
  'antd@5.21.6',
  'pdfjs-dist@4.7.76',
  'playwright-core@1.48.2',
  '@types/node@22.9.0',
  'terser@5.36.0',
  'handlebars@4.7.8',
  'marked@14.1.3',
  'undici@6.20.1',
];

// Deterministic ignore files, written after extraction (paths relative to $CACHE/npm). They mix the
// rule kinds a real monorepo has: extension globs, anchored paths, directory-only rules, `**`, negation,
// and nested .gitignore files that only apply below their own directory.
export const IGNORES = {
  '.gitignore': ['*.map', '*.tsbuildinfo', '/next/dist/compiled/', '**/__snapshots__/'],
  'monaco-editor/.gitignore': ['/min/', '/min-maps/', '/dev/'],
  'rxjs/.gitignore': ['dist/bundles/', 'dist/esm5/'],
  'echarts/.gitignore': ['dist/', '!dist/echarts.esm.js'],
  'date-fns/.gitignore': ['*.d.cts', 'locale/*/cdn.*'],
  'antd/.gitignore': ['dist/', 'locale/*.d.ts'],
  'typescript/lib/.gitignore': ['*/', '!tsserverlibrary.d.ts'],
  'pdfjs-dist/.gitignore': ['legacy/', 'types/**/*.d.ts'],
};

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
}

if (existsSync(join(CACHE, 'npm.done'))) {
  console.log(`npm corpus: ready (${DEST}, ${PACKAGES.length} packages)`);
  process.exit(0);
}
mkdirSync(CACHE, { recursive: true });
const tmp = mkdtempSync(join(CACHE, '.npm-tmp.'));
try {
  // One npm process for all tarballs: it fetches in parallel and keeps them in npm's own cache.
  // cwd = tmp so that no project .npmrc or workspace setting applies.
  console.log(`npm corpus: npm pack ${PACKAGES.length} packages`);
  mkdirSync(join(tmp, 'tgz'));
  const packed = JSON.parse(
    sh('npm', ['pack', '--json', '--pack-destination', 'tgz', ...PACKAGES], { cwd: tmp }),
  );
  const tree = join(tmp, 'tree');
  const versions = [];
  for (const p of packed) {
    const dir = join(tree, p.name);
    mkdirSync(dir, { recursive: true });
    // Tarballs hold one top directory (usually package/): strip it. Some old tarballs have
    // directories without the x bit, hence the chmod.
    sh('tar', ['-xzf', join(tmp, 'tgz', p.filename), '-C', dir, '--strip-components=1', '--no-same-owner']);
    versions.push(`${p.name}@${p.version} ${p.integrity}`);
    process.stdout.write(`npm corpus: extracted ${p.name}@${p.version} (${p.entryCount} files)\n`);
  }
  sh('chmod', ['-R', 'u+rwX', tree]);
  for (const [path, lines] of Object.entries(IGNORES)) {
    writeFileSync(join(tree, path), `# trawl bench: deterministic ignore rules\n${lines.join('\n')}\n`);
  }
  rmSync(DEST, { recursive: true, force: true });
  renameSync(tree, DEST);
  writeFileSync(join(CACHE, 'npm.versions'), `${versions.sort().join('\n')}\n`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const files = sh('find', [DEST, '-type', 'f']).split('\n').length - 1;
const bytes = sh('du', ['-sb', DEST]).split('\t')[0];
console.log(`npm corpus: ${files} files, ${bytes} bytes`);
sh(join(here, 'git-init.sh'), [DEST], { stdio: 'inherit' });
writeFileSync(join(CACHE, 'npm.done'), '');
console.log(
  `npm corpus: ready (${DEST}, ${readFileSync(join(CACHE, 'npm.versions'), 'utf8').split('\n').length - 1} packages)`,
);
