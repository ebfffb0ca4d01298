import * as path from 'node:path';
import type { ServerContext } from '../http/context.js';
import { MAX_PATH_PARAM_CHARS } from '../http/limits.js';
import { fileRefusal } from '../http/project-files.js';
import {
  ATTACH_MAX_FILE_BYTES,
  ATTACH_MAX_FILES,
  ATTACH_MAX_TOTAL_BYTES,
  PREVIEW_FILE_CHARS,
} from './limits.js';
import type { MessageMeta } from './types.js';

/** One attached file as the agent receives it. `error` (a code of GET /api/file) when its text could not be read. */
export interface AttachedFile {
  path: string;
  text: string;
  truncated: boolean;
  error?: string;
}

/** What the agent reads on stdin (docs/http-api.md "The agent"). */
export interface AgentPayload {
  text: string;
  meta: MessageMeta;
  project: string | null;
  files: AttachedFile[];
}

/** A known project's server-held spelling and canonical root. */
export interface ProjectRoot {
  project: string;
  root: string;
}

/** The canonical roots of the known projects (the conversation's first), through the probe pool's resolver. */
export async function knownRoots(ctx: ServerContext, first: string | null): Promise<ProjectRoot[]> {
  const projects = (await ctx.projects.list()).map((p) => p.path);
  if (first) projects.sort((a, b) => (a === first ? -1 : b === first ? 1 : 0));
  const out: ProjectRoot[] = [];
  for (const project of projects) {
    const r = await ctx.probe.run('resolve-project', { project });
    if (r.status === 'ok') out.push({ project, root: r.root });
  }
  return out;
}

/** Where an absolute path lies in the known projects: the project and the `/`-joined relative path, if anywhere. */
function locate(file: string, roots: readonly ProjectRoot[]): { project: string; rel: string } | undefined {
  if (file.length > MAX_PATH_PARAM_CHARS || file.includes('\0') || !path.isAbsolute(file)) return undefined;
  const abs = path.resolve(file);
  for (const { project, root } of roots) {
    for (const base of [root, path.resolve(project)]) {
      const rel = path.relative(base, abs);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel))
        return { project, rel: rel.split(path.sep).join('/') };
    }
  }
  return undefined;
}

/**
 * The text of each attached file for the agent: a file is an attachment whose content reaches the agent (a folder
 * is a path only). Each must lie in a known project and is read exactly as GET /api/file reads (transfer pool,
 * never through a link, fenced), capped per file and in total; what cannot be read is listed with its code.
 */
export async function readAttachments(
  ctx: ServerContext,
  files: MessageMeta['files'],
  roots: readonly ProjectRoot[],
): Promise<AttachedFile[]> {
  const out: AttachedFile[] = [];
  let budget = ATTACH_MAX_TOTAL_BYTES;
  for (const [i, f] of (files ?? []).entries()) {
    if (i >= ATTACH_MAX_FILES) {
      out.push({ path: f.path, text: '', truncated: false, error: 'too_many_files' });
      continue;
    }
    const where = locate(f.path, roots);
    if (!where) {
      out.push({ path: f.path, text: '', truncated: false, error: 'unknown_project_dir' });
      continue;
    }
    const maxBytes = Math.min(ATTACH_MAX_FILE_BYTES, budget);
    const o = await ctx.transfer.run('read-file', { ...where, maxBytes });
    if (o.status !== 'ok') {
      out.push({ path: f.path, text: '', truncated: false, error: fileRefusal(o.status).code });
      continue;
    }
    if (o.binary) {
      out.push({ path: f.path, text: '', truncated: false, error: 'binary' });
      continue;
    }
    budget -= Math.min(Buffer.byteLength(o.text ?? ''), budget);
    out.push({ path: f.path, text: o.text ?? '', truncated: o.truncated === true });
  }
  return out;
}

/**
 * What the thread shows without `--agent`: the payload an agent would receive, as JSON, with each file's text
 * shortened to its first {@link PREVIEW_FILE_CHARS} characters (the preview is for reading, not for transfer).
 */
export function previewText(payload: AgentPayload): string {
  const shown = {
    ...payload,
    files: payload.files.map((f) =>
      f.text.length > PREVIEW_FILE_CHARS
        ? {
            ...f,
            text: `${f.text.slice(0, PREVIEW_FILE_CHARS)}… [${f.text.length - PREVIEW_FILE_CHARS} more characters]`,
          }
        : f,
    ),
  };
  return (
    'No agent is configured (start `trawl serve --agent "CMD"`). An agent would receive this JSON on stdin:\n\n' +
    `\`\`\`json\n${JSON.stringify(shown, null, 2)}\n\`\`\`\n`
  );
}
