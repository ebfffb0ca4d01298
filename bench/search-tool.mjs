#!/usr/bin/env node
// The agent search tool, end to end, against the reference tool's native grep (issue 3 "Benchmark").
//
//   node bench/search-tool.mjs [--runs N] [--quick] [--corpus linux|npm|all] [--write]
//   node bench/search-tool.mjs --startup [--runs N] [--write]     (start-up rows only; see startup())
//
// Columns (all in this one Node process, interleaved round-robin, warm cache, median of N):
//   ref native    `grep()` of @oh-my-pi/pi-natives (linux-x64-modern addon) called with exactly the options the
//                 reference `search` tool passes: hidden, gitignore, context 1/3,
//                 maxColumns 512, maxCount 2000, content mode. Only the native call is timed; the reference's JS
//                 shaping and its per-page snapshot reads are not, which favours the reference.
//   trawl auto    `searchTool()` from packages/core/dist, engine 'auto' (the bundled ripgrep here), default options.
//   trawl js      the same with engine 'js'.
//   trawl CLI     `node packages/server/bin/trawl.js search …` as a child process (node start-up included).
// The addon is fetched with `npm pack` into $TRAWL_BENCH_CACHE/pi-natives (never a dependency of trawl).
// It also checks trawl's hashline tags against the addon's `hashlineFileHash` on random text.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CACHE, here, repo } from './paths.mjs';
import { STARTUP_PATTERN, startupTree } from './startup-tree.mjs';

const NATIVES = join(CACHE, 'pi-natives');
const RESULTS = join(here, 'RESULTS.md');
const CLI = join(repo, 'packages/server/bin/trawl.js');

const QUERIES = {
  linux: [
    { name: 'rare literal', pattern: 'PM_RESUME', path: '.' },
    { name: 'common literal', pattern: 'ERR_PTR', path: '.' },
    { name: '-i literal', pattern: 'pm_resume', path: '.', i: true },
    { name: 'regex', pattern: '\\w+_probe\\s*\\(', path: '.' },
    { name: 'no match', pattern: 'zq_no_such_symbol_qz', path: '.' },
    { name: 'glob', pattern: 'netif_rx\\(', path: 'drivers/net/**/*.c' },
    { name: 'directory', pattern: 'drm_err', path: 'drivers/gpu' },
    { name: 'single file', pattern: 'rq_lock', path: 'kernel/sched/core.c' },
  ],
  npm: [
    { name: 'rare literal', pattern: 'createRequire', path: '.' },
    { name: 'common literal', pattern: 'TODO', path: '.' },
    { name: 'regex', pattern: 'function\\s+\\w+Async\\(', path: '.' },
    { name: 'glob', pattern: 'interface \\w+Options', path: '*.d.ts' },
  ],
};

function parseArgs(argv) {
  const o = { runs: 5, quick: false, corpus: 'all', write: false, startup: false };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--runs') o.runs = Number(argv[++k]);
    else if (a === '--quick') o.quick = true;
    else if (a === '--corpus') o.corpus = argv[++k];
    else if (a.startsWith('--corpus=')) o.corpus = a.slice(9);
    else if (a === '--write') o.write = true;
    else if (a === '--startup') o.startup = true;
    else if (a === '--help' || a === '-h') {
      console.log(
        'node bench/search-tool.mjs [--runs N] [--quick] [--corpus linux|npm|all] [--write]\n' +
          'node bench/search-tool.mjs --startup [--runs N] [--write]',
      );
      process.exit(0);
    } else if (a !== '--timeout' && !/^\d+$/.test(a)) console.error(`search-tool: ignoring argument ${a}`);
  }
  if (o.quick) o.runs = 1;
  return o;
}

