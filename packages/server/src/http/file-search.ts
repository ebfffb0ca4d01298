import type { CanonicalRoot } from '@trawl/core/fence';
import {
  matchPositions,
  NAME_LIMITS,
  type NameResult,
  normaliseNameLimit,
  parseNameKinds,
} from '@trawl/core/names';
import type { Context } from 'hono';
import { z } from 'zod';
import type { FileSearchResponse } from '../wire.js';
import { poolRefusal, type ServerContext } from './context.js';
import { FILE_SEARCH_MAX_QUERY_CHARS, MAX_PATH_PARAM_CHARS } from './limits.js';
import type { ProbedRoot, ResolveProjectResult } from './tasks.js';

const trimmed = z
  .string()
  .optional()
  .transform((s) => (s ?? '').trim());

/** The query of GET /api/file-search: every field optional, every value a string (normalised by the rules below). */
export const fileSearchQuery = z.object({
  q: trimmed,
  project: trimmed,
  workspace: trimmed,
  kinds: z.string().optional(),
  limit: z.string().optional(),
});

const OP = 'file_search';

/**
 * GET /api/file-search (docs/http-api.md): name search for the @-picker. Root selection (project, else
 * workspace, else the implicit roots — never bare HOME), then the index fast path when exactly one scoped root has
 * a ready, untruncated index, else the budgeted walk on the transfer pool. Rows are not redacted (the picker
 * inserts the real name).
 */
export async function fileSearch(c: Context, ctx: ServerContext): Promise<Response> {
  const input = fileSearchQuery.parse({
    q: c.req.query('q'),
    project: c.req.query('project'),
    workspace: c.req.query('workspace'),
    kinds: c.req.query('kinds'),
    limit: c.req.query('limit'),
  });
  const q = input.q;
  if (q.length < NAME_LIMITS.minQueryChars) {
    ctx.audit.record({ operation: OP, outcome: 'allowed', resources: 'short_query' });
    return c.json({ results: [] } satisfies FileSearchResponse);
  }
  // The query is logged as typed: the audit writer redacts it, and a transformation first (the reference lowercases)
  // could turn a secret into a spelling the redactor no longer recognises.
  const logged = q;
  const limit = normaliseNameLimit(input.limit);
  const kinds = parseNameKinds(input.kinds);
  if (q.length > FILE_SEARCH_MAX_QUERY_CHARS) {
    ctx.audit.record({ operation: OP, outcome: 'allowed', resources: 'long_query' });
    return c.json({ results: [], root: '' } satisfies FileSearchResponse);
  }

  let roots: string[] = [];
  let scoped = false;
  // The one judged root of a scoped search: the only one an index may answer for.
  let scopedRoot: CanonicalRoot | undefined;
  try {
    if (input.project) {
      const r: ResolveProjectResult =
        input.project.length > MAX_PATH_PARAM_CHARS
          ? { status: 'not-dir', path: input.project }
          : await ctx.resolved.resolve(input.project);
      if (r.status === 'sensitive') {
        ctx.audit.record({ operation: OP, outcome: 'denied', resources: r.path, error: 'sensitive path' });
        return c.json({ error: 'Access denied', code: 'access_denied' }, 403);
      }
      if (r.status === 'not-dir') {
        ctx.audit.record({
          operation: OP,
          outcome: 'allowed',
          resources: `project=${r.path}`,
          error: 'not a directory',
        });
        return c.json({ results: [], error: 'Project directory not found', code: 'project_not_found' }, 404);
      }
      roots = [r.root];
      scopedRoot = r.root;
      scoped = true;
    } else {
      if (input.workspace && input.workspace.length <= MAX_PATH_PARAM_CHARS) {
        const dir = await ctx.projects.byName(input.workspace);
        if (dir) {
          const probed = await ctx.probe.run('probe-roots', { roots: [dir], dropHome: false });
          if (probed[0] && probed[0].status !== 'not-dir') {
            // A workspace is a known project: scoped, and canonical like ?project= (so its index can serve it).
            scoped = true;
            roots = keepSafe(ctx, probed, logged, true);
            if (probed[0].status === 'ok') scopedRoot = probed[0].canonical;
          }
        }
      }
      if (!scoped) {
        const implicit = [
          ...(ctx.projectDirEnv ? [ctx.projectDirEnv] : []),
          ...(await ctx.projects.list()).filter((p) => p.source === 'serve').map((p) => p.path),
        ];
        const probed = await ctx.probe.run('probe-roots', { roots: implicit, dropHome: true });
        roots = keepSafe(ctx, probed, logged, false);
      }
    }
  } catch (err) {
    return poolRefusal(c, ctx, err, { operation: OP, resources: `q=${logged}` });
  }

  const root = scoped ? (roots[0] ?? '') : '';
  if (roots.length === 0) {
    ctx.audit.record({
      operation: OP,
      outcome: 'allowed',
      resources: `q=${logged} kinds=${kinds} roots=0 results=0`,
    });
    return c.json({ results: [], root } satisfies FileSearchResponse);
  }

  try {
    if (scopedRoot && ctx.indexes && !ctx.walkOnlyRoots?.has(scopedRoot)) {
      const hit = await ctx.indexes.search(scopedRoot, q, limit, kinds);
      if (hit) {
        ctx.audit.record({
          operation: OP,
          outcome: 'allowed',
          resources: `q=${logged} kinds=${kinds} indexed=true entries=${hit.entries} results=${hit.results.length}`,
        });
        return c.json({ results: withPositions(hit.results, q, roots), root } satisfies FileSearchResponse);
      }
    }
    const walked = await ctx.transfer.run('walk-names', {
      query: q,
      roots,
      scoped,
      limit,
      kinds,
    });
    ctx.audit.record({
      operation: OP,
      outcome: 'allowed',
      resources: `q=${logged} kinds=${kinds} roots=${roots.length} results=${walked.results.length}${
        walked.partial ? ' partial=true' : ''
      }`,
    });
    // `truncated` goes beyond the seed's contract (which has none): a picker can say "partial" instead of "none".
    return c.json({
      results: withPositions(walked.results, q, roots),
      root,
      ...(walked.partial ? { truncated: true } : {}),
    } satisfies FileSearchResponse);
  } catch (err) {
    return poolRefusal(c, ctx, err, { operation: OP, resources: `q=${logged}` });
  }
}

/** Keeps the roots that are directories; a sensitive one is dropped and audited, HOME is dropped silently. */
function keepSafe(ctx: ServerContext, probed: ProbedRoot[], logged: string, canonical: boolean): string[] {
  const out: string[] = [];
  for (const p of probed) {
    if (p.status === 'ok') out.push(canonical ? p.canonical : p.root);
    else if (p.status === 'sensitive') {
      ctx.audit.record({
        operation: OP,
        outcome: 'denied',
        resources: p.root,
        error: `sensitive path (q=${logged})`,
      });
    }
  }
  return out;
}

/**
 * Each row with `positions`: the offsets into its `path` of the characters the query matched (trawl's addition, for
 * highlighting), read against the path relative to the root it was found under, as the scorer read it.
 */
function withPositions(rows: NameResult[], q: string, roots: readonly string[]) {
  return rows.map((r) => {
    const root = roots.find((x) => r.path.startsWith(x.endsWith('/') ? x : `${x}/`));
    const rel = root === undefined ? r.name : r.path.slice(root.length).replace(/^\/+/, '');
    const offset = r.path.length - rel.length;
    return { ...r, positions: matchPositions(q, rel, r.kind === 'dir').map((i) => i + offset) };
  });
}
