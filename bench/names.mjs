#!/usr/bin/env node
// Name search benchmark: ranking quality (hit@1 / hit@5 on bench/names-pairs.mjs) for trawl, the reference scorer
// (packages/core/src/names/reference-score.ts, as the reference wrote it), `fzf --filter` and pi-natives `fuzzyFind`, all over the same candidate set;
// query latency over a typed-query set; index build time against `fd` listing the same tree.
//
//   npm run build && node bench/names.mjs [--corpus linux|npm] [--runs N] [--json out.json] [--write]
//
// --write replaces the <!-- names:begin --> … <!-- names:end --> section of bench/RESULTS.md (appended if absent).
//
// Corpora: ${TRAWL_BENCH_CACHE:-~/.cache/trawl-bench}/{linux,npm}. pi-natives is fetched with `npm pack` into
// ${TRAWL_NAMES_BENCH_CACHE:-~/.cache/trawl-names-bench} (never into the repo).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileIndex, NAME_SKIP_DIRS } from '../packages/core/dist/names/index.js';
// The reference scorer is internal to core (a test and bench oracle): the bench reaches into dist for it.
import { referenceFuzzyScore } from '../packages/core/dist/names/reference-score.js';
import { NAME_PAIRS } from './names-pairs.mjs';

const args = process.argv.slice(2);
const argValue = (flag) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const corpusCache = process.env.TRAWL_BENCH_CACHE || path.join(os.homedir(), '.cache/trawl-bench');
const toolCache = process.env.TRAWL_NAMES_BENCH_CACHE || path.join(os.homedir(), '.cache/trawl-names-bench');
const onlyCorpus = argValue('--corpus');
const jsonOut = argValue('--json');
const BUILD_RUNS = Number(argValue('--runs') || process.env.NAMES_BUILD_RUNS || 5);
const write = args.includes('--write');
const PI_VERSION = { natives: '18.2.10', linux: '18.2.11' };

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : Number.NaN;
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (x) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;

function loadPiNatives() {
  const dir = path.join(toolCache, 'pi');
  const addon = path.join(
    dir,
    `linux-x64-${PI_VERSION.linux}`,
    'package',
    'pi_natives.linux-x64-modern.node',
  );
  try {
    if (!fs.existsSync(addon)) {
      fs.mkdirSync(dir, { recursive: true });
      const tgz = execFileSync(
        'npm',
        ['pack', `@oh-my-pi/pi-natives-linux-x64@${PI_VERSION.linux}`, '--pack-destination', dir, '--silent'],
        { encoding: 'utf8' },
      ).trim();
      const out = path.join(dir, `linux-x64-${PI_VERSION.linux}`);
      fs.mkdirSync(out, { recursive: true });
      execFileSync('tar', ['-xzf', path.join(dir, tgz.split('\n').pop()), '-C', out]);
    }
    const mod = createRequire(import.meta.url)(addon);
    if (typeof mod.fuzzyFind !== 'function') throw new Error('no fuzzyFind export');
    return { fuzzyFind: mod.fuzzyFind, version: PI_VERSION.linux };
  } catch (err) {
    return { error: String(err?.message ?? err).split('\n')[0] };
  }
}

/** A tree of empty files and directories holding exactly `entries`, so pi-natives (which walks) sees trawl's set. */
function mirrorTree(name, entries) {
  const root = path.join(toolCache, 'mirror', name);
  const stamp = path.join(toolCache, 'mirror', `${name}.stamp`);
  const want = String(entries.length);
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === want) return root;
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  for (const e of entries) if (e.kind === 'dir') fs.mkdirSync(path.join(root, e.rel), { recursive: true });
  for (const e of entries) {
    if (e.kind !== 'file') continue;
    fs.mkdirSync(path.dirname(path.join(root, e.rel)), { recursive: true });
    fs.writeFileSync(path.join(root, e.rel), '');
  }
  fs.writeFileSync(stamp, want);
  return root;
}

function referenceTop(entries, query, k) {
  const q = query.trim().toLowerCase();
  const scored = [];
  for (const e of entries) {
    const name = e.rel.slice(e.rel.lastIndexOf('/') + 1);
    const s = referenceFuzzyScore(q, name, e.rel);
    if (s > 0) scored.push({ rel: e.rel, s, dir: e.kind === 'dir', len: name.length });
  }
  // §2.2 order; the reference's last key (recency) is the same for every mirror entry, so collection order stays
  scored.sort((a, b) => b.s - a.s || Number(a.dir) - Number(b.dir) || a.len - b.len);
  return scored.slice(0, k).map((x) => x.rel);
}

