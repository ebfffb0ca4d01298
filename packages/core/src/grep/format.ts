import type { GrepDetail, GrepPayload } from './grep.js';
import { GREP_TIME_BUDGET_MS } from './limits.js';
import type { GrepPartialReason } from './reasons.js';

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

/**
 * The truncation, in words: one sentence per reason the payload names (reasons.ts), in that order, so a person or
 * an agent reads why the answer is partial and what to do about it.
 */
export function grepNotes(payload: GrepPayload, detail: GrepDetail | undefined): string[] {
  const reasons = payload.partial_reasons ?? [];
  if (!payload.truncated && payload.skipped_docs === 0 && reasons.length === 0) return [];
  const docs = (n: number) => (n === 1 ? 'At least 1 document was' : `At least ${n} documents were`);
  const budget = (detail?.budgetMs ?? GREP_TIME_BUDGET_MS) / 1000;
  const words: Record<GrepPartialReason, string> = {
    budget: `Partial (budget): The ${budget} s budget ran out before every file was searched: files not reached are not listed.`,
    cap: `Partial (cap): ${capWords(payload)}; use a more specific query, or include/exclude globs, to see others.`,
    walk_budget:
      'Partial (walk budget): The walk stopped at its directory budget: parts of the tree were not searched.',
    doc_not_extracted:
      'Partial (documents not yet extracted): Some documents are still being extracted in the background and were not searched; search again shortly.',
    doc_skipped: `Partial (documents skipped): ${docs(payload.skipped_docs)} not searched (too large, refused by a zip safety cap, or stopped by the PDF reader's limits).`,
    doc_partial_text:
      'Partial (document text cut): A document was read only in part (a character or page cap) and may match past the part read.',
  };
  const notes = reasons.map((r) => words[r]);
  // Documents left unreached when time ran out are counted too (skipped_docs is a floor): say how many.
  if (payload.skipped_docs > 0 && !reasons.includes('doc_skipped') && !reasons.includes('doc_not_extracted'))
    notes.push(`${docs(payload.skipped_docs)} not searched (not reached in time).`);
  if (notes.length === 0) notes.push('Partial: The search stopped early.');
  return notes;
}

/** How many files a capped answer shows, of how many that match (known, at least, or only "more"). */
function capWords(payload: GrepPayload): string {
  const shown = new Set(payload.results.map((r) => r.file)).size;
  if (payload.total_files !== undefined) return `${payload.total_files} files match, ${shown} shown`;
  if (payload.total_files_at_least !== undefined)
    return `at least ${payload.total_files_at_least} files match, ${shown} shown`;
  return `More files match than the ${shown} shown`;
}
