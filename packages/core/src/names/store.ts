import { fuzzyQuality, fuzzyScoreOf, SplitAligner } from './fuzzy.js';
import { type LexicalMatch, lexicalMayMatch, lexicalScoreTarget } from './lexical.js';
import type { NameQuery } from './query.js';
import { isDotName, underDotDir } from './rules.js';
import { charMask, type DirectoryPrefix, directoryPrefix, lowerSameLength, NameTarget } from './target.js';
import { fuzzyCeilingFor } from './tiers.js';
import { compareRanked, type NameKinds, type NameScorer, type RankedCandidate } from './types.js';

const KIND_FILE = 1;
const KIND_DIR = 2;
const FLAG_LINK = 4;
/** A file whose name starts with a dot: a kind of its own, so a search that does not offer them skips it free. */
const KIND_DOTFILE = 8;

function kindMaskOf(kinds: NameKinds, dotFiles: boolean): number {
  const files = dotFiles ? KIND_FILE | KIND_DOTFILE : KIND_FILE;
  return kinds === 'files' ? files : kinds === 'dirs' ? KIND_DIR : files | KIND_DIR;
}

/** One ranked slot of an {@link EntryStore}. */
export interface RankedSlot extends RankedCandidate {
  slot: number;
}

/** An entered directory: where its children sit in the columns, and what its children share. */
interface DirRecord {
  readonly id: number;
  readonly rel: string;
  readonly prefix: DirectoryPrefix;
  /** Character mask of the directory's path (a child's path mask is this plus its name's). */
  readonly mask: number;
  /** Character mask and length of the directory's own name (its main files also answer to it). */
  readonly ownNameMask: number;
  readonly ownNameLength: number;
  /** Children added contiguously by a walk: slots [start, end). */
  start: number;
  end: number;
  /** Children added later (links resolved after the walk, incremental changes). */
  extra: number[] | undefined;
  /** name → slot, built on first need (a rescan), then kept exact. */
  map: Map<string, number> | undefined;
}

/**
 * The index's entries as columns (a scan touches typed arrays before any object), kept exact under incremental
 * changes (removals are tombstones). Building costs little more than the walk itself: the per-entry search objects
 * ({@link NameTarget}) are made on first use, and a directory's name → slot map only when it is rescanned.
 */
export class EntryStore {
  private rels: string[] = [];
  /** Per slot: the path lowercased (the same string as `rels[i]` when it has no capitals). */
  private lowers: string[] = [];
  private targets: (NameTarget | undefined)[] = [];
  nameStarts = new Int32Array(4096);
  pathMasks = new Int32Array(4096);
  nameMasks = new Int32Array(4096);
  kinds = new Uint8Array(4096);
  /** Per slot: id of its parent directory (for per-directory work shared by its children). */
  parents = new Int32Array(4096);
  private readonly dirs = new Map<string, DirRecord>();
  private readonly dirsById: (DirRecord | undefined)[] = [];
  private warmed = 0;
  /** Bumped by every change, so a cached candidate list is never used on a different set of entries. */
  private version = 0;
  /** The change counter: equal values mean the same set of entries. */
  get changes(): number {
    return this.version;
  }
  private candidates:
    | { text: string; kindMask: number; version: number; slots: Int32Array; count: number }
    | undefined;
  private matched = new Int32Array(0);
  live = 0;
  files = 0;
  directories = 0;

  get length(): number {
    return this.rels.length;
  }

  /** Upper bound of parent ids (for per-query caches indexed by parent). */
  get dirIdLimit(): number {
    return this.dirsById.length;
  }

  /** The search object of a live slot (made on first use). */
  target(slot: number): NameTarget {
    let t = this.targets[slot];
    if (t === undefined) {
      const dir = this.dirsById[this.parents[slot]!]!;
      t = new NameTarget(
        this.rels[slot]!,
        (this.kinds[slot]! & KIND_DIR) !== 0,
        dir.mask,
        undefined,
        dir.prefix,
        dir.id,
      );
      this.targets[slot] = t;
    }
    return t;
  }

  /** Relative path of a live slot (undefined once removed). */
  relOf(slot: number): string | undefined {
    return this.kinds[slot] === 0 ? undefined : this.rels[slot];
  }

  isLink(slot: number): boolean {
    return (this.kinds[slot]! & FLAG_LINK) !== 0;
  }

  isDir(slot: number): boolean {
    return (this.kinds[slot]! & KIND_DIR) !== 0;
  }

  isEntered(rel: string): boolean {
    return this.dirs.has(rel);
  }

  /** Entered directories (`''` is the root). */
  enteredDirs(): IterableIterator<string> {
    return this.dirs.keys();
  }

  get enteredCount(): number {
    return this.dirs.size;
  }

