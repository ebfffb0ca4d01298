import * as fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { closeSharedPdfPool } from '@trawl/core/docs';
import { type CanonicalRoot, homeDir, resolveUserRoot, SensitiveFence } from '@trawl/core/fence';
import { AUDIT_DIR, AUDIT_KEY_FILE, AuditKeyError, AuditLog, type AuditSink } from '../audit/index.js';
import { builtScriptUrl } from '../built-script.js';
import type { AgentCommand } from '../conversations/agent.js';
import { Replies } from '../conversations/replies.js';
import { CONVERSATIONS_DIR, ConversationStore } from '../conversations/store.js';
import { newAccessToken, validateAccessToken } from './access.js';
import { createApp } from './app.js';
import type { ServerContext } from './context.js';
import { checkDataDir, dataDirProblem } from './data-dir.js';
import { GrepHost, type GrepHostOptions } from './grep-host.js';
import { IndexHost, type IndexProvider } from './index-host.js';
import {
  GREP_HOST_NICE,
  INDEX_HOST_NICE,
  PROBE_EXEC_CEILING_MS,
  PROBE_POOL_SIZE,
  PROBE_WORKER_NICE,
  SERVE_DEFAULT_HOST,
  SERVE_DEFAULT_PORT,
  TRANSFER_EXEC_CEILING_MS,
  TRANSFER_POOL_SIZE,
  TRANSFER_WORKER_NICE,
} from './limits.js';
import { nodeServer } from './node-layer.js';
import { WorkerPool } from './pool.js';
import { projectAccess } from './project-files.js';
import { KnownProjects } from './projects.js';
import { ResolveCache } from './resolve-cache.js';
import { resolveWebDist } from './static.js';
import type { FenceConfig, ServerTaskRunner, ServerTasks } from './tasks.js';

/** The subdirectories of the data directory, checked (never a link) before anything is read or written. */
const DATA_SUBDIRS = [CONVERSATIONS_DIR, 'content-index', AUDIT_DIR, path.dirname(AUDIT_KEY_FILE)];

export interface ServeOptions {
  /**
   * Known projects given on the command line: absolute spellings, judged here by the root policy for the hosts that
   * index them, or already judged by the caller (`trawl serve`: cliRoot), whose root is then taken as it is.
   */
  projects: readonly (string | JudgedProject)[];
  /** trawl's data directory (audit log, key, recent projects). Sensitive to every endpoint. */
  dataDir: string;
  port?: number;
  host?: string;
  /** The access token (default: a fresh random one per run). */
  token?: string;
  /** Extra `Host` names to accept (a reverse proxy's name). */
  allowHosts?: readonly string[];
  home?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra sensitive locations (absolute or `~/`). */
  sensitive?: readonly string[];
  /** /api/file-grep's shared budget in ms (default 2 000). */
  grepBudgetMs?: number;
  /** Operational log (stderr). */
  log?: (line: string) => void;
  probeSize?: number;
  transferSize?: number;
  /** Build an index for each known project from `projects` (default true). */
  index?: boolean;
  /** Replace the pools (tests run tasks inline to install seams). */
  runners?: { probe: ServerTaskRunner; transfer: ServerTaskRunner };
  /** Replace the index host (tests). `null`: no indexes at all. */
  indexes?: IndexProvider | null;
  /** The grep host's script and admission bounds (tests run a script that installs seams: grep-host-thread.ts). */
  grepHost?: Pick<GrepHostOptions, 'script' | 'maxActive' | 'maxWaiting' | 'execCeilingMs'>;
  /** Replace the audit log (tests). */
  audit?: AuditSink;
  /** The operator's `--agent` argv (split by the CLI); absent: replies preview what an agent would receive. */
  agent?: readonly string[];
  /** Replace the agent's bounds (tests). */
  agentLimits?: Pick<AgentCommand, 'deadlineMs' | 'outputMaxBytes' | 'killGraceMs'>;
  /** Silence after which a reply stream sends a keep-alive comment (tests). */
  sseHeartbeatMs?: number;
  /** The workbench build directory (default: `@trawl/web`'s `dist/`); `null`: none (the placeholder page). */
  webDist?: string | null;
  /** Monotonic clock (ms) for the recent-projects re-read interval (default `performance.now`; tests). */
  now?: () => number;
}

/** A project the caller judged by the root policy: the spelling the operator gave, and where it led. */
export interface JudgedProject {
  lexical: string;
  root: CanonicalRoot;
}

