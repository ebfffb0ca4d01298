import * as path from 'node:path';
import {
  ATTACH_MAX_FILE_BYTES,
  ATTACH_MAX_FILES,
  ATTACH_MAX_TOTAL_BYTES,
  MESSAGE_MAX_META_STRING_CHARS,
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

/** An attachment's text as read, or the code GET /api/file answers for a file it cannot give. */
export type AttachmentRead =
  | { ok: true; text: string; truncated: boolean; binary: boolean }
  | { ok: false; code: string };

/**
 * What replies need of the server's known projects, provided by the server (http/project-files.ts), so that
 * conversations know nothing of its pools or routes.
 */
export interface ProjectAccess {
  /** The known projects that resolve, each with its canonical root; `first` (a conversation's project) first. */
  roots(first: string | null): Promise<ProjectRoot[]>;
  /** A text file of a known project, at most `maxBytes`, read exactly as GET /api/file reads it. */
  readFile(where: { project: string; rel: string }, maxBytes: number): Promise<AttachmentRead>;
}

/** Where an absolute path lies in the known projects: the project and the `/`-joined relative path, if anywhere. */
function locate(file: string, roots: readonly ProjectRoot[]): { project: string; rel: string } | undefined {
  if (file.length > MESSAGE_MAX_META_STRING_CHARS || file.includes('\0') || !path.isAbsolute(file))
    return undefined;
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
 * is a path only). Each must lie in a known project and is read exactly as GET /api/file reads (never through a
 * link, fenced), capped per file and in total; what cannot be read is listed with its code.
 */
export async function readAttachments(
  access: ProjectAccess,
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
    const o = await access.readFile(where, maxBytes);
    if (!o.ok) {
      out.push({ path: f.path, text: '', truncated: false, error: o.code });
      continue;
    }
    if (o.binary) {
      out.push({ path: f.path, text: '', truncated: false, error: 'binary' });
      continue;
    }
    budget -= Math.min(Buffer.byteLength(o.text), budget);
    out.push({ path: f.path, text: o.text, truncated: o.truncated });
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