  /** Names of the children offered from an entered directory. */
  childNames(rel: string): string[] {
    const d = this.dirs.get(rel);
    return d ? [...this.childMap(d).keys()] : [];
  }

  slotOf(rel: string): number | undefined {
    const cut = rel.lastIndexOf('/');
    const d = this.dirs.get(cut < 0 ? '' : rel.slice(0, cut));
    return d ? this.childMap(d).get(cut < 0 ? rel : rel.slice(cut + 1)) : undefined;
  }

  has(rel: string): boolean {
    return this.slotOf(rel) !== undefined;
  }

  kindOf(rel: string): 'file' | 'dir' | undefined {
    const s = this.slotOf(rel);
    if (s === undefined) return undefined;
    return (this.kinds[s]! & KIND_DIR) !== 0 ? 'dir' : 'file';
  }

  /** Marks a directory as entered (its children are indexed). */
  enter(rel: string): void {
    if (this.dirs.has(rel)) return;
    const cut = rel.lastIndexOf('/');
    const own = cut < 0 ? rel : rel.slice(cut + 1);
    const d: DirRecord = {
      id: this.dirsById.length,
      rel,
      prefix: directoryPrefix(rel),
      mask: charMask(rel),
      ownNameMask: charMask(own.toLowerCase()),
      ownNameLength: own.length,
      start: this.rels.length,
      end: this.rels.length,
      extra: undefined,
      map: undefined,
    };
    this.dirs.set(rel, d);
    this.dirsById.push(d);
  }

  /** Adds `name` under the entered directory `parent` (entered on demand); false when it was already there. */
  addChild(parent: string, name: string, isDir: boolean, isLink: boolean): boolean {
    let d = this.dirs.get(parent);
    if (d === undefined) {
      this.enter(parent);
      d = this.dirs.get(parent)!;
    }
    if (d.map?.has(name)) return false;
    const slot = this.rels.length;
    if (slot >= this.kinds.length) this.grow();
    const rel = parent === '' ? name : `${parent}/${name}`;
    this.rels.push(rel);
    this.lowers.push(d.prefix.lower === undefined && !hasCapitals(name) ? rel : lowerSameLength(rel));
    this.nameStarts[slot] = d.prefix.length;
    const own = charMask(name);
    this.pathMasks[slot] = d.mask | own;
    // a possible main file (index.*, __init__.*, mod.*, or named after its directory) also answers to the
    // directory's name: a superset is fine, the mask only filters
    const dot = isDir ? -1 : name.indexOf('.', 1);
    const mayBeMain = dot > 0 && (dot === 5 || dot === 8 || dot === 3 || dot === d.ownNameLength);
    this.nameMasks[slot] = mayBeMain ? own | d.ownNameMask : own;
    // A file in a dot directory (entered last, dotDirsLast) is a dot file too: offered only when they are asked for.
    const kind = isDir
      ? KIND_DIR
      : isDotName(name) || underDotDir(rel, rel.length - name.length)
        ? KIND_DOTFILE
        : KIND_FILE;
    this.kinds[slot] = kind | (isLink ? FLAG_LINK : 0);
    this.parents[slot] = d.id;
    if (d.end === slot) d.end = slot + 1;
    else if (d.extra) d.extra.push(slot);
    else d.extra = [slot];
    d.map?.set(name, slot);
    this.version++;
    this.live++;
    if (isDir) this.directories++;
    else this.files++;
    return true;
  }

  /** Adds an entry by its relative path (its parent is entered if it was not). */
  add(rel: string, isDir: boolean, isLink: boolean): boolean {
    const cut = rel.lastIndexOf('/');
    return this.addChild(cut < 0 ? '' : rel.slice(0, cut), cut < 0 ? rel : rel.slice(cut + 1), isDir, isLink);
  }

  /** Removes an entry and, for an entered directory, everything under it. Returns the entered dirs removed. */
  remove(rel: string, removedDirs: string[] = []): string[] {
    const d = this.dirs.get(rel);
    if (d) {
      for (const k of [...this.childMap(d).keys()]) this.remove(rel === '' ? k : `${rel}/${k}`, removedDirs);
      this.dirs.delete(rel);
      this.dirsById[d.id] = undefined;
      removedDirs.push(rel);
    }
    if (rel === '') return removedDirs;
    const cut = rel.lastIndexOf('/');
    const parent = this.dirs.get(cut < 0 ? '' : rel.slice(0, cut));
    if (!parent) return removedDirs;
    const map = this.childMap(parent);
    const name = cut < 0 ? rel : rel.slice(cut + 1);
    const slot = map.get(name);
    if (slot !== undefined) {
      map.delete(name);
      if (this.isDir(slot)) this.directories--;
      else this.files--;
      this.rels[slot] = '';
      this.lowers[slot] = '';
      this.targets[slot] = undefined;
      this.kinds[slot] = 0;
      this.pathMasks[slot] = 0;
      this.nameMasks[slot] = 0;
      this.version++;
      this.live--;
    }
    return removedDirs;
  }

