import { createHmac, randomBytes } from 'node:crypto';
import { emptyGrepPayload, GREP_LIMITS, grepQuery } from '@trawl/core/grep';
import type { Context } from 'hono';
import type { FileGrepRequest, FileGrepResponse } from '../wire.js';
import { poolRefusal, type ServerContext } from './context.js';
import { GREP_MAX_LIMIT, MAX_PATH_PARAM_CHARS } from './limits.js';
import type { GrepPayloadTask, GrepTaskResult, ResolveProjectResult } from './tasks.js';

const OP = 'file_grep';

/** Per-run key for the query's audit label: the same query twice gets the same label within one run, never the text. */
const QUERY_LABEL_KEY = randomBytes(32);

/**
 * How a query appears in the audit log: never its text (people type credentials into a search box to find the file
 * that holds them, and no pattern table recognises every secret), only its length and a keyed hash that lets two
 * lines of one run be matched.
 */
export function auditedQuery(q: string): string {
  const label = createHmac('sha256', QUERY_LABEL_KEY).update(q).digest('hex').slice(0, 12);
  return `[query ${[...q].length} chars #${label}]`;
}

/**
 * An `include`/`exclude` field: a glob string, or an array of them (non-strings in it, and a field of another type,
 * count as absent). Whether each glob is well formed is the engine's to judge (`invalid_glob`).
 */
function globList(key: 'include' | 'exclude', v: unknown): { include?: string[]; exclude?: string[] } {
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((g) => typeof g === 'string') : [];
  const globs = list.map((g: string) => g.trim()).filter((g) => g !== '');
  return globs.length > 0 ? { [key]: globs } : {};
}

/** `limit`: rows at most, an integer clamped to 1..GREP_MAX_LIMIT (another type counts as absent: 200). */
function rowLimit(v: unknown): { limit?: number } {
  if (typeof v !== 'number' || !Number.isFinite(v)) return {};
  return { limit: Math.min(GREP_MAX_LIMIT, Math.max(1, Math.floor(v))) };
}

/**
 * `per_file`: absent (or null) for one row per file; else an integer 1..GREP_LIMITS.maxLinesPerFile, which, unlike the
 * other fields, is refused when it is anything else (`null` in the answer): asking for lines and counts and getting
 * one row per file without them would read as files with one match each.
 */
function linesPerFile(v: unknown): { perFile?: number } | null {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > GREP_LIMITS.maxLinesPerFile) return null;
  return { perFile: v };
}

/**
 * POST /api/file-grep (docs/http-api.md): which files under `root` contain `q`, one row per file (with `per_file`,
 * a text file's first matching lines and its count), documents included. Body `{"root", "q", "case_sensitive"?,
 * "whole_word"?, "regex"?, "include"?, "exclude"?, "limit"?, "per_file"?}`; a field of the wrong type counts as
 * absent, except `per_file` (400 `invalid_per_file`). The root is validated on the probe pool; the search (the engine's `grepFiles`) runs on the grep host when
 * an index covers the root, else on the transfer pool — never on the event loop.
 */
export async function fileGrep(c: Context, ctx: ServerContext): Promise<Response> {
  // One budget from the request's arrival: waiting for a probe worker and for a transfer worker spends it too, so
  // a saturated server answers busy (503) or truncated inside the budget instead of queueing past it.
  const startedAt = Date.now();
  const budgetMs = ctx.grepBudgetMs ?? GREP_LIMITS.timeBudgetMs;
  const admitMs = () => startedAt + budgetMs - Date.now();
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    return c.json({ error: 'the body is not valid JSON', code: 'invalid_json' }, 400);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return c.json({ error: 'the body must be a JSON object', code: 'invalid_body' }, 400);
  // Keyed by the wire type's fields: reading a field the contract does not name is a type error.
  const fields = body as { [K in keyof FileGrepRequest]?: unknown };
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const perFile = linesPerFile(fields['per_file']);
  if (perFile === null)
    return c.json(
      {
        error: `per_file must be an integer from 1 to ${GREP_LIMITS.maxLinesPerFile}`,
        code: 'invalid_per_file',
      },
      400,
    );
  const root = text(fields['root']).trim();
  const q = grepQuery(text(fields['q']));
  if (root === '' || q === null) return c.json(emptyGrepPayload() satisfies FileGrepResponse);
  const logged = auditedQuery(q);

  let resolved: ResolveProjectResult;
  try {
    resolved =
      root.length > MAX_PATH_PARAM_CHARS
        ? { status: 'not-dir', path: root }
        : await ctx.probe.run('grep-root', { root }, { admitMs: admitMs() });
  } catch (err) {
    return poolRefusal(c, ctx, err, { operation: OP, resources: root });
  }
  if (resolved.status === 'sensitive') {
    ctx.audit.record({ operation: OP, outcome: 'denied', resources: root, error: 'sensitive path' });
    return c.json({ error: 'Access denied', code: 'sensitive_path' }, 403);
  }
  if (resolved.status === 'not-dir') {
    return c.json(
      { ...emptyGrepPayload(), error: 'Search root is not a directory', code: 'not_a_directory' },
      404,
    );
  }

  const task: GrepPayloadTask = {
    startedAt,
    root: resolved.root,
    query: q,
    caseSensitive: fields['case_sensitive'] === true,
    wholeWord: fields['whole_word'] === true,
    regex: fields['regex'] === true,
    ...globList('include', fields['include']),
    ...globList('exclude', fields['exclude']),
    ...rowLimit(fields['limit']),
    ...perFile,
  };
  let result: GrepTaskResult;
  try {
    // A root an index covers is searched on the grep host, admitted like a pool call; one it cannot answer
    // (no index, not ready yet, the host restarting) scans on the transfer pool. A search that would start with
    // under a quarter of its budget left is answered busy: the client retries, instead of getting a truncated
    // answer from a search that hardly ran.
    result =
      (await ctx.grepHost?.grep(task, { admitMs: admitMs() - budgetMs / 4 })) ??
      (await ctx.transfer.run('grep', task, { admitMs: admitMs() - budgetMs / 4 }));
  } catch (err) {
    return poolRefusal(c, ctx, err, { operation: OP, resources: `q=${logged} root=${resolved.root}` });
  }
  if (!result.ok) {
    ctx.audit.record({
      operation: OP,
      outcome: 'allowed',
      resources: `q=${logged} root=${resolved.root}`,
      error: result.code === 'invalid_glob' ? 'invalid glob' : 'invalid pattern',
    });
    return c.json({ error: result.message, code: result.code }, 400);
  }
  const p = result.payload;
  ctx.audit.record({
    operation: OP,
    outcome: 'allowed',
    resources:
      `q=${logged} root=${p.root} engine=${p.engine} results=${p.results.length} truncated=${p.truncated}` +
      ` skipped_docs=${p.skipped_docs}${result.fallback ? ' fallback=true' : ''}`,
  });
  if (result.fallback) ctx.log(`trawl serve: file-grep: ${result.fallback}; the js engine answered`);
  return c.json(p satisfies FileGrepResponse);
}
