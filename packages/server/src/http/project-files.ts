import type { FileReadOutcome, ProjectPathStatus, TreeOutcome } from '@trawl/core/complete';
import type { Context } from 'hono';
import { param, poolRefusal, type ServerContext } from './context.js';
import { MAX_PATH_PARAM_CHARS } from './limits.js';

const INVALID_PATH = { error: 'path must be plain names joined by /', code: 'invalid_path' } as const;

type Refusal = { status: 400 | 403 | 404; code: string; error: string };

/** The coded answer for each way a tree listing or a file read can fail (docs/http-api.md). */
const REFUSALS: Record<Exclude<ProjectPathStatus, 'ok'>, (kind: 'tree' | 'file') => Refusal> = {
  invalid: () => ({ status: 400, ...INVALID_PATH }),
  sensitive: () => ({ status: 403, code: 'sensitive_path', error: 'Access denied' }),
  link: () => ({ status: 403, code: 'link_refused', error: 'a component of the path is a link' }),
  outside: () => ({ status: 403, code: 'unknown_project_dir', error: 'Unknown project directory' }),
  missing: (k) =>
    k === 'tree'
      ? { status: 404, code: 'not_a_directory', error: 'not a directory' }
      : { status: 404, code: 'file_not_found', error: 'no such file' },
  'wrong-kind': (k) =>
    k === 'tree'
      ? { status: 404, code: 'not_a_directory', error: 'not a directory' }
      : { status: 404, code: 'not_a_file', error: 'not a regular file' },
};

/** The code GET /api/file answers for a read that failed (also used for an attachment the agent cannot get). */
export function fileRefusal(status: Exclude<ProjectPathStatus, 'ok'>): Refusal {
  return REFUSALS[status]('file');
}

/**
 * The known project a `project=` names (compared lexically with the allow-list; the server-held spelling is what
 * gets used), or the coded 403 to send. The caller's spelling never reaches the filesystem.
 */
async function knownProject(
  c: Context,
  ctx: ServerContext,
  op: string,
): Promise<{ project: string } | { refusal: Response }> {
  const raw = param(c, 'project').trim();
  if (!raw) return { refusal: c.json({ error: 'project required', code: 'project_required' }, 400) };
  const project = raw.length > MAX_PATH_PARAM_CHARS ? undefined : await ctx.projects.match(raw);
  if (project === undefined) {
    ctx.audit.record({
      operation: op,
      outcome: 'denied',
      resources: raw,
      error: 'not a known project directory',
    });
    return { refusal: c.json({ error: 'Unknown project directory', code: 'unknown_project_dir' }, 403) };
  }
  return { project };
}

/** The `path=` of a tree or file request: bounded, else the 400 (no filesystem work for a hopeless path). */
function relParam(c: Context): string | undefined {
  const rel = param(c, 'path');
  return rel.length > MAX_PATH_PARAM_CHARS ? undefined : rel;
}

function refuse(
  c: Context,
  ctx: ServerContext,
  op: string,
  kind: 'tree' | 'file',
  o: { status: ProjectPathStatus; root: string; detail?: string },
  rel: string,
): Response {
  const r = REFUSALS[o.status as Exclude<ProjectPathStatus, 'ok'>](kind);
  ctx.audit.record({
    operation: op,
    outcome: r.status === 404 ? 'allowed' : 'denied',
    resources: `${o.root} path=${rel}${o.detail ? ` at=${o.detail}` : ''}`,
    error: r.code,
  });
  return c.json({ error: r.error, code: r.code }, r.status);
}

/**
 * GET /api/tree?project=P&path=REL — one level of a known project for the Files rail, listed on the transfer pool
 * by the engine's no-follow descriptor walk (links are never listed, sensitive entries are omitted).
 */
export async function treeRoute(c: Context, ctx: ServerContext): Promise<Response> {
  const OP = 'tree';
  const known = await knownProject(c, ctx, OP);
  if ('refusal' in known) return known.refusal;
  const rel = relParam(c);
  if (rel === undefined) return c.json(INVALID_PATH, 400);
  let o: TreeOutcome;
  try {
    o = await ctx.transfer.run<TreeOutcome>('list-tree', { project: known.project, rel });
  } catch (err) {
    return poolRefusal(c, ctx, err, { operation: OP, resources: known.project });
  }
  if (o.status !== 'ok') return refuse(c, ctx, OP, 'tree', o, rel);
  ctx.audit.record({
    operation: OP,
    outcome: 'allowed',
    resources: `${o.root} path=${rel} entries=${o.entries.length}${o.truncated ? ' truncated=true' : ''}`,
  });
  return c.json({ root: o.root, path: rel, entries: o.entries, truncated: o.truncated });
}

/**
 * GET /api/file?project=P&path=REL — a text file of a known project for the viewer (1 MiB at most), read on the
 * transfer pool never through a link.
 */
export async function fileRoute(c: Context, ctx: ServerContext): Promise<Response> {
  const OP = 'file';
  const known = await knownProject(c, ctx, OP);
  if ('refusal' in known) return known.refusal;
  const rel = relParam(c);
  if (rel === undefined) return c.json(INVALID_PATH, 400);
  let o: FileReadOutcome;
  try {
    o = await ctx.transfer.run<FileReadOutcome>('read-file', { project: known.project, rel });
  } catch (err) {
    return poolRefusal(c, ctx, err, { operation: OP, resources: known.project });
  }
  if (o.status !== 'ok') return refuse(c, ctx, OP, 'file', o, rel);
  ctx.audit.record({
    operation: OP,
    outcome: 'allowed',
    resources: `${o.root} path=${rel} size=${o.size}${o.truncated ? ' truncated=true' : ''}${o.binary ? ' binary=true' : ''}`,
  });
  return c.json({
    root: o.root,
    path: rel,
    size: o.size,
    mtime: o.mtime,
    text: o.text,
    truncated: o.truncated,
    binary: o.binary,
  });
}
