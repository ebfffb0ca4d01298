/**
 * Required-literal extraction for the raw-byte prefilter: a set of strings such that every match contains at
 * least one of them. Losing a match is worse than a weak filter, so anything uncertain gives up (null).
 *
 * Case-insensitive patterns (JS `i` flag) yield literals meant for an ASCII-case-insensitive byte comparison:
 * a character whose folding class leaves ASCII (`k` ~ U+212A KELVIN SIGN, `s` ~ U+017F LONG S, `é` ~ `É`) is
 * spelled out in every variant, so ASCII folding of the bytes is all the consumer needs.
 */
import type { ClassCompiler } from './charclass.js';
import type { ClassExpr, Hir } from './hir.js';
import { asciiFoldPartner, foldClassOf } from './unicode.js';

/** Cross products stop growing past this many strings. */
const MAX_STRINGS = 64;
/** A class is enumerated as literals only when it is this small. */
const MAX_CLASS_CHARS = 16;
/** `x{n}`-style repeats are expanded into exact strings only up to this count. */
const MAX_REPEAT = 8;
/** At most this many sets are kept in an AND of required sets (the best ones): a weaker filter, never a wrong one. */
const MAX_CONJUNCTS = 8;

interface Info {
  /** Every string the node can match, when that set is small and known. */
  exact: string[] | null;
  /** Strings one of which every match contains (null: no requirement known). */
  required: string[] | null;
  /**
   * Sets every match contains one string of, each of them (an AND of ORs; `required` is the best single one).
   * A pattern's parts in sequence each require their own: `kmalloc\(.*GFP_ATOMIC` needs both literals.
   */
  all: string[][];
}

export interface RequiredLiterals {
  literals: string[];
  caseInsensitive: boolean;
  /**
   * More sets of literals, every match also containing one literal of each (an AND with `literals`), compared
   * as `literals` are. Absent when no other set is known.
   */
  also?: string[][];
  /**
   * Set with `also`: true when no match holds a '\n' byte, so one match's literals all lie in one line of the
   * file (a consumer may ask for them near each other); false when a match may span lines.
   */
  oneLine?: boolean;
}

