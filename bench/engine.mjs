#!/usr/bin/env node
// Engine benchmark: trawl's `rg` CLI (js and rg engines) against ripgrep, GNU grep and git grep on the same
// tree, in one run, warm cache, interleaved round-robin, median wall time and ratio to rg. See bench/README.md.
//
//   node bench/engine.mjs [--runs N] [--quick] [--corpus linux|npm|all] [--tools rg,grep,...] [--timeout S] [--write]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { CACHE, here, RG15, repo, TRAWL } from './paths.mjs';

const RG13 = '/usr/bin/rg'; // Debian's ripgrep package, an extra column when installed
const RESULTS = join(here, 'RESULTS.md');
// GNU time measures each command's peak resident memory (its own few hundred KB are not counted: it reports
// the child's maximum RSS); without it, the memory table is left out.
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    quick: { type: 'boolean', default: false },
    corpus: { type: 'string', default: 'all' },
    tools: { type: 'string' },
    timeout: { type: 'string', default: '60' },
    write: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

// Queries per corpus, as the issue lists them. `count` is the number of lines rg 15 printed when these were
// chosen (a different count means the corpus changed). `syntax` picks grep's and git grep's mode: plain
// literals -F, alternation -E, Perl classes (\w \s \d) -P, because git grep -E with \w took 300 s on Linux.
// rg and trawl always get the pattern as is (a literal is a regex without metacharacters).
const QUERIES = {
  linux: [
    { name: 'rare literal', pattern: 'PM_RESUME', syntax: 'F', count: 39, quick: true },
    { name: 'common literal', pattern: 'ERR_PTR', syntax: 'F', count: 14200 },
    { name: '-i literal', flags: ['-i'], pattern: 'PM_RESUME', syntax: 'F', count: 533 },
    {
      name: 'alternation',
      pattern: 'ERR_SYS|PME_TURN_OFF|LINK_REQ_RST|CFG_BME_EVT',
      syntax: 'E',
      count: 151,
    },
    { name: 'class + literal', pattern: '\\w+_probe\\s*\\(', syntax: 'P', count: 15278, quick: true },
    // 3.4 M lines (430 MB of output): this row measures output throughput as much as matching.
    { name: 'no literal', pattern: '\\w+\\d{4}', syntax: 'P', count: 3428534 },
    { name: 'files with matches', flags: ['-l'], pattern: 'ERR_PTR', syntax: 'F', count: 3416, quick: true },
  ],
  npm: [
    { name: 'rare literal', pattern: 'ERR_INVALID_ARG_TYPE', syntax: 'F', count: 9, quick: true },
    { name: 'common literal', pattern: 'prototype', syntax: 'F', count: 13319 },
    { name: '-i literal', flags: ['-i'], pattern: 'XMLHttpRequest', syntax: 'F', count: 412 },
    { name: 'alternation', pattern: 'useEffect|useLayoutEffect|useInsertionEffect', syntax: 'E', count: 839 },
    { name: 'class + literal', pattern: '\\w+Listener\\s*\\(', syntax: 'P', count: 4720, quick: true },
    { name: 'no literal', pattern: '\\w+\\d{4}', syntax: 'P', count: 62546 },
    {
      name: 'files with matches',
      flags: ['-l'],
      pattern: 'prototype',
      syntax: 'F',
      count: 2529,
      quick: true,
    },
  ],
};

