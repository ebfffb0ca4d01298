/**
 * Why a grep answer is partial, by name (the payload's `partial_reasons`, and the words of format.ts):
 * - `budget`            the time budget ran out before every file was searched;
 * - `cap`               more files matched than the row limit let through;
 * - `walk_budget`       a walk stopped at its directory budget;
 * - `doc_skipped`       a document was not searched: too large, refused by a zip cap, or stopped by the PDF
 *                       reader's limits;
 * - `doc_not_extracted` a document's text is not extracted yet (an index extracts documents in the background);
 * - `doc_partial_text`  a document's text was read only in part (a character or page cap) and did not match in it.
 */
export type GrepPartialReason =
  | 'budget'
  | 'cap'
  | 'walk_budget'
  | 'doc_skipped'
  | 'doc_not_extracted'
  | 'doc_partial_text';

/** The order reasons are listed and said in: what cost the most files first. */
export const GREP_PARTIAL_REASONS: readonly GrepPartialReason[] = [
  'budget',
  'cap',
  'walk_budget',
  'doc_not_extracted',
  'doc_skipped',
  'doc_partial_text',
];