/** The reference addon, fetched once with `npm pack` into the cache. */
function loadNatives() {
  mkdirSync(NATIVES, { recursive: true });
  const find = () =>
    readdirSync(NATIVES).find((d) => d.startsWith('oh-my-pi-pi-natives-linux-x64-') && !d.endsWith('.tgz'));
  if (!find()) {
    console.error(`search-tool: fetching @oh-my-pi/pi-natives into ${NATIVES}`);
    execFileSync('npm', ['pack', '@oh-my-pi/pi-natives', '@oh-my-pi/pi-natives-linux-x64'], {
      cwd: NATIVES,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (const tgz of readdirSync(NATIVES).filter((f) => f.endsWith('.tgz'))) {
      const dir = join(NATIVES, tgz.slice(0, -4));
      mkdirSync(dir, { recursive: true });
      execFileSync('tar', ['xzf', join(NATIVES, tgz), '-C', dir]);
    }
  }
  const dir = find();
  const version = JSON.parse(readFileSync(join(NATIVES, dir, 'package/package.json'), 'utf8')).version;
  const addon = createRequire(import.meta.url)(
    join(NATIVES, dir, 'package/pi_natives.linux-x64-modern.node'),
  );
  return { addon, version };
}

/** How the reference splits a path into base + glob (spec §1.3, parseSearchPath). */
function referenceTarget(cwd, p) {
  const segments = p.split('/');
  const k = segments.findIndex((s) => /[*?[{]/.test(s));
  if (k === -1) return { path: join(cwd, p) };
  const base = segments.slice(0, k).join('/') || '.';
  return { path: join(cwd, base), glob: segments.slice(k).join('/') };
}

async function runRef(natives, cwd, q) {
  const r = await refGrep(natives, cwd, q, {});
  const files = new Set(r.matches.map((m) => m.path)).size;
  return `${r.matches.length}${r.matches.length >= 2000 ? ' (capped)' : ''} matches in ${files} files`;
}

/** The reference asked only for the exact set of matching files (no cap): what an exact total costs it. */
async function runRefFiles(natives, cwd, q) {
  const r = await refGrep(natives, cwd, q, { mode: 'filesWithMatches', maxCount: undefined });
  return `${new Set(r.matches.map((m) => m.path)).size} files`;
}

function refGrep(natives, cwd, q, over) {
  const t = referenceTarget(cwd, q.path);
  return natives.grep({
    pattern: q.pattern,
    path: t.path,
    ...(t.glob ? { glob: t.glob } : {}),
    ignoreCase: q.i ?? false,
    multiline: false,
    hidden: true,
    gitignore: true,
    cache: false,
    contextBefore: 1,
    contextAfter: 3,
    maxColumns: 512,
    maxCount: 2000,
    mode: 'content',
    ...over,
  });
}

async function runTrawl(searchTool, cwd, q, engine) {
  const r = await searchTool({ pattern: q.pattern, paths: q.path, i: q.i ?? false }, { cwd, engine });
  const d = r.details;
  return `${d.totalFilesExact ? '' : 'at least '}${d.totalFiles} files${d.outcome === 'timeout' ? ' (deadline)' : ''}, page ${d.fileCount}`;
}

function runCli(cwd, q) {
  const args = [CLI, 'search', ...(q.i ? ['-i'] : []), '--format', 'json', '--', q.pattern, q.path];
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`trawl search failed: ${r.stderr}`);
  const d = JSON.parse(r.stdout).details;
  return `${d.totalFiles} files`;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms) =>
  Number.isNaN(ms) ? 'n/a' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;

async function benchCorpus(name, opts, natives, searchTool) {
  const cwd = join(CACHE, name);
  if (!existsSync(join(CACHE, `${name}.done`))) {
    console.error(`search-tool: corpus ${name} is not built (npm run bench builds it); skipped`);
    return null;
  }
  const queries = opts.quick ? QUERIES[name].slice(0, 3) : QUERIES[name];
  const systems = [
    { key: 'ref', label: 'ref native', run: (q) => runRef(natives.addon, cwd, q) },
    { key: 'refFiles', label: 'ref -l uncapped', run: (q) => runRefFiles(natives.addon, cwd, q) },
    { key: 'auto', label: 'trawl auto', run: (q) => runTrawl(searchTool, cwd, q, 'auto') },
    { key: 'js', label: 'trawl js', run: (q) => runTrawl(searchTool, cwd, q, 'js') },
    { key: 'cli', label: 'trawl CLI', run: async (q) => runCli(cwd, q) },
  ];
  const rows = [];
  for (const q of queries) {
    const times = Object.fromEntries(systems.map((s) => [s.key, []]));
    const facts = {};
    if (!opts.quick) for (const s of systems) await s.run(q).catch(() => {}); // warm-up, untimed
    for (let k = 0; k < opts.runs; k++) {
      for (const s of systems) {
        const t = performance.now();
        try {
          facts[s.key] = await s.run(q);
          times[s.key].push(performance.now() - t);
        } catch (err) {
          facts[s.key] = `failed: ${String(err.message ?? err).split('\n')[0]}`;
        }
      }
    }
    const med = Object.fromEntries(
      systems.map((s) => [s.key, times[s.key].length ? median(times[s.key]) : Number.NaN]),
    );
    rows.push({ q, med, facts });
    console.error(`${name} ${q.name}: ${systems.map((s) => `${s.label} ${fmt(med[s.key])}`).join(', ')}`);
  }
  return { name, cwd, rows, systems };
}

function tagParity(natives, hashlineTag) {
  const alphabet = ['a', 'b', ' ', '\t', '\r', '\n', '\r\n', 'é', '🙂', 'x  \n', '\u0000'];
  let seed = 42;
  const rnd = (k) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % k;
  };
  let mismatches = 0;
  const total = 20_000;
  for (let i = 0; i < total; i++) {
    let s = '';
    const len = rnd(80);
    for (let k = 0; k < len; k++) s += alphabet[rnd(alphabet.length)];
    if (hashlineTag(s) !== String(natives.addon.hashlineFileHash(s)).toUpperCase()) mismatches++;
  }
  return { mismatches, total };
}

function section(results, parity, natives, opts) {
  const cpu = cpus()[0]?.model.split(' ').slice(0, 2).join(' ') ?? '?';
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const lines = [
    '<!-- search-tool:begin -->',
    '## Agent search tool vs the reference tool’s native grep (`search-tool.mjs`)',
    '',
    'Written by `node bench/search-tool.mjs --write`. In one Node process, warm cache, ' +
      `${opts.runs} timed runs per column after one untimed warm-up, round-robin; median wall time, ratio to "ref native".`,
    '',
    `- **ref native**: \`grep()\` of @oh-my-pi/pi-natives ${natives.version} (linux-x64-modern), called with the options the reference`,
    '  tool passes (hidden, gitignore, context 1/3, maxColumns 512, maxCount 2000, content). Only the native call is timed.',
    '  Its 2000-match cap lets it stop early on common patterns; trawl counts every matching file (exact totals).',
    '- **ref -l uncapped**: the same native call in `filesWithMatches` mode without the cap: what the exact set of matching',
    '  files (the total trawl reports) costs the reference. An anchor for the work trawl does, not a mode the tool uses.',
    '- **trawl auto / js**: `searchTool()` of packages/core with engine `auto` (bundled ripgrep here; js for a named file) or `js`, default options.',
    '  trawl remembers the hashline tags of files it showed (checked against inode, size, mtime, ctime), so timed runs after',
    '  the warm-up do not re-hash the page; the reference re-reads its page for snapshots, which is not timed at all.',
    '- **trawl CLI**: `trawl search --format json PATTERN PATH` as a child process (node start-up included).',
    '',
  ];
  for (const r of results) {
    lines.push(
      `### ${r.name}`,
      '',
      '| query | pattern | path | ref native | ref -l uncapped | trawl auto | trawl js | trawl CLI |',
      '|---|---|---|---:|---:|---:|---:|---:|',
    );
    for (const row of r.rows) {
      const base = row.med.ref;
      const cell = (k) =>
        `${fmt(row.med[k])}${k === 'ref' || Number.isNaN(row.med[k]) ? '' : ` (${(row.med[k] / base).toFixed(2)}×)`}`;
      lines.push(
        `| ${row.q.name} | \`${row.q.i ? '-i ' : ''}${row.q.pattern.replace(/\|/g, '\\|')}\` | \`${row.q.path}\` | ${cell('ref')} | ${cell('refFiles')} | ${cell('auto')} | ${cell('js')} | ${cell('cli')} |`,
      );
    }
    lines.push(
      '',
      'What each found (last run):',
      '',
      '| query | ref native | ref -l uncapped | trawl auto | trawl js |',
      '|---|---|---|---|---|',
    );
    for (const row of r.rows)
      lines.push(
        `| ${row.q.name} | ${row.facts.ref} | ${row.facts.refFiles} | ${row.facts.auto} | ${row.facts.js} |`,
      );
    lines.push('');
  }
  lines.push(
    'Reading (target: trawl faster than the reference — **not met**; where it stands and why):',
    '',
    '- Common patterns (`ERR_PTR`, `\\w+_probe`, `TODO`): the reference stops once it holds 2000 matches (its "2000 (capped)"',
    '  rows report 574 of 3416 files); trawl reads every file to give the exact total and correct pages (DESIGN decision 2).',
    '  The reference itself needs 2.3–2.5× its capped time to learn the same total on Linux ("ref -l uncapped"), so no',
    "  engine that reads the files gives exact totals at the capped call's speed: that would take an index of the tree.",
    '- Full scans on both sides (rare literal, `-i`, no match): trawl auto is 0.98–1.11× the native call on Linux. On npm',
    "  it is usually ~1.5× (a separate 6-run check of `createRequire`: 0.57–0.78 s); this run's median of 3 caught an",
    "  outlier. trawl's engine here is ripgrep as a child process, which alone takes about what the reference's",
    '  in-process scan takes on this 2-core machine; the tool adds little on top. Against "ref -l uncapped" (the',
    '  exact-total work, every query) trawl is 1.3–1.8× on Linux and ~2× on npm.',
    '  trawl also searches files of 4–64 MiB that the reference skips silently (npm `createRequire`: 26 files vs 23).',
    '- Directory and glob queries: 1.4–1.8× (rg start-up and reading its output weigh more in a small search).',
    '- Single file: a warm search worker (kept between searches in one process) answers in ~10 ms, the whole tool',
    "  included; the reference's 2 ms is the native call alone, without its JS shaping and snapshot reads.",
    '- trawl CLI: each call pays Node start-up and module loading (~0.5 s here); the library and `trawl mcp` pay it once.',
    '',
    `Hashline tags: trawl's \`hashlineTag\` equals the addon's \`hashlineFileHash\` on ${parity.total - parity.mismatches} of ${parity.total} random texts (CR, CRLF, tabs, trailing blanks, non-ASCII, NUL).`,
    '',
    `Machine: ${new Date().toISOString()}, nproc ${cpus().length}, ${cpu}, node ${process.version}, load average at the end ${load} (other jobs share this machine).`,
    '<!-- search-tool:end -->',
  );
  return lines.join('\n');
}

// ---- Start-up and small trees (issue 11 item 12) ----
//
// Side by side in one run, round-robin, each timed as the caller waits for it (child processes: spawn to exit):
//   node -e 0          Node's own start-up: the floor under any `trawl` command.
//   trawl --help       the CLI's start-up with nothing to run (target ≤ 100 ms).
//   rg (bundled)       `rg PATTERN .` of @vscode/ripgrep over the 2 000-file tree, one-shot; /usr/bin/rg too if present.
//   trawl search       `trawl search PATTERN .` one-shot over the same tree (target ≤ 3× rg).
//   trawl mcp (warm)   a `tools/call search` round trip to a long-lived `trawl mcp` child after two untimed
//                      calls (target ≤ 1× rg's one-shot).
//   library (warm)     `searchTool()` in this process, after a warm-up.
// The tree: bench/startup-tree.mjs (2 000 generated files, the pattern in 21).

function timedSpawn(cmd, args, cwd) {
  const t = performance.now();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t;
  if (r.status !== 0 && !(cmd.endsWith('rg') && r.status === 1))
    throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return { ms, out: r.stdout };
}

/** A long-lived `trawl mcp` child spoken to in raw JSON-RPC lines (no client library in the timing). */
async function mcpChild(root) {
  const child = spawn(process.execPath, [CLI, 'mcp', '--root', root], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (!line.trim()) continue;
      const msg = JSON.parse(line);
      waiting.get(msg.id)?.(msg);
      waiting.delete(msg.id);
    }
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
    });
  await request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bench', version: '0' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    async search(pattern) {
      const t = performance.now();
      const r = await request('tools/call', { name: 'search', arguments: { pattern, paths: '.' } });
      const ms = performance.now() - t;
      if (r.error || r.result?.isError)
        throw new Error(`mcp search failed: ${JSON.stringify(r).slice(0, 300)}`);
      return { ms, files: r.result.structuredContent.totalFiles };
    },
    close() {
      child.stdin.end();
    },
  };
}

