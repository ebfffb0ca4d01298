import type { ProjectPathStatus } from '@trawl/core/complete';
import { documentKindOf } from '@trawl/core/docs';
import type { Context } from 'hono';
import type { ProjectAccess, ProjectRoot } from '../conversations/attachments.js';
import type { FileResponse, TreeResponse } from '../wire.js';
import { param, poolRefusal, type ServerContext } from './context.js';
import { MAX_PATH_PARAM_CHARS } from './limits.js';
import type { ProjectPathPayload } from './tasks.js';

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

/** The code GET /api/file answers for a read that failed (also for an attachment the agent cannot get). */
function fileRefusal(status: Exclude<ProjectPathStatus, 'ok'>): Refusal {
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
  kind: 'tree' | 'file',
  o: { status: ProjectPathStatus; root: string; detail?: string },
  rel: string,
): Response {
  const r = REFUSALS[o.status as Exclude<ProjectPathStatus, 'ok'>](kind);
  ctx.audit.record({
    operation: kind,
    outcome: r.status === 404 ? 'allowed' : 'denied',
    resources: `${o.root} path=${rel}${o.detail ? ` at=${o.detail}` : ''}`,
    error: r.code,
  });
  return c.json({ error: r.error, code: r.code }, r.status);
}

/**
 * The shared course of /api/tree and /api/file: the known project, the relative path, the task on the transfer
 * pool (`run`), the coded refusal; `answer` turns a successful outcome into the audit line and the body.
 */
async function projectPathRoute<O extends { status: ProjectPathStatus; root: string; detail?: string }>(
  c: Context,
  ctx: ServerContext,
  kind: 'tree' | 'file',
  run: (where: ProjectPathPayload) => Promise<O>,
  answer: (o: O, rel: string) => { audit: string; body: Record<string, unknown> },
): Promise<Response> {
  const known = await knownProject(c, ctx, kind);
  if ('refusal' in known) return known.refusal;
  const rel = relParam(c);
  if (rel === undefined) return c.json(INVALID_PATH, 400);
  let o: O;
  try {
    o = await run({ project: known.project, rel });
  } catch (err) {
    return poolRefusal(c, ctx, err, { operation: kind, resources: known.project });
  }
  if (o.status !== 'ok') return refuse(c, ctx, kind, o, rel);
  const a = answer(o, rel);
  ctx.audit.record({ operation: kind, outcome: 'allowed', resources: `${o.root} path=${rel} ${a.audit}` });
  return c.json(a.body);
}

/**
 * GET /api/tree?project=P&path=REL — one level of a known project for the Files rail, listed on the transfer pool
 * by the engine's no-follow descriptor walk (links are never listed, sensitive entries are omitted).
 */
export function treeRoute(c: Context, ctx: ServerContext): Promise<Response> {
  return projectPathRoute(
    c,
    ctx,
    'tree',
    (where) => ctx.transfer.run('list-tree', where),
    (o, rel) => ({
      audit: `entries=${o.entries.length}${o.truncated ? ' truncated=true' : ''}`,
      body: { root: o.root, path: rel, entries: o.entries, truncated: o.truncated } satisfies TreeResponse,
    }),
  );
}

/** The largest `line=` /api/file takes (a line number, not a byte count: the read is bounded elsewhere). */
const MAX_LINE_PARAM = 1_000_000_000;

/**
 * GET /api/file?project=P&path=REL[&line=N] — a text file of a known project for the viewer (1 MiB at most), read
 * on the transfer pool never through a link; with `line`, the 1 MiB of whole lines around line N.
 */
export function fileRoute(c: Context, ctx: ServerContext): Promise<Response> {
  const raw = c.req.query('line');
  let line: number | undefined;
  if (raw !== undefined && raw !== '') {
    line = /^[0-9]{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(line >= 1 && line <= MAX_LINE_PARAM))
      return Promise.resolve(
        c.json(
          { error: `line must be a whole number from 1 to ${MAX_LINE_PARAM}`, code: 'invalid_line' },
          400,
        ),
      );
  }
  // A document (.docx .pptx .xlsx .pdf) is shown as the text content search reads in it, its places as lines.
  if (line === undefined && documentKindOf(c.req.query('path') ?? '') !== null) {
    return projectPathRoute(
      c,
      ctx,
      'file',
      (where) => ctx.transfer.run('read-document', where),
      (o, rel) => {
        const text = (o.segments ?? []).map((s) => (s.label ? `[${s.label}]\n${s.text}` : s.text)).join('\n');
        return {
          audit: `size=${o.size} document=true${o.truncated ? ' truncated=true' : ''}`,
          body: {
            root: o.root,
            path: rel,
            // An 'ok' outcome has its size and mtime; the defaults only satisfy the outcome's optional fields.
            size: o.size ?? 0,
            mtime: o.mtime ?? 0,
            text,
            truncated: o.truncated === true,
            binary: false,
            first_line: 1,
            document: {
              too_large: o.tooLarge === true,
              ...(o.unreadable ? { unreadable: o.unreadable } : {}),
            },
          } satisfies FileResponse,
        };
      },
    );
  }
  return projectPathRoute(
    c,
    ctx,
    'file',
    (where) => ctx.transfer.run('read-file', line !== undefined ? { ...where, line } : where),
    (o, rel) => ({
      audit: `size=${o.size}${line ? ` line=${line}` : ''}${o.truncated ? ' truncated=true' : ''}${o.binary ? ' binary=true' : ''}`,
      body: {
        root: o.root,
        path: rel,
        // An 'ok' outcome of a (non-raw) read has all of these; the defaults only satisfy its optional fields.
        size: o.size ?? 0,
        mtime: o.mtime ?? 0,
        text: o.text ?? '',
        truncated: o.truncated === true,
        binary: o.binary === true,
        first_line: o.firstLine ?? 1,
      } satisfies FileResponse,
    }),
  );
}

/**
 * The known projects as replies read them (conversations/attachments.ts): roots resolved on the probe pool, files
 * read on the transfer pool exactly as GET /api/file reads them, a refusal answered with that route's code.
 */
export function projectAccess(ctx: ServerContext): ProjectAccess {
  return {
    async roots(first) {
      const projects = (await ctx.projects.list()).map((p) => p.path);
      if (first) projects.sort((a, b) => (a === first ? -1 : b === first ? 1 : 0));
      const out: ProjectRoot[] = [];
      for (const project of projects) {
        const r = await ctx.probe.run('resolve-project', { project });
        if (r.status === 'ok') out.push({ project, root: r.root });
      }
      return out;
    },
    async readFile(where, maxBytes) {
      const o = await ctx.transfer.run('read-file', { ...where, maxBytes });
      if (o.status !== 'ok') return { ok: false, code: fileRefusal(o.status).code };
      return { ok: true, text: o.text ?? '', truncated: o.truncated === true, binary: o.binary === true };
    },
  };
}
