import type { RequiredLiterals } from '../match/index.js';
import { fileOfBlock } from './blocks.js';
import { type GramList, type GramSource, gramBlocks, type IndexFileData } from './format.js';
import { GRAM, literalGramSequence, literalGrams } from './grams.js';

/** One required set of literals: a match holds one of them, so a file holding it holds every gram of one. */
export interface GramClause {
  literals: string[];
  terms: number[][];
}

/**
 * A gram query: a file may match only if it satisfies every clause, and a clause when, for some literal of it,
 * the file holds every gram of that literal (an AND of ORs of ANDs). Built from the match layer's required
 * literals: every match contains one literal of `literals` and one of each set of `also`. `oneLine`: one
 * match's literals lie in one line, so at block level the clauses must hold near each other (evaluateBlocks).
 */
export type GramQuery =
  | { kind: 'all'; reason: string }
  | { kind: 'some'; clauses: GramClause[]; oneLine: boolean };

export function gramQuery(required: RequiredLiterals | null): GramQuery {
  if (required === null || required.literals.length === 0)
    return { kind: 'all', reason: 'the pattern has no required literal' };
  const clauses: GramClause[] = [];
  let short: string | null = null;
  for (const set of [required.literals, ...(required.also ?? [])]) {
    const terms: number[][] = [];
    for (const lit of set) {
      const t = literalGrams(lit);
      if (t.length === 0) break;
      terms.push(t);
    }
    // A set with a literal shorter than a gram asks nothing of the index; the others still narrow.
    if (terms.length === set.length) clauses.push({ literals: set, terms });
    else short ??= set.find((lit) => literalGrams(lit).length === 0)!;
  }
  if (clauses.length === 0)
    return { kind: 'all', reason: `required literal ${JSON.stringify(short)} is shorter than ${GRAM} bytes` };
  return { kind: 'some', clauses, oneLine: required.oneLine === true };
}

/** Whether a file's sorted gram set satisfies the query. */
export function setSatisfies(sorted: Uint32Array, q: GramQuery): boolean {
  if (q.kind === 'all') return true;
  return q.clauses.every((c) => c.terms.some((term) => term.every((k) => has(sorted, k))));
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

type BlockData = GramSource & Pick<IndexFileData, 'firstBlock' | 'blocks' | 'blockBytes' | 'newlines'>;

/**
 * The base files (ids) that may match, as a byte-per-file map (1: may match). A literal's occurrence starts in
 * some block k and, being at most B + GRAM bytes long (longer literals are cut to their first B + GRAM bytes:
 * a part of a literal is in every file that holds it), its grams all start in block k or k + 1 (blocks.ts).
 * So a file may hold the literal only if some k has every gram in block k or block k + 1.
 */
export function evaluateBase(d: BlockData, q: GramQuery): Uint8Array {
  return evaluateBlocks(d, q).files;
}

/**
 * `evaluateBase`, and the blocks that decided it: ascending block ids k where a literal of one clause (the
 * narrowest) may start — its grams all in block k or k + 1 — and every other clause may hold too. Every match
 * holds a literal of that clause starting in one of its file's listed blocks (blocks.ts `blockRanges` turns
 * them into byte ranges). `blocks` is null when no clause narrows anything (every literal of each has only
 * unlisted grams): every file may match anywhere.
 *
 * The other clauses: with `oneLine`, a match's literals lie in the line through the narrow clause's
 * occurrence, and that line runs from the last block before k that holds a newline to the first one after k
 * (per-block newline counts; the file's ends at worst): another clause must be able to start in that span.
 * Without it (a match may span lines), the file must hold every clause somewhere.
 */
export function evaluateBlocks(
  d: BlockData,
  q: GramQuery,
): { files: Uint8Array; blocks: Uint32Array | null } {
  const out = new Uint8Array(d.firstBlock.length);
  if (q.kind === 'all') {
    out.fill(1);
    return { files: out, blocks: null };
  }
  const starts: Uint32Array[] = [];
  for (const c of q.clauses) {
    const ks = clauseStarts(d, c);
    if (ks !== null) starts.push(ks);
  }
  if (starts.length === 0) {
    out.fill(1);
    return { files: out, blocks: null };
  }
  starts.sort((a, b) => a.length - b.length);
  let ks = starts[0]!;
  for (let c = 1; c < starts.length && ks.length > 0; c++)
    ks = q.oneLine ? nearInLine(d, ks, starts[c]!) : inSameFile(d, ks, starts[c]!);
  for (let j = 0; j < ks.length; j++) {
    const f = fileOfBlock(d.firstBlock, d.blocks, ks[j]!);
    if (f >= 0) out[f] = 1;
  }
  return { files: out, blocks: ks };
}

/**
 * The ascending block ids where a literal of the clause may start, or null when one of its literals has only
 * unlisted grams (it may be anywhere: the clause narrows nothing).
 */
function clauseStarts(d: BlockData, c: GramClause): Uint32Array | null {
  const found: Uint32Array[] = [];
  for (const literal of c.literals) {
    const ks = literalStarts(d, literal);
    if (ks === null) return null;
    if (ks.length > 0) found.push(ks);
  }
  return unionSorted(found);
}

/**
 * The ascending block ids k where the literal may start, or null when all its grams are unlisted. An occurrence
 * starting in block k has its grams, in order, first in block k (at least the first one) and then, once past
 * the block's end, in block k + 1: some split t ≥ 1 puts grams 0 … t − 1 in k and t … in k + 1. Grams merely
 * all in k ∪ k + 1 would also keep the block before every block that holds the whole literal.
 */
function literalStarts(d: BlockData, literal: string): Uint32Array | null {
  const seq = literalGramSequence(literal, d.blockBytes + GRAM);
  if (seq.length === 0) return new Uint32Array(0);
  // Per distinct gram: its list, decoded once (null: unlisted — in (nearly) every block, so not a condition).
  const lists = new Map<number, { list: GramList; blocks: Uint32Array | null } | null>();
  for (const g of seq) {
    if (lists.has(g)) continue;
    const l = gramBlocks(d, g);
    if (l === null) return new Uint32Array(0); // a gram no block holds: the literal matches nowhere
    lists.set(g, l === 'unlisted' ? null : { list: l, blocks: null });
  }
  const listed = [...lists.values()].filter((e) => e !== null);
  if (listed.length === 0) return null;
  const blocksOf = (e: { list: GramList; blocks: Uint32Array | null }) => (e.blocks ??= e.list.blocks());
  // Shortest list first: every later step only narrows it.
  listed.sort((a, b) => a.list.count - b.list.count);
  let ks = adjacentStarts(blocksOf(listed[0]!));
  for (let j = 1; j < listed.length && ks.length > 0; j++) ks = keepAdjacent(ks, blocksOf(listed[j]!));
  if (ks.length === 0) return ks;
  return splitStarts(
    ks,
    seq.map((g) => {
      const e = lists.get(g)!;
      return e === null ? null : blocksOf(e);
    }),
  );
}

/**
 * The ks (ascending) where the grams `seq` (in the literal's order; null: in every block) can be split: some
 * t ≥ 1 with grams 0 … t − 1 in block k and grams t … in block k + 1.
 */
function splitStarts(ks: Uint32Array, seq: Array<Uint32Array | null>): Uint32Array {
  const n = seq.length;
  const next = new Int32Array(n); // per position, the first index of its list not below the current k
  // 1: gram p is in block k; 2: in block k + 1 (ks ascend, so each position's cursor only moves forward).
  const where = (p: number, k: number): number => {
    const l = seq[p]!;
    if (l === null) return 3;
    let j = next[p]!;
    while (j < l.length && l[j]! < k) j++;
    next[p] = j;
    if (j === l.length) return 0;
    if (l[j] === k) return j + 1 < l.length && l[j + 1] === k + 1 ? 3 : 1;
    return l[j] === k + 1 ? 2 : 0;
  };
  const out = new Uint32Array(ks.length);
  let w = 0;
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i]!;
    let inK = 0; // grams 0 … inK − 1 are in block k
    while (inK < n && (where(inK, k) & 1) !== 0) inK++;
    if (inK === 0) continue;
    let fromNext = n; // grams fromNext … n − 1 are in block k + 1
    while (fromNext > inK && (where(fromNext - 1, k) & 2) !== 0) fromNext--;
    if (fromNext <= inK) out[w++] = k;
  }
  return out.subarray(0, w);
}

