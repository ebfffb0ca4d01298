#!/usr/bin/env node
// Content grep benchmark (issue 9 "Measured"): trawl's grepFiles — the /api/file-grep contract — against the command a
// user would run instead, side by side in one run, round-robin, median wall time and ratios.
//
//   npm run build && node bench/grep.mjs [--phase all|text|docs|load] [--runs 5] [--corpus linux,npm]
//                                         [--docs 400] [--duration 30] [--connections 50] [--write]
//
// Phase "text" (Linux tree, npm corpus): the anchor is `rg -l -i -F --no-ignore --hidden` with the rg engine's own
//   globs and --max-filesize (read from the argv the engine really spawned, through the spawnRg seam), run from a
//   fresh process per query. trawl runs in this process (warm, as in a server worker), the row cap lifted and the
//   budget roomy so both list every matching file; `text pass` is grepFiles' own text-pass time (detail.textMs),
//   `answer` the whole call with the contract's limits (200 rows, 2 s), documents included.
// Phase "docs": a generated corpus (bench/grep-docs.mjs, cached in $CACHE/grep-docs-<N>) searched for a word no
//   document holds, so every document is extracted whole: documents per second per kind; PDF with a warm child pool
//   and with a fresh child per document (docsPerChild 1: the cost the pool removes); then the whole corpus under the
//   contract's limits (2 s, 1.5 s per PDF) from a cold pool and again warm.
// Phase "load": `trawl serve` (bench/serve-child.mjs, no content index: greps scan on the transfer pool),
//   N clients in closed loops for D s, POST /api/file-grep over the npm corpus and the document corpus, queries
//   rotating; every status counted, every answer's latency against the 2 s deadline + 250 ms.
//
// --write replaces the <!-- grep:begin --> … <!-- grep:end --> section of bench/RESULTS.md (appended if absent).
// The 3 900-file project served with its content index (cold/warm per query, rg side by side, the event-loop delay
// under 20 clients) is bench/grep-project.mjs (`node --import tsx bench/grep-project.mjs --write`).
import { fork, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PdfPool } from '../packages/core/dist/docs/index.js';
import { SensitiveFence } from '../packages/core/dist/fence/index.js';
import { grepFiles } from '../packages/core/dist/grep/index.js';
import { CACHE, here, repo } from './paths.mjs';

const RESULTS = path.join(here, 'RESULTS.md');

const { values: opt } = parseArgs({
  options: {
    phase: { type: 'string', default: 'all' },
    runs: { type: 'string', default: '5' },
    corpus: { type: 'string', default: 'linux,npm' },
    docs: { type: 'string', default: '400' },
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '50' },
    write: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: false, // bench/run.mjs passes every benchmark the same arguments
});
if (opt.help) {
  console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\nimport')[0]);
  process.exit(0);
}
const RUNS = Number(opt.runs);
const phases = opt.phase === 'all' ? ['text', 'docs', 'load'] : opt.phase.split(',');
const DEADLINE_MS = 2_000;
const SLACK_MS = 250;

const QUERIES = {
  linux: [
    { name: 'rare', q: 'pm_resume' },
    { name: 'common', q: 'err_ptr' },
    { name: 'no match', q: 'zqxj_no_such_token' },
  ],
  npm: [
    { name: 'rare', q: 'ERR_INVALID_ARG_TYPE' },
    { name: 'common', q: 'prototype' },
    { name: 'no match', q: 'zqxj_no_such_token' },
  ],
};

const fence = new SensitiveFence({ home: os.homedir(), env: process.env });
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : Number.NaN;
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : Number.NaN;
};
const ms = (x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : 'n/a');
const ratio = (a, b) =>
  Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a';
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const out = [];
const say = (line = '') => {
  console.log(line);
  out.push(line);
};

/** The argv the rg engine spawns for this search (captured through the spawnRg seam), and its binary. */
async function engineArgv(root, q) {
  let seen;
  await grepFiles({
    root,
    query: q,
    fence,
    engine: 'rg',
    limits: { timeBudgetMs: 600_000 },
    spawnRg: (command, args, options) => {
      seen = { command, args: [...args] };
      return spawn(command, args, options);
    },
  });
  return seen;
}

/** The user's command: the engine's binary and filters, `-l`, the query in argv. */
function anchorArgv(engine, q) {
  const keep = [];
  const a = engine.args;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '--glob' || a[i] === '--iglob' || a[i] === '--max-filesize') keep.push(a[i], a[++i]);
    else if (a[i].startsWith('--glob=') || a[i].startsWith('--iglob=') || a[i].startsWith('--max-filesize='))
      keep.push(a[i]);
  }
  return ['--no-config', '-l', '-i', '-F', '--no-ignore', '--hidden', ...keep, '-e', q, '.'];
}

