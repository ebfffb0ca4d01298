import type { GrepDetail, GrepPayload } from './grep.js';
import { GREP_TIME_BUDGET_MS } from './limits.js';

/**
 * A grep answer as plain text for a person or an agent (`trawl grep`, MCP `grep_files`): one line per row —
 * `path:line: preview` for text, `path [label]: preview` (or `path: preview`) for a document — then, in words,
 * whether the answer is complete, so "no matches" and "the search stopped" never read alike.
 */
export function formatGrepText(payload: GrepPayload, detail: GrepDetail | undefined, query: string): string {
  const lines = payload.results.map((r) => {
    const where = r.line > 0 ? `${r.file}:${r.line}` : r.label ? `${r.file} [${r.label}]` : r.file;
    return `${where}: ${r.preview}`;
  });
  const notes = grepNotes(payload, detail);
  if (lines.length === 0) {
    const none = payload.truncated
      ? `No file matched "${query}" in the part of the tree that was searched.`
      : `No file contains "${query}".`;
    return [none, ...notes].join('\n');
  }
  return `${lines.join('\n')}${notes.length ? `\n\n${notes.join('\n')}` : ''}`;
}

/** The truncation, in words: each reason the answer is short that the search knows of. */
export function grepNotes(payload: GrepPayload, detail: GrepDetail | undefined): string[] {
  const notes: string[] = [];
  if (!payload.truncated && payload.skipped_docs === 0) return notes;
  if (detail?.capped)
    notes.push(
      `More files match than the ${payload.results.length} shown; use a more specific query to see others.`,
    );
  if (detail && detail.textOutcome !== 'complete')
    notes.push(
      detail.textOutcome === 'timeout'
        ? `The ${GREP_TIME_BUDGET_MS / 1000} s budget ran out before every file was searched: files not reached are not listed.`
        : 'The walk stopped at its directory budget: parts of the tree were not searched.',
    );
  if (payload.skipped_docs > 0)
    notes.push(
      `${payload.skipped_docs === 1 ? 'At least 1 document was' : `At least ${payload.skipped_docs} documents were`} not searched (too large, refused by a zip safety cap, or not reached in time).`,
    );
  if (notes.length === 0)
    notes.push('The answer is partial: a document was read only in part, or the search stopped early.');
  return notes;
}