  /**
   * Makes search objects ahead of need, in slot order, until `deadline` (ms, `performance.now()`); true when
   * every live slot has one.
   */
  warm(deadline: number): boolean {
    const n = this.rels.length;
    while (this.warmed < n) {
      const end = Math.min(n, this.warmed + 512);
      for (let i = this.warmed; i < end; i++) if (this.kinds[i] !== 0) this.target(i);
      this.warmed = end;
      if (performance.now() >= deadline) break;
    }
    return this.warmed >= n;
  }

  private childMap(d: DirRecord): Map<string, number> {
    if (d.map) return d.map;
    const map = new Map<string, number>();
    const put = (slot: number) => {
      if (this.kinds[slot] === 0 || this.parents[slot] !== d.id) return;
      const rel = this.rels[slot]!;
      map.set(rel.slice(rel.lastIndexOf('/') + 1), slot);
    };
    for (let i = d.start; i < d.end; i++) put(i);
    for (const slot of d.extra ?? []) put(slot);
    d.map = map;
    return map;
  }

  private grow(): void {
    const size = this.kinds.length * 2;
    const kinds = new Uint8Array(size);
    kinds.set(this.kinds);
    this.kinds = kinds;
    const masks = new Int32Array(size);
    masks.set(this.pathMasks);
    this.pathMasks = masks;
    const names = new Int32Array(size);
    names.set(this.nameMasks);
    this.nameMasks = names;
    const parents = new Int32Array(size);
    parents.set(this.parents);
    this.parents = parents;
    const starts = new Int32Array(size);
    starts.set(this.nameStarts);
    this.nameStarts = starts;
  }

  /**
   * The best `k` live entries for `q` (ties on score, kind and name length kept in store order). Lexical tiers are
   * scored first for every candidate; the fuzzy alignment runs only while it can still change the top `k`.
   */
  rank(
    q: NameQuery,
    kinds: NameKinds,
    k: number,
    scratch?: Int32Array,
    page = k,
    dotFiles = false,
  ): RankedSlot[] {
    const heap = new TopK(k);
    const n = this.rels.length;
    const qmask = q.mask;
    const match: LexicalMatch = { aliasOnly: false };
    const kindMask = kindMaskOf(kinds, dotFiles);
    const fuzzy = scratch && scratch.length >= n ? scratch : new Int32Array(n);
    let nf = 0;
    // Every match of `q` holds `q.text` as a subsequence of its path; when the previous query's text is a prefix of
    // this one (the next keystroke), only the previous query's complete candidate list can match.
    const prev = this.candidates;
    const narrowed =
      prev !== undefined &&
      prev.version === this.version &&
      prev.kindMask === kindMask &&
      q.text.startsWith(prev.text);
    const scanCount = narrowed ? prev.count : n;
    if (this.matched.length < scanCount) this.matched = new Int32Array(Math.max(scanCount, 1024));
    const matched = this.matched;
    let nm = 0;
    // lexical hits no fuzzy match can outscore; once a page of them exists the fuzzy tier cannot reach the page
    let strong = 0;
    const ceiling = fuzzyCeilingFor(q);
    const masks = this.pathMasks;
    const nameMasks = this.nameMasks;
    const qname = q.nameMask;
    const kindArr = this.kinds;
    for (let c = 0; c < scanCount; c++) {
      const i = narrowed ? prev.slots[c]! : c;
      const kk = kindArr[i]!;
      if ((kk & kindMask) === 0) continue;
      if ((qmask & ~masks[i]!) !== 0) continue;
      if (
        (qname & ~nameMasks[i]!) !== 0 ||
        (this.targets[i] === undefined && !lexicalMayMatch(q, this.lowers[i]!, this.nameStarts[i]!))
      ) {
        fuzzy[nf++] = i;
        continue;
      }
      const t = this.target(i);
      const s = lexicalScoreTarget(q, t, match);
      if (s > 0) {
        heap.offer(i, s, t.isDir, t.rel.length - t.nameStart, match.aliasOnly);
        matched[nm++] = i;
        if (s > ceiling) strong++;
      } else fuzzy[nf++] = i;
    }
    let complete = nf === 0;
    if (nf > 0 && strong < page && (!heap.full || heap.worstScore < ceiling)) {
      // Subsequence test split at the name: the directory part is consumed once per directory (greedy leftmost
      // consumption is maximal, so the rest of the query must fit in the name).
      const consumed = new Int16Array(this.dirsById.length).fill(-1);
      const text = q.text;
      const m = text.length;
      const parents = this.parents;
      const aligner = SplitAligner.supports(text) ? new SplitAligner(text, this.dirsById.length) : null;
      const lowers = this.lowers;
      const starts = this.nameStarts;
      complete = true;
      for (let f = 0; f < nf; f++) {
        if (heap.full && heap.worstScore >= ceiling) {
          complete = false;
          break;
        }
        const i = fuzzy[f]!;
        const lower = lowers[i]!;
        const ns = starts[i]!;
        const pid = parents[i]!;
        let k = consumed[pid]!;
        if (k < 0) {
          k = greedyConsume(text, 0, lower, 0, ns);
          consumed[pid] = k;
        }
        if (k < m && greedyConsume(text, k, lower, ns, lower.length) < m) continue;
        matched[nm++] = i;
        const t = this.target(i);
        // exact pruning: a candidate whose best possible score cannot enter the heap is not aligned
        if (aligner && heap.full && fuzzyScoreOf(q, t, aligner.upperBound(t, pid)) < heap.worstScore)
          continue;
        const s = fuzzyScoreOf(q, t, aligner ? aligner.quality(t, pid) : fuzzyQuality(text, t));
        if (s > 0) heap.offer(i, s, t.isDir, t.rel.length - t.nameStart);
      }
    }
    if (complete) {
      // every slot holding q.text as a subsequence was seen: keep them for the next keystroke
      this.candidates = {
        text: q.text,
        kindMask,
        version: this.version,
        slots: matched.slice(0, nm),
        count: nm,
      };
    }
    return heap.sorted();
  }

