import * as path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { listCompletion, PATH_COMPLETE_LIMITS } from '@trawl/core/complete';
import type { CanonicalRoot, SensitiveFence } from '@trawl/core/fence';
import type { NameResult } from '@trawl/core/names';
import { redactedWords } from '@trawl/core/redact';
import { agentTree, type TreeSurvey, type UnenteredReason } from '@trawl/core/tool';
import { z } from 'zod';
import { entryRowShape, NameRedaction, unenteredShape } from './entry-row.js';
import { type ArchiveLevel, archiveLevel } from './list-archive.js';

export const LIST_DIR_TOOL_NAME = 'list_dir';

/** Entries one list_dir page may hold: a directory's names, one short line each (about 10 KiB of text at most). */
const LIST_DIR_MAX_LIMIT = 500;

export interface ListDirRegistration {
  /** The project root, judged by the root policy: listings never leave it. */
  root: CanonicalRoot;
  /** The server's one fence (mcp/server.ts builds it). */
  fence: SensitiveFence;
  /** Redact credential-shaped values in the names returned, and say how many (default true). */
  redact?: boolean;
}

export const listDirInputShape = {
  dir: z
    .string()
    .max(4096)
    .optional()
    .describe(
      'Directory relative to the project root, e.g. "src/" or "./packages/core/" (default: the root).',
    ),
  prefix: z
    .string()
    .max(1024)
    .optional()
    .describe('Only entries whose name starts with this (case-insensitive).'),
  skip: z
    .number()
    .int()
    .min(0)
    .max(PATH_COMPLETE_LIMITS.maxScan)
    .optional()
    .describe('Entries to skip: the page offset (the text says which value gives the next page).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(LIST_DIR_MAX_LIMIT)
    .optional()
    .describe(`Entries a page (default ${PATH_COMPLETE_LIMITS.maxEntries}, at most ${LIST_DIR_MAX_LIMIT}).`),
};

const DESCRIPTION = [
  'List one directory level inside the project root: directories first (with a trailing "/"), then files,',
  `alphabetically, ${PATH_COMPLETE_LIMITS.maxEntries} entries a page (skip, limit) with the totals.`,
  'The tree is the one `search` sees: dot entries listed; what .gitignore ignores, .git and node_modules are',
  'not listed but named with their file counts (name one as dir to list it). A path that leads outside the root,',
  'or through a symbolic link, lists nothing; links are never listed; credential stores are never shown.',
  'An archive (zip, jar, whl, tar, tgz) as dir lists its members ("bundle.whl", "bundle.whl:pkg/").',
].join(' ');

/** Registers `list_dir` on an MCP server: one directory level with /api/path-complete's containment rules. */
export function registerListDirTool(server: McpServer, options: ListDirRegistration): void {
  const { fence, root } = options;
  server.registerTool(
    LIST_DIR_TOOL_NAME,
    {
      title: 'List a directory',
      description: DESCRIPTION,
      inputSchema: listDirInputShape,
      outputSchema: {
        results: z.array(entryRowShape),
        root: z.string(),
        status: z.enum(['ok', 'sensitive', 'outside', 'refused', 'missing']),
        more: z.boolean(),
        totals: z.object({ entries: z.number(), dirs: z.number(), files: z.number() }).optional(),
        unentered: z.array(unenteredShape).optional(),
        redacted: z.number().optional(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      // The server's fence is long-lived: what changed before this call is in its table.
      await fence.settled();
      const dir = args.dir ?? '';
      const prefix = args.prefix ?? '';
      if (dir.includes('\0') || prefix.includes('\0')) {
        return {
          content: [{ type: 'text' as const, text: 'A path cannot contain a NUL character.' }],
          isError: true,
        };
      }
      const skip = args.skip ?? 0;
      const limit = args.limit ?? PATH_COMPLETE_LIMITS.maxEntries;
      // An archive lists its members, one level at a time (`bundle.whl`, `bundle.whl:pkg/`).
      const archived = dir !== '' ? await archiveLevel(root, dir, fence) : null;
      if (typeof archived === 'string')
        return { content: [{ type: 'text' as const, text: archived }], isError: true };
      if (archived) return archiveAnswer(archived, root, prefix, skip, limit, options.redact !== false);
      // Every entry of the level (within the scan budget): the tree's rules drop some before the page is cut.
      const o = listCompletion({
        project: root,
        dir,
        q: prefix,
        fence,
        dots: true,
        maxEntries: PATH_COMPLETE_LIMITS.maxScan,
      });
      const { inView, survey } =
        o.status === 'ok' ? viewOf(o.root, o.rows, fence) : { inView: [], survey: null };
      const end = Math.min(inView.length, skip + limit);
      const more = inView.length > end || o.scanned >= PATH_COMPLETE_LIMITS.maxScan;
      const names = new NameRedaction(options.redact !== false);
      const rows = inView.slice(skip, end).map((r) => ({ ...r, ...names.row(o.root, r) }));
      const dirs = inView.filter((r) => r.kind === 'dir').length;
      const totals = { entries: inView.length, dirs, files: inView.length - dirs };
      const shown = dir === '' ? '.' : dir;
      let text: string;
      switch (o.status) {
        case 'ok': {
          const lines = rows.map((r) => `${path.relative(o.root, r.path)}${r.kind === 'dir' ? '/' : ''}`);
          text = lines.length
            ? lines.join('\n')
            : inView.length > 0
              ? `No entries past skip=${skip}: ${shown} has ${inView.length}.`
              : `${shown} has no entries${prefix ? ` starting with "${prefix}"` : ''}${survey && (survey.unentered.length > 0 || survey.prunedFiles > 0) ? ' that the tree shows' : ''}.`;
          const counted = `${totals.entries} entr${totals.entries === 1 ? 'y' : 'ies'} (${totals.dirs} director${totals.dirs === 1 ? 'y' : 'ies'}, ${totals.files} file${totals.files === 1 ? '' : 's'})`;
          if (lines.length > 0 && (skip > 0 || end < inView.length))
            text += `\n\nShowing entries ${skip + 1}-${end} of ${counted}.${end < inView.length ? ` Use skip=${end} for the next page.` : ' The last page.'}`;
          else if (lines.length > 0) text += `\n\n${counted}.`;
          const note = survey
            ? agentTree.describe(survey, 'listed', 'Name one as dir to list it; `search` takes it in paths.')
            : null;
          if (note) text += `\n\n${names.text(note)}`;
          if (o.scanned >= PATH_COMPLETE_LIMITS.maxScan) {
            text += `\n\nThe directory is large: only its first ${PATH_COMPLETE_LIMITS.maxScan} entries were examined; pass a prefix to narrow.`;
          }
          break;
        }
        case 'outside':
          text = `${shown} leads outside the project root; nothing is listed there.`;
          break;
        case 'sensitive':
          text = `${shown} is a sensitive location (credentials); it is not listed.`;
          break;
        case 'refused':
          text = refusedText(shown, o.detail);
          break;
        case 'missing':
          text = `${shown} does not exist.`;
          break;
      }
      if (names.count > 0) text += `\n${redactedWords(names.count)}`;
      return {
        content: [{ type: 'text' as const, text }],
        structuredContent: {
          ...(options.redact !== false ? { redacted: names.count } : {}),
          results: rows,
          root: o.root,
          status: o.status,
          more,
          ...(o.status === 'ok' ? { totals } : {}),
          ...(survey && survey.unentered.length > 0 ? { unentered: survey.unentered } : {}),
        },
      };
    },
  );
}

/** An archive's level as list_dir's answer: the page, the totals, how to search a member. */
function archiveAnswer(
  level: ArchiveLevel,
  root: string,
  prefix: string,
  skip: number,
  limit: number,
  redact: boolean,
) {
  const names = new NameRedaction(redact);
  const lower = prefix.toLowerCase();
  const all = level.entries.filter((e) =>
    path.posix.basename(e.shown.replace(/\/$/, '')).toLowerCase().startsWith(lower),
  );
  const end = Math.min(all.length, skip + limit);
  const page = all.slice(skip, end).map((e) => ({ ...e, shown: names.text(e.shown) }));
  const dirs = all.filter((e) => e.dir).length;
  const totals = { entries: all.length, dirs, files: all.length - dirs };
  const counted = `${totals.entries} member${totals.entries === 1 ? '' : 's'} here (${totals.dirs} director${totals.dirs === 1 ? 'y' : 'ies'}, ${totals.files} file${totals.files === 1 ? '' : 's'})`;
  let text = page.length > 0 ? page.map((e) => e.shown).join('\n') : 'No members here.';
  text +=
    end < all.length || skip > 0
      ? `\n\nShowing ${skip + 1}-${end} of ${counted}.${end < all.length ? ` Use skip=${end} for the next page.` : ' The last page.'}`
      : `\n\n${counted}.`;
  if (!level.complete)
    text += '\nThe archive is larger than the listing cap: members past it are not listed.';
  text += '\nSearch a member with `search` and paths ["archive:member"], as listed.';
  if (names.count > 0) text += `\n${redactedWords(names.count)}`;
  return {
    content: [{ type: 'text' as const, text }],
    structuredContent: {
      results: page.map((e) => ({
        path: e.shown,
        name: path.posix.basename(e.shown.replace(/\/$/, '')),
        kind: e.dir ? ('dir' as const) : ('file' as const),
        size: e.size,
        mtime: 0,
      })),
      root,
      status: 'ok' as const,
      more: end < all.length || !level.complete,
      totals,
      ...(redact ? { redacted: names.count } : {}),
    },
  };
}

/**
 * One level seen as the agent's tree sees it (tool/tree-view.ts): the entries in view, and those left out (ignored,
 * `.git`, `node_modules`) counted. A directory named as `dir` is listed whatever the rules say of it, as `search`
 * searches a directory it names: only its entries are judged, from it (its own ignore files and those above it).
 */
function viewOf(
  root: string,
  rows: NameResult[],
  fence: SensitiveFence,
): { inView: NameResult[]; survey: TreeSurvey } {
  const view = agentTree.admission(root);
  const inView: NameResult[] = [];
  const out: Array<{ abs: string; isDir: boolean; reason: UnenteredReason }> = [];
  for (const r of rows) {
    const why = view.whyEntry(r.path, r.kind === 'dir');
    if (why === null) inView.push(r);
    else out.push({ abs: r.path, isDir: r.kind === 'dir', reason: why });
  }
  return {
    inView,
    survey: agentTree.count(out, { cwd: root, exclude: (abs) => fence.isSensitiveCanonical(abs) }),
  };
}

/**
 * Why a listing was refused, from the walk's detail (`name: what (code)`): a file named as the directory is
 * not blamed on "a symbolic link" (issue 11 item 11), a link is named as one.
 */
export function refusedText(shown: string, detail: string | undefined): string {
  const m = detail ? /^(.*): (\w+) \(/.exec(detail) : null;
  const name = m?.[1];
  const what = m?.[2];
  const last = shown.replace(/\/+$/, '').split('/').pop();
  if (what === 'file' && name === last)
    return `${shown} is a file, not a directory: search its contents with \`search\` (paths: "${shown.replace(/\/+$/, '')}").`;
  if (what === 'file') return `${shown} is not a directory: ${name} along the way is a file.`;
  if (what === 'symlink')
    return `${shown} is reached through a symbolic link (${name}); links are never followed, nothing is listed.`;
  return `${shown} is not a real directory inside the project${what ? ` (${name} is a ${what})` : ''}; nothing is listed.`;
}