function fzfTop(candidatesText, query, k, extra = []) {
  const r = spawnSync('fzf', ['--filter', query, ...extra], {
    input: candidatesText,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  if (r.error) throw r.error;
  return r.stdout.split('\n').filter(Boolean).slice(0, k);
}

function fdListing(root) {
  const excludes = [...NAME_SKIP_DIRS].flatMap((d) => ['--exclude', d]);
  return ['fdfind', ['--no-ignore', ...excludes, '.', root]];
}

async function benchCorpus(name, pi) {
  const root = fs.realpathSync(path.join(corpusCache, name));
  const out = { corpus: name, root };

  // ---- index build vs fd ------------------------------------------------------------------------------------
  const builds = [];
  let index;
  for (let i = 0; i < BUILD_RUNS; i++) {
    index?.stop();
    index = new FileIndex(root, { watch: false, pollMs: 0, fullRebuildMs: 0 });
    const t0 = performance.now();
    await index.start();
    builds.push(performance.now() - t0);
  }
  const [fdBin, fdArgs] = fdListing(root);
  const fdTimes = [];
  let fdCount = 0;
  for (let i = 0; i < BUILD_RUNS; i++) {
    const t0 = performance.now();
    const r = spawnSync(fdBin, fdArgs, { encoding: 'utf8', maxBuffer: 256 << 20 });
    fdTimes.push(performance.now() - t0);
    fdCount = r.stdout.split('\n').filter(Boolean).length;
  }
  // the same build through a watching index (what a served root pays on top: the watchers)
  const w = new FileIndex(root, { pollMs: 0, fullRebuildMs: 0 });
  const tw = performance.now();
  await w.start();
  const watchedBuild = performance.now() - tw;
  const watched = w.watchedDirectories;
  w.stop();
  out.build = {
    trawlMedianMs: median(builds),
    trawlRunsMs: builds,
    fdMedianMs: median(fdTimes),
    fdRunsMs: fdTimes,
    ratio: median(builds) / median(fdTimes),
    entries: index.size,
    fdEntries: fdCount,
    fdCommand: `${fdBin} ${fdArgs.join(' ')}`,
    withWatchersMs: watchedBuild,
    watchedDirectories: watched,
  };

  // ---- ranking ------------------------------------------------------------------------------------------------
  const entries = [...index.entries()];
  const candidatesText = `${entries.map((e) => e.rel).join('\n')}\n`;
  const mirror = pi.fuzzyFind ? mirrorTree(name, entries) : undefined;
  const pairs = NAME_PAIRS[name] ?? [];
  const tools = ['trawl', 'reference', 'fzf', 'fzf --scheme=path', 'pi-natives'];
  const hits = Object.fromEntries(tools.map((t) => [t, { at1: 0, at5: 0, n: 0 }]));
  const rows = [];
  for (const [query, want] of pairs) {
    if (!fs.existsSync(path.join(root, want))) throw new Error(`pair target missing: ${want}`);
    const tops = {};
    tops.trawl = (await index.search(query, { limit: 5 })).map((r) => r.path.slice(root.length + 1));
    tops.reference = referenceTop(entries, query, 5);
    tops.fzf = fzfTop(candidatesText, query, 5);
    tops['fzf --scheme=path'] = fzfTop(candidatesText, query, 5, ['--scheme=path']);
    if (pi.fuzzyFind) {
      const r = await pi.fuzzyFind({
        query,
        path: mirror,
        maxResults: 5,
        gitignore: false,
        hidden: true,
        cache: true,
      });
      tops['pi-natives'] = r.matches.map((m) => m.path.replace(/\/$/, ''));
    }
    const row = { query, want };
    for (const t of tools) {
      const top = tops[t];
      if (!top) continue;
      hits[t].n++;
      if (top[0] === want) hits[t].at1++;
      if (top.includes(want)) hits[t].at5++;
      row[t] = top[0] === want ? 1 : top.includes(want) ? 5 : 0;
      row[`${t} top`] = top[0] ?? '';
    }
    rows.push(row);
  }
  out.ranking = { hits, rows };

  // ---- latency: every pair query and each prefix of it a picker would send while it is typed --------------------
  const typed = [];
  for (const [query] of pairs) for (let n = 2; n <= query.length; n++) typed.push(query.slice(0, n));
  for (const q of typed) await index.search(q, { limit: 15 }); // warm-up pass
  const times = [];
  const cpu = [];
  const slow = [];
  for (let round = 0; round < 3; round++) {
    for (const q of typed) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await index.search(q, { limit: 15 });
      const dt = performance.now() - t0;
      const c = process.cpuUsage(c0);
      times.push(dt);
      cpu.push((c.user + c.system) / 1000);
      slow.push([dt, q]);
    }
  }
  slow.sort((a, b) => b[0] - a[0]);
  // whole queries, each unrelated to the one before (no keystroke narrowing): the one-shot / agent case
  const cold = [];
  const coldCpu = [];
  for (let round = 0; round < 3; round++) {
    for (const [q] of pairs) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await index.search(q, { limit: 15 });
      cold.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      coldCpu.push((c.user + c.system) / 1000);
    }
  }
  // the first search after a build, before the background preparation of search objects has run (a served root's
  // first keystroke after a rebuild; the issue's `mm/mmap` case)
  const first = [];
  const firstCpu = [];
  for (const [q] of pairs.slice(0, 3)) {
    const fresh = new FileIndex(root, { watch: false, pollMs: 0, fullRebuildMs: 0 });
    await fresh.start();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fresh.search(q, { limit: 15 });
    first.push([performance.now() - t0, q]);
    const c = process.cpuUsage(c0);
    firstCpu.push((c.user + c.system) / 1000);
    fresh.stop();
  }
  out.latency = {
    queries: typed.length,
    samples: times.length,
    p50: pct(times, 50),
    p90: pct(times, 90),
    p99: pct(times, 99),
    max: Math.max(...times),
    cpuP50: pct(cpu, 50),
    cpuP99: pct(cpu, 99),
    cold: {
      samples: cold.length,
      p50: pct(cold, 50),
      p99: pct(cold, 99),
      max: Math.max(...cold),
      cpuP50: pct(coldCpu, 50),
      cpuP99: pct(coldCpu, 99),
    },
    slowest: slow.slice(0, 5).map(([t, q]) => `${q} ${t.toFixed(1)}`),
    firstAfterBuild: first.map(([t, q], i) => `${q} ${t.toFixed(1)} (CPU ${firstCpu[i].toFixed(1)})`),
  };
  index.stop();
  return out;
}