export interface RunningServer {
  /** The URL to open: origin plus `/#token=…` (a fragment: the browser never sends it to a server). */
  url: string;
  origin: string;
  port: number;
  token: string;
  fence: FenceConfig;
  context: ServerContext;
  pools?: { probe: WorkerPool<ServerTasks>; transfer: WorkerPool<ServerTasks> };
  /** Stops accepting, closes connections, stops workers, flushes the audit log. */
  close(): Promise<void>;
}

/**
 * The known projects' content indexes, loaded or built in the background on the grep host's thread (grep-host.ts);
 * `/api/file-grep` on a covered root goes through one once it is ready, and scans until then.
 */
function openGrepHost(
  roots: readonly CanonicalRoot[],
  o: {
    dataDir: string;
    fenceConfig: FenceConfig;
    log: (line: string) => void;
    host?: ServeOptions['grepHost'];
  },
): GrepHost {
  const host = new GrepHost({
    fence: { ...o.fenceConfig, nice: GREP_HOST_NICE },
    dataDir: o.dataDir,
    roots,
    log: o.log,
    ...o.host,
  });
  for (const root of roots) {
    void host
      .whenSettled(root)
      .then((st) =>
        o.log(
          st.state === 'ready'
            ? `trawl serve: content index of ${st.root} ready (${st.files} files; ${st.reason}; freshness: ${st.freshness})`
            : `trawl serve: no content index of ${st.root} (${st.reason}); greps scan`,
        ),
      );
  }
  return host;
}

/**
 * The command line's projects as roots for the hosts that index them: a spelling judged here, once, by the root
 * policy (one it refuses — gone, or a link into a store — is left unindexed; the routes judge every request afresh
 * anyway); a project the caller judged, at the root it was judged to.
 */
async function judgedRoots(
  projects: readonly (string | JudgedProject)[],
  fence: SensitiveFence,
  home: string,
): Promise<CanonicalRoot[]> {
  const roots: CanonicalRoot[] = [];
  for (const p of projects) {
    let root: CanonicalRoot;
    if (typeof p !== 'string') root = p.root;
    else {
      const r = await resolveUserRoot(p, { fence, home });
      if (!r.ok) continue;
      root = r.root;
    }
    if (!roots.includes(root)) roots.push(root);
  }
  return roots;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The agent's environment: the server's, without the access token (an agent has no business calling back with
 * the operator's rights), whatever variable holds it.
 */
function agentEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  token: string,
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) if (k !== 'TRAWL_TOKEN' && v !== token) out[k] = v;
  return out;
}