  /** As {@link rank}, with a caller's scorer over every live entry (no prefilter). */
  rankWith(scorer: NameScorer, query: string, kinds: NameKinds, k: number, dotFiles = false): RankedSlot[] {
    const heap = new TopK(k);
    const kindMask = kindMaskOf(kinds, dotFiles);
    for (let i = 0; i < this.rels.length; i++) {
      if ((this.kinds[i]! & kindMask) === 0) continue;
      const t = this.target(i);
      const name = t.rel.slice(t.nameStart);
      const s = scorer(query, name, t.rel);
      if (s > 0) heap.offer(i, s, t.isDir, name.length);
    }
    return heap.sorted();
  }
}

function hasCapitals(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c >= 128) return true;
  }
  return false;
}

/** How many characters of `q` (from `qi`) a greedy left-to-right pass over `s[from, to)` consumes, plus `qi`. */
function greedyConsume(q: string, qi: number, s: string, from: number, to: number): number {
  const m = q.length;
  if (qi >= m) return qi;
  let c = q.charCodeAt(qi);
  for (let j = from; j < to; j++) {
    if (s.charCodeAt(j) === c) {
      if (++qi === m) return qi;
      c = q.charCodeAt(qi);
    }
  }
  return qi;
}

/** A bounded selection of the best candidates in ranking order (ties broken by arrival: earlier wins). */
class TopK {
  private readonly items: RankedSlot[] = [];
  constructor(private readonly k: number) {}

  get full(): boolean {
    return this.items.length >= this.k;
  }

  /** Score of the worst kept candidate (only meaningful when full). */
  get worstScore(): number {
    return this.items[0]?.score ?? Number.NEGATIVE_INFINITY;
  }

  offer(slot: number, score: number, isDir: boolean, nameLength: number, aliasOnly = false): void {
    const items = this.items;
    if (items.length >= this.k) {
      const w = items[0]!;
      // strictly better than the worst, else dropped (arrival order keeps the earlier one on a full tie)
      if (score < w.score) return;
      if (score === w.score) {
        const c = compareRanked({ score, isDir, nameLength, mtimeMs: 0, aliasOnly }, w);
        if (c >= 0) return;
      }
      items[0] = { slot, score, isDir, nameLength, mtimeMs: 0, aliasOnly };
      this.siftDown(0);
      return;
    }
    items.push({ slot, score, isDir, nameLength, mtimeMs: 0, aliasOnly });
    this.siftUp(items.length - 1);
  }

  sorted(): RankedSlot[] {
    return this.items.slice().sort((a, b) => compareRanked(a, b) || a.slot - b.slot);
  }

  // heap order: the WORST candidate at the root
  private worse(a: RankedSlot, b: RankedSlot): boolean {
    const c = compareRanked(a, b);
    return c > 0 || (c === 0 && a.slot > b.slot);
  }

  private siftUp(i: number): void {
    const items = this.items;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(items[i]!, items[p]!)) break;
      [items[i], items[p]] = [items[p]!, items[i]!];
      i = p;
    }
  }

  private siftDown(i: number): void {
    const items = this.items;
    const n = items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.worse(items[l]!, items[m]!)) m = l;
      if (r < n && this.worse(items[r]!, items[m]!)) m = r;
      if (m === i) break;
      [items[i], items[m]] = [items[m]!, items[i]!];
      i = m;
    }
  }
}
