import { GREP_MAX_QUERY_CHARS, GREP_MIN_QUERY_CHARS } from './limits.js';

/**
 * The query a content grep runs, or null when the request is not a search (answered with the empty payload):
 * shorter than 2 or longer than 200 characters after trimming, or holding a line break — both engines are
 * line-oriented, so no line can contain one, and rg's pattern channel (`--file -`) would split it into two
 * patterns OR-ed together. Characters are code points, as a person counts them.
 */
export function grepQuery(raw: string): string | null {
  const q = raw.trim();
  const chars = [...q].length;
  if (chars < GREP_MIN_QUERY_CHARS || chars > GREP_MAX_QUERY_CHARS) return null;
  if (q.includes('\n') || q.includes('\r')) return null;
  return q;
}
