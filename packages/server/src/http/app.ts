import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type AccessOptions, accessControl } from './access.js';
import type { ServerContext } from './context.js';
import { fileSearch } from './file-search.js';
import { BODY_LIMIT_BYTES } from './limits.js';
import { pathComplete } from './path-complete.js';
import { fileRoute, treeRoute } from './project-files.js';
import { serveStatic } from './static.js';

/** Routes and the methods they answer; any other method on them is 405. */
const GET_ROUTES = [
  '/',
  '/favicon.svg',
  '/assets/*',
  '/api/health',
  '/api/projects',
  '/api/file-search',
  '/api/path-complete',
  '/api/tree',
  '/api/file',
] as const;

export interface AppOptions extends ServerContext {
  access: AccessOptions;
  /** The workbench build (`packages/web/dist`); `undefined`: none, `/` shows the placeholder. */
  webDist?: string;
}

/**
 * The dashboard API as a Hono app (a Web-standard fetch handler: mountable elsewhere, testable without sockets).
 * Access control runs before routing; every answer is JSON but the workbench's static files; no caller input reaches the
 * error handler except through a bug, which is answered with a coded 500 that reveals no path.
 */
export function createApp(options: AppOptions): Hono {
  const ctx: ServerContext = options;
  const app = new Hono();

  app.use('*', async (c, next) => {
    await next();
    // Static assets set their own caching; everything else is never stored.
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
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
  for (const r of ['/', '/favicon.svg', '/assets/*']) app.get(r, (c) => serveStatic(c, options.webDist));
  app.get('/api/projects', async (c) => {
    const projects = await ctx.projects.list();
    ctx.audit.record({ operation: 'projects', outcome: 'allowed', resources: `count=${projects.length}` });
    return c.json({ projects });
  });
  app.get('/api/file-search', (c) => fileSearch(c, ctx));
  app.get('/api/path-complete', (c) => pathComplete(c, ctx));
  app.get('/api/tree', (c) => treeRoute(c, ctx));
  app.get('/api/file', (c) => fileRoute(c, ctx));
  for (const r of GET_ROUTES) {
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
