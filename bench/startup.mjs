#!/usr/bin/env node
// Start-up of the CLI as a user installs it (issue 26 item 4), side by side with Node's own start-up in one run.
//
//   node bench/startup.mjs [--runs N] [--app DIR] [--write]
//
// The installed CLI is the package's bin/ and bundle/ (scripts/bundle.mjs) in node_modules/trawl beside
// @trawl/core, @trawl/web and zod, as `npm install trawl` lays them out. By default that layout is made in
// $TRAWL_BENCH_CACHE/startup-install from this checkout's built files (`npm run build` first); `--app DIR` times a
// real install instead (the directory `npm run smoke -- --keep` keeps, scratch/app). The checkout's CLI (dist/, one
// module a file) is timed in the same run for comparison.
//
// Rows, round-robin, two untimed warm-ups, then N timed (default 15); wall time from spawn to exit:
//   node -e 0                   the floor under any command
//   trawl --help                installed, and the checkout's
//   rg PATTERN . (bundled)      ripgrep 15 one-shot over the tree of bench/startup-tree.mjs (2 000 files)
//   trawl search PATTERN .      installed, and the checkout's
// Targets: --help ≤ node + 30 ms; search ≤ node + rg + 60 ms (medians of this run).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { CACHE, here, RG15, repo } from './paths.mjs';
import { STARTUP_PATTERN, startupTree } from './startup-tree.mjs';

const RESULTS = join(here, 'RESULTS.md');
const opts = { runs: 15, app: null, write: false };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--runs') opts.runs = Number(process.argv[++i]);
  else if (a === '--app') opts.app = resolve(process.argv[++i]);
  else if (a === '--write') opts.write = true;
  else {
    console.error('usage: node bench/startup.mjs [--runs N] [--app DIR] [--write]');
    process.exit(2);
  }
}

/** node_modules/trawl and its three dependencies as an install lays them out, from the checkout's build. */
function layoutFromCheckout() {
  const app = join(CACHE, 'startup-install');
  const server = join(repo, 'packages/server');
  if (!existsSync(join(server, 'bundle/main.js')))
    throw new Error('no packages/server/bundle: run npm run build');
  rmSync(app, { recursive: true, force: true });
  const trawl = join(app, 'node_modules/trawl');
  mkdirSync(join(app, 'node_modules/@trawl'), { recursive: true });
  for (const part of ['bin', 'bundle', 'package.json'])
    cpSync(join(server, part), join(trawl, part), { recursive: true });
  symlinkSync(join(repo, 'packages/core'), join(app, 'node_modules/@trawl/core'));
  symlinkSync(join(repo, 'packages/web'), join(app, 'node_modules/@trawl/web'));
  symlinkSync(join(repo, 'node_modules/zod'), join(app, 'node_modules/zod'));
  return app;
}

function timed(cmd, args, cwd) {
  const t = performance.now();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status} ${r.stderr}`);
  return { ms, out: r.stdout };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (ms) => `${Math.round(ms)} ms`;
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const tree = startupTree();
const app = opts.app ?? layoutFromCheckout();
const installed = join(app, 'node_modules/trawl/bin/trawl.js');
const checkout = join(repo, 'packages/server/bin/trawl.js');
const rows = [
  { key: 'node', label: '`node -e 0`', cmd: [process.execPath, '-e', '0'] },
  { key: 'help', label: '`trawl --help`, installed', cmd: [process.execPath, installed, '--help'] },
  {
    key: 'helpCheckout',
    label: '`trawl --help`, checkout (dist/)',
    cmd: [process.execPath, checkout, '--help'],
  },
  { key: 'rg', label: `\`rg ${STARTUP_PATTERN} .\` (rg 15, bundled)`, cmd: [RG15, STARTUP_PATTERN, '.'] },
  {
    key: 'search',
    label: `\`trawl search ${STARTUP_PATTERN} .\`, installed`,
    cmd: [process.execPath, installed, 'search', STARTUP_PATTERN, '.'],
  },
  {
    key: 'searchCheckout',
    label: `\`trawl search ${STARTUP_PATTERN} .\`, checkout (dist/)`,
    cmd: [process.execPath, checkout, 'search', STARTUP_PATTERN, '.'],
  },
];

