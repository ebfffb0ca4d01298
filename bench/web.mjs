#!/usr/bin/env node
// Workbench benchmark (issue 10): how long a person waits for the @ picker, and what the page costs to load.
//
//   npm run build && node --import tsx bench/web.mjs [--queries 100] [--write]
//
// (tsx: the browser is launched by the e2e tests' own helper, packages/web/test/e2e/browser.ts.)
//
// 1. Keystroke to first row painted: Debian's chromium (playwright-core) on the workbench of a real `trawl serve`
//    over the Linux tree (indexed). Each query is typed into the composer as `@` + a few characters of a real file
//    name; the time runs from the LAST keystroke's keydown (in the page) to the animation frame in which the picker
//    first shows rows for THAT query (the list says which query its rows answer), minus the 200 ms debounce the
//    picker waits by design. p50 and p95 over the typed queries, after 10 untimed warm-up queries.
// 2. The built bundle: JavaScript and CSS of packages/web/dist, raw and gzip -9.
//
// The machine is shared and loaded (2 cores): say so next to any figure. --write replaces the
// <!-- web:begin --> … <!-- web:end --> section of bench/RESULTS.md (appended if absent).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import { chromiumPath, launch } from '../packages/web/test/e2e/browser.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const argValue = (flag, dflt) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : dflt;
};
const QUERIES = Number(argValue('--queries', 100));
const WARMUP = 10;
const DEBOUNCE_MS = 200;
const write = args.includes('--write');
const cache = process.env.TRAWL_BENCH_CACHE || path.join(os.homedir(), '.cache/trawl-bench');
const linux = path.join(cache, 'linux');

function bundle() {
  const dir = path.join(root, 'packages/web/dist/assets');
  if (!fs.existsSync(dir)) throw new Error('no packages/web/dist: run npm run build first');
  const sum = { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 } };
  for (const f of fs.readdirSync(dir)) {
    const kind = f.endsWith('.js') ? 'js' : f.endsWith('.css') ? 'css' : null;
    if (!kind) continue;
    const buf = fs.readFileSync(path.join(dir, f));
    sum[kind].raw += buf.length;
    sum[kind].gzip += zlib.gzipSync(buf, { level: 9 }).length;
  }
  return sum;
}

/** Real file names of the tree, deterministic: the stems of the files in a fixed set of directories. */
function queries(n) {
  const dirs = [
    'kernel',
    'mm',
    'fs/ext4',
    'net/ipv4',
    'drivers/usb/core',
    'block',
    'crypto',
    'lib',
    'ipc',
    'security',
  ];
  const stems = [];
  for (const d of dirs) {
    const full = path.join(linux, d);
    if (!fs.existsSync(full)) continue;
    for (const f of fs.readdirSync(full).sort()) {
      const stem = f.replace(/\.[^.]*$/, '');
      if (/^[a-z][a-z0-9_]{4,}$/.test(stem)) stems.push(stem);
    }
  }
  const out = [];
  for (let i = 0; out.length < n + WARMUP && i < stems.length * 4; i++) {
    const s = stems[(i * 37) % stems.length];
    out.push(s.slice(0, 3 + (i % 4)));
  }
  return out;
}

function serve() {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-bench-web-'));
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'packages/server/bin/trawl.js'),
      'serve',
      linux,
      '--port',
      '0',
      '--no-open',
      '--data-dir',
      data,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr.resume();
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ url: out.slice(0, nl).trim(), child, data });
    });
    child.on('exit', (code) => reject(new Error(`trawl serve exited ${code}`)));
  });
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

