#!/usr/bin/env node
// The live content index (issue 14): build, start-up, repeated agent searches through `trawl mcp`, freshness.
//
//   node bench/index.mjs [--runs N] [--corpus linux|npm|all] [--write] [--quick] [--freshness-only] [--queries-only]
//
// Per corpus, in one run:
//   build      `trawl index DIR --data-dir D` from scratch, as a child: wall time, peak RSS (/usr/bin/time -v when
//              present), files, text bytes, index bytes (share of the text).
//   start-up   `trawl mcp --root DIR --data-dir D`: spawn → "content index ready" with the persisted index.
//   queries    20 agent-style searches (rare and common identifiers, alternations, -i, regexes with a literal,
//              glob-scoped) through the warm MCP server over stdio (MCP client round trip included), median of N,
//              side by side with `rg` one-shot (bundled rg 15, a child process, same pattern and scope), median of
//              N. Every indexed answer's text is compared with the same call to a second server run with
//              `--no-index` (a scan): a ⚠ marks a difference.
//   freshness  an external edit (a fresh token appended to a file) then at once a search for it: the answer
//              must contain it; time from write to answer, p50/p95 of 20. A "checkout" that appends a token to
//              1 000 files, then one search: all 1 000 must be found; time from the last write to the answer.
//   memory     the serving process's VmRSS after the queries.
//   --freshness-only: build (or reuse), start-up and freshness only; printed, never written.
//   --queries-only: build (or reuse), start-up and the queries, no freshness step (it edits corpus files: not
//              while another run uses the corpus); printed, never written.
//   --only KIND[,KIND]: only the queries of these kinds (e.g. `common` for the broad ones that scan);
//   --query TEXT: only the queries whose pattern contains TEXT. Either implies --queries-only.
//   explain    per query, what the index decided (files it would read of the files walked, or why it scans),
//              from the library in this process (`openIndex` on the same data directory, `watch: false`).
//   CPU        per query, the mean CPU of one call in the indexed server (its threads and the rg children it
//              reaped) beside rg one-shot's: printed on the query's line; under load it moves far less than wall.
// Every figure carries the 1-minute load average at the moment it was taken.
// The machine is shared and loaded this session: absolute times move; read the ratios, and the load column.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CACHE, here, repo } from './paths.mjs';

const RESULTS = join(here, 'RESULTS.md');
const CLI = join(repo, 'packages/server/bin/trawl.js');
const require = createRequire(join(repo, 'packages/server/package.json'));
const { Client } = await import(
  pathToFileURL(require.resolve('@modelcontextprotocol/sdk/client/index.js')).href
);
const { StdioClientTransport } = await import(
  pathToFileURL(require.resolve('@modelcontextprotocol/sdk/client/stdio.js')).href
);
const RG = (() => {
  try {
    return createRequire(join(repo, 'packages/core/package.json'))('@vscode/ripgrep').rgPath;
  } catch {
    return 'rg';
  }
})();

