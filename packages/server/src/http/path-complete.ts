import { type CompletionOutcome, PATH_COMPLETE_LIMITS } from '@trawl/core/complete';
import type { Context } from 'hono';
import { z } from 'zod';
import type { PathCompleteResponse } from '../wire.js';
import { poolRefusal, type ServerContext } from './context.js';
import { MAX_PATH_PARAM_CHARS } from './limits.js';

const trimmed = z
  .string()
  .optional()
  .transform((s) => (s ?? '').trim());

/** The query of GET /api/path-complete: `path` (a known project), `dir` (typed prefix), `q` (partial name). */
export const pathCompleteQuery = z.object({ path: trimmed, dir: trimmed, q: trimmed });

const OP = 'path_complete';

/**
 * GET /api/path-complete (docs/http-api.md): one directory level of a KNOWN project for `./` completion.
 * The caller's `path` is only compared, lexically, with the allow-list; the server-held match is what the listing
 * (on the transfer pool) resolves. `refused` and `missing` are one answer and two audit facts; `outside` is the one
 * answer that says so in the payload. Rows are not redacted.
 */
export async function pathComplete(c: Context, ctx: ServerContext): Promise<Response> {
  const input = pathCompleteQuery.parse({
    path: c.req.query('path'),
    dir: c.req.query('dir'),
    q: c.req.query('q'),
  });
  if (!input.path) return c.json({ error: 'path required', code: 'path_required' }, 400);
  const project = input.path.length > MAX_PATH_PARAM_CHARS ? undefined : await ctx.projects.match(input.path);
  if (project === undefined) {
    ctx.audit.record({
      operation: OP,
      outcome: 'denied',
      resources: input.path,
      error: 'not a known project directory',
    });
    return c.json({ error: 'Unknown project directory', code: 'unknown_project_dir' }, 403);
  }
  const { dir, q } = input;
  // No path can hold a NUL, and none is this long: an empty listing, screened before any filesystem work.
  if (
    dir.includes('\0') ||
    q.includes('\0') ||
    dir.length > PATH_COMPLETE_LIMITS.maxDirChars ||
    q.length > PATH_COMPLETE_LIMITS.maxQueryChars
  ) {
    return c.json({ results: [], root: '' } satisfies PathCompleteResponse);
  }

  let o: CompletionOutcome;
  try {
    o = await ctx.transfer.run('list-completion', { project, dir, q });
  } catch (err) {
    return poolRefusal(c, ctx, err, { operation: OP, resources: project });
  }
  const where = `${o.root} dir=${dir}`;
  const at = o.detail ? ` at=${o.detail}` : '';
  switch (o.status) {
    case 'ok':
      ctx.audit.record({
        operation: OP,
        outcome: 'allowed',
        resources: `${where} q=${q} results=${o.rows.length}`,
      });
      return c.json({ results: o.rows, root: o.root } satisfies PathCompleteResponse);
    case 'sensitive':
      ctx.audit.record({
        operation: OP,
        outcome: 'denied',
        resources: o.witness ?? o.root,
        error: 'sensitive path',
      });
      return c.json({ error: 'Access denied', code: 'access_denied' }, 403);
    case 'outside':
      ctx.audit.record({
        operation: OP,
        outcome: 'denied',
        resources: `${where}${at}`,
        error: 'outside project root',
      });
      return c.json({ results: [], root: '', outside: true } satisfies PathCompleteResponse);
    case 'refused':
      ctx.audit.record({
        operation: OP,
        outcome: 'denied',
        resources: `${where}${at}`,
        error: 'not a real directory at the completion target',
      });
      return c.json({ results: [], root: o.root } satisfies PathCompleteResponse);
    case 'missing':
      ctx.audit.record({
        operation: OP,
        outcome: 'allowed',
        resources: `${where} q=${q} results=0${at}`,
        error: 'no such directory',
      });
      return c.json({ results: [], root: o.root } satisfies PathCompleteResponse);
  }
}
