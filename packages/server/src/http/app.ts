import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type AccessOptions, accessControl } from './access.js';
import type { ServerContext } from './context.js';
import { fileSearch } from './file-search.js';
import { BODY_LIMIT_BYTES } from './limits.js';
import { pathComplete } from './path-complete.js';

/** The plain page `/` serves until the web workbench lands. */
export const PLACEHOLDER_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>trawl</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .2em}</style>
</head><body>
<h1>trawl is running</h1>
<p>The web workbench comes in a later release. Until then this server answers its API:</p>
<ul>
<li><code>GET /api/file-search?q=…&amp;project=…</code> — files and folders by name</li>
<li><code>GET /api/path-complete?path=…&amp;dir=./&amp;q=…</code> — one directory level of a known project</li>
<li><code>GET /api/projects</code> — known projects</li>
</ul>
<p>See <code>docs/http-api.md</code>.</p>
</body></html>
`;

/** Routes and the methods they answer; any other method on them is 405. */
const ROUTES = ['/', '/api/health', '/api/projects', '/api/file-search', '/api/path-complete'] as const;

export interface AppOptions extends ServerContext {
  access: AccessOptions;
}

/**
 * The dashboard API as a Hono app (a Web-standard fetch handler: mountable elsewhere, testable without sockets).
 * Access control runs before routing; every answer is JSON but the placeholder page; no caller input reaches the
 * error handler except through a bug, which is answered with a coded 500 that reveals no path.
 */
export function createApp(options: AppOptions): Hono {
  const ctx: ServerContext = options;
  const app = new Hono();

  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
  });
  app.use('*', accessControl(options.access));
  app.use(
    '*',
    bodyLimit({
      maxSize: BODY_LIMIT_BYTES,
      onError: (c) => c.json({ error: 'request body too large', code: 'payload_too_large' }, 413),
    }),
  );

  app.get('/api/health', (c) => c.json({ status: 'ok' }));
  app.get('/', (c) => {
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    return c.html(PLACEHOLDER_PAGE);
  });
  app.get('/api/projects', async (c) => {
    const projects = await ctx.projects.list();
    ctx.audit.record({ operation: 'projects', outcome: 'allowed', resources: `count=${projects.length}` });
    return c.json({ projects });
  });
  app.get('/api/file-search', (c) => fileSearch(c, ctx));
  app.get('/api/path-complete', (c) => pathComplete(c, ctx));
  for (const r of ROUTES) {
    app.all(r, (c) => {
      c.header('Allow', 'GET, HEAD');
      return c.json({ error: 'method not allowed', code: 'method_not_allowed' }, 405);
    });
  }

  app.notFound((c) => c.json({ error: 'not found', code: 'not_found' }, 404));
  app.onError((err, c) => {
    ctx.log(
      `trawl serve: internal error on ${c.req.method} ${new URL(c.req.url).pathname}: ${err.stack ?? err.message}`,
    );
    return c.json({ error: 'internal error', code: 'internal' }, 500);
  });
  return app;
}
