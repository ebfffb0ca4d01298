import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MESSAGE_BODY_LIMIT_BYTES } from '../conversations/limits.js';
import type { ProjectsResponse } from '../wire.js';
import { type AccessOptions, accessControl, presentsAccess } from './access.js';
import type { ServerContext } from './context.js';
import { type ConversationsDeps, conversationRoutes } from './conversations.js';
import { fileGrep } from './file-grep.js';
import { fileSearch } from './file-search.js';
import { SECURITY_HEADERS } from './headers.js';
import { healthDetail } from './health.js';
import { BODY_LIMIT_BYTES } from './limits.js';
import { openProjectRoute } from './open-project.js';
import { pathComplete } from './path-complete.js';
import { fileRoute, treeRoute } from './project-files.js';
import { serveStatic } from './static.js';

/** GET-only routes; any other method on them is 405. */
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
/** Routes answering other methods, with their `Allow`. */
const OTHER_ROUTES: ReadonlyArray<[string, string]> = [
  ['/api/projects/open', 'POST'],
  ['/api/conversations', 'GET, HEAD, POST'],
  ['/api/conversations/:id', 'PATCH, DELETE'],
  ['/api/conversations/:id/messages', 'GET, HEAD, POST'],
  ['/api/conversations/:id/messages/:mid/stream', 'GET, HEAD'],
  ['/api/conversations/:id/messages/:mid/stop', 'POST'],
  ['/api/conversations/:id/messages/:mid/retry', 'POST'],
  ['/api/file-grep', 'POST'],
];
/** The one route whose body may exceed the general limit: a message carries up to 100 000 characters twice. */
const MESSAGE_POST = /^\/api\/conversations\/[^/]+\/messages$/;

export interface AppOptions extends ServerContext {
  access: AccessOptions;
  /** The workbench build (`packages/web/dist`); `undefined`: none, `/` shows the placeholder. */
  webDist?: string;
  conversations: ConversationsDeps;
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
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
  });
  app.use('*', accessControl(options.access));
  const tooLarge = (c: Context) =>
    c.json({ error: 'request body too large', code: 'payload_too_large' }, 413);
  const smallBody = bodyLimit({ maxSize: BODY_LIMIT_BYTES, onError: tooLarge });
  const messageBody = bodyLimit({ maxSize: MESSAGE_BODY_LIMIT_BYTES, onError: tooLarge });
  app.use('*', (c, next) =>
    (c.req.method === 'POST' && MESSAGE_POST.test(new URL(c.req.url).pathname) ? messageBody : smallBody)(
      c,
      next,
    ),
  );

  // Open to all as a liveness probe; the indexes' state (roots are paths) only to a caller holding the token.
  app.get('/api/health', (c) =>
    c.json(presentsAccess(c, options.access) ? healthDetail(ctx) : { status: 'ok' }),
  );
  for (const r of ['/', '/favicon.svg', '/assets/*']) app.get(r, (c) => serveStatic(c, options.webDist));
  app.get('/api/projects', async (c) => {
    const projects = await ctx.projects.list();
    ctx.audit.record({ operation: 'projects', outcome: 'allowed', resources: `count=${projects.length}` });
    return c.json({ projects } satisfies ProjectsResponse);
  });
  app.post('/api/projects/open', (c) => openProjectRoute(c, ctx));
  app.get('/api/file-search', (c) => fileSearch(c, ctx));
  app.get('/api/path-complete', (c) => pathComplete(c, ctx));
  app.get('/api/tree', (c) => treeRoute(c, ctx));
  app.get('/api/file', (c) => fileRoute(c, ctx));
  // A query in a URL ends up in logs and history: content search takes its query in the body only.
  app.post('/api/file-grep', (c) => fileGrep(c, ctx));
  const conv = conversationRoutes(ctx, options.conversations);
  app.get('/api/conversations', conv.list);
  app.post('/api/conversations', conv.create);
  app.patch('/api/conversations/:id', conv.rename);
  app.delete('/api/conversations/:id', conv.remove);
  app.get('/api/conversations/:id/messages', conv.messages);
  app.post('/api/conversations/:id/messages', conv.send);
  app.get('/api/conversations/:id/messages/:mid/stream', conv.stream);
  app.post('/api/conversations/:id/messages/:mid/stop', conv.stop);
  app.post('/api/conversations/:id/messages/:mid/retry', conv.retry);
  const notAllowed = (allow: string) => (c: Context) => {
    c.header('Allow', allow);
    return c.json({ error: 'method not allowed', code: 'method_not_allowed' }, 405);
  };
  for (const r of GET_ROUTES) app.all(r, notAllowed('GET, HEAD'));
  for (const [r, allow] of OTHER_ROUTES) app.all(r, notAllowed(allow));

  app.notFound((c) => c.json({ error: 'not found', code: 'not_found' }, 404));
  app.onError((err, c) => {
    ctx.log(
      `trawl serve: internal error on ${c.req.method} ${new URL(c.req.url).pathname}: ${err.stack ?? err.message}`,
    );
    return c.json({ error: 'internal error', code: 'internal' }, 500);
  });
  return app;
}
