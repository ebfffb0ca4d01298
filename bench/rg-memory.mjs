#!/usr/bin/env node
// Peak memory of `trawl rg` (js and rg engines) beside ripgrep 15, on one query with a lot of output, in one
// run: each command's peak RSS (GNU time %M), wall time and output lines, its output drained through a pipe
// as a terminal or an agent would read it. Node's own floor (`node -e 0`) and the CLI's (`trawl --version`)
// are measured in the same run, since no trawl figure can go below them.
//
//   node bench/rg-memory.mjs [--dir linux/drivers/net] [--pattern '\w+\d{4}'] [--runs N] [--write]
//
// --dir is relative to the corpora in $TRAWL_BENCH_CACHE (default ~/.cache/trawl-bench; default dir: linux).
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opt.help) {
  console.log('node bench/rg-memory.mjs [--dir linux|linux/SUBDIR] [--pattern RE] [--runs N] [--write]');
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

const COMMANDS = [
  { id: 'node -e 0', cmd: ['node', '-e', '0'] },
  { id: 'trawl --version', cmd: ['node', TRAWL, '--version'] },
  { id: 'rg 15', cmd: [RG15, '--no-config', '-n', '--', opt.pattern, '.'] },
  { id: 'trawl rg --engine rg', cmd: ['node', TRAWL, 'rg', '--engine', 'rg', '-n', '--', opt.pattern, '.'] },
  { id: 'trawl rg --engine js', cmd: ['node', TRAWL, 'rg', '--engine', 'js', '-n', '--', opt.pattern, '.'] },
];

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
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      let kb = Number.NaN;
      try {
        kb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1));
      } catch {}
      rmSync(dir, { recursive: true, force: true });
      done({ ms, lines, kb, code, stderr: stderr.trim().split('\n')[0] ?? '' });
    });
  });
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
const loadBefore = load();
const rows = [];
for (const c of COMMANDS) {
  let best = null;
  for (let r = 0; r < Number(opt.runs); r++) {
    const res = await runOnce(c.cmd);
    if (res.code !== 0 && res.code !== 1) {
      console.error(`${c.id}: exit ${res.code} ${res.stderr}`);
      best = res;
      break;
    }
    // The largest peak over the runs: memory is what this bench is about, and it must hold every time.
    if (!best || res.kb > best.kb) best = { ...res, msAll: [...(best?.msAll ?? []), res.ms] };
    else best.msAll.push(res.ms);
  }
  rows.push({ ...c, ...best, load: load() });
  console.log(
    `${c.id.padEnd(22)} ${(best.kb / 1024).toFixed(1).padStart(7)} MB  ${(best.ms / 1000).toFixed(1)} s  ${best.lines} lines  (load ${load()})`,
  );
}

const rg = rows.find((r) => r.id === 'rg 15');
const node0 = rows.find((r) => r.id === 'node -e 0');
const table = [
  `### \`trawl rg\` peak memory (\`bench/rg-memory.mjs\`, ${new Date().toISOString().slice(0, 16)}Z)`,
  '',
  `\`${opt.pattern}\` over \`${opt.dir}\`, output through a pipe, largest peak RSS of ${opt.runs} run(s) (GNU time %M).`,
  `Machine: 2 cores shared with other sessions, load average ${loadBefore} at the start (per row below).`,
  '',
  '| command | peak RSS | × rg 15 | above `node -e 0` | wall | lines | load (1, 5, 15 min) |',
  '|---|---:|---:|---:|---:|---:|---|',
  ...rows.map(
    (r) =>
      `| ${r.id} | ${(r.kb / 1024).toFixed(1)} MB | ${(r.kb / rg.kb).toFixed(2)} | ${((r.kb - node0.kb) / 1024).toFixed(1)} MB | ${(r.ms / 1000).toFixed(1)} s | ${r.lines} | ${r.load} |`,
  ),
  '',
].join('\n');
console.log(`\n${table}`);
if (opt.write) appendFileSync(join(here, 'RESULTS.md'), `\n${table}`);
