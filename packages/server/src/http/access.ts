import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { AuditSink } from '../audit/index.js';
import { isStaticPath } from './static.js';

/** Paths answered without any check: a liveness probe that reveals nothing. */
export const OPEN_PATHS: ReadonlySet<string> = new Set(['/api/health']);
/** Methods that never change state; every other method must not come from another origin. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Loopback names a browser may put in `Host` for a server bound to loopback. */
export const LOOPBACK_NAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];
/** Shortest token accepted from `--token`/`TRAWL_TOKEN`: a guessable token is no gate. */
export const MIN_TOKEN_CHARS = 16;

/** A fresh per-run token: 32 random bytes, base64url (43 characters). */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A token given by the operator must be long and plain (it travels in a URL fragment and a header). */
export function validateAccessToken(token: string): string | undefined {
  if (token.length < MIN_TOKEN_CHARS)
    return `the access token must be at least ${MIN_TOKEN_CHARS} characters`;
  if (!/^[A-Za-z0-9._~-]+$/.test(token)) return 'the access token may hold only A-Z a-z 0-9 . _ ~ -';
  return undefined;
}

export interface AccessOptions {
  token: string;
  /** The port actually bound (known only after listening). */
  port: () => number;
  /** Extra `Host` names the operator allows (a reverse proxy's name), with or without a port. */
  allowHosts?: readonly string[];
  audit: AuditSink;
}

/** The `Host` values accepted: each loopback name and extra name with the bound port (and bare on port 80). */
export function allowedHosts(port: number, extra: readonly string[] = []): Set<string> {
  const out = new Set<string>();
  for (const name of [...LOOPBACK_NAMES, ...extra]) {
    const n = name.toLowerCase();
    if (/:\d+$/.test(n) && !n.endsWith(']')) out.add(n);
    else {
      out.add(`${n}:${port}`);
      if (port === 80) out.add(n);
    }
  }
  return out;
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

/** Constant-time comparison (over digests, so lengths leak nothing either). */
export function tokenMatches(presented: string | undefined, token: string): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 1024) return false;
  return timingSafeEqual(digest(presented), digest(token));
}

function hostHeader(c: Context): string | undefined {
  const env = c.env as { incoming?: { headers?: { host?: string } } } | undefined;
  return env?.incoming?.headers?.host ?? c.req.header('host');
}

/** The peer's address, for the refusal tally (`unknown` when the app runs without a socket, as in `app.request`). */
function peerAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

function bearer(c: Context): string | undefined {
  const h = c.req.header('authorization');
  if (!h) return undefined;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(h);
  return m?.[1];
}

/**
 * Whether a request would pass the `Host` and token checks of {@link accessControl}, judged without refusing or
 * auditing: `/api/health` is open to all and says more only to a caller holding the token.
 */
export function presentsAccess(c: Context, options: AccessOptions): boolean {
  const host = hostHeader(c)?.toLowerCase();
  if (!host || !allowedHosts(options.port(), options.allowHosts).has(host)) return false;
  return tokenMatches(bearer(c), options.token);
}

/**
 * Access control (decision 5 of docs/architecture.md), before routing, on every request but `/api/health`:
 * 1. `Host` must be a loopback name with the bound port (or an operator-allowed name): else 403 `bad_host`. This
 *    defeats DNS rebinding, where a page on another site resolves its own name to 127.0.0.1.
 * 2. A state-changing method whose `Origin` is present and not this server's is 403 `bad_origin`.
 * 3. The token, as `Authorization: Bearer` only: else 401. No cookie is set or accepted — cookies are not
 *    port-scoped, so a cookie for 127.0.0.1 reaches every other local server, whoever runs it. The workbench
 *    takes the token from the URL fragment (never sent to a server). The static workbench files (`/`,
 *    `/assets/*`, `/favicon.svg`) carry no data and need no token.
 * Every refusal is audited (`access_control`, tallied per address and kind: `AuditSink.refused`), without the token
 * or the query string.
 */
export function accessControl(options: AccessOptions): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    if (OPEN_PATHS.has(url.pathname)) return next();
    const port = options.port();
    const hosts = allowedHosts(port, options.allowHosts);
    const refuse = (status: 401 | 403, code: string, error: string) => {
      options.audit.refused({ address: peerAddress(c), code, resources: `${c.req.method} ${url.pathname}` });
      if (status === 401) c.header('WWW-Authenticate', 'Bearer');
      return c.json({ error, code }, status);
    };

    const host = hostHeader(c)?.toLowerCase();
    if (!host || !hosts.has(host)) return refuse(403, 'bad_host', 'host not allowed');

    if (!SAFE_METHODS.has(c.req.method)) {
      const origin = c.req.header('origin');
      if (origin !== undefined) {
        let ok = false;
        try {
          const o = new URL(origin);
          ok =
            o.protocol === 'http:' &&
            hosts.has(o.host.toLowerCase()) &&
            o.pathname === '/' &&
            origin === o.origin;
        } catch {
          ok = false;
        }
        if (!ok) return refuse(403, 'bad_origin', 'cross-origin request refused');
      }
    }

    if (isStaticPath(url.pathname) && SAFE_METHODS.has(c.req.method)) return next();

    const presented = bearer(c);
    if (!tokenMatches(presented, options.token)) {
      return refuse(401, 'unauthorized', 'unauthorized: open the URL `trawl serve` printed');
    }
    await next();
  };
}
