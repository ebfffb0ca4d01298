/**
 * Which characters of a row a name query matched, for a surface to highlight. Computed for the rows a search
 * returns (at most the limit's 60), never while ranking, with the scorer's own readings: a lexical match marks the
 * typed name inside the basename (at a word start when it occurs at one) or, ignoring separators, the name's
 * leading characters, plus the directory segments of a `/` query found in order; anything else marks the fuzzy
 * alignment the scorer's fuzzy tier would take.
 */
import { fuzzyPositions } from './fuzzy.js';
import { startsWord } from './lexical.js';
import { type NameQuery, prepareNameQuery } from './query.js';
import { isSeparator, type NameTarget, nameTarget } from './target.js';

/** Paths longer than this are not marked (no real row is; the bound keeps the alignment's work small). */
const MAX_MARKED_CHARS = 4096;

/**
 * The matched offsets into `rel` (UTF-16, ascending, `/`-separated path relative to the search root) for `query`,
 * or `[]` when nothing matches or the path is too long to mark.
 */
export function matchPositions(query: string, rel: string, isDir = false): number[] {
  const q = prepareNameQuery(query);
  const r = rel.replace(/\\/g, '/').replace(/\/+$/, '');
  if (!q || r.length === 0 || r.length > MAX_MARKED_CHARS) return [];
  const t = nameTarget(r, isDir);
  for (const reading of [q, ...q.variants]) {
    const own = lexicalPositions(reading, t);
    if (own) return own;
  }
  return fuzzyPositions(q.text, t) ?? [];
}

function lexicalPositions(q: NameQuery, t: NameTarget): number[] | null {
  const name = namePart(q, t);
  if (!name) return null;
  const dirs = dirPart(q, t);
  return [...dirs, ...name];
}

/** The basename's matched offsets: the typed name as a substring (a word-start occurrence first), else compact. */
function namePart(q: NameQuery, t: NameTarget): number[] | null {
  const L = t.lower;
  const ns = t.nameStart;
  const qn = q.name;
  let first = -1;
  for (let at = L.indexOf(qn, ns); at >= 0; at = L.indexOf(qn, at + 1)) {
    if (first < 0) first = at;
    if (startsWord(t.rel, at)) {
      first = at;
      break;
    }
  }
  if (first >= 0) return range(first, qn.length);
  // Separator-blind: `mmapc` marks `mmap.c`'s letters.
  const qc = q.nameCompact;
  if (qc.length < 2) return null;
  const out: number[] = [];
  for (let i = ns; i < L.length && out.length < qc.length; i++) {
    const c = L.charCodeAt(i);
    if (isSeparator(c)) continue;
    if (c !== qc.charCodeAt(out.length)) return null;
    out.push(i);
  }
  return out.length === qc.length ? out : null;
}

/** The directory segments of a `/` query, each found in order in the directory part (as a substring, else skipped). */
function dirPart(q: NameQuery, t: NameTarget): number[] {
  const L = t.lower;
  const dirEnd = t.nameStart - 1;
  const out: number[] = [];
  let from = 0;
  for (const seg of q.dirSegments) {
    if (seg === '') continue;
    const at = L.indexOf(seg, from);
    if (at < 0 || at + seg.length > dirEnd) continue;
    out.push(...range(at, seg.length));
    from = at + seg.length;
  }
  return out;
}

function range(start: number, length: number): number[] {
  return Array.from({ length }, (_, i) => start + i);
}