function runAnchor(command, args, cwd) {
  return new Promise((resolve) => {
    const t = performance.now();
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { LC_ALL: 'C.UTF-8' },
    });
    let lines = 0;
    child.stdout.on('data', (c) => {
      for (const b of c) if (b === 10) lines++;
    });
    child.on('close', () => resolve({ ms: performance.now() - t, files: lines }));
  });
}

async function runTrawl(root, q, engine, contract) {
  const t = performance.now();
  const { payload, detail } = await grepFiles({
    root,
    query: q,
    fence,
    engine,
    ...(contract ? {} : { limits: { timeBudgetMs: 600_000, maxResults: 1e9 } }),
  });
  return {
    ms: performance.now() - t,
    textMs: detail.textMs,
    docMs: detail.docMs,
    files: detail.textHits,
    truncated: payload.truncated,
    outcome: detail.textOutcome,
    engine: payload.engine,
  };
}

async function textPhase() {
  say(`### Text pass (median of ${RUNS}, round-robin; load ${load()} at start)`);
  say('');
  say(
    '| corpus | query | files | rg -l (anchor) | trawl rg: text pass | ratio | trawl js: text pass | ratio | answer, contract limits (rg / js) |',
  );
  say('|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const corpus of opt.corpus.split(',')) {
    const root = fs.realpathSync(path.join(CACHE, corpus));
    if (!fs.existsSync(path.join(CACHE, `${corpus}.done`))) {
      say(`| ${corpus} | (corpus not built) |`);
      continue;
    }
    for (const { name, q } of QUERIES[corpus]) {
      const engine = await engineArgv(root, q);
      const anchor = anchorArgv(engine, q);
      if (corpus === opt.corpus.split(',')[0] && name === 'rare')
        say(
          `<!-- engine argv: ${engine.command} ${engine.args.join(' ')} -->\n<!-- anchor argv: rg ${anchor.join(' ')} -->`,
        );
      const t = { anchor: [], rg: [], js: [], crg: [], cjs: [] };
      let files = {};
      // One untimed round: page cache, the js engine's workers, the binary.
      await runAnchor(engine.command, anchor, root);
      await runTrawl(root, q, 'js', false);
      for (let i = 0; i < RUNS; i++) {
        const a = await runAnchor(engine.command, anchor, root);
        const r = await runTrawl(root, q, 'rg', false);
        const j = await runTrawl(root, q, 'js', false);
        const cr = await runTrawl(root, q, 'rg', true);
        const cj = await runTrawl(root, q, 'js', true);
        t.anchor.push(a.ms);
        t.rg.push(r.textMs);
        t.js.push(j.textMs);
        t.crg.push(cr.ms);
        t.cjs.push(cj.ms);
        files = {
          anchor: a.files,
          rg: r.files,
          js: j.files,
          rgOut: r.outcome,
          jsOut: j.outcome,
          ce: cr.engine,
        };
      }
      const agree =
        files.anchor === files.rg && files.rg === files.js
          ? `${files.anchor}`
          : `${files.anchor} / rg ${files.rg} / js ${files.js} (!)`;
      const [A, R, J] = [median(t.anchor), median(t.rg), median(t.js)];
      say(
        `| ${corpus} | ${name} \`${q}\` | ${agree} | ${ms(A)} | ${ms(R)} | ${ratio(R, A)} | ${ms(J)} | ${ratio(J, A)} | ${ms(median(t.crg))} / ${ms(median(t.cjs))} |`,
      );
    }
  }
  say(`\nload at end: ${load()}`);
}

function docsCorpus(count) {
  const dir = path.join(CACHE, `grep-docs-${count}`);
  if (!fs.existsSync(`${dir}.done`)) {
    fs.rmSync(dir, { recursive: true, force: true });
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'grep-docs.mjs'), dir, String(count)],
      {
        cwd: repo,
        stdio: ['ignore', 'pipe', 'inherit'],
        encoding: 'utf8',
      },
    );
    if (r.status !== 0) throw new Error('bench/grep-docs.mjs failed');
    fs.writeFileSync(`${dir}.done`, r.stdout);
  }
  return fs.realpathSync(dir);
}

function sizeOf(dir) {
  let n = 0;
  let bytes = 0;
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    n++;
    bytes += fs.statSync(path.join(e.parentPath, e.name)).size;
  }
  return { n, bytes };
}