/** A literal's characters, escaped for a RegExp source. */
export function escapeLiteral(t: string): string {
  return t.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/**
 * A global RegExp that finds the required literals in decoded text (ASCII case folding when they ask for it: they
 * spell out every other variant), or null when there are none to find. An alternation of strings: V8 does bounded
 * work per start position on it, so it may run over any text on any thread.
 */
export function literalFinder(required: RequiredLiterals | null): RegExp | null {
  if (!required || required.literals.length === 0 || required.literals.some((l) => l.length === 0))
    return null;
  return new RegExp(required.literals.map(escapeLiteral).join('|'), required.caseInsensitive ? 'gi' : 'g');
}

function score(set: string[] | null): number {
  if (set === null || set.length === 0) return -1;
  let min = Number.POSITIVE_INFINITY;
  for (const s of set) min = Math.min(min, s.length);
  // Longer shortest literal first; fewer alternatives break ties.
  return min * 1000 - set.length;
}

function better(a: string[] | null, b: string[] | null): string[] | null {
  return score(b) > score(a) ? b : a;
}

function dedupe(set: string[]): string[] {
  return [...new Set(set)];
}

/**
 * Every `x + y`. The sets are duplicate-free (every Info is), so a product with a one-string side is too: only
 * a product of two larger sets is deduplicated. Hashing each step's strings made a long literal quadratic — a
 * 20 000-character pattern spent 1.4 s of CPU here.
 */
function cross(a: string[], b: string[]): string[] | null {
  if (a.length * b.length > MAX_STRINGS) return null;
  const out: string[] = [];
  for (const x of a) for (const y of b) out.push(x + y);
  return a.length > 1 && b.length > 1 ? dedupe(out) : out;
}

export class LiteralExtractor {
  constructor(
    private readonly classes: ClassCompiler,
    /** True when literals are compared ASCII-case-insensitively (the regex has the `i` flag). */
    private readonly caseInsensitive: boolean,
  ) {}

  /** `oneLine`: no match of `h` can hold a '\n' (reported with `also`). */
  extract(h: Hir, oneLine = false): RequiredLiterals | null {
    const info = this.info(h);
    const best = better(info.exact, info.required);
    if (best === null || best.length === 0 || best.some((s) => s.length === 0)) return null;
    const literals = minimal(dedupe(best), this.caseInsensitive);
    const out: RequiredLiterals = { literals, caseInsensitive: this.caseInsensitive };
    const also = implied(
      [literals, ...info.all.map((set) => minimal(set, this.caseInsensitive))],
      this.caseInsensitive,
    ).slice(1);
    if (also.length > 0) {
      out.also = also;
      out.oneLine = oneLine;
    }
    return out;
  }

  /** The spellings of one code point a byte comparison must look for. */
  private charVariants(cp: number, fold: 'none' | 'unicode' | 'ascii'): string[] {
    let members: readonly number[];
    if (fold === 'none') members = [cp];
    else if (fold === 'ascii') {
      const p = asciiFoldPartner(cp);
      members = p === null ? [cp] : [cp, p];
    } else members = foldClassOf(cp);
    return this.spell(members);
  }

  /** Code points → strings; under ASCII-insensitive comparison one spelling per ASCII-case pair suffices. */
  private spell(members: readonly number[]): string[] {
    if (!this.caseInsensitive) return members.map((m) => String.fromCodePoint(m));
    const out = new Set<string>();
    for (const m of members) out.add(String.fromCodePoint(m >= 0x41 && m <= 0x5a ? m + 0x20 : m));
    return [...out];
  }

  private classMembers(e: ClassExpr): number[] | null {
    const bounded = boundedCandidates(e);
    if (bounded === null) return null;
    const out: number[] = [];
    for (const cp of bounded) {
      if (this.classes.has(e, cp)) out.push(cp);
      if (out.length > MAX_CLASS_CHARS) return null;
    }
    if (this.caseInsensitive) {
      // The regex folds the class; the literals must cover every member of each folding class.
      const closed = new Set<number>();
      for (const cp of out) for (const m of foldClassOf(cp)) closed.add(m);
      if (closed.size > MAX_CLASS_CHARS) return null;
      return [...closed];
    }
    return out;
  }

  private info(h: Hir): Info {
    switch (h.t) {
      case 'empty':
      case 'look':
        return { exact: [''], required: null, all: [] };
      case 'lit': {
        const exact = this.charVariants(h.cp, h.fold);
        return { exact, required: exact, all: [exact] };
      }
      case 'class': {
        const members = this.classMembers(h.e);
        if (members === null || members.length === 0) return { exact: null, required: null, all: [] };
        const exact = this.spell(members);
        return { exact, required: exact, all: [exact] };
      }
      case 'group':
        return this.info(h.sub);
      case 'rep': {
        const sub = this.info(h.sub);
        const required = h.min >= 1 ? better(sub.required, sub.exact) : null;
        // Each iteration holds the body's requirements; none is required when the body may be skipped.
        const all = h.min >= 1 ? sub.all : [];
        let exact: string[] | null = null;
        if (sub.exact !== null && h.max !== null && h.max <= MAX_REPEAT) {
          exact = [];
          let power: string[] | null = [''];
          for (let k = 0; k <= h.max && power !== null; k++) {
            if (k >= h.min) exact.push(...power);
            if (exact.length > MAX_STRINGS) {
              exact = null;
              break;
            }
            power = k < h.max ? cross(power, sub.exact) : power;
          }
          if (power === null) exact = null;
          if (exact !== null) exact = dedupe(exact);
        }
        return { exact, required, all };
      }
      case 'cat': {
        let run: string[] | null = [''];
        let best: string[] | null = null;
        let allExact = true;
        // Every run of exact items and every requirement of the other items is required of the whole; an exact
        // item's own requirements are implied by the run that holds it.
        const all: string[][] = [];
        const endRun = (r: string[] | null) => {
          if (r !== null && !(r.length === 1 && r[0] === '')) all.push(r);
        };
        for (const item of h.items) {
          const info = this.info(item);
          best = better(best, info.required);
          if (info.exact !== null && run !== null) {
            const next = cross(run, info.exact);
            if (next !== null) {
              run = next;
              continue;
            }
          }
          // The run ends here (a non-literal item, or too many combinations): it is a candidate, and a new
          // run starts with this item when it is exact.
          best = better(best, run);
          endRun(run);
          if (info.exact === null) all.push(...info.all);
          allExact = false;
          run = info.exact;
        }
        best = better(best, run);
        endRun(run);
        return { exact: allExact ? run : null, required: best, all: strongest(all) };
      }
      case 'alt': {
        const exact: string[] = [];
        const required: string[] = [];
        let allExact = true;
        let allRequired = true;
        const alls: string[][][] = [];
        for (const item of h.items) {
          const info = this.info(item);
          alls.push(info.all.filter((set) => !set.some((x) => x.length === 0)));
          if (info.exact === null) allExact = false;
          else exact.push(...info.exact);
          const r = better(info.required, info.exact);
          if (r === null || r.some((s) => s.length === 0)) allRequired = false;
          else required.push(...r);
        }
        const exactSet = allExact && exact.length <= MAX_STRINGS ? dedupe(exact) : null;
        const requiredSet = allRequired ? dedupe(required) : null;
        const one = better(requiredSet, exactSet);
        const all = one !== null && !one.some((x) => x.length === 0) ? [one] : [];
        return { exact: exactSet, required: requiredSet, all: strongest([...all, ...distribute(alls)]) };
      }
    }
  }
}

/**
 * An OR of ANDs of sets as an AND of sets: one set per choice of a set from each alternative, their union
 * (`foo.*bar|bar.*foo` requires `foo` and `bar`). Empty when an alternative requires nothing or the choices
 * are too many; a union past MAX_STRINGS is left out (fewer sets: a weaker filter, never a wrong one).
 */
function distribute(alts: string[][][]): string[][] {
  let product = 1;
  for (const sets of alts) product *= sets.length;
  if (product === 0 || product > 2 * MAX_CONJUNCTS) return [];
  let out: string[][] = [[]];
  for (const sets of alts) {
    const next: string[][] = [];
    for (const acc of out) for (const set of sets) next.push([...acc, ...set]);
    out = next.map(dedupe).filter((u) => u.length <= MAX_STRINGS);
  }
  return out;
}

/** The MAX_CONJUNCTS best sets (an AND of fewer sets is weaker, never wrong), best first. */
function strongest(sets: string[][]): string[][] {
  if (sets.length <= MAX_CONJUNCTS) return sets;
  return [...sets].sort((a, b) => score(b) - score(a)).slice(0, MAX_CONJUNCTS);
}

/**
 * Drops every set another one implies (each string of the other contains a string of it: `kmalloc(` implies
 * `{k}`), keeping the first of equal ones; `sets[0]` is always kept. Empty-string sets require nothing.
 */
function implied(sets: string[][], caseInsensitive: boolean): string[][] {
  const key = (s: string): string => (caseInsensitive ? s.replace(/[A-Z]/g, (c) => c.toLowerCase()) : s);
  const keyed = sets.map((set) => set.map(key));
  const implies = (a: string[], b: string[]) => a.every((x) => b.some((y) => x.includes(y)));
  const out: string[][] = [];
  for (let i = 0; i < sets.length; i++) {
    if (i > 0 && keyed[i]!.some((s) => s.length === 0)) continue;
    const dropped =
      i > 0 &&
      keyed.some((other, j) => j !== i && implies(other, keyed[i]!) && (!implies(keyed[i]!, other) || j < i));
    if (!dropped) out.push(sets[i]!);
  }
  return out;
}

/** Drops literals that contain another one (`bar`, `foobar` → `bar`): the filter accepts the same files. */
function minimal(set: string[], caseInsensitive: boolean): string[] {
  const key = (s: string): string => (caseInsensitive ? s.replace(/[A-Z]/g, (c) => c.toLowerCase()) : s);
  return set.filter(
    (s, i) => !set.some((t, j) => j !== i && key(s).includes(key(t)) && (key(s) !== key(t) || j < i)),
  );
}

/**
 * Candidate code points for a class made only of small ranges (after folding/negation analysis this is
 * conservative: classes with properties or negation are never enumerated).
 */
function boundedCandidates(e: ClassExpr): number[] | null {
  switch (e.t) {
    case 'set': {
      const out: number[] = [];
      for (const a of e.atoms) {
        if (a.t !== 'range' || a.hi - a.lo >= MAX_CLASS_CHARS) return null;
        for (let cp = a.lo; cp <= a.hi; cp++) out.push(cp);
        if (out.length > MAX_CLASS_CHARS) return null;
      }
      // Ranges may overlap (`[a-cb]`); the literal sets built from this must stay duplicate-free.
      return [...new Set(out)];
    }
    case 'fold': {
      const inner = boundedCandidates(e.e);
      if (inner === null) return null;
      const out = new Set<number>();
      for (const cp of inner) {
        if (e.ascii) {
          out.add(cp);
          const p = asciiFoldPartner(cp);
          if (p !== null) out.add(p);
        } else for (const m of foldClassOf(cp)) out.add(m);
      }
      return [...out];
    }
    case 'or': {
      const out: number[] = [];
      for (const x of e.es) {
        const c = boundedCandidates(x);
        if (c === null) return null;
        out.push(...c);
      }
      return [...new Set(out)];
    }
    case 'and':
      return boundedCandidates(e.a) ?? boundedCandidates(e.b);
    case 'sub':
      return boundedCandidates(e.a);
    case 'xor': {
      const a = boundedCandidates(e.a);
      const b = boundedCandidates(e.b);
      return a === null || b === null ? null : [...new Set([...a, ...b])];
    }
    case 'bytes':
      return boundedCandidates(e.e);
    case 'not':
      return null;
  }
}