// How each tool spells a query. Every command prints line-numbered matches (or file names for -l) to
// stdout, no colour (stdout is a pipe). rg gets --no-config; trawl's CLI takes rg's flags.
const lineFlags = (q) => (q.flags?.includes('-l') ? q.flags : ['-n', ...(q.flags ?? [])]);
const grepSyntax = (q) => `-${q.syntax}`;
const TOOLS = [
  { id: 'rg', label: 'rg 15', cmd: (q) => [RG15, '--no-config', ...lineFlags(q), '--', q.pattern, '.'] },
  {
    id: 'trawl-js',
    label: 'trawl js',
    cmd: (q) => ['node', TRAWL, 'rg', '--engine', 'js', ...lineFlags(q), '--', q.pattern, '.'],
  },
  {
    id: 'trawl-rg',
    label: 'trawl rg',
    cmd: (q) => ['node', TRAWL, 'rg', '--engine', 'rg', ...lineFlags(q), '--', q.pattern, '.'],
  },
  { id: 'rg13', label: 'rg 13', cmd: (q) => [RG13, '--no-config', ...lineFlags(q), '--', q.pattern, '.'] },
  // GNU grep does not read .gitignore: it searches ignored files too. -I skips binary files as rg does;
  // .git is excluded because it is not part of the tree anyone means to search.
  {
    id: 'grep',
    label: 'grep',
    cmd: (q) => [
      'grep',
      '-r',
      '-I',
      '--exclude-dir=.git',
      grepSyntax(q),
      ...lineFlags(q),
      '-e',
      q.pattern,
      '.',
    ],
  },
  // git grep searches tracked files: the set the ignore rules leave (plus tracked dotfiles, which rg skips).
  {
    id: 'git-grep',
    label: 'git grep',
    cmd: (q) => ['git', 'grep', '-I', grepSyntax(q), ...lineFlags(q), '-e', q.pattern],
  },
];

// Same environment for every tool: no rg config file, UTF-8 locale (rg is Unicode-aware; grep follows the locale).
const ENV = { ...process.env, LC_ALL: 'C.UTF-8' };
delete ENV.RIPGREP_CONFIG_PATH;

function help() {
  console.log(`usage: node bench/engine.mjs [options]
  --runs N        timed runs per command (default 5), after one untimed warm-up run
  --quick         smoke test: 1 run, no warm-up, 3 queries per corpus
  --corpus C      linux | npm | all (default all); corpora live in ${CACHE}
  --tools LIST    comma-separated subset of: ${TOOLS.map((t) => t.id).join(', ')} (rg is always run: it is the baseline)
  --timeout S     per-command limit in seconds (default 60); a tool that exceeds it is skipped for that query
  --write         replace this corpus's section in bench/RESULTS.md`);
}