const QUERIES = {
  linux: [
    { kind: 'rare', pattern: 'PM_RESUME', paths: ['.'] },
    { kind: 'rare', pattern: 'sched_clock_register', paths: ['.'] },
    { kind: 'rare', pattern: 'copy_from_user_nofault', paths: ['.'] },
    { kind: 'rare', pattern: 'zq_no_such_symbol_qz', paths: ['.'] },
    { kind: 'rare', pattern: 'kvmalloc_array', paths: ['.'] },
    { kind: 'rare', pattern: 'DEFINE_STATIC_KEY_FALSE', paths: ['.'] },
    { kind: 'alternation', pattern: 'ERR_SYS|PME_TURN_OFF|LINK_REQ_RST|CFG_BME_EVT', paths: ['.'] },
    { kind: 'alternation', pattern: 'rcu_read_lock_bh|rcu_read_unlock_bh', paths: ['.'] },
    { kind: '-i', pattern: 'pm_resume', paths: ['.'], i: true },
    { kind: '-i', pattern: 'Sched_Clock_Stable', paths: ['.'], i: true },
    { kind: 'regex', pattern: 'netif_rx\\w*\\(skb', paths: ['.'] },
    { kind: 'regex', pattern: 'kmalloc\\(.*GFP_ATOMIC\\)', paths: ['.'] },
    { kind: 'regex', pattern: 'static int \\w+_suspend_late', paths: ['.'] },
    { kind: 'glob', pattern: 'sched_clock', paths: ['kernel/**/*.c'] },
    { kind: 'glob', pattern: 'ETH_ALEN', paths: ['drivers/net/**/*.h'] },
    { kind: 'directory', pattern: 'drm_err', paths: ['drivers/gpu'] },
    { kind: 'common', pattern: 'ERR_PTR', paths: ['.'] },
    { kind: 'common', pattern: 'mutex_lock', paths: ['.'] },
    { kind: 'common', pattern: 'return -EINVAL', paths: ['.'] },
    { kind: 'common', pattern: '\\w+_probe\\s*\\(', paths: ['.'] },
  ],
  npm: [
    { kind: 'rare', pattern: 'createRequire', paths: ['.'] },
    { kind: 'rare', pattern: 'zq_no_such_symbol_qz', paths: ['.'] },
    { kind: 'rare', pattern: 'getTypeOfSymbolAtLocation', paths: ['.'] },
    { kind: 'rare', pattern: 'useSyncExternalStore', paths: ['.'] },
    { kind: 'rare', pattern: 'structuredClone', paths: ['.'] },
    { kind: 'rare', pattern: 'ERR_REQUIRE_ESM', paths: ['.'] },
    { kind: 'alternation', pattern: 'componentDidCatch|getDerivedStateFromError', paths: ['.'] },
    { kind: 'alternation', pattern: 'WeakRef|FinalizationRegistry', paths: ['.'] },
    { kind: '-i', pattern: 'usesyncexternalstore', paths: ['.'], i: true },
    { kind: '-i', pattern: 'Content-Security-Policy', paths: ['.'], i: true },
    { kind: 'regex', pattern: 'function\\s+\\w+Async\\(', paths: ['.'] },
    { kind: 'regex', pattern: 'import\\(.*webpackChunkName', paths: ['.'] },
    { kind: 'regex', pattern: 'class \\w+ extends Observable', paths: ['.'] },
    { kind: 'glob', pattern: 'interface \\w+Options', paths: ['**/*.d.ts'] },
    { kind: 'glob', pattern: 'createElement', paths: ['react-dom/**/*.js'] },
    { kind: 'directory', pattern: 'SyntaxKind', paths: ['typescript'] },
    { kind: 'common', pattern: 'TODO', paths: ['.'] },
    { kind: 'common', pattern: 'module.exports', paths: ['.'] },
    { kind: 'common', pattern: 'function', paths: ['.'] },
    { kind: 'common', pattern: '\\w+Error\\(', paths: ['.'] },
  ],
};

