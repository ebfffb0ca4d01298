// Shared set-up for the HTTP tests: a real server on port 0 (fetch over loopback), with either the real worker
// pools or tasks run inline so a test can install seams (tripwires, openers, clocks).
import type { AuditEvent, AuditSink, Refusal } from '../src/audit/index.js';
import type { IndexProvider } from '../src/http/index-host.js';
import {
  type JudgedProject,
  type RunningServer,
  type ServeOptions,
  startServer,
} from '../src/http/server.js';
import {
  createTaskContext,
  InlineRunner,
  type ServerTaskRunner,
  type TaskContext,
} from '../src/http/tasks.js';

export class MemoryAudit implements AuditSink {
  events: AuditEvent[] = [];
  refusals: Refusal[] = [];
  record(e: AuditEvent): void {
    this.events.push(e);
  }
  /** Kept one by one (the real log tallies them); also listed as an `access_control` event. */
  refused(r: Refusal): void {
    this.refusals.push(r);
    this.events.push({
      operation: 'access_control',
      outcome: 'denied',
      error: r.code,
      resources: r.resources,
    });
  }
  of(operation: string): AuditEvent[] {
    return this.events.filter((e) => e.operation === operation);
  }
  last(operation: string): AuditEvent | undefined {
    return this.of(operation).at(-1);
  }
  clear(): void {
    this.events = [];
    this.refusals = [];
  }
}

export interface TestServerOptions {
  projects: Array<string | JudgedProject>;
  home: string;
  dataDir: string;
  env?: Record<string, string>;
  /** Run tasks inline with these context overrides (`true`: inline, no overrides). Default: real worker pools. */
  inline?: Partial<TaskContext> | true;
  /** Replace one runner (e.g. a pool that is always busy). */
  runners?: Partial<{ probe: ServerTaskRunner; transfer: ServerTaskRunner }>;
  /** Default `null` (no indexes: every search walks, like the reference fixture). `undefined`: the real host. */
  indexes?: IndexProvider | null | undefined;
  /** Use the real audit log on disk instead of the memory one. */
  diskAudit?: boolean;
  /** Use this audit sink (a real log with test-sized segments); the server closes it. */
  audit?: AuditSink;
  token?: string;
  allowHosts?: string[];
  /** /api/file-grep's budget (tests that expect a complete answer give a loaded machine room). */
  grepBudgetMs?: number;
  /** The workbench build to serve (default none: `/` is the placeholder). */
  webDist?: string;
  agent?: string[];
  agentLimits?: { deadlineMs?: number; outputMaxBytes?: number; killGraceMs?: number };
  sseHeartbeatMs?: number;
  /** The server's monotonic clock (recent-projects re-read interval). */
  now?: () => number;
  /** The grep host's script (one that installs seams on the host's thread) and admission bounds. */
  grepHost?: ServeOptions['grepHost'];
  /** Threads of the real transfer pool (one: successive searches meet the same thread's memory). */
  transferSize?: number;
}

export interface Answer {
  status: number;
  body: Record<string, unknown> & {
    results?: Array<Record<string, unknown>>;
    root?: string;
    error?: string;
    code?: string;
    outside?: boolean;
  };
  headers: Headers;
  text: string;
}

export interface TestServer {
  server: RunningServer;
  audit: MemoryAudit;
  context?: TaskContext;
  origin: string;
  token: string;
  /** GET with the bearer token. */
  get(route: string, params?: Record<string, string>, init?: RequestInit): Promise<Answer>;
  request(route: string, init?: RequestInit): Promise<Answer>;
  close(): Promise<void>;
}

export async function startTestServer(o: TestServerOptions): Promise<TestServer> {
  const audit = new MemoryAudit();
  const env = { HOME: o.home, ...(o.env ?? {}) };
  const budget = o.grepBudgetMs !== undefined ? { grepBudgetMs: o.grepBudgetMs } : {};
  let context: TaskContext | undefined;
  let runners: { probe: ServerTaskRunner; transfer: ServerTaskRunner } | undefined;
  if (o.inline) {
    context = createTaskContext({ home: o.home, env, extra: [o.dataDir], ...budget });
    if (o.inline !== true) Object.assign(context, o.inline);
    const inline = new InlineRunner(context);
    runners = { probe: inline, transfer: inline };
  }
  if (o.runners) {
    if (!runners) {
      const base = createTaskContext({ home: o.home, env, extra: [o.dataDir], ...budget });
      const inline = new InlineRunner(base);
      runners = { probe: inline, transfer: inline };
    }
    runners = { ...runners, ...o.runners };
  }
  const server = await startServer({
    projects: o.projects,
    dataDir: o.dataDir,
    home: o.home,
    env,
    port: 0,
    log: () => {},
    ...(o.audit ? { audit: o.audit } : o.diskAudit ? {} : { audit }),
    ...(runners ? { runners } : {}),
    ...(o.indexes === undefined && 'indexes' in o ? {} : { indexes: o.indexes ?? null }),
    ...(o.token ? { token: o.token } : {}),
    ...(o.allowHosts ? { allowHosts: o.allowHosts } : {}),
    ...budget,
    webDist: o.webDist ?? null,
    ...(o.agent ? { agent: o.agent } : {}),
    ...(o.agentLimits ? { agentLimits: o.agentLimits } : {}),
    ...(o.sseHeartbeatMs !== undefined ? { sseHeartbeatMs: o.sseHeartbeatMs } : {}),
    ...(o.now ? { now: o.now } : {}),
    ...(o.grepHost ? { grepHost: o.grepHost } : {}),
    ...(o.transferSize !== undefined ? { transferSize: o.transferSize } : {}),
  });
  const request = async (route: string, init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(`${server.origin}${route}`, { redirect: 'manual', ...init });
    const text = await res.text();
    let body: Answer['body'] = {};
    try {
      body = JSON.parse(text) as Answer['body'];
    } catch {
      body = {};
    }
    return { status: res.status, body, headers: res.headers, text };
  };
  return {
    server,
    audit,
    ...(context ? { context } : {}),
    origin: server.origin,
    token: server.token,
    request,
    get(route, params = {}, init = {}) {
      const qs = new URLSearchParams(params).toString();
      return request(qs ? `${route}?${qs}` : route, {
        ...init,
        headers: { authorization: `Bearer ${server.token}`, ...(init.headers ?? {}) },
      });
    },
    close: () => server.close(),
  };
}

/** Runs `fn` against a fresh test server, closed however `fn` ends. */
export async function withTestServer(
  o: TestServerOptions,
  fn: (s: TestServer) => Promise<void>,
): Promise<void> {
  const s = await startTestServer(o);
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

export const names = (a: Answer): string[] => (a.body.results ?? []).map((r) => String(r['name']));
