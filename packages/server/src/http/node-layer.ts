import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type IncomingMessage, type Server, type ServerOptions, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { AuditSink } from '../audit/index.js';
import { SECURITY_HEADERS } from './headers.js';

/**
 * Node's HTTP options, each chosen:
 * - `requireHostHeader: false` — Node would answer an HTTP/1.1 request without `Host` with a bare 400 of its own;
 *   access control answers it instead (403 `bad_host`, coded, audited);
 * - `insecureHTTPParser: false` — never the lenient parser (malformed framing is how requests are smuggled);
 * - `joinDuplicateHeaders: false` — Node keeps the first `Host` and drops the others; {@link nodeServer} refuses a
 *   request with two before that matters.
 * `rejectNonStandardBodyWrites` stays off: the adapter writes HEAD answers through the same path as GET ones.
 */
export const NODE_SERVER_OPTIONS: ServerOptions = {
  requireHostHeader: false,
  insecureHTTPParser: false,
  joinDuplicateHeaders: false,
};

const JSON_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  ...SECURITY_HEADERS,
};

interface Refused {
  status: number;
  code: string;
  error: string;
}

const MALFORMED: Refused = { status: 400, code: 'bad_request', error: 'malformed request' };
const TWO_HOSTS: Refused = { status: 400, code: 'duplicate_host', error: 'more than one Host header' };

/** What Node's parser refused, by its error code; anything else is a plain malformed request. */
function parserRefusal(code: string | undefined): Refused {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, code: 'headers_too_large', error: 'request headers too large' };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, code: 'request_timeout', error: 'request not received in time' };
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return { status: 413, code: 'payload_too_large', error: 'request body too large' };
  }
  return MALFORMED;
}

function hostHeaders(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'host') n++;
  return n;
}

/** `METHOD /path` without the query string (it may carry a token). */
function requestLine(req: IncomingMessage | undefined): string {
  if (!req) return 'malformed request';
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return `${req.method ?? '?'} ${q >= 0 ? url.slice(0, q) : url}`;
}

/**
 * The HTTP server under the app. Every request gets trawl's coded JSON answer and security headers, and every
 * refusal reaches the audit tally — including the three kinds that were answered below trawl:
 * 1. requests the adapter cannot turn into a URL (`Host: [::ffff:127.0.0.1]:P`, `Host: evil.com@127.0.0.1:P`, a
 *    backslash in the path): @hono/node-server answered an empty 400; here its error handler answers;
 * 2. requests Node's parser refuses (bad header bytes, headers too large, too slow): Node wrote a bare status line
 *    unless a `clientError` listener answers, which this one does;
 * 3. an HTTP/1.1 request without `Host` (see {@link NODE_SERVER_OPTIONS}).
 * A request with two `Host` headers is refused outright: which one a proxy in front believed is unknowable.
 */
export function nodeServer(
  fetch: Parameters<typeof getRequestListener>[0],
  options: { hostname: string; audit: AuditSink },
): Server {
  // The adapter's error handler is told the error, not the request; the request rides along in this store.
  const current = new AsyncLocalStorage<IncomingMessage>();
  const refuse = (req: IncomingMessage | undefined, address: string | undefined, r: Refused) => {
    options.audit.refused({ address: address ?? 'unknown', code: r.code, resources: requestLine(req) });
  };
  const listener = getRequestListener(fetch, {
    hostname: options.hostname,
    errorHandler: (err) => {
      const req = current.getStore();
      const r: Refused =
        err instanceof RequestError ? MALFORMED : { status: 500, code: 'internal', error: 'internal error' };
      if (r === MALFORMED) refuse(req, req?.socket.remoteAddress, r);
      return new Response(JSON.stringify({ error: r.error, code: r.code }), {
        status: r.status,
        headers: JSON_HEADERS,
      });
    },
  });
  const server = createServer(NODE_SERVER_OPTIONS, (req, res) => {
    if (hostHeaders(req.rawHeaders) > 1) {
      refuse(req, req.socket.remoteAddress, TWO_HOSTS);
      res.writeHead(TWO_HOSTS.status, { ...JSON_HEADERS, Connection: 'close' });
      res.end(JSON.stringify({ error: TWO_HOSTS.error, code: TWO_HOSTS.code }));
      return;
    }
    current.run(req, () => void listener(req, res));
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex & { remoteAddress?: string }) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const r = parserRefusal(err.code);
    refuse(undefined, socket.remoteAddress, r);
    const body = JSON.stringify({ error: r.error, code: r.code });
    const head = Object.entries({
      ...JSON_HEADERS,
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.end(`HTTP/1.1 ${r.status} ${STATUS_CODES[r.status]}\r\n${head}\r\n${body}`);
  });
  return server;
}