function report(results, pi, load) {
  const lines = [];
  lines.push('## Name search (`bench/names.mjs`)');
  lines.push('');
  lines.push(
    'Ranking: hit@1 / hit@5 over the (query → intended file) pairs of `bench/names-pairs.mjs` (written before trawl',
    "was measured on them, ambiguous intents left out). Every tool ranks the same candidate set — trawl's index of",
    'the corpus (files and directories; dot files, skip directories and symlinks into credential stores excluded):',
    'the reference scorer (names/reference-score.ts, as the reference wrote it) and `fzf --filter` are fed its paths;',
    'pi-natives `fuzzyFind` walks a mirror tree holding exactly those entries. Latency: every pair query and each',
    'prefix of it from 2 characters on, in typing order (what a picker sends; each keystroke may narrow to the',
    'previous candidates), 3 rounds after a warm-up round,',
    '`FileIndex.search(q, {limit: 15})` including the per-result stat; CPU = process user+system time of the call.',
    `Build: \`new FileIndex(root).start()\` in-process (one-shot: no watchers), median of ${BUILD_RUNS}, against`,
    'fd listing the same tree (same skip directories, no ignore files, hidden entries excluded by both); "with',
    'watchers" is one build of a watching index (the cost a served root pays once).',
    '',
    'Command: `npm run build && node bench/names.mjs --write` (or `npm run bench -- names --write`).',
    '',
  );
  lines.push(`Machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}`);
  lines.push(`Load average at start: ${load.map((x) => x.toFixed(2)).join(' ')}`);
  lines.push(
    `pi-natives: ${pi.fuzzyFind ? `@oh-my-pi/pi-natives-linux-x64 ${pi.version} (modern build)` : `NOT LOADED — ${pi.error}`}`,
  );
  lines.push('');
  lines.push(
    '| corpus | entries | trawl build (median) | fd (median) | ratio | with watchers | dirs watched |',
  );
  lines.push('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    const b = r.build;
    lines.push(
      `| ${r.corpus} | ${b.entries} (fd ${b.fdEntries}) | ${ms(b.trawlMedianMs)} | ${ms(b.fdMedianMs)} | ${b.ratio.toFixed(2)}× | ${ms(b.withWatchersMs)} | ${b.watchedDirectories} |`,
    );
  }
  lines.push('');
  lines.push(
    '| corpus | typed queries | samples | p50 | p90 | p99 | max | CPU p50 | CPU p99 | slowest (wall) |',
  );
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    const l = r.latency;
    lines.push(
      `| ${r.corpus} | ${l.queries} | ${l.samples} | ${ms(l.p50)} | ${ms(l.p90)} | ${ms(l.p99)} | ${ms(l.max)} | ${ms(l.cpuP50)} | ${ms(l.cpuP99)} | ${l.slowest.join(', ')} |`,
    );
  }
  lines.push('');
  lines.push('Whole queries, cold (each pair query once per round, 3 rounds; no keystroke narrowing):');
  lines.push('');
  lines.push('| corpus | samples | p50 | p99 | max | CPU p50 | CPU p99 |');
  lines.push('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    const c = r.latency.cold;
    lines.push(
      `| ${r.corpus} | ${c.samples} | ${ms(c.p50)} | ${ms(c.p99)} | ${ms(c.max)} | ${ms(c.cpuP50)} | ${ms(c.cpuP99)} |`,
    );
  }
  lines.push('');
  lines.push(
    'First search after a build (a fresh index per query, its search objects not yet prepared), ms:',
  );
  lines.push('');
  for (const r of results) lines.push(`- ${r.corpus}: ${r.latency.firstAfterBuild.join(', ')}`);
  lines.push('');
  const tools = ['trawl', 'reference', 'fzf', 'fzf --scheme=path', 'pi-natives'];
  lines.push(
    `| tool | ${results.map((r) => `${r.corpus} hit@1 | ${r.corpus} hit@5`).join(' | ')} | total hit@1 | total hit@5 |`,
  );
  lines.push(`| --- | ${results.map(() => '--- | ---').join(' | ')} | --- | --- |`);
  for (const t of tools) {
    let a1 = 0;
    let a5 = 0;
    let n = 0;
    const cells = results.map((r) => {
      const h = r.ranking.hits[t];
      a1 += h.at1;
      a5 += h.at5;
      n += h.n;
      return h.n ? `${h.at1}/${h.n} | ${h.at5}/${h.n}` : '— | —';
    });
    lines.push(`| ${t} | ${cells.join(' | ')} | ${n ? `${a1}/${n}` : '—'} | ${n ? `${a5}/${n}` : '—'} |`);
  }
  lines.push('');
  lines.push(
    'Per pair (1 = first, 5 = in top 5, 0 = missed); the first result when it was not the intended file:',
  );
  lines.push('');
  lines.push(`| corpus | query | intended | ${tools.join(' | ')} |`);
  lines.push(`| --- | --- | --- | ${tools.map(() => '---').join(' | ')} |`);
  for (const r of results) {
    for (const row of r.ranking.rows) {
      const cells = tools.map((t) => {
        if (row[t] === undefined) return '—';
        return row[t] === 1 ? '1' : `${row[t]} (\`${row[`${t} top`] || '∅'}\`)`;
      });
      lines.push(`| ${r.corpus} | \`${row.query}\` | \`${row.want}\` | ${cells.join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

const load = os.loadavg();
const pi = loadPiNatives();
const results = [];
for (const name of ['linux', 'npm']) {
  if (onlyCorpus && name !== onlyCorpus) continue;
  if (!fs.existsSync(path.join(corpusCache, name))) {
    console.error(`names bench: corpus ${name} missing under ${corpusCache}; skipped`);
    continue;
  }
  results.push(await benchCorpus(name, pi));
}
const text = report(results, pi, load);
console.log(text);
if (write) {
  const file = path.join(path.dirname(new URL(import.meta.url).pathname), 'RESULTS.md');
  const section = `<!-- names:begin -->\n${text}\n<!-- names:end -->`;
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const re = /<!-- names:begin -->[\s\S]*?<!-- names:end -->/;
  fs.writeFileSync(file, re.test(old) ? old.replace(re, section) : `${old.trimEnd()}\n\n${section}\n`);
}
if (jsonOut)
  fs.writeFileSync(jsonOut, JSON.stringify({ load, pi: pi.error ?? pi.version, results }, null, 2));
