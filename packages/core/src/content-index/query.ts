import type { RequiredLiterals } from '../match/index.js';
import { fileOfBlock } from './blocks.js';
import { type GramList, type GramSource, gramBlocks, type IndexFileData } from './format.js';
import { GRAM, literalGrams } from './grams.js';

/**
 * A gram query: a file may match only if, for some literal, it holds every gram of that literal
 * (an OR of ANDs). Built from the match layer's required literals: every match contains one of them.
 */
export type GramQuery =
  | { kind: 'all'; reason: string }
  | { kind: 'some'; literals: string[]; terms: number[][] };

export function gramQuery(required: RequiredLiterals | null): GramQuery {
  if (required === null || required.literals.length === 0)
    return { kind: 'all', reason: 'the pattern has no required literal' };
  const terms: number[][] = [];
  for (const lit of required.literals) {
    const t = literalGrams(lit);
    if (t.length === 0)
      return { kind: 'all', reason: `required literal ${JSON.stringify(lit)} is shorter than ${GRAM} bytes` };
    terms.push(t);
  }
  return { kind: 'some', literals: required.literals, terms };
}

/** Whether a file's sorted gram set satisfies the query. */
export function setSatisfies(sorted: Uint32Array, q: GramQuery): boolean {
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

/**
 * The base files (ids) that may match, as a byte-per-file map (1: may match). A literal's occurrence starts in
 * some block k and, being at most B + GRAM bytes long (longer literals are cut to their first B + GRAM bytes:
 * a part of a literal is in every file that holds it), its grams all start in block k or k + 1 (blocks.ts).
 * So a file may hold the literal only if some k has every gram in block k or block k + 1.
 */
export function evaluateBase(
  d: GramSource & Pick<IndexFileData, 'firstBlock' | 'blocks' | 'blockBytes'>,
  q: GramQuery,
): Uint8Array {
  return evaluateBlocks(d, q).files;
}

/**
 * `evaluateBase`, and the blocks that decided it: every block id k (ascending) where a literal may start —
 * its grams all in block k or k + 1. A file's matches all hold a literal starting in one of its listed blocks
 * (blocks.ts `blockRanges` turns them into byte ranges). `blocks` is null when a literal narrows nothing
 * (all its grams unlisted): every file may match anywhere.
 */
export function evaluateBlocks(
  d: GramSource & Pick<IndexFileData, 'firstBlock' | 'blocks' | 'blockBytes'>,
  q: GramQuery,
): { files: Uint8Array; blocks: Uint32Array | null } {
  const files = d.firstBlock.length;
  const out = new Uint8Array(files);
  if (q.kind === 'all') {
    out.fill(1);
    return { files: out, blocks: null };
  }
  const found: Uint32Array[] = [];
  for (const literal of q.literals) {
    const grams = literalGrams(literal, d.blockBytes + GRAM);
    const listed: GramList[] = [];
    let nowhere = grams.length === 0;
    for (const k of grams) {
      const l = gramBlocks(d, k);
      if (l === null) {
        nowhere = true; // a gram no block holds: the literal matches nowhere
        break;
      }
      // A gram without a list is in (nearly) every block: it narrows nothing, so it is not a condition.
      if (l !== 'unlisted') listed.push(l);
    }
    if (nowhere) continue;
    if (listed.length === 0) {
      out.fill(1);
      return { files: out, blocks: null };
    }
    // Shortest list first: every later step only narrows it.
    listed.sort((a, b) => a.count - b.count);
    let ks = adjacentStarts(listed[0]!.blocks());
    for (let j = 1; j < listed.length && ks.length > 0; j++) ks = keepAdjacent(ks, listed[j]!.blocks());
    for (let j = 0; j < ks.length; j++) {
      const f = fileOfBlock(d.firstBlock, d.blocks, ks[j]!);
      if (f >= 0) out[f] = 1;
    }
    if (ks.length > 0) found.push(ks);
  }
  return { files: out, blocks: unionSorted(found) };
}

/** The ascending union of ascending lists. */
function unionSorted(lists: Uint32Array[]): Uint32Array {
  if (lists.length === 1) return lists[0]!;
  let n = 0;
  for (const l of lists) n += l.length;
  const all = new Uint32Array(n);
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  all.sort();
  let w = 0;
  for (let i = 0; i < all.length; i++) if (w === 0 || all[w - 1] !== all[i]) all[w++] = all[i]!;
  return all.subarray(0, w);
}

/** Every k with k or k + 1 in `blocks` (sorted), ascending. A separator k adds nothing: k + 1 is listed too. */
function adjacentStarts(blocks: Uint32Array): Uint32Array {
  const out = new Uint32Array(blocks.length * 2);
  let n = 0;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (b > 0 && (n === 0 || out[n - 1]! < b - 1)) out[n++] = b - 1;
    out[n++] = b;
  }
  return out.subarray(0, n);
}

/** The ks (sorted) with k or k + 1 in `blocks` (sorted). */
function keepAdjacent(ks: Uint32Array, blocks: Uint32Array): Uint32Array {
  const out = new Uint32Array(ks.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i]!;
    while (j < blocks.length && blocks[j]! < k) j++;
    if (j === blocks.length) break;
    const b = blocks[j]!;
    if (b === k || b === k + 1) out[n++] = k;
  }
  return out.subarray(0, n);
}