async function startup(opts) {
  const STARTUP_TREE = startupTree();
  const rgBundled = createRequire(join(repo, 'packages/core/package.json'))('@vscode/ripgrep').rgPath;
  const systemRg = existsSync('/usr/bin/rg') ? '/usr/bin/rg' : null;
  const { searchTool } = await import(pathToFileURL(join(repo, 'packages/core/dist/tool/index.js')).href);
  const mcp = await mcpChild(STARTUP_TREE);
  const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const rows = [
    {
      key: 'node',
      label: 'node -e 0',
      run: () => timedSpawn(process.execPath, ['-e', '0'], STARTUP_TREE).ms,
    },
    {
      key: 'help',
      label: 'trawl --help',
      run: () => timedSpawn(process.execPath, [CLI, '--help'], STARTUP_TREE).ms,
    },
    {
      key: 'rg',
      label: 'rg 15 (bundled), one-shot',
      run: () => timedSpawn(rgBundled, [STARTUP_PATTERN, '.'], STARTUP_TREE).ms,
    },
    ...(systemRg
      ? [
          {
            key: 'rg13',
            label: 'rg 13 (/usr/bin/rg), one-shot',
            run: () => timedSpawn(systemRg, [STARTUP_PATTERN, '.'], STARTUP_TREE).ms,
          },
        ]
      : []),
    {
      key: 'cli',
      label: 'trawl search, one-shot',
      run: () => timedSpawn(process.execPath, [CLI, 'search', STARTUP_PATTERN, '.'], STARTUP_TREE).ms,
    },
    { key: 'mcp', label: 'trawl mcp search (warm)', run: async () => (await mcp.search(STARTUP_PATTERN)).ms },
    {
      key: 'lib',
      label: 'searchTool() in process (warm)',
      run: async () => {
        const t = performance.now();
        await searchTool({ pattern: STARTUP_PATTERN, paths: '.' }, { cwd: STARTUP_TREE });
        return performance.now() - t;
      },
    },
  ];
  for (let k = 0; k < 2; k++) for (const r of rows) await r.run(); // warm-up: file cache, workers, the MCP child
  const times = Object.fromEntries(rows.map((r) => [r.key, []]));
  for (let k = 0; k < opts.runs; k++) for (const r of rows) times[r.key].push(await r.run());
  mcp.close();
  const loadAfter = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const med = Object.fromEntries(rows.map((r) => [r.key, median(times[r.key])]));
  const min = Object.fromEntries(rows.map((r) => [r.key, Math.min(...times[r.key])]));
  const ratio = (a, b) => `${(med[a] / med[b]).toFixed(2)}×`;
  const lines = [
    '<!-- search-tool-startup:begin -->',
    '## Start-up and a small tree (`search-tool.mjs --startup`)',
    '',
    `Written by \`node bench/search-tool.mjs --startup --runs ${opts.runs} --write\`. One run, round-robin over the rows, two untimed`,
    `warm-ups, ${opts.runs} timed; wall time as the caller waits (child processes: spawn to exit). Tree: 2 000 generated files`,
    `(100 × 20 × 80 lines, 17 MB), pattern \`${STARTUP_PATTERN}\` in 21 files. **Load average ${loadBefore} before, ${loadAfter}`,
    `after, on ${cpus().length} cores shared with other sessions**: absolute times are inflated and noisy; read the ratios.`,
    '',
    '| what | median | min | ratio |',
    '|---|---:|---:|---|',
  ];
  const note = {
    help: `${ratio('help', 'node')} of node -e 0 (target ≤ 100 ms absolute)`,
    cli: `${ratio('cli', 'rg')} of rg one-shot (target ≤ 3×)`,
    mcp: `${ratio('mcp', 'rg')} of rg one-shot (target ≤ 1×)`,
    lib: `${ratio('lib', 'rg')} of rg one-shot`,
    rg13: `${ratio('rg13', 'rg')} of rg 15`,
  };
  for (const r of rows)
    lines.push(`| ${r.label} | ${fmt(med[r.key])} | ${fmt(min[r.key])} | ${note[r.key] ?? ''} |`);
  lines.push(
    '',
    'Reading (issue 11 item 12):',
    '',
    "- `trawl --help` loads commander and the CLI's own modules only (a test reads the module trace); what is left is",
    "  Node's start-up. The 100 ms target cannot be judged on this machine while `node -e 0` alone takes longer.",
    '- `trawl search` one-shot: **target (≤ 3× rg) not met**. Node start-up alone is ~2× rg here; the rest is loading',
    "  the tool (~85 modules), the counting rg walk, and one more rg for the page's lines. Before this work a page",
    "  cost one rg per file plus a worker nobody used: ~3 s against rg's 0.13–0.3 s in a manual check at load 11.5.",
    "- `trawl mcp` warm: under rg's one-shot (its content index picks the candidate files, the worker is warm).",
    "  The library call without an index walks the tree with rg each time: ~1.5–2× rg's one-shot.",
    '',
    `Machine: ${new Date().toISOString()}, nproc ${cpus().length}, node ${process.version}.`,
    '<!-- search-tool-startup:end -->',
  );
  return lines.join('\n');
}

