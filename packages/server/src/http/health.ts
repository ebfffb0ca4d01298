import type { ServerContext } from './context.js';
import type { HostedIndexStatus } from './grep-host.js';

/** The document store of one project's content index, as `/api/health` tells a caller holding the token. */
export interface HealthDocuments {
  /** 'waiting' until the text index is ready, 'extracting' while the background extraction runs, then 'done'. */
  state: 'waiting' | 'extracting' | 'done';
  /** Documents the index records, and of them the ones whose current version is in the store. */
  total: number;
  extracted: number;
  /** Of the extracted, the ones cut by a cap (their answers say partial text). */
  partial: number;
  /** Bytes of text and grams the store holds in memory, and of its persisted file (`documents.bin`) as last written
   * or read (a change is written a moment later); both 0 before the store is made. */
  stored_bytes: number;
  file_bytes: number;
}

/** One project's content index in `/api/health`. */
export interface HealthIndex {
  root: string;
  /** The index's state (opening, building, ready, failed, closed) and why. */
  state: string;
  reason: string;
  files: number;
  /** Absent when the index does not extract documents. */
  documents?: HealthDocuments;
}

/** `/api/health`'s answer: `status` for everyone; the indexes only for a caller holding the token. */
export interface HealthResponse {
  status: 'ok';
  indexes?: HealthIndex[];
}

/** The detailed health answer: each served project's content index as the grep host last reported it. */
export function healthDetail(ctx: ServerContext): HealthResponse {
  return { status: 'ok', indexes: (ctx.grepHost?.statuses() ?? []).map(healthIndex) };
}

function healthIndex(s: HostedIndexStatus): HealthIndex {
  const d = s.documents;
  return {
    root: s.root,
    state: s.state,
    reason: s.reason,
    files: s.files,
    ...(d
      ? {
          documents: {
            state: d.state,
            total: d.total,
            extracted: d.stored,
            partial: d.partial,
            stored_bytes: s.documentStore?.bytes ?? 0,
            file_bytes: s.documentStore?.fileBytes ?? 0,
          },
        }
      : {}),
  };
}