async function docsPhase() {
  const root = docsCorpus(Number(opt.docs));
  say(`### Document pass (generated corpus ${root.replace(os.homedir(), '~')}; load ${load()} at start)`);
  say('');
  say(
    `Every document extracted whole (a word none holds), budget lifted; median of ${RUNS} runs (the fresh-child row: 1).`,
  );
  say('');
  say('| kind | documents | bytes | median time | documents/s | MB/s |');
  say('|---|---:|---:|---:|---:|---:|');
  const ROOMY = { timeBudgetMs: 600_000 };
  const rows = [
    ['docx', 'docx', {}],
    ['pptx', 'pptx', {}],
    ['xlsx', 'xlsx', {}],
    ['pdf, warm pool', 'pdf', { pool: () => new PdfPool(), warm: true }],
    [
      'pdf, fresh child per document',
      'pdf',
      { pool: () => new PdfPool({ docsPerChild: 1 }), warm: true, once: true },
    ],
  ];
  for (const [label, kind, o] of rows) {
    // The fresh-child row pays a child start per document: the first directory (10 PDFs) shows it.
    const dir = o.once ? path.join(root, kind, '0') : path.join(root, kind);
    const { n, bytes } = sizeOf(dir);
    const times = [];
    let searched = 0;
    let skipped = 0;
    // A fresh child per document costs a child start each: one run of that row is enough to see it.
    for (let i = 0; i < (o.once ? 1 : RUNS); i++) {
      const pool = o.pool?.();
      if (pool && o.warm) await pool.warm(256, 512);
      const r = await grepFiles({
        root: dir,
        query: 'zqxj_no_such_token',
        fence,
        limits: ROOMY,
        extract: { pdf: { maxMs: 600_000 }, ...(pool ? { pdfPool: pool } : {}) },
      });
      times.push(r.detail.docMs);
      searched = r.detail.docsSearched;
      skipped = r.payload.skipped_docs;
      await pool?.close();
    }
    const t = median(times);
    say(
      `| ${label} | ${searched}${skipped ? ` (${skipped} skipped)` : ''} of ${n} | ${(bytes / 1e6).toFixed(1)} MB | ${ms(t)} | ${((searched / t) * 1000).toFixed(1)} | ${((bytes / 1e6 / t) * 1000).toFixed(1)} |`,
    );
  }
  say('');
  say(
    "The whole corpus under the contract (2 s, 1.5 s a PDF), a new pool: the first search pays its child's start.",
  );
  say('');
  say('| search | answer | documents searched | skipped_docs | truncated |');
  say('|---|---:|---:|---:|---:|');
  const pool = new PdfPool();
  for (const label of ['cold (no child yet)', 'warm (second search)', 'warm (third search)']) {
    const t = performance.now();
    const r = await grepFiles({ root, query: 'zqxj_no_such_token', fence, extract: { pdfPool: pool } });
    say(
      `| ${label} | ${ms(performance.now() - t)} | ${r.detail.docsSearched} | ${r.payload.skipped_docs} | ${r.payload.truncated} |`,
    );
  }
  await pool.close();
  say(`\nload at end: ${load()}`);
  return root;
}