const opts = parseArgs(process.argv.slice(2));
if (opts.startup) {
  const text = await startup(opts);
  console.log(text);
  if (opts.write) {
    let doc = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
    const re = /<!-- search-tool-startup:begin -->[\s\S]*?<!-- search-tool-startup:end -->/;
    doc = re.test(doc) ? doc.replace(re, text) : `${doc.trimEnd()}\n\n${text}\n`;
    writeFileSync(RESULTS, doc);
    console.error(`wrote the search-tool start-up section of ${RESULTS}`);
  }
  process.exit(0);
}
const core = await import(pathToFileURL(join(repo, 'packages/core/dist/tool/index.js')).href);
const natives = loadNatives();
const names =
  opts.corpus === 'all' ? Object.keys(QUERIES) : opts.corpus.split(',').filter((c) => c in QUERIES);
const results = [];
for (const name of names) {
  const r = await benchCorpus(name, opts, natives, core.searchTool);
  if (r) results.push(r);
}
const parity = tagParity(natives, core.hashlineTag);
const text = section(results, parity, natives, opts);
console.log(text);
if (opts.write) {
  let doc = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
  const re = /<!-- search-tool:begin -->[\s\S]*?<!-- search-tool:end -->/;
  doc = re.test(doc) ? doc.replace(re, text) : `${doc.trimEnd()}\n\n${text}\n`;
  writeFileSync(RESULTS, doc);
  console.error(`wrote the search-tool section of ${RESULTS}`);
}
