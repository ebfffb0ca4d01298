import type { Context } from 'hono';
import type { AuditEvent, AuditSink } from '../audit/index.js';
import type { GrepHost } from './grep-host.js';
import type { IndexProvider } from './index-host.js';
import { PoolBusyError, PoolTimeoutError } from './pool.js';
import type { KnownProjects } from './projects.js';
import type { ResolveCache } from './resolve-cache.js';
import type { ServerTaskRunner } from './tasks.js';

/** What the routes run with. Every collaborator is a seam (tests pass inline runners, fake indexes, a memory audit). */
export interface ServerContext {
  audit: AuditSink;
  projects: KnownProjects;
  /** Short probes: project canonicalisation, is-a-directory, the resolving fence. */
  probe: ServerTaskRunner;
  /** Recent `?project=` resolutions (over `probe`). */
  resolved: ResolveCache;
  /** Walks and listings. */
  transfer: ServerTaskRunner;
  /** The known projects' indexes (the fast path), if any. */
  indexes?: IndexProvider;
  /**
   * The known projects' content indexes, on their own thread: a grep whose root one of them covers (and is ready)
   * runs there, admitted and bounded (grep-host.ts); others run on the transfer pool.
   */
  grepHost?: GrepHost;
  home: string;
  /** `TRAWL_PROJECT_DIR`: the first implicit root of an unscoped search (used as spelled). */
  projectDirEnv?: string;
  /**
   * Canonical roots whose index must not answer an explicitly scoped search: on macOS an index rooted at HOME prunes
   * the consent-gated folders, and an explicit `?project=$HOME` is walked in full instead.
   */
  walkOnlyRoots?: ReadonlySet<string>;
  log: (line: string) => void;
  /** /api/file-grep's budget (ms), counted from the request's arrival: queueing for a worker spends it too. */
  grepBudgetMs?: number;
}

/** The coded 503 of a saturated pool (decision 3 of docs/architecture.md). */
export const PROBE_BUSY_BODY = {
  error: 'file system probe capacity exhausted; retry shortly',
  code: 'path_probe_busy',
} as const;
export const PROBE_TIMEOUT_BODY = {
  error: 'file system probe did not finish; retry later',
  code: 'path_probe_timeout',
} as const;

/**
 * Maps a pool refusal to its coded 503 (audited as a failure); anything else is rethrown to the error handler
 * (a coded 500 that reveals no path).
 */
export function poolRefusal(
  c: Context,
  ctx: ServerContext,
  err: unknown,
  event: Omit<AuditEvent, 'outcome' | 'error'>,
): Response {
  if (err instanceof PoolBusyError) {
    ctx.audit.record({ ...event, outcome: 'failure', error: 'path_probe_busy' });
    return c.json(PROBE_BUSY_BODY, 503);
  }
  if (err instanceof PoolTimeoutError) {
    ctx.audit.record({ ...event, outcome: 'failure', error: 'path_probe_timeout' });
    return c.json(PROBE_TIMEOUT_BODY, 503);
  }
  throw err;
}

/** The first value of a query parameter, or '' (repeats after the first are ignored). */
export function param(c: Context, name: string): string {
  const v = c.req.query(name);
  return typeof v === 'string' ? v : '';
}
