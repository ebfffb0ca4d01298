#!/usr/bin/env node
// bench/grep.mjs --phase project (issue 23 "Measured"): the 3 900-file project a new user tries content search on —
// npm packages as installed in this repository's node_modules (copied, a fixed list) plus two .docx, one .xlsx and
// two PDFs written by the test fixtures' generators — served by `trawl serve` with its content index (greps on the
// grep host). Per query: the first answer after start (cold: nothing extracted, index just ready) and the median of
// 5 warm ones, each complete or partial (and why), side by side with `rg -l -i -F --no-ignore --hidden` with the
// endpoint's skip globs, in one run. Then 20 clients in closed loops POST /api/file-grep for --duration s while the
// server's event-loop delay is sampled (monitorEventLoopDelay, 10 ms resolution).
//
//   npm run build && node --import tsx bench/grep-project.mjs [--duration 20] [--clients 20] [--write]
import { fork, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { DASHBOARD_SKIP_DIRS } from '../packages/core/src/walk/skip-dirs.ts';
import { docx, pdf, xlsx } from '../packages/core/test/fixtures/office-docs.ts';
import { CACHE, here, RG15, repo } from './paths.mjs';

const { values: opt } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    clients: { type: 'string', default: '20' },
    write: { type: 'boolean', default: false },
  },
});
const PACKAGES = [
  'react',
  'react-dom',
  'zod',
  'hono',
  '@modelcontextprotocol/sdk',
  'pdfjs-dist',
  'typescript',
  'vitest',
  'vite',
  'marked',
  'highlight.js',
  'jsdom',
  'undici',
  'ajv',
  'postcss',
  '@types/node',
];
// The dashboard's skip list, as /api/file-grep walks it.
const SKIP = [...DASHBOARD_SKIP_DIRS];
const out = [];
const say = (l = '') => {
  out.push(l);
  console.log(l);
};
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : Number.NaN;
};
const ms = (x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : '—');

/** The project: the packages' files under packages/<name> (dist, build… inside them are pruned by the endpoint too). */
function buildProject() {
  const dir = path.join(CACHE, 'grep-project');
  if (fs.existsSync(path.join(dir, '.done'))) return fs.realpathSync(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const p of PACKAGES) {
    fs.cpSync(path.join(repo, 'node_modules', p), path.join(dir, 'packages', p.replace('/', '__')), {
      recursive: true,
      dereference: false,
      filter: (src) => !fs.lstatSync(src).isSymbolicLink(),
    });
  }
  const para = (i) =>
    `Section ${i}: the quarter budget review covers revenue forecast and delivery schedule for the customer contract.`;
  const docs = path.join(dir, 'docs');
  fs.mkdirSync(docs, { recursive: true });
  fs.writeFileSync(path.join(docs, 'design.docx'), docx(Array.from({ length: 300 }, (_, i) => para(i))));
  fs.writeFileSync(path.join(docs, 'minutes.docx'), docx(Array.from({ length: 120 }, (_, i) => para(i))));
  fs.writeFileSync(
    path.join(docs, 'ledger.xlsx'),
    xlsx([
      { name: 'Ledger', rows: Array.from({ length: 400 }, (_, i) => [`item ${i}`, i * 3.5, 'approved']) },
    ]),
  );
  // Two PDFs of ~200 KB each: many pages of text.
  // Numbers a deflate stream cannot fold away, so each file is ~200 KB as a real report is.
  const page = (i) =>
    Array.from(
      { length: 40 },
      (_, k) =>
        `${para(i * 40 + k)} invoice ${i}-${k} ref ${((i * 7919 + k * 104729) % 1000003).toString(36)}`,
    ).join(' ');
  fs.writeFileSync(path.join(docs, 'report.pdf'), pdf(Array.from({ length: 160 }, (_, i) => page(i))));
  fs.writeFileSync(
    path.join(docs, 'handbook.pdf'),
    pdf(Array.from({ length: 160 }, (_, i) => page(i + 200))),
  );
  fs.writeFileSync(path.join(dir, '.done'), '');
  return fs.realpathSync(dir);
}

function countFiles(dir) {
  let n = 0;
  let bytes = 0;
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!SKIP.includes(e.name)) walk(p);
      } else if (e.isFile()) {
        n++;
        bytes += fs.statSync(p).size;
      }
    }
  };
  walk(dir);
  return { n, bytes };
}