async function pickerLatency() {
  if (!fs.existsSync(path.join(linux, 'MAINTAINERS')) || !fs.existsSync(path.join(cache, 'linux.done'))) {
    throw new Error(`the Linux tree is not ready in ${linux} (bench/corpora builds it)`);
  }
  const chromium = chromiumPath();
  if (!chromium) throw new Error('no chromium (apt-get install chromium, or set TRAWL_CHROMIUM)');
  const { url, child, data } = await serve();
  const browser = await launch(chromium);
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(120_000);
    await page.goto(url);
    const box = page.getByLabel('Message', { exact: true });
    await box.waitFor();
    // In the page: the time of every keydown, and a watcher that resolves at the frame showing rows for a query.
    await page.evaluate(() => {
      window.__keydown = 0;
      document.addEventListener('keydown', () => (window.__keydown = performance.now()), true);
      window.__rowsFor = (q) =>
        new Promise((resolve) => {
          const seen = () => {
            const list = document.querySelector('[role="listbox"]');
            return list && list.getAttribute('data-rows-for') === q && list.querySelector('[role="option"]');
          };
          // The request's own span (Resource Timing) splits the wait into server + network and the page's share.
          const done = () =>
            requestAnimationFrame(() => {
              const total = performance.now() - window.__keydown;
              const enc = new URLSearchParams({ q }).toString();
              const req = performance
                .getEntriesByType('resource')
                .filter((e) => e.name.includes('/api/file-search?') && e.name.includes(`${enc}&`))
                .pop();
              resolve({ total, fetch: req ? req.responseEnd - req.startTime : null });
            });
          if (seen()) return done();
          const mo = new MutationObserver(() => {
            if (seen()) {
              mo.disconnect();
              done();
            }
          });
          mo.observe(document.body, { subtree: true, childList: true, attributes: true });
        });
    });
    const qs = queries(QUERIES);
    const times = [];
    const fetches = [];
    let misses = 0;
    for (let i = 0; i < qs.length; i++) {
      const q = qs[i];
      await box.fill('');
      await box.pressSequentially(`@${q}`);
      const ms = await Promise.race([
        page.evaluate((query) => window.__rowsFor(query), q),
        new Promise((r) => setTimeout(() => r(null), 15_000)),
      ]);
      if (ms === null) {
        misses += 1; // no row for this query (no such name): not a latency
        continue;
      }
      if (i >= WARMUP) {
        times.push(ms.total - DEBOUNCE_MS);
        if (ms.fetch !== null) fetches.push(ms.fetch);
      }
    }
    return {
      n: times.length,
      misses,
      p50: pct(times, 50),
      p95: pct(times, 95),
      max: Math.max(...times),
      fetchP50: pct(fetches, 50),
      fetchP95: pct(fetches, 95),
    };
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    fs.rmSync(data, { recursive: true, force: true });
  }
}

const b = bundle();
console.log(
  `bundle: JS ${(b.js.raw / 1024).toFixed(1)} KiB raw, ${(b.js.gzip / 1024).toFixed(1)} KiB gzip; ` +
    `CSS ${(b.css.raw / 1024).toFixed(1)} KiB raw, ${(b.css.gzip / 1024).toFixed(1)} KiB gzip (target: JS ≤ 150 KB gzip)`,
);
const lat = await pickerLatency();
console.log(
  `@ picker, last keystroke → first row painted, minus the ${DEBOUNCE_MS} ms debounce, ${lat.n} queries on the Linux tree: ` +
    `p50 ${lat.p50.toFixed(0)} ms, p95 ${lat.p95.toFixed(0)} ms, max ${lat.max.toFixed(0)} ms (target p95 ≤ 150 ms)` +
    (lat.misses ? `; ${lat.misses} queries showed no row and are not counted` : '') +
    `\n  of which the /api/file-search request (Resource Timing, request start to response end): p50 ${lat.fetchP50.toFixed(0)} ms, p95 ${lat.fetchP95.toFixed(0)} ms`,
);

if (write) {
  const file = path.join(here, 'RESULTS.md');
  const section = `<!-- web:begin -->
## Workbench (\`node bench/web.mjs\`, ${new Date().toISOString().slice(0, 10)})

Shared, loaded machine (2 cores, other sessions building and testing): read the latencies as upper bounds.

| measure | value | target |
| --- | --- | --- |
| bundle JavaScript, gzip -9 | ${(b.js.gzip / 1024).toFixed(1)} KiB (${(b.js.raw / 1024).toFixed(1)} KiB raw) | ≤ 150 KB |
| bundle CSS, gzip -9 | ${(b.css.gzip / 1024).toFixed(1)} KiB | |
| @ picker: last keystroke → first row painted − 200 ms debounce, p50 | ${lat.p50.toFixed(0)} ms | |
| same, p95 (${lat.n} typed queries, Linux tree, indexed, chromium headless) | ${lat.p95.toFixed(0)} ms | ≤ 150 ms |
| same, max | ${lat.max.toFixed(0)} ms | |
| of which the /api/file-search request, p50 / p95 | ${lat.fetchP50.toFixed(0)} / ${lat.fetchP95.toFixed(0)} ms | |
<!-- web:end -->`;
  let text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const re = /<!-- web:begin -->[\s\S]*?<!-- web:end -->/;
  text = re.test(text) ? text.replace(re, section) : `${text.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, text);
}
