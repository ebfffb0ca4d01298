#!/usr/bin/env node
// The server under test for bench/serve.mjs: `trawl serve`'s startServer from dist, in its own process, with an
// event-loop delay monitor and CPU/RSS probes answered over IPC (so the load generator never shares its loop).
//
//   node bench/serve-child.mjs '<json options>'     (spawned by bench/serve.mjs with an IPC channel)
//
// options: { projects: [dir], dataDir, home, index: bool, inline: bool }
// inline: run every task on the event loop with async fs (what a server without pools would do) — the baseline.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { nodeNameFs } from '../packages/core/dist/names/index.js';
import { startServer } from '../packages/server/dist/http/server.js';
import { createTaskContext, InlineRunner } from '../packages/server/dist/http/tasks.js';

const opts = JSON.parse(process.argv[2] ?? '{}');
const env = { ...process.env, HOME: opts.home };
let runners;
if (opts.inline) {
  const ctx = createTaskContext({ home: opts.home, env, extra: [opts.dataDir] });
  ctx.nameFs = nodeNameFs;
  const inline = new InlineRunner(ctx);
  runners = { probe: inline, transfer: inline };
}
const server = await startServer({
  projects: opts.projects,
  dataDir: opts.dataDir,
  home: opts.home,
  env,
  port: 0,
  index: opts.index !== false,
  log: (l) => process.stderr.write(`${l}\n`),
  ...(runners ? { runners } : {}),
});

let h = monitorEventLoopDelay({ resolution: 10 });
h.enable();
let cpu0 = process.cpuUsage();

process.on('message', async (msg) => {
  if (msg.cmd === 'reset') {
    h.disable();
    h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    cpu0 = process.cpuUsage();
    process.send({ id: msg.id, ok: true });
  } else if (msg.cmd === 'stats') {
    const cpu = process.cpuUsage(cpu0);
    process.send({
      id: msg.id,
      loop: {
        p50: h.percentile(50) / 1e6,
        p99: h.percentile(99) / 1e6,
        max: h.max / 1e6,
        mean: h.mean / 1e6,
      },
      rssMb: process.memoryUsage().rss / 1048576,
      cpuMs: { user: cpu.user / 1000, system: cpu.system / 1000 },
      pools: server.pools
        ? { probe: server.pools.probe.stats(), transfer: server.pools.transfer.stats() }
        : undefined,
    });
  } else if (msg.cmd === 'content-settled') {
    // The content indexes on the grep host, once each is ready (or failed).
    const st = await Promise.all(opts.projects.map((p) => server.context.grepHost?.whenSettled(p)));
    process.send({
      id: msg.id,
      status: st.map((s) => s && { state: s.state, files: s.files, reason: s.reason }),
    });
  } else if (msg.cmd === 'index') {
    const st = opts.projects.map((p) => server.context.indexes?.status(p));
    process.send({ id: msg.id, status: st });
  } else if (msg.cmd === 'stop') {
    await server.close();
    process.send({ id: msg.id, ok: true });
    process.exit(0);
  }
});

process.send({ ready: true, origin: server.origin, token: server.token });
