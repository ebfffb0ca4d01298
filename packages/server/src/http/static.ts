import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { Context } from 'hono';

/**
 * The workbench's Content-Security-Policy (docs/security.md): scripts and styles only from this origin, never
 * inline, no framing, no form posts, no base-URI games. Every HTML answer carries it.
 */
export const WORKBENCH_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page `/` serves when `packages/web` has not been built. Static: it carries no data and needs no token. */
export const PLACEHOLDER_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>trawl</title></head><body>
<h1>trawl is running</h1>
<p>The web workbench has not been built. Run <code>npm run build</code> in the trawl checkout, then reload.</p>
<p>The API answers meanwhile; see <code>docs/http-api.md</code>.</p>
</body></html>
`;

/** Hashed asset names as Vite writes them (and the few fixed names): one path component, no dot first. */
const ASSET_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,200}$/;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The workbench build: `packages/web/dist`, found through the `@trawl/web` package (its package.json's directory),
 * so an installed trawl finds it where npm put it. `undefined` when the package cannot be resolved.
 */
export function resolveWebDist(from: string = import.meta.url): string | undefined {
  try {
    const pkg = createRequire(from).resolve('@trawl/web/package.json');
    return path.join(path.dirname(pkg), 'dist');
  } catch {
    return undefined;
  }
}

/** Which request paths are static (no token, no data): `/`, `/favicon.svg`, `/assets/<name>`. */
export function isStaticPath(pathname: string): boolean {
  return pathname === '/' || pathname === '/favicon.svg' || pathname.startsWith('/assets/');
}

async function readBuilt(file: string): Promise<Buffer | undefined> {
  try {
    // The build is trawl's own output, but a link placed in it must not make the server read elsewhere.
    const handle = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    try {
      const st = await handle.stat();
      if (!st.isFile()) return undefined;
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * Serves the workbench build. `/` is index.html (never cached: it names the current hashed assets), with the CSP;
 * the placeholder when there is no build. `/assets/*` are hashed, so cached for a year as immutable.
 * `dist === undefined` (the package is not installed) behaves as a missing build.
 */
export async function serveStatic(c: Context, dist: string | undefined): Promise<Response> {
  const pathname = new URL(c.req.url).pathname;
  if (pathname === '/') {
    c.header('Content-Security-Policy', WORKBENCH_CSP);
    c.header('Cache-Control', 'no-cache');
    const page = dist ? await readBuilt(path.join(dist, 'index.html')) : undefined;
    return c.html(page ? page.toString('utf8') : PLACEHOLDER_PAGE);
  }
  let rel: string;
  if (pathname === '/favicon.svg') rel = 'favicon.svg';
  else {
    const name = pathname.slice('/assets/'.length);
    if (!ASSET_NAME.test(name)) return c.json({ error: 'not found', code: 'not_found' }, 404);
    rel = path.join('assets', name);
  }
  const body = dist ? await readBuilt(path.join(dist, rel)) : undefined;
  if (!body) return c.json({ error: 'not found', code: 'not_found' }, 404);
  const type = CONTENT_TYPES[path.extname(rel).toLowerCase()] ?? 'application/octet-stream';
  c.header('Content-Type', type);
  c.header(
    'Cache-Control',
    rel.startsWith('assets') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
  );
  if (type.startsWith('text/html')) c.header('Content-Security-Policy', WORKBENCH_CSP);
  return c.body(new Uint8Array(body));
}