/**
 * The ks whose line may also hold a start in `other`: some start m of the same file with no newline in the
 * blocks strictly between k and m (the line through a position of block k reaches block m then, and only then).
 */
function nearInLine(d: BlockData, ks: Uint32Array, other: Uint32Array): Uint32Array {
  const before = newlinePrefix(d.newlines);
  const lines = (from: number, to: number) => (to > from ? before[to]! - before[from]! : 0);
  const out = new Uint32Array(ks.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i]!;
    while (j < other.length && other[j]! < k) j++;
    if (j < other.length && other[j] === k) {
      out[n++] = k;
      continue;
    }
    const f = fileOfBlock(d.firstBlock, d.blocks, k);
    if (f < 0) continue;
    const first = d.firstBlock[f]!;
    const last = first + d.blocks[f]!; // exclusive
    const a = j > 0 ? other[j - 1]! : -1; // the nearest start before k
    const b = j < other.length ? other[j]! : -1; // the nearest start after k
    if ((a >= first && lines(a + 1, k) === 0) || (b >= 0 && b < last && lines(k + 1, b) === 0)) out[n++] = k;
  }
  return out.subarray(0, n);
}

/** The ks whose file holds a start in `other`. */
function inSameFile(d: BlockData, ks: Uint32Array, other: Uint32Array): Uint32Array {
  const out = new Uint32Array(ks.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i]!;
    const f = fileOfBlock(d.firstBlock, d.blocks, k);
    if (f < 0) continue;
    const first = d.firstBlock[f]!;
    const last = first + d.blocks[f]!;
    while (j < other.length && other[j]! < first) j++;
    if (j < other.length && other[j]! < last) out[n++] = k;
  }
  return out.subarray(0, n);
}

const prefixes = new WeakMap<Uint32Array, Float64Array>();

/** `out[k]`: the newlines in blocks 0 … k − 1 (computed once per loaded base). */
function newlinePrefix(newlines: Uint32Array): Float64Array {
  let p = prefixes.get(newlines);
  if (!p) {
    p = new Float64Array(newlines.length + 1);
    for (let k = 0; k < newlines.length; k++) p[k + 1] = p[k]! + newlines[k]!;
    prefixes.set(newlines, p);
  }
  return p;
}

/** The ascending union of ascending lists. */
function unionSorted(lists: Uint32Array[]): Uint32Array {
  if (lists.length === 1) return lists[0]!;
  if (lists.length === 0) return new Uint32Array(0);
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
