import type { Context } from 'hono';
import { z } from 'zod';
import type { OpenProjectResponse } from '../wire.js';
import { poolRefusal, type ServerContext } from './context.js';
import { MAX_PATH_PARAM_CHARS } from './limits.js';
import type { ResolveProjectResult } from './tasks.js';

const openSchema = z.object({ project: z.string().min(1).max(MAX_PATH_PARAM_CHARS) });
const OP = 'project_open';

/**
 * POST /api/projects/open `{"project"}` — the workbench's project switcher opens a directory: resolved by the one
 * root policy (`~` expanded, sensitivity before existence, a canonical directory; on the probe pool), recorded
 * first in `recent-projects.json`, and a known project from then on (so the next `trawl serve` offers it); its name
 * index is built in the background, like a command-line project's.
 */
export async function openProjectRoute(c: Context, ctx: ServerContext): Promise<Response> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    return c.json({ error: 'the body must be JSON', code: 'invalid_json' }, 400);
  }
  const parsed = openSchema.safeParse(raw);
  if (!parsed.success) {
    return c.json({ error: 'project: an absolute path or ~/… is required', code: 'invalid_request' }, 400);
  }
  const typed = parsed.data.project.trim();
  let r: ResolveProjectResult;
  try {
    r = await ctx.probe.run('resolve-project', { project: typed });
  } catch (err) {
    return poolRefusal(c, ctx, err, { operation: OP, resources: typed });
  }
  if (r.status === 'sensitive') {
    ctx.audit.record({ operation: OP, outcome: 'denied', resources: r.path, error: 'sensitive path' });
    return c.json({ error: 'Access denied', code: 'sensitive_path' }, 403);
  }
  if (r.status === 'not-dir') {
    ctx.audit.record({ operation: OP, outcome: 'allowed', resources: r.path, error: 'not a directory' });
    return c.json({ error: 'not a directory', code: 'not_a_directory' }, 404);
  }
  const { project, writeError } = await ctx.projects.open(r.root);
  // Its name searches walk until its index is ready, then answer from it (as a command-line project's do).
  if (!ctx.walkOnlyRoots?.has(r.root)) ctx.indexes?.openProject?.(r.root);
  if (writeError)
    ctx.log(`trawl serve: could not record ${r.root} in recent-projects.json: ${writeError.message}`);
  ctx.audit.record({
    operation: OP,
    outcome: 'allowed',
    resources: r.root,
    ...(writeError ? { error: 'recent-projects.json not written' } : {}),
  });
  return c.json({ project } satisfies OpenProjectResponse);
}