/** Starts `trawl serve`'s HTTP server. Resolves once it listens; rejects when the port cannot be bound. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const home = options.home ?? homeDir(env);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const token = options.token ?? newAccessToken();
  const bad = validateAccessToken(token);
  if (bad) throw new Error(bad);
  const dataDir = path.resolve(options.dataDir);

  const fence: FenceConfig = {
    home,
    env: { ...env },
    extra: [dataDir, ...(options.sensitive ?? [])],
    dataDir,
    ...(options.grepBudgetMs !== undefined ? { grepBudgetMs: options.grepBudgetMs } : {}),
  };
  const mainFence = new SensitiveFence({ home: fence.home, env: fence.env, extra: fence.extra });
  // Judged once, for both the name-index host and the grep host.
  const indexedRoots =
    options.index === false || options.indexes === null
      ? []
      : await judgedRoots(options.projects, mainFence, home);
  let audit: AuditSink;
  try {
    checkDataDir(dataDir, DATA_SUBDIRS);
    audit =
      options.audit ??
      AuditLog.open({
        dataDir,
        literals: [token],
        onError: (e) => log(`audit: ${e.message}`),
        warn: (line) => log(`trawl serve: ${line}`),
      });
  } catch (err) {
    if (err instanceof AuditKeyError) throw err;
    throw dataDirProblem(dataDir, err);
  }

  let pools: RunningServer['pools'];
  let runners = options.runners;
  if (!runners) {
    const script = builtScriptUrl('worker.js', import.meta.url);
    pools = {
      probe: new WorkerPool<ServerTasks>({
        name: 'probe',
        script,
        workerData: { ...fence, nice: PROBE_WORKER_NICE },
        size: options.probeSize ?? PROBE_POOL_SIZE,
        execCeilingMs: PROBE_EXEC_CEILING_MS,
        log,
      }),
      transfer: new WorkerPool<ServerTasks>({
        name: 'transfer',
        script,
        workerData: { ...fence, nice: TRANSFER_WORKER_NICE },
        size: options.transferSize ?? TRANSFER_POOL_SIZE,
        execCeilingMs: TRANSFER_EXEC_CEILING_MS,
        log,
      }),
    };
    pools.probe.warm();
    pools.transfer.warm();
    runners = pools;
  }

  let indexHost: IndexHost | undefined;
  let indexes: IndexProvider | undefined;
  if (options.indexes === null) indexes = undefined;
  else if (options.indexes) indexes = options.indexes;
  else {
    indexHost = new IndexHost({
      fence: { ...fence, nice: INDEX_HOST_NICE },
      log,
      ...(options.index === false ? { runtimeProjects: 0 } : {}),
    });
    indexes = indexHost;
    if (options.index !== false) for (const root of indexedRoots) indexHost.keep(root);
  }

  const projects = new KnownProjects({
    // The allow-list keeps the operator's spellings (`/api/path-complete` matches them lexically).
    dirs: options.projects.map((p) => (typeof p === 'string' ? p : p.lexical)),
    dataDir,
    home,
    ...(options.now ? { now: options.now } : {}),
  });
  // macOS: an index rooted at HOME prunes the consent-gated folders; an explicit ?project=$HOME walks in full.
  const walkOnlyRoots = new Set<string>();
  if (process.platform === 'darwin') {
    try {
      walkOnlyRoots.add(fs.realpathSync(home));
    } catch {
      // no HOME: nothing to bypass
    }
  }
  let boundPort = options.port ?? SERVE_DEFAULT_PORT;
  const grepHost =
    options.indexes === null || options.index === false
      ? undefined
      : openGrepHost(indexedRoots, {
          dataDir,
          fenceConfig: fence,
          log,
          ...(options.grepHost ? { host: options.grepHost } : {}),
        });
  const context: ServerContext = {
    ...(grepHost ? { grepHost } : {}),
    audit,
    projects,
    probe: runners.probe,
    resolved: new ResolveCache(runners.probe),
    transfer: runners.transfer,
    ...(indexes ? { indexes } : {}),
    home,
    ...(env['TRAWL_PROJECT_DIR'] ? { projectDirEnv: env['TRAWL_PROJECT_DIR'] } : {}),
    walkOnlyRoots,
    log,
    ...(options.grepBudgetMs !== undefined ? { grepBudgetMs: options.grepBudgetMs } : {}),
  };
  const webDist = options.webDist === null ? undefined : (options.webDist ?? resolveWebDist());
  const store = new ConversationStore({ dataDir, literals: [token] });
  const replies = new Replies({
    store,
    projects: projectAccess(context),
    audit,
    log,
    ...(options.agent ? { agent: { argv: options.agent, ...options.agentLimits } } : {}),
    agentEnv: agentEnvironment(env, token),
    defaultCwd: process.cwd(),
  });
  const app = createApp({
    ...context,
    conversations: {
      store,
      replies,
      ...(options.sseHeartbeatMs !== undefined ? { heartbeatMs: options.sseHeartbeatMs } : {}),
    },
    ...(webDist ? { webDist } : {}),
    access: {
      token,
      port: () => boundPort,
      audit,
      ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
    },
  });

  const host = options.host ?? SERVE_DEFAULT_HOST;
  const stopWorkers = async () => {
    await replies.close();
    await Promise.all([
      pools?.probe.close(),
      pools?.transfer.close(),
      // Greps run inline (no pools) extract PDFs from this thread's pool.
      closeSharedPdfPool(),
      indexHost?.close(),
      grepHost?.close(),
    ]);
    if (audit instanceof AuditLog) await audit.close();
  };
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = nodeServer(app.fetch, { hostname: host, audit });
      const onError = (err: Error) => reject(err);
      s.once('error', onError);
      s.once('listening', () => {
        s.off('error', onError);
        resolve(s);
      });
      s.listen(options.port ?? SERVE_DEFAULT_PORT, host);
    });
  } catch (err) {
    await stopWorkers();
    throw err;
  }
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.on('error', (err) => log(`trawl serve: server error: ${err.message}`));
  boundPort = (server.address() as AddressInfo).port;
  const origin = `http://${urlHost(host)}:${boundPort}`;

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    port: boundPort,
    token,
    fence,
    context,
    ...(pools ? { pools } : {}),
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await stopWorkers();
      })();
      return closing;
    },
  };
}