function parseArgs(argv) {
  const o = {
    runs: 5,
    corpus: 'all',
    write: false,
    quick: false,
    dataDir: null,
    freshnessOnly: false,
    queriesOnly: false,
    only: null,
    query: null,
  };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--runs') o.runs = Number(argv[++k]);
    else if (a === '--corpus') o.corpus = argv[++k];
    else if (a === '--write') o.write = true;
    else if (a === '--quick') o.quick = true;
    else if (a === '--freshness-only') o.freshnessOnly = true;
    else if (a === '--queries-only') o.queriesOnly = true;
    else if (a === '--only') o.only = argv[++k].split(',');
    else if (a === '--query') o.query = argv[++k];
    // An index already built there (by `trawl index … --data-dir D`) is reused: no build is timed.
    else if (a === '--data-dir') o.dataDir = argv[++k];
    else if (a === '--help' || a === '-h') {
      console.log(
        'node bench/index.mjs [--runs N] [--corpus linux|npm|all] [--write] [--quick] [--data-dir D] [--freshness-only] [--queries-only] [--only KIND[,KIND]] [--query TEXT]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  // A subset of the queries is not the benchmark: printed, never written.
  if (o.only || o.query) o.queriesOnly = true;
  return o;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const pctile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const ms = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);
const mb = (n) => `${(n / 1024 / 1024).toFixed(0)} MB`;

function build(dir, dataDir) {
  rmSync(dataDir, { recursive: true, force: true });
  const timeBin = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-v'] : [];
  const started = performance.now();
  const r = spawnSync(
    timeBin[0] ?? process.execPath,
    [
      ...timeBin.slice(1),
      ...(timeBin.length ? [process.execPath] : []),
      CLI,
      'index',
      dir,
      '--data-dir',
      dataDir,
      '--json',
    ],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
  const wall = performance.now() - started;
  if (r.status !== 0) throw new Error(`trawl index failed: ${r.stderr}`);
  const status = JSON.parse(r.stdout.trim().split('\n').pop());
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  return { wall, status, peakRss: rss ? Number(rss[1]) * 1024 : null };
}

function statusOnly(dir, dataDir) {
  const r = spawnSync(process.execPath, [CLI, 'index', dir, '--status', '--json', '--data-dir', dataDir], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`no index to reuse in ${dataDir}: ${r.stdout}${r.stderr}`);
  return { wall: null, status: JSON.parse(r.stdout.trim().split('\n').pop()), peakRss: null };
}

async function startMcp(dir, dataDir, index) {
  const started = performance.now();
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--root', dir, '--data-dir', dataDir, ...(index ? [] : ['--no-index'])],
    cwd: dir,
    stderr: 'pipe',
    env: { ...process.env },
  });
  let readyAt = null;
  const ready = new Promise((resolve) => {
    transport.stderr?.on('data', (b) => {
      stderr += b.toString();
      if (readyAt === null && /content index (ready|\()/.test(stderr) && /content index ready/.test(stderr)) {
        readyAt = performance.now();
        resolve();
      }
    });
  });
  const client = new Client({ name: 'trawl-bench', version: '0' });
  await client.connect(transport);
  if (index) await ready;
  return {
    client,
    transport,
    startupMs: index ? readyAt - started : null,
    pid: transport.pid,
    stderr: () => stderr,
  };
}

async function call(client, q) {
  const t = performance.now();
  const r = await client.callTool(
    {
      name: 'search',
      arguments: { pattern: q.pattern, paths: q.paths, ...(q.i ? { i: true } : {}) },
    },
    undefined,
    { timeout: 600_000 },
  );
  return {
    ms: performance.now() - t,
    text: r.content?.[0]?.text ?? '',
    structured: r.structuredContent ?? null,
  };
}

function rgOnce(dir, q) {
  const args = ['--no-config', '-n', ...(q.i ? ['-i'] : [])];
  let paths = q.paths;
  const globbed = q.paths.filter((p) => p.includes('*'));
  if (globbed.length) {
    paths = ['.'];
    for (const g of globbed) args.push('-g', g);
  }
  const t = performance.now();
  spawnSync(RG, [...args, '--', q.pattern, ...paths], { cwd: dir, stdio: ['ignore', 'ignore', 'ignore'] });
  return performance.now() - t;
}

/**
 * CPU milliseconds a process has used (user + system), and those of its children it has reaped (ripgrep runs
 * of a server, or the bench's own rg runs): on a loaded machine CPU moves far less than wall time does.
 */
function cpuOf(pid) {
  try {
    const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    const tick = 10; // USER_HZ is 100 on Linux
    return { self: (Number(f[11]) + Number(f[12])) * tick, children: (Number(f[13]) + Number(f[14])) * tick };
  } catch {
    return null;
  }
}

function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** External edits timed per run (p95 of 20 is the second-worst). */
const FRESH_EDITS = 20;

async function freshness(dir, client) {
  // External edits: a file gets a fresh token, then at once a search for it.
  const files = [];
  const walk = (d, depth) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (files.length >= 2000) return;
      if (e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      if (e.isDirectory() && depth < 6) walk(p, depth + 1);
      else if (e.isFile() && /\.(c|h|js|ts)$/.test(e.name) && statSync(p).size < 200_000) files.push(p);
    }
  };
  walk(dir, 0);
  const originals = new Map();
  const remember = (f) => {
    if (!originals.has(f)) originals.set(f, readFileSync(f));
  };
  const edits = [];
  let missed = 0;
  try {
    for (let k = 0; k < FRESH_EDITS; k++) {
      const f = files[(k * 97) % files.length];
      remember(f);
      const token = `zqfresh${k}x${Date.now()}`;
      const t = performance.now();
      appendFileSync(f, `\n// ${token}\n`);
      const r = await call(client, { pattern: token, paths: ['.'] });
      edits.push(performance.now() - t);
      if (!r.text.includes(token)) missed++;
    }
    // A checkout touching 1 000 files.
    const touched = files.slice(0, 1000);
    const token = `zqcheckout${Date.now()}`;
    for (const f of touched) {
      remember(f);
      appendFileSync(f, `\n// ${token}\n`);
    }
    const t = performance.now();
    const r = await call(client, { pattern: token, paths: ['.'] });
    const checkoutMs = performance.now() - t;
    // The tool's structured answer counts the files with a match (exact unless it says otherwise).
    const st = r.structured;
    const found = st
      ? `${st.totalFiles}${st.totalFilesExact ? '' : '+'} files with a match, outcome ${st.outcome}`
      : '';
    return {
      edits,
      missed,
      checkoutMs,
      checkoutFiles: touched.length,
      checkoutText: r.text.split('\n').slice(-3).join(' ⏎ '),
      found,
    };
  } finally {
    for (const [f, b] of originals) writeFileSync(f, b);
  }
}

/**
 * What the index decides for each query, without running it: a spy index records the selection, then the
 * search is aborted before it reads a file.
 */
async function explainer(dir, dataDir) {
  const core = await import(pathToFileURL(join(repo, 'packages/core/dist/index.js')).href);
  const ci = await import(pathToFileURL(join(repo, 'packages/core/dist/content-index/index.js')).href);
  const limits = await import(pathToFileURL(join(repo, 'packages/core/dist/limits.js')).href);
  // Watched, as the server's: only a watched index vouches for a declined selection's list (rg reads it then).
  const index = ci.openIndex(dir, { dataDir, build: false });
  await index.whenReady();
  return {
    async use(q) {
      const globs = q.paths.filter((p) => p.includes('*'));
      const ac = new AbortController();
      let use = null;
      const spy = {
        select: async (req) => {
          const s = await index.select(req);
          const l = s.plainCandidates;
          const share = limits.RG_LIST_MAX_SHARE;
          const listed = l && l.entries.length <= l.stats.files * share && l.bytes <= l.totalBytes * share;
          use = listed ? { ...s.use, list: l.entries.length } : s.use;
          ac.abort();
          return s;
        },
      };
      const req = {
        pattern: q.pattern,
        cwd: dir,
        paths: globs.length ? ['.'] : q.paths,
        ...(globs.length ? { globs } : {}),
        ...(q.i ? { caseInsensitive: true } : {}),
        engine: 'js',
        index: spy,
        signal: ac.signal,
      };
      try {
        for await (const _ of core.search(req)) {
          // drained: aborted right after the selection
        }
      } catch {
        // an aborted search may throw; the selection is what is wanted
      }
      return use;
    },
    close: () => index.close(),
  };
}

function useText(use) {
  if (!use) return 'n/a';
  if (use.list !== undefined) return `rg over the list: ${use.reason.replace(/: a scan is faster$/, '')}`;
  if (!use.used) return `scan: ${use.reason}`;
  // Windowed: large candidates read only around the blocks where a literal may start (search/windows.ts).
  return `${use.candidates} of ${use.files} files${use.windowed ? `, ${use.windowed} through windows` : ''}`;
}

async function benchCorpus(name, opts) {
  const dir = join(CACHE, name);
  if (!existsSync(`${dir}.done`)) {
    console.log(`${name}: corpus not built (${dir}.done missing), skipped`);
    return null;
  }
  const reuse = opts.dataDir !== null;
  const dataDir = reuse ? opts.dataDir : mkdtempSync(join(tmpdir(), `trawl-bench-index-${name}-`));
  const load0 = loadavg()[0];
  console.log(`${name}: ${reuse ? 'reusing the index in' : 'building…'} ${reuse ? dataDir : ''}`);
  const b = reuse ? statusOnly(dir, dataDir) : build(dir, dataDir);
  console.log(
    `${name}: ${b.wall === null ? 'reused' : `built in ${ms(b.wall)}`}, ${b.status.files} files, index ${mb(b.status.indexBytes)} of ${mb(b.status.textBytes)}`,
  );
  const buildLoad = loadavg()[0];
  const indexed = await startMcp(dir, dataDir, true);
  const startupLoad = loadavg()[0];
  console.log(`${name}: mcp ready in ${ms(indexed.startupMs)} (load ${startupLoad.toFixed(1)})`);
  if (opts.freshnessOnly) {
    const freshLoad = loadavg()[0];
    const f = await freshness(dir, indexed.client);
    await indexed.client.close();
    if (!reuse) rmSync(dataDir, { recursive: true, force: true });
    console.log(
      `${name}: freshness: edit → answer p50 ${ms(median(f.edits))}, p95 ${ms(pctile(f.edits, 95))}, missed ${f.missed}/${f.edits.length} (load ${freshLoad.toFixed(1)}); checkout of ${f.checkoutFiles} files → ${ms(f.checkoutMs)} ("${f.found}"; load ${loadavg()[0].toFixed(1)})`,
    );
    return null;
  }
  const explain = await explainer(dir, dataDir);
  const scanner = await startMcp(dir, dataDir, false);
  const queries = (opts.quick ? QUERIES[name].slice(0, 4) : QUERIES[name]).filter(
    (q) => (!opts.only || opts.only.includes(q.kind)) && (!opts.query || q.pattern.includes(opts.query)),
  );
  const rows = [];
  for (const q of queries) {
    const first = await call(indexed.client, q); // warm-up, and the answer compared below
    const scan = await call(scanner.client, q);
    const t = [];
    const r = [];
    const cpu = { server: 0, rg: 0 };
    for (let k = 0; k < opts.runs; k++) {
      const s0 = cpuOf(indexed.pid);
      t.push((await call(indexed.client, q)).ms);
      const s1 = cpuOf(indexed.pid);
      const b0 = cpuOf('self');
      r.push(rgOnce(dir, q));
      const b1 = cpuOf('self');
      if (s0 && s1 && b0 && b1) {
        cpu.server += s1.self + s1.children - s0.self - s0.children;
        cpu.rg += b1.children - b0.children;
      }
    }
    const row = {
      q,
      index: median(t),
      rg: median(r),
      same: first.text === scan.text,
      scan: scan.ms,
      // Mean CPU per call: the server (its threads and its rg children) and rg one-shot.
      cpu: { server: cpu.server / opts.runs, rg: cpu.rg / opts.runs },
      load: loadavg()[0],
      use: await explain.use(q),
    };
    rows.push(row);
    console.log(
      `${name}: ${q.kind} ${q.pattern}: ${ms(row.index)} vs rg ${ms(row.rg)} (${(row.index / row.rg).toFixed(3)}×; CPU ${ms(row.cpu.server)} vs ${ms(row.cpu.rg)})${row.same ? '' : ' ⚠ differs from scan'} [${useText(row.use)}] load ${row.load.toFixed(1)}`,
    );
  }
  await explain.close();
  const rss = rssOf(indexed.pid);
  if (opts.queriesOnly) {
    await indexed.client.close();
    await scanner.client.close();
    if (!reuse) rmSync(dataDir, { recursive: true, force: true });
    const sel = rows.filter((r) => r.q.kind !== 'common');
    const selective = sel.length
      ? `selective p50 ${ms(median(sel.map((r) => r.index)))} = ${median(sel.map((r) => r.index / r.rg)).toFixed(3)}× rg`
      : 'no selective query';
    console.log(
      `${name}: ${selective}; mix p50 ${ms(median(rows.map((r) => r.index)))} = ${median(rows.map((r) => r.index / r.rg)).toFixed(3)}× rg; worst ${Math.max(...rows.map((r) => r.index / r.rg)).toFixed(2)}×; RSS ${rss ? mb(rss) : 'n/a'} (load ${loadavg()[0].toFixed(1)})`,
    );
    return null;
  }
  const freshLoad = loadavg()[0];
  const fresh = await freshness(dir, indexed.client);
  await indexed.client.close();
  await scanner.client.close();
  if (!reuse) rmSync(dataDir, { recursive: true, force: true });
  return {
    name,
    b,
    startupMs: indexed.startupMs,
    rows,
    rss,
    fresh,
    load: [load0, loadavg()[0]],
    buildLoad,
    startupLoad,
    freshLoad,
  };
}

function render(res) {
  const { name, b, rows } = res;
  const st = b.status;
  const sel = rows.filter((r) => r.q.kind !== 'common');
  const out = [];
  out.push(`## index: ${name}`, '');
  out.push(
    `Build (\`trawl index\`, from scratch): ${b.wall === null ? 'not timed in this run (index reused)' : `${ms(b.wall)} wall`}, peak RSS ${b.peakRss ? mb(b.peakRss) : 'n/a'}${b.wall === null ? '' : ` (load ${res.buildLoad.toFixed(1)} when it ended)`}; ${st.files} files, ${mb(st.textBytes)} of text indexed; index ${mb(st.indexBytes)} = ${((100 * st.indexBytes) / st.textBytes).toFixed(1)} % of the text, ${st.grams} grams.`,
    `Start-up of \`trawl mcp\` with the persisted index (spawn → index ready, validation of every file's size+mtime included): ${ms(res.startupMs)} (load ${res.startupLoad.toFixed(1)}). Resident memory of the serving process after the queries: ${res.rss ? mb(res.rss) : 'n/a'}.`,
    '',
    `Queries through \`trawl mcp\` (stdio round trip, warm, index ready) vs \`rg\` one-shot (bundled rg 15, same pattern and scope), median of ${rows.length ? 'N' : 0} runs; "= scan": the text equals the same call to a \`--no-index\` server.`,
    '',
    '| kind | query | trawl mcp + index | rg one-shot | ratio | mcp scan (1 run) | = scan | index decision | load |',
    '|---|---|---:|---:|---:|---:|:-:|---|---:|',
  );
  for (const r of rows) {
    out.push(
      `| ${r.q.kind} | \`${r.q.i ? '-i ' : ''}${r.q.pattern.replace(/\|/g, '\\|')}\` ${r.q.paths.join(' ')} | ${ms(r.index)} | ${ms(r.rg)} | ${(r.index / r.rg).toFixed(3)}× | ${ms(r.scan)} | ${r.same ? '✓' : '⚠'} | ${useText(r.use).replace(/\|/g, '\\|')} | ${r.load.toFixed(1)} |`,
    );
  }
  out.push(
    '',
    `Selective queries (all but "common"): p50 ${ms(median(sel.map((r) => r.index)))} = ${median(sel.map((r) => r.index / r.rg)).toFixed(3)}× rg (median of per-query ratios); whole mix p50 ${ms(median(rows.map((r) => r.index)))} = ${(median(rows.map((r) => r.index / r.rg))).toFixed(3)}× rg (median of per-query ratios); worst ratio ${Math.max(...rows.map((r) => r.index / r.rg)).toFixed(2)}×.`,
    '',
    `Freshness: external edit → search for the new token at once: p50 ${ms(median(res.fresh.edits))}, p95 ${ms(pctile(res.fresh.edits, 95))} (write to answer), missed ${res.fresh.missed}/${res.fresh.edits.length} (load ${res.freshLoad.toFixed(1)}). A checkout appending a token to ${res.fresh.checkoutFiles} files, then one search: ${ms(res.fresh.checkoutMs)} from the last write to the answer (${res.fresh.found}: "${res.fresh.checkoutText.slice(0, 160)}").`,
    '',
    `Load average (1 min) at start / end: ${res.load.map((x) => x.toFixed(1)).join(' / ')} on ${cpus().length} cores — the machine is shared with other builds and tests this session; absolute times are inflated, ratios less so.`,
    '',
  );
  return out.join('\n');
}

const opts = parseArgs(process.argv.slice(2));
const names = opts.corpus === 'all' ? ['linux', 'npm'] : [opts.corpus];
const sections = [];
for (const n of names) {
  const res = await benchCorpus(n, opts);
  if (!res) continue;
  const text = render(res);
  console.log(`\n${text}`);
  sections.push([n, text]);
}
if (opts.write) {
  let md = readFileSync(RESULTS, 'utf8');
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: repo,
    encoding: 'utf8',
  }).stdout.trim();
  for (const [n, text] of sections) {
    const begin = `<!-- index:${n}:begin -->`;
    const end = `<!-- index:${n}:end -->`;
    const block = `${begin}\n${text}\nCommand: \`node bench/index.mjs --corpus ${n} --runs ${opts.runs} --write\` (commit ${commit}, ${new Date().toISOString()}).\n${end}`;
    const i = md.indexOf(begin);
    const j = md.indexOf(end);
    md =
      i >= 0 && j > i ? md.slice(0, i) + block + md.slice(j + end.length) : `${md.trimEnd()}\n\n${block}\n`;
  }
  writeFileSync(RESULTS, md);
  console.log(`wrote ${RESULTS}`);
}
process.exit(0);
