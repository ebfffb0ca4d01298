import type { RequiredLiterals } from '../match/index.js';
import { decodePostings, type SerializedPostings } from './postings-builder.js';
import { literalTrigrams } from './trigrams.js';

/**
 * A trigram query: a file may match only if, for some literal, it holds every trigram of that literal
 * (an OR of ANDs). Built from the match layer's required literals: every match contains one of them.
 */
export type TrigramQuery = { kind: 'all'; reason: string } | { kind: 'some'; terms: number[][] };

export function trigramQuery(required: RequiredLiterals | null): TrigramQuery {
  if (required === null || required.literals.length === 0)
    return { kind: 'all', reason: 'the pattern has no required literal' };
  const terms: number[][] = [];
  for (const lit of required.literals) {
    const t = literalTrigrams(lit);
    if (t.length === 0)
      return { kind: 'all', reason: `required literal ${JSON.stringify(lit)} is shorter than 3 bytes` };
    terms.push(t);
  }
  return { kind: 'some', terms };
}

/** Whether a file's sorted trigram set satisfies the query. */
export function setSatisfies(sorted: Uint32Array, q: TrigramQuery): boolean {
  if (q.kind === 'all') return true;
  return q.terms.some((term) => term.every((k) => has(sorted, k)));
}

function has(sorted: Uint32Array, key: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v === key) return true;
    if (v < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** The base files (ids) that may match, as a byte-per-file map (1: may match). */
export function evaluateBase(p: SerializedPostings, files: number, q: TrigramQuery): Uint8Array {
  const out = new Uint8Array(files);
  if (q.kind === 'all') {
    out.fill(1);
    return out;
  }
  for (const term of q.terms) {
    const idx = term.map((k) => (has(p.keys, k) ? lowerBound(p.keys, k) : -1));
    if (idx.some((i) => i < 0)) continue; // a trigram no file holds: this literal matches nowhere
    // Shortest list first: every later step only narrows it.
    idx.sort((a, b) => p.counts[a]! - p.counts[b]!);
    let ids = decodePostings(p.data, p.offsets[idx[0]!]!, p.lengths[idx[0]!]!, p.counts[idx[0]!]!);
    for (let j = 1; j < idx.length && ids.length > 0; j++) {
      const i = idx[j]!;
      ids = intersect(ids, decodePostings(p.data, p.offsets[i]!, p.lengths[i]!, p.counts[i]!));
    }
    for (let j = 0; j < ids.length; j++) out[ids[j]!] = 1;
  }
  return out;
}

function lowerBound(sorted: Uint32Array, key: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, n);
}