// Is the tool there and does it search? trawl's CLI is being written: `rg --version` already exits 0 before
// `rg` searches, so run a real search on a one-file tree and expect the match back.
function probe(tool) {
  if (tool.id === 'rg' || tool.id === 'rg13') {
    const bin = tool.id === 'rg' ? RG15 : RG13;
    return existsSync(bin) ? null : `${bin} not found`;
  }
  if (tool.id.startsWith('trawl') && !existsSync(TRAWL)) return `${TRAWL} not found`;
  const dir = mkdtempSync(join(tmpdir(), 'trawl-bench-probe-'));
  try {
    writeFileSync(join(dir, 'a.txt'), 'one\nneedle_probe here\n');
    if (tool.id === 'git-grep') {
      spawnSync('git', ['init', '-q', '.'], { cwd: dir });
      spawnSync('git', ['add', 'a.txt'], { cwd: dir });
    }
    const [cmd, ...args] = tool.cmd({ pattern: 'needle_probe', syntax: 'F' });
    const r = spawnSync(cmd, args, { cwd: dir, env: ENV, encoding: 'utf8', timeout: 30_000 });
    if (r.status === 0 && /a\.txt:2:needle_probe here/.test(r.stdout)) return null;
    const why = (r.stderr || r.stdout || r.error?.message || '').trim().split('\n')[0];
    return `probe failed (exit ${r.status}${why ? `: ${why}` : ''})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// One run: wall time from spawn to exit with stdout drained through a pipe (rg special-cases /dev/null),
// counting output lines. Own process group so a timeout kills everything the command started.
function runOnce(command, cwd, timeoutMs) {
  const rssFile = GNU_TIME ? join(mkdtempSync(join(tmpdir(), 'trawl-bench-rss-')), 'rss') : null;
  const argv = rssFile ? [GNU_TIME, '-f', '%M', '-o', rssFile, ...command] : command;
  const peakRssKb = () => {
    if (!rssFile) return undefined;
    try {
      const kb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1));
      return Number.isFinite(kb) ? kb : undefined;
    } catch {
      return undefined;
    } finally {
      rmSync(dirname(rssFile), { recursive: true, force: true });
    }
  };
  return new Promise((done) => {
    const start = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env: ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let lines = 0;
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (buf) => {
      for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on('data', (buf) => {
      if (stderr.length < 2000) stderr += buf;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      done({ error: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const rssKb = peakRssKb();
      if (timedOut) return done({ timeout: true });
      // 0 = matches, 1 = no match for all of these tools; anything else is an error.
      if (code !== 0 && code !== 1) return done({ error: `exit ${code}: ${stderr.trim().split('\n')[0]}` });
      done({ ms, lines, rssKb });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const shq = (s) => (/^[\w./=@:,+-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);
const fmtMb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const fmtMs = (ms) => (ms >= 10000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

function version(argv) {
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n')[0].trim() : 'n/a';
}

// Which trawl was measured: the repo's commit, and whether packages/ had uncommitted changes (dist is built
// from the work tree).
function trawlState() {
  const git = (args) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' }).stdout.trim();
  const dirty = git(['status', '--porcelain', '--', 'packages']) ? ' + uncommitted changes in packages/' : '';
  return `commit ${git(['rev-parse', '--short', 'HEAD'])}${dirty}`;
}

function machineFacts() {
  const cpu = (readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/) || [])[1] ?? '?';
  return [
    `date: ${new Date().toISOString()}`,
    `machine: nproc ${spawnSync('nproc', { encoding: 'utf8' }).stdout.trim()}, ${cpu}, Linux ${spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim()}`,
    `node ${process.version}; ${version([RG15, '--version'])} (bundled); ${existsSync(RG13) ? `${version([RG13, '--version'])} (Debian)` : 'no Debian rg'}`,
    `${version(['grep', '--version'])}; ${version(['git', '--version'])}`,
    `trawl: ${trawlState()}`,
  ];
}

function corpusFacts(name) {
  const dir = join(CACHE, name);
  const read = (f) => (existsSync(join(CACHE, f)) ? readFileSync(join(CACHE, f), 'utf8').trim() : '?');
  const files = spawnSync('sh', ['-c', 'find . -path ./.git -prune -o -type f -print | wc -l'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const tracked = spawnSync('sh', ['-c', 'git ls-files | wc -l'], { cwd: dir, encoding: 'utf8' });
  const bytes = spawnSync('du', ['-sb', '--exclude=.git', '.'], { cwd: dir, encoding: 'utf8' }).stdout.split(
    '\t',
  )[0];
  const what =
    name === 'linux'
      ? read('linux.version')
      : `${read('npm.versions').split('\n').length} npm packages (npm.versions)`;
  return `${what}; ${files.stdout.trim()} files (${tracked.stdout.trim()} tracked), ${(bytes / 1e6).toFixed(0)} MB, git init+add+commit ${read(`${name}.git-init-seconds`)} s`;
}

async function benchCorpus(name, tools, runs, warmup, timeoutMs) {
  const dir = join(CACHE, name);
  if (!existsSync(join(CACHE, `${name}.done`)))
    throw new Error(`corpus ${name} not built: run npm run bench (or bench/corpora/*)`);
  const queries = opt.quick ? QUERIES[name].filter((q) => q.quick) : QUERIES[name];
  const load = [loadavg()[0]]; // other work on the machine skews everything: report it
  const results = []; // per query: Map tool id -> { times: [], lines, fail }
  console.error(
    `\n== ${name}: ${dir} (${runs} runs${warmup ? ' + warm-up' : ''}, ${queries.length} queries)`,
  );
  for (const q of queries) {
    const res = new Map(tools.map((t) => [t.id, { times: [], lines: undefined, fail: t.na }]));
    const live = () => tools.filter((t) => !res.get(t.id).fail);
    const record = (t, r) => {
      const slot = res.get(t.id);
      if (r.timeout) slot.fail = `timeout > ${timeoutMs / 1000} s`;
      else if (r.error) slot.fail = r.error;
      else {
        // Every run's count is kept: a tool whose output varies between runs (lost lines) must show it.
        slot.seen = [...(slot.seen ?? []), r.lines];
        slot.lines = r.lines;
        if (r.rssKb !== undefined) slot.rssKb = Math.max(slot.rssKb ?? 0, r.rssKb);
        return true;
      }
      return false;
    };
    if (warmup) for (const t of live()) record(t, await runOnce(t.cmd(q), dir, timeoutMs));
    // Round-robin, starting one tool later each round, so drift and noise spread over all tools.
    for (let i = 0; i < runs; i++) {
      const order = live();
      for (let k = 0; k < order.length; k++) {
        const t = order[(k + i) % order.length];
        const r = await runOnce(t.cmd(q), dir, timeoutMs);
        if (record(t, r)) res.get(t.id).times.push(r.ms);
      }
    }
    const rg = res.get('rg');
    const rgMs = rg.times.length ? median(rg.times) : undefined;
    console.error(
      `${q.name.padEnd(18)} ${tools.map((t) => `${t.id} ${res.get(t.id).times.length ? `${fmtMs(median(res.get(t.id).times))}${res.get(t.id).rssKb ? ` ${fmtMb(res.get(t.id).rssKb)}` : ''}` : 'n/a'}`).join(' | ')}`,
    );
    if (rg.lines !== undefined && rg.lines !== q.count)
      console.error(
        `  note: rg printed ${rg.lines} lines, the script expects ${q.count}: has the corpus changed?`,
      );
    for (const t of tools) {
      const s = res.get(t.id);
      const bad = (s.seen ?? []).filter((n) => n !== rg.lines);
      if (s.lines !== undefined && rg.lines !== undefined && bad.length)
        console.error(
          `  !!! COUNT MISMATCH: ${t.label} printed ${[...new Set(s.seen)].join(' / ')} lines, rg ${rg.lines}`,
        );
    }
    results.push({ q, res, rgMs });
  }
  load.push(loadavg()[0]);
  return { name, dir, queries, results, load };
}

function markdown({ name, dir, results, load }, tools, runs, warmup, facts) {
  const out = [];
  const qlabel = (q) => `${q.name} \`${[...(q.flags ?? []), q.pattern].join(' ')}\``;
  out.push(`## ${name}`, '');
  out.push(`Corpus \`${dir.replace(homedir(), '~')}\`: ${corpusFacts(name)}.`, '');
  out.push(
    `${runs} timed run${runs > 1 ? 's' : ''} per command${warmup ? ' after one warm-up run' : ', no warm-up'}, round-robin; median wall time (ratio to rg 15).`,
    '',
  );
  out.push(
    `| query | ${tools.map((t) => t.label).join(' | ')} |`,
    `|---|${tools.map(() => '---:').join('|')}|`,
  );
  for (const { q, res, rgMs } of results) {
    const rgLines = res.get('rg').lines;
    const cells = tools.map((t) => {
      const s = res.get(t.id);
      // A tool that failed part-way is not given a median of the runs it finished.
      if (s.fail) return t.na ? 'n/a' : s.fail.startsWith('timeout') ? s.fail : 'error';
      if (!s.times.length) return 'n/a';
      const ms = median(s.times);
      const varied = Math.min(...s.seen) !== Math.max(...s.seen);
      const warn = varied || (rgLines !== undefined && s.lines !== rgLines) ? ' ⚠' : '';
      return `${fmtMs(ms)} (${rgMs ? (ms / rgMs).toFixed(2) : '?'}×)${warn}`;
    });
    out.push(`| ${qlabel(q)} | ${cells.join(' | ')} |`);
  }
  if (GNU_TIME) {
    out.push('', 'Peak resident memory (the largest over the runs, GNU time `%M`; ratio to rg 15):', '');
    out.push(
      `| query | ${tools.map((t) => t.label).join(' | ')} |`,
      `|---|${tools.map(() => '---:').join('|')}|`,
    );
    for (const { q, res } of results) {
      const rgKb = res.get('rg').rssKb;
      const cells = tools.map((t) => {
        const kb = res.get(t.id).rssKb;
        return kb ? `${fmtMb(kb)} (${rgKb ? (kb / rgKb).toFixed(1) : '?'}×)` : 'n/a';
      });
      out.push(`| ${qlabel(q)} | ${cells.join(' | ')} |`);
    }
  }
  out.push('', 'Lines printed (matching lines, or files for `-l`); ⚠ = differs from rg 15:', '');
  out.push(
    `| query | ${tools.map((t) => t.label).join(' | ')} |`,
    `|---|${tools.map(() => '---:').join('|')}|`,
  );
  for (const { q, res } of results) {
    const rgLines = res.get('rg').lines;
    const cells = tools.map((t) => {
      const s = res.get(t.id);
      if (s.lines === undefined) return 'n/a';
      const lo = Math.min(...s.seen);
      const hi = Math.max(...s.seen);
      if (lo !== hi) return `${lo}–${hi} ⚠ (varied between runs)`;
      return `${s.lines}${s.lines !== rgLines ? ' ⚠' : ''}`;
    });
    out.push(`| ${q.name} | ${cells.join(' | ')} |`);
  }
  const failed = results.flatMap(({ q, res }) =>
    tools
      .filter((t) => res.get(t.id).fail && !t.na)
      .map((t) => `- ${t.label}, ${q.name}: ${res.get(t.id).fail}`),
  );
  const na = tools.filter((t) => t.na).map((t) => `- ${t.label}: ${t.na}`);
  if (failed.length || na.length) out.push('', 'Not measured:', '', ...na, ...failed);
  const loadFact = `load average (1 min) at start / end of this corpus: ${load.map((l) => l.toFixed(1)).join(' / ')}`;
  out.push('', 'Machine:', '', ...facts.map((f) => `- ${f}`), `- ${loadFact}`, '');
  out.push(
    `Commands (cwd = corpus; env LC_ALL=C.UTF-8, RIPGREP_CONFIG_PATH unset; \`${repo}\` = repo):`,
    '',
    '```',
  );
  for (const { q } of results)
    for (const t of tools) out.push(t.cmd(q).map(shq).join(' ').replace(`${repo}/`, ''));
  out.push('```', '');
  return out.join('\n');
}

// RESULTS.md keeps one section per corpus between markers; --write replaces that section or appends it.
const HEADER = `# Benchmark results

Each benchmark writes its own section (between \`<!-- NAME:begin/end -->\` markers); method and corpora in
bench/README.md. Engine sections: \`node bench/engine.mjs --write\` (\`npm run bench -- engine --write\`).

- **Ratios, not absolute times**: every tool runs side by side in the same run on the same tree; read the
  ratio to rg 15 (the bundled ripgrep). Machines here are noisy (2 cores, shared); absolute times move between
  runs and machines.
- Warm cache: each command runs once untimed before the timed runs.
- N timed runs per command, interleaved round-robin across tools; the **median** is reported.
- Counts: lines each tool printed; a ⚠ marks a count that differs from rg's. GNU grep does not apply .gitignore
  (it searches ignored files too) and git grep searches tracked dotfiles that rg skips, so their counts can differ
  for those reasons; trawl's must not.
`;

function writeResults(name, md) {
  const begin = `<!-- engine:${name}:begin -->`;
  const end = `<!-- engine:${name}:end -->`;
  let text = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : HEADER;
  const block = `${begin}\n${md}\n${end}`;
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  text =
    a !== -1 && b > a
      ? text.slice(0, a) + block + text.slice(b + end.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(RESULTS, text);
}

async function main() {
  if (opt.help) return help();
  const runs = opt.quick ? 1 : Number(opt.runs);
  const warmup = !opt.quick;
  const timeoutMs = Number(opt.timeout) * 1000;
  const corpora = opt.corpus === 'all' ? Object.keys(QUERIES) : [opt.corpus];
  for (const c of corpora) if (!QUERIES[c]) throw new Error(`unknown corpus ${c}`);
  const wanted = opt.tools ? new Set(['rg', ...opt.tools.split(',')]) : null;
  for (const id of wanted ?? []) if (!TOOLS.some((t) => t.id === id)) throw new Error(`unknown tool ${id}`);
  // Debian's rg 13 is an extra column only where it is installed.
  const tools = TOOLS.filter((t) => (!wanted || wanted.has(t.id)) && (t.id !== 'rg13' || existsSync(RG13)));
  for (const t of tools) {
    t.na = probe(t);
    console.error(`${t.label}: ${t.na ? `n/a (${t.na})` : 'ok'}`);
  }
  if (tools.find((t) => t.id === 'rg').na) throw new Error('bundled rg missing: run npm install');
  const facts = machineFacts();
  for (const c of corpora) {
    const md = markdown(await benchCorpus(c, tools, runs, warmup, timeoutMs), tools, runs, warmup, facts);
    console.log(`\n${md}`);
    if (opt.write) {
      writeResults(c, md);
      console.error(`wrote section ${c} of ${RESULTS}`);
    }
  }
}

await main();