function rgAnchor(root, q) {
  const args = ['-l', '-i', '-F', '--no-ignore', '--hidden', '--max-filesize', '2097152'];
  for (const d of SKIP) args.push('--glob', `!${d}/`);
  args.push('--', q, '.');
  const t = performance.now();
  const r = spawnSync(fs.existsSync(RG15) ? RG15 : 'rg', args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  return { ms: performance.now() - t, files: r.stdout.split('\n').filter(Boolean).length };
}

const root = buildProject();
const { n: files, bytes } = countFiles(root);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-bench-project-'));
const home = path.join(scratch, 'home');
fs.mkdirSync(home, { recursive: true });
const child = fork(
  path.join(here, 'serve-child.mjs'),
  [JSON.stringify({ projects: [root], dataDir: path.join(scratch, 'data'), home, index: true })],
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
const t0 = performance.now();
const settled = await ask('content-settled');
const indexMs = performance.now() - t0;
const post = async (body) => {
  const t = performance.now();
  const r = await fetch(`${ready.origin}/api/file-grep`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ready.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  const elapsed = performance.now() - t;
  let p = {};
  try {
    p = JSON.parse(text);
  } catch {}
  return {
    status: r.status,
    ms: elapsed,
    rows: p.results?.length ?? 0,
    truncated: p.truncated,
    why: p.partial_reasons,
  };
};
const QUERIES = [
  'useSyncExternalStore',
  'createElement',
  'ZodError',
  'quarter budget',
  'invoice 7-3',
  'zqxj_absent',
];
const started = load();
say(`### The 3 900-file project (issue 23): ${files} files searched, ${(bytes / 1048576).toFixed(0)} MiB`);
say('');
say(
  `\`node --import tsx bench/grep-project.mjs\` — ${PACKAGES.length} npm packages as in node_modules + 2 .docx, 1 .xlsx, 2 PDFs (${(
    (fs.statSync(path.join(root, 'docs/report.pdf')).size +
      fs.statSync(path.join(root, 'docs/handbook.pdf')).size) /
      1024
  ).toFixed(
    0,
  )} KB); trawl serve with its content index (state ${settled.status[0]?.state}, ${settled.status[0]?.files} files, ${ms(indexMs)} to settle); load average ${started} at start.`,
);
say('');
say(
  '| query | cold | cold answer | warm p50 (5) | warm answer | rg -l -i -F (p50 of 5) | rg files | warm / rg |',
);
say('|---|---:|---|---:|---|---:|---:|---:|');
const answer = (a) =>
  a.status !== 200
    ? `HTTP ${a.status}`
    : `${a.rows} rows, ${a.truncated ? `partial (${(a.why ?? []).join(', ')})` : 'complete'}`;
for (const q of QUERIES) {
  const cold = await post({ root, q });
  const warm = [];
  for (let i = 0; i < 5; i++) warm.push(await post({ root, q }));
  const rg = [];
  for (let i = 0; i < 5; i++) rg.push(rgAnchor(root, q));
  const w = pct(
    warm.map((a) => a.ms),
    50,
  );
  const r = pct(
    rg.map((a) => a.ms),
    50,
  );
  say(
    `| \`${q}\` | ${ms(cold.ms)} | ${answer(cold)} | ${ms(w)} | ${answer(warm.at(-1))} | ${ms(r)} | ${rg[0].files} | ${(w / r).toFixed(1)}× |`,
  );
}
say('');
const clients = Number(opt.clients);
const seconds = Number(opt.duration);
// The same machine with no request at all: on a loaded machine the loop is late by what the OS scheduler costs it.
await ask('reset');
await new Promise((r) => setTimeout(r, seconds * 1000));
const idle = await ask('stats');
say(
  `No requests for ${seconds} s (load average ${load()}): event-loop delay p50 ${idle.loop.p50.toFixed(1)} ms, p99 ${idle.loop.p99.toFixed(1)} ms, max ${idle.loop.max.toFixed(1)} ms.`,
);
say('');
await ask('reset');
const answers = [];
const stopAt = performance.now() + seconds * 1000;
let k = 0;
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (performance.now() < stopAt) {
      try {
        answers.push(await post({ root, q: QUERIES[k++ % QUERIES.length] }));
      } catch (err) {
        answers.push({ status: 'error', ms: Number.NaN });
      }
    }
  }),
);
const stats = await ask('stats');
const status = {};
for (const a of answers) status[a.status] = (status[a.status] ?? 0) + 1;
const lat = answers.filter((a) => a.status === 200).map((a) => a.ms);
say(
  `${clients} clients × ${seconds} s, queries rotating (load average ${load()} after): ${answers.length} answers (${Object.entries(
    status,
  )
    .map(([s, n]) => `${s}: ${n}`)
    .join(
      ', ',
    )}), ${answers.filter((a) => a.truncated).length} partial; latency of the 200s p50 ${ms(pct(lat, 50))}, p99 ${ms(pct(lat, 99))}. ` +
    `**Event-loop delay of the server: p50 ${stats.loop.p50.toFixed(1)} ms, p99 ${stats.loop.p99.toFixed(1)} ms, max ${stats.loop.max.toFixed(1)} ms.**`,
);
child.send({ id: 0, cmd: 'stop' });
await new Promise((r) => child.on('exit', r));
fs.rmSync(scratch, { recursive: true, force: true });
if (opt.write) {
  const file = path.join(here, 'RESULTS.md');
  const s = fs.readFileSync(file, 'utf8');
  const block = `<!-- grep-project:begin -->\n${out.join('\n')}\n<!-- grep-project:end -->`;
  const re = /<!-- grep-project:begin -->[\s\S]*<!-- grep-project:end -->/;
  fs.writeFileSync(file, re.test(s) ? s.replace(re, block) : `${s.trimEnd()}\n\n${block}\n`);
}
