/**
 * A document of a project (.docx, .pptx, .xlsx, .pdf) as the text search reads in it, for the viewer: read the way
 * `readProjectFile` reads (never through a link, fenced), then extracted by the document layer under a deadline.
 */
import { type DocSegment, documentKindOf, extractDocument } from '../docs/index.js';
import { GREP_DOC_MAX_BYTES } from '../grep/limits.js';
import { type ProjectPathRequest, type ProjectPathStatus, readProjectFile } from './project-files.js';

/** How long one extraction for the viewer may take (a person waits for it). */
export const DOCUMENT_VIEW_BUDGET_MS = 5_000;

/** A document's text, or why there is none. */
export interface DocumentReadOutcome {
  status: ProjectPathStatus;
  root: string;
  size?: number;
  mtime?: number;
  /** Its places in order (`slide 3`, `Ledger · row 12`, `p 2`; '' for .docx) with their text. */
  segments?: DocSegment[];
  /** Not all of its text: the deadline, the character cap, or larger than content search reads (`tooLarge`). */
  truncated?: boolean;
  /** Over the 25 MiB content search reads at most: not extracted. */
  tooLarge?: boolean;
  /** The extraction was refused (not of its kind) or stopped by a ceiling: in words. */
  unreadable?: string;
  detail?: string;
}

/** The text of a project document; a path that names no document kind is `wrong-kind`. */
export async function readProjectDocument(
  req: ProjectPathRequest & { now?: () => number; budgetMs?: number },
): Promise<DocumentReadOutcome> {
  const kind = documentKindOf(req.rel);
  if (kind === null) return { status: 'wrong-kind', root: '', detail: `${req.rel}: not a document` };
  const file = readProjectFile({ ...req, raw: true, maxBytes: GREP_DOC_MAX_BYTES });
  if (file.status !== 'ok')
    return { status: file.status, root: file.root, ...(file.detail ? { detail: file.detail } : {}) };
  const meta = { status: 'ok' as const, root: file.root, size: file.size ?? 0, mtime: file.mtime ?? 0 };
  if (!file.bytes) return { ...meta, segments: [], truncated: true, tooLarge: true };
  const now = req.now ?? Date.now;
  const segments: DocSegment[] = [];
  const r = await extractDocument(
    kind,
    file.bytes,
    (s) => {
      segments.push({ label: s.label, text: s.text });
      return false;
    },
    { deadline: now() + (req.budgetMs ?? DOCUMENT_VIEW_BUDGET_MS), now },
  );
  const unreadable = r.refused ?? r.skipped;
  return { ...meta, segments, truncated: !r.whole, ...(unreadable ? { unreadable } : {}) };
}