// Both CLIs must answer alike before either is timed.
const want = timed(process.execPath, [checkout, 'search', STARTUP_PATTERN, '.'], tree).out;
const got = timed(process.execPath, [installed, 'search', STARTUP_PATTERN, '.'], tree).out;
if (got !== want || !/createRequire/.test(got))
  throw new Error('the installed and checkout CLIs answer differently');

const loadBefore = loadavg();
for (let k = 0; k < 2; k++) for (const r of rows) timed(r.cmd[0], r.cmd.slice(1), tree);
const times = Object.fromEntries(rows.map((r) => [r.key, []]));
for (let k = 0; k < opts.runs; k++)
  for (const r of rows) times[r.key].push(timed(r.cmd[0], r.cmd.slice(1), tree).ms);
const loadAfter = loadavg();
const med = Object.fromEntries(rows.map((r) => [r.key, median(times[r.key])]));
const min = Object.fromEntries(rows.map((r) => [r.key, Math.min(...times[r.key])]));

// Excess over the floor and the ratio to it, from the medians and from the minima (on a loaded machine the minima
// are the steadier).
const over = (stat, key, base) => stat[key] - base.reduce((n, b) => n + stat[b], 0);
const excess = (key, base, target) => {
  const m = over(med, key, base);
  const floor = base.length === 1 ? 'node' : 'node + rg';
  const verdict =
    target === undefined ? '' : ` (target ≤ ${floor} + ${target} ms: ${m <= target ? 'met' : 'not met'})`;
  const ratio = (stat) => (stat[key] / base.reduce((n, b) => n + stat[b], 0)).toFixed(2);
  return `${floor} + ${fmt(m)} (${ratio(med)}× ${floor}); by minima ${floor} + ${fmt(over(min, key, base))} (${ratio(min)}×)${verdict}`;
};
const note = {
  help: excess('help', ['node'], 30),
  helpCheckout: excess('helpCheckout', ['node']),
  search: excess('search', ['node', 'rg'], 60),
  searchCheckout: excess('searchCheckout', ['node', 'rg']),
};
const lines = [
  '<!-- startup:begin -->',
  '## Start-up of the installed CLI (`startup.mjs`)',
  '',
  `Written by \`node bench/startup.mjs --runs ${opts.runs} --write\`${opts.app ? ' (`--app`: a real install)' : " (the install layout made from the checkout's build)"}.`,
  `One run, round-robin over the rows, two untimed warm-ups, ${opts.runs} timed; wall time from spawn to exit.`,
  'Tree: bench/startup-tree.mjs (2 000 generated files, the pattern in 21). Excess = median minus the medians of',
  `\`node -e 0\` (and rg) in the same run. **Load average ${loadBefore} before, ${loadAfter} after, on ${cpus().length} cores`,
  'shared with other sessions**: absolute times are inflated and noisy.',
  '',
  '| what | median | min | excess |',
  '|---|---:|---:|---|',
  ...rows.map((r) => `| ${r.label} | ${fmt(med[r.key])} | ${fmt(min[r.key])} | ${note[r.key] ?? ''} |`),
  '',
  `Machine: ${new Date().toISOString()}, nproc ${cpus().length}, node ${process.version}${typeof (await import('node:module')).enableCompileCache === 'function' ? ' (compile cache on)' : ' (no compile cache in this Node)'}.`,
  '<!-- startup:end -->',
];
const section = lines.join('\n');
console.log(section);
if (opts.write) {
  const text = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
  const re = /<!-- startup:begin -->[\s\S]*?<!-- startup:end -->/;
  writeFileSync(RESULTS, re.test(text) ? text.replace(re, section) : `${text.trimEnd()}\n\n${section}\n`);
}