async function loadPhase(docsRoot) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-bench-grep-'));
  const home = path.join(scratch, 'home');
  fs.mkdirSync(home, { recursive: true });
  const npm = fs.realpathSync(path.join(CACHE, 'npm'));
  const child = fork(
    path.join(here, 'serve-child.mjs'),
    [JSON.stringify({ projects: [docsRoot], dataDir: path.join(scratch, 'data'), home, index: false })],
    { stdio: ['ignore', 'inherit', 'pipe', 'ipc'] },
  );
  child.stderr.on('data', () => {});
  const ready = await new Promise((r) => child.on('message', (m) => m.ready && r(m)));
  let seq = 0;
  const ask = (cmd) =>
    new Promise((resolve) => {
      const id = ++seq;
      const on = (m) => {
        if (m.id !== id) return;
        child.off('message', on);
        resolve(m);
      };
      child.on('message', on);
      child.send({ id, cmd });
    });
  const { origin, token } = ready;
  const bodies = [
    { root: npm, q: 'ERR_INVALID_ARG_TYPE' },
    { root: npm, q: 'prototype' },
    { root: npm, q: 'zqxj_no_such_token' },
    { root: docsRoot, q: 'quarter revenue' },
    { root: docsRoot, q: 'zqxj_no_such_token' },
    { root: path.join(npm, 'typescript'), q: 'checker' },
  ];
  const post = async (body) => {
    const t = performance.now();
    const r = await fetch(`${origin}/api/file-grep`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await r.text();
    const elapsed = performance.now() - t;
    let truncated;
    try {
      truncated = JSON.parse(text).truncated;
    } catch {}
    return { status: r.status, ms: elapsed, truncated };
  };
  // Warm-up: the workers started, the PDF children of the ones that ran, the trees in the page cache.
  await Promise.all(bodies.map(post));
  const seconds = Number(opt.duration);
  const clients = Number(opt.connections);
  const loadStart = load();
  const started = new Date();
  const loadNote = '/work/notes/LOAD.md'; // the shared machine's "who is loading it" list, where there is one
  if (fs.existsSync(loadNote))
    fs.appendFileSync(
      loadNote,
      `- grep helper: bench/grep.mjs load run, ${clients} clients × ${seconds} s on trawl serve, from ${started.toISOString().slice(11, 19)} UTC (until ~${new Date(started.getTime() + seconds * 1000 + 15_000).toISOString().slice(11, 19)})\n`,
    );
  await ask('reset');
  const answers = [];
  const stopAt = performance.now() + seconds * 1000;
  let k = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < stopAt) {
        const body = bodies[k++ % bodies.length];
        const which = `${body.q} in ${body.root.replace(CACHE, '$CACHE')}`;
        try {
          answers.push({ ...(await post(body)), which });
        } catch (err) {
          answers.push({ status: 'error', ms: Number.NaN, error: String(err), which });
        }
      }
    }),
  );
  const loadEnd = load();
  const server = await ask('stats');
  const status = {};
  for (const a of answers) status[a.status] = (status[a.status] ?? 0) + 1;
  const lat = answers.filter((a) => Number.isFinite(a.ms)).map((a) => a.ms);
  const over = answers.filter((a) => a.ms > DEADLINE_MS + SLACK_MS);
  child.send({ id: 0, cmd: 'stop' });
  await new Promise((r) => child.on('exit', r));
  fs.rmSync(scratch, { recursive: true, force: true });
  say(
    `### Load: ${clients} clients × ${seconds} s, POST /api/file-grep (load ${loadStart} before, ${loadEnd} after)`,
  );
  say('');
  say(
    `Roots and queries rotating: ${bodies.map((b) => `\`${b.q}\` in ${b.root.replace(CACHE, '$CACHE')}`).join(', ')}.`,
  );
  say('');
  say('| answers | count | truncated | p50 | p90 | p99 | max | over 2 000 + 250 ms |');
  say('|---|---:|---:|---:|---:|---:|---:|---:|');
  const row = (label, set) => {
    const l = set.filter((a) => Number.isFinite(a.ms)).map((a) => a.ms);
    const o = set.filter((a) => a.ms > DEADLINE_MS + SLACK_MS);
    say(
      `| ${label} | ${set.length} | ${set.filter((a) => a.truncated).length} | ${ms(pct(l, 50))} | ${ms(pct(l, 90))} | ${ms(pct(l, 99))} | ${ms(Math.max(...l))} | ${o.length}${
        o.length
          ? ` (worst ${o
              .map((a) => Math.round(a.ms))
              .sort((a, b) => b - a)
              .slice(0, 3)
              .join(', ')} ms)`
          : ''
      } |`,
    );
  };
  row('all', answers);
  for (const s of Object.keys(status))
    row(
      `status ${s}`,
      answers.filter((a) => String(a.status) === s),
    );
  if (over.length === 0 && lat.length) say(`\nEvery answer inside ${DEADLINE_MS} + ${SLACK_MS} ms.`);
  const l = server.loop;
  say(
    `\nThe server's own event loop meanwhile (monitorEventLoopDelay): p50 ${ms(l.p50)}, p99 ${ms(l.p99)}, max ${ms(l.max)}; ` +
      `its CPU ${Math.round((server.cpuMs.user + server.cpuMs.system) / 1000)} s of ${seconds} s wall, RSS ${Math.round(server.rssMb)} MB.`,
  );
  // Which queries the late answers were, so the tail can be chased to a pass.
  const late = new Map();
  for (const a of over) late.set(`${a.which} (${a.status})`, (late.get(`${a.which} (${a.status})`) ?? 0) + 1);
  if (late.size > 0)
    say(
      `\nLate answers by query: ${[...late]
        .sort((a, b) => b[1] - a[1])
        .map(([w, n]) => `${w} ${n}`)
        .join(', ')}.`,
    );
}

say(`## Content grep (\`bench/grep.mjs\`, ${new Date().toISOString().slice(0, 16)} UTC)`);
say('');
say(
  `Machine: ${os.cpus().length} cores, shared with four other helpers' builds and tests during the run — figures are ` +
    'noisy; the ratios, taken in one interleaved run, are what to read.',
);
say('');
let docsRoot;
if (phases.includes('text')) await textPhase();
if (phases.includes('docs')) docsRoot = await docsPhase();
if (phases.includes('load')) await loadPhase(docsRoot ?? docsCorpus(Number(opt.docs)));

if (opt.write) {
  const section = `<!-- grep:begin -->\n${out.join('\n')}\n<!-- grep:end -->`;
  const old = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, 'utf8') : '';
  const re = /<!-- grep:begin -->[\s\S]*?<!-- grep:end -->/;
  fs.writeFileSync(RESULTS, re.test(old) ? old.replace(re, section) : `${old.trimEnd()}\n\n${section}\n`);
}
process.exit(0);
