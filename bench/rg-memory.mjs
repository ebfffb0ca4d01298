#!/usr/bin/env node
// Peak memory of `trawl rg` (js and rg engines) beside ripgrep 15, on one query with a lot of output, in one
// run: each command's peak RSS (GNU time %M), wall time and output lines, its output drained through a pipe
// as a terminal or an agent would read it. Node's own floor (`node -e 0`) and the CLI's (`trawl --version`)
// are measured in the same run, since no trawl figure can go below them. Beside the process's own peak (what
// GNU time reports: the largest single process), the tree's peak: the sum of VmRSS over the command and every
// process it started (the rg engine's ripgrep child), sampled from /proc every 50 ms — a lower bound on the true
// peak, as any sampling is.
//
//   node bench/rg-memory.mjs [--dir linux/drivers/net] [--pattern '\w+\d{4}'] [--runs N] [--only 'ID,ID'] [--count] [--write]
//
// --dir is relative to the corpora in $TRAWL_BENCH_CACHE (default ~/.cache/trawl-bench; default dir: linux).
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CACHE, here, RG15, TRAWL } from './paths.mjs';

const GNU_TIME = '/usr/bin/time';

const { values: opt } = parseArgs({
  options: {
    dir: { type: 'string', default: 'linux' },
    pattern: { type: 'string', default: '\\w+\\d{4}' },
    runs: { type: 'string', default: '1' },
    timeout: { type: 'string', default: '1800' },
    write: { type: 'boolean', default: false },
    count: { type: 'boolean', default: false },
    // Comma-separated ids of the commands to run (e.g. 'rg 15,trawl rg --engine rg'); default: all.
    only: { type: 'string', default: '' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opt.help) {
  console.log(
    "node bench/rg-memory.mjs [--dir linux|linux/SUBDIR] [--pattern RE] [--runs N] [--only 'ID,ID'] [--write]",
  );
  process.exit(0);
}
const cwd = join(CACHE, opt.dir);
const corpus = opt.dir.split('/')[0];
if (!existsSync(join(CACHE, `${corpus}.done`)) || !existsSync(cwd)) {
  console.error(`corpus not ready: ${cwd} (wait for ${corpus}.done)`);
  process.exit(2);
}
if (!existsSync(GNU_TIME) || !existsSync(RG15)) {
  console.error(`needs ${GNU_TIME} (GNU time) and ripgrep 15 at ${RG15}`);
  process.exit(2);
}

// --count: each search as `-c` (a count per file) instead of `-n` (every line).
const mode = opt.count ? '-c' : '-n';
const tag = opt.count ? ' -c' : '';
const COMMANDS = [
  { id: 'node -e 0', cmd: ['node', '-e', '0'] },
  { id: 'trawl --version', cmd: ['node', TRAWL, '--version'] },
  { id: `rg 15${tag}`, cmd: [RG15, '--no-config', mode, '--', opt.pattern, '.'] },
  {
    id: `trawl rg --engine rg${tag}`,
    cmd: ['node', TRAWL, 'rg', '--engine', 'rg', mode, '--', opt.pattern, '.'],
  },
  {
    id: `trawl rg --engine js${tag}`,
    cmd: ['node', TRAWL, 'rg', '--engine', 'js', mode, '--', opt.pattern, '.'],
  },
];

const TREE_SAMPLE_MS = 50;

/** kB of VmRSS summed over every descendant of `root` (not `root` itself: GNU time's own process). */
function treeRssKb(root) {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields after its last ')' are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(name), ppid);
    } catch {}
  }
  const inTree = (pid) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  let kb = 0;
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    try {
      const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) kb += Number(m[1]);
    } catch {}
  }
  return kb;
}

function runOnce(command) {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-rg-memory-'));
  const rssFile = join(dir, 'rss');
  return new Promise((done) => {
    const start = process.hrtime.bigint();
    const child = spawn(GNU_TIME, ['-f', '%M', '-o', rssFile, ...command], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let lines = 0;
    let stderr = '';
    let treeKb = 0;
    const sampler = setInterval(() => {
      treeKb = Math.max(treeKb, treeRssKb(child.pid));
    }, TREE_SAMPLE_MS);
    child.stdout.on('data', (buf) => {
      for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on('data', (buf) => {
      if (stderr.length < 2000) stderr += buf;
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, Number(opt.timeout) * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(sampler);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      let kb = Number.NaN;
      try {
        kb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1));
      } catch {}
      rmSync(dir, { recursive: true, force: true });
      done({ ms, lines, kb, treeKb, code, stderr: stderr.trim().split('\n')[0] ?? '' });
    });
  });
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
const loadBefore = load();
const rows = [];
const wanted = opt.only ? new Set(opt.only.split(',')) : null;
for (const c of COMMANDS.filter((x) => !wanted || wanted.has(x.id) || x.id === 'rg 15')) {
  let best = null;
  for (let r = 0; r < Number(opt.runs); r++) {
    const res = await runOnce(c.cmd);
    if (res.code !== 0 && res.code !== 1) {
      console.error(`${c.id}: exit ${res.code} ${res.stderr}`);
      best = res;
      break;
    }
    // The largest peak over the runs: memory is what this bench is about, and it must hold every time.
    if (!best || res.kb > best.kb)
      best = {
        ...res,
        treeKb: Math.max(res.treeKb, best?.treeKb ?? 0),
        msAll: [...(best?.msAll ?? []), res.ms],
      };
    else {
      best.msAll.push(res.ms);
      best.treeKb = Math.max(best.treeKb, res.treeKb);
    }
  }
  rows.push({ ...c, ...best, load: load() });
  console.log(
    `${c.id.padEnd(22)} ${(best.kb / 1024).toFixed(1).padStart(7)} MB  tree ${(best.treeKb / 1024).toFixed(1).padStart(7)} MB  ${(best.ms / 1000).toFixed(1)} s  ${best.lines} lines  (load ${load()})`,
  );
}

const rg = rows.find((r) => r.id === `rg 15${tag}`);
const node0 = rows.find((r) => r.id === 'node -e 0') ?? { kb: Number.NaN };
const table = [
  `### \`trawl rg\` peak memory (\`bench/rg-memory.mjs\`, ${new Date().toISOString().slice(0, 16)}Z)`,
  '',
  `\`${opt.pattern}\` over \`${opt.dir}\`, output through a pipe, largest peak RSS of ${opt.runs} run(s): the process's own`,
  `(GNU time %M) and the process tree's (the command and its children, e.g. the rg engine's ripgrep: VmRSS summed,`,
  `sampled every ${TREE_SAMPLE_MS} ms).`,
  `Machine: 2 cores shared with other sessions, load average ${loadBefore} at the start (per row below).`,
  '',
  '| command | peak RSS | × rg 15 | tree peak | tree × rg 15 | above `node -e 0` | wall | lines | load (1, 5, 15 min) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ...rows.map(
    (r) =>
      `| ${r.id} | ${(r.kb / 1024).toFixed(1)} MB | ${(r.kb / rg.kb).toFixed(2)} | ${(r.treeKb / 1024).toFixed(1)} MB | ${(r.treeKb / rg.treeKb).toFixed(2)} | ${((r.kb - node0.kb) / 1024).toFixed(1)} MB | ${(r.ms / 1000).toFixed(1)} s | ${r.lines} | ${r.load} |`,
  ),
  '',
].join('\n');
console.log(`\n${table}`);
if (opt.write) appendFileSync(join(here, 'RESULTS.md'), `\n${table}`);
