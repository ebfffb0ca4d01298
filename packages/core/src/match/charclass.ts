/**
 * Emits a ClassExpr as JS regex source that matches exactly one code point, and answers membership
 * questions about it using V8 itself.
 *
 * JS `u`-mode classes have no set operations, so `&&`, `--`, `~~` and general negation become lookahead
 * compositions of plain classes (`(?=[A])[B]`): each side consumes one code point, so no backtracking risk.
 *
 * Case folding. Rust folds a class and then negates it. In a regex with the `i` flag (`iFlag`, used when the
 * whole pattern is case-insensitive) a JS `[…]` or `[^…]` behaves exactly so, as long as it holds only
 * positive atoms — which is why `\P{…}`, `\W` are never emitted as such but as `[^\p{…}]`. Without the `i`
 * flag (mixed `(?i)`/`(?-i)` patterns) folding is expanded explicitly from the simple case folding table.
 */
import { describeAt, PatternError } from './errors.js';
import type { Atom, ClassExpr } from './hir.js';
import { LF, MAX_CP, range, setOf } from './hir.js';
import { allFoldClasses, asciiFoldPartner, escapeForClass } from './unicode.js';

export interface ClassContext {
  /** The target regex has the `i` flag (and `u`): JS folds every class itself. */
  iFlag: boolean;
}

function atomSource(a: Atom): string {
  if (a.t === 'prop') return `\\p{${a.js}}`;
  if (a.t === 'nprop') return `\\P{${a.js}}`;
  if (a.lo === a.hi) return escapeForClass(a.lo);
  if (a.hi === a.lo + 1) return escapeForClass(a.lo) + escapeForClass(a.hi);
  return `${escapeForClass(a.lo)}-${escapeForClass(a.hi)}`;
}

/** A one-code-point fragment; `bracket` is set when it is a plain `[…]`/`[^…]` that can be merged. */
interface Fragment {
  src: string;
  bracket?: { negated: boolean; body: string };
}

function bracket(negated: boolean, atoms: readonly Atom[]): Fragment {
  const body = atoms.map(atomSource).join('');
  return { src: `[${negated ? '^' : ''}${body}]`, bracket: { negated, body } };
}

export class ClassCompiler {
  private readonly memo = new WeakMap<ClassExpr, Fragment>();
  private readonly matchers = new WeakMap<ClassExpr, RegExp>();

  constructor(readonly ctx: ClassContext) {}

  /** JS source matching one code point of `e` (in a `u` regex, with `i` iff ctx.iFlag). */
  source(e: ClassExpr): string {
    return this.fragment(e).src;
  }

  /** Whether `e` contains the code point (exactly as the emitted regex would decide). */
  has(e: ClassExpr, cp: number): boolean {
    return this.matcher(e).test(String.fromCodePoint(cp));
  }

  matcher(e: ClassExpr): RegExp {
    let re = this.matchers.get(e);
    if (!re) {
      re = new RegExp(`^(?:${this.source(e)})$`, this.ctx.iFlag ? 'iu' : 'u');
      this.matchers.set(e, re);
    }
    return re;
  }

  /** Whether `e` matches no code point at all (cheap probes first; a full scan only when they all miss). */
  isEmpty(e: ClassExpr): boolean {
    if (e.t === 'set' && e.atoms.every((a) => a.t === 'range')) return e.atoms.length === 0;
    const re = this.matcher(e);
    for (const probe of PROBES) if (re.test(probe)) return false;
    const scan = new RegExp(this.source(e), this.ctx.iFlag ? 'iu' : 'u');
    return !scan.test(allCodePoints());
  }

  /** The ASCII code points of `e` (for the ASCII-haystack regex). */
  asciiMembers(e: ClassExpr): number[] {
    const re = this.matcher(e);
    const out: number[] = [];
    for (let cp = 0; cp < 0x80; cp++) if (re.test(String.fromCharCode(cp))) out.push(cp);
    return out;
  }

  private fragment(e: ClassExpr): Fragment {
    let f = this.memo.get(e);
    if (!f) {
      f = this.build(e);
      this.memo.set(e, f);
    }
    return f;
  }

  private build(e: ClassExpr): Fragment {
    switch (e.t) {
      case 'set':
        return bracket(false, e.atoms);
      case 'not': {
        const inner = this.fragment(e.e);
        if (inner.bracket && !inner.bracket.negated) {
          const body = inner.bracket.body;
          return { src: `[^${body}]`, bracket: { negated: true, body } };
        }
        if (inner.bracket?.negated)
          return { src: `[${inner.bracket.body}]`, bracket: { negated: false, body: inner.bracket.body } };
        return { src: `(?:(?!${inner.src})[^])` };
      }
      case 'or': {
        const positives: string[] = [];
        const others: string[] = [];
        for (const x of e.es) {
          const fx = this.fragment(x);
          if (fx.bracket && !fx.bracket.negated) positives.push(fx.bracket.body);
          else others.push(fx.src);
        }
        if (others.length === 0) {
          const body = positives.join('');
          return { src: `[${body}]`, bracket: { negated: false, body } };
        }
        const alts = positives.length > 0 ? [`[${positives.join('')}]`, ...others] : others;
        return { src: alts.length === 1 ? alts[0]! : `(?:${alts.join('|')})` };
      }
      case 'and': {
        const a = this.fragment(e.a);
        const b = this.fragment(e.b);
        // Both negated: [^A] ∩ [^B] = [^AB].
        if (a.bracket?.negated && b.bracket?.negated) {
          const body = a.bracket.body + b.bracket.body;
          return { src: `[^${body}]`, bracket: { negated: true, body } };
        }
        return { src: `(?:(?=${a.src})${b.src})` };
      }
      case 'sub': {
        const a = this.fragment(e.a);
        const b = this.fragment(e.b);
        // [^A] minus [B] = [^AB].
        if (a.bracket?.negated && b.bracket && !b.bracket.negated) {
          const body = a.bracket.body + b.bracket.body;
          return { src: `[^${body}]`, bracket: { negated: true, body } };
        }
        return { src: `(?:(?!${b.src})${a.src})` };
      }
      case 'xor': {
        const a = this.fragment(e.a);
        const b = this.fragment(e.b);
        return { src: `(?:(?!${b.src})${a.src}|(?!${a.src})${b.src})` };
      }
      case 'fold':
        if (this.ctx.iFlag && !e.ascii) return this.fragment(e.e);
        return this.fragment(this.expandFold(e.e, e.ascii));
      case 'bytes':
        // Nested inside a larger (?-u) class: plain byte-set semantics; the outermost one is resolved.
        return this.fragment(e.e);
    }
  }

  /** Whether every simple case folding class lies wholly inside or wholly outside `e`. */
  private isFoldClosed(e: ClassExpr): boolean {
    const re = new RegExp(`^(?:${this.source(e)})$`, 'u');
    for (const cls of allFoldClasses()) {
      const inside = cls.filter((cp) => re.test(String.fromCodePoint(cp))).length;
      if (inside !== 0 && inside !== cls.length) return false;
    }
    return true;
  }

  /** fold(e) = e ∪ every folding partner of its members, computed from the table. */
  private expandFold(e: ClassExpr, ascii: boolean): ClassExpr {
    const re = this.matcher(e);
    const extras: Atom[] = [];
    if (ascii) {
      for (let cp = 0x41; cp <= 0x7a; cp++) {
        const partner = asciiFoldPartner(cp);
        if (partner !== null && re.test(String.fromCharCode(cp)) && !re.test(String.fromCharCode(partner))) {
          extras.push(range(partner));
        }
      }
    } else {
      for (const cls of allFoldClasses()) {
        const inside = cls.filter((cp) => re.test(String.fromCodePoint(cp)));
        if (inside.length === 0 || inside.length === cls.length) continue;
        for (const cp of cls) if (!inside.includes(cp)) extras.push(range(cp));
      }
    }
    if (extras.length === 0) return e;
    return { t: 'or', es: [e, setOf(...extras)] };
  }

  /**
   * Resolves `(?-u)` byte classes (see hir.ts): the ASCII part stays; the non-ASCII bytes must be all in
   * (then: any non-ASCII character) or all out.
   */
  resolveBytes(e: ClassExpr, position: number): ClassExpr {
    if (e.t !== 'bytes') return e;
    const inner = e.e;
    let high = 0;
    for (let b = 0x80; b <= 0xff; b++) if (this.has(inner, b)) high++;
    const ascii: ClassExpr = { t: 'and', a: inner, b: setOf(range(0, 0x7f)) };
    if (high === 0) return ascii;
    if (high === 0x80) return { t: 'or', es: [ascii, setOf(range(0x80, MAX_CP))] };
    throw new PatternError(
      describeAt(
        'a (?-u) class that matches only some non-ASCII bytes cannot be searched in decoded text',
        position,
      ),
      position,
    );
  }

  /** `e` without `\n`, for line-oriented search (rg strips the line terminator from every class). */
  withoutNewline(e: ClassExpr): ClassExpr {
    if (e.t === 'set' && e.atoms.every((a) => a.t === 'range')) {
      const atoms: Atom[] = [];
      for (const a of e.atoms) {
        if (a.t !== 'range' || a.lo > LF || a.hi < LF) atoms.push(a);
        else {
          if (a.lo < LF) atoms.push(range(a.lo, LF - 1));
          if (a.hi > LF) atoms.push(range(LF + 1, a.hi));
        }
      }
      return setOf(...atoms);
    }
    if (e.t === 'not' && e.e.t === 'set') return { t: 'not', e: setOf(...e.e.atoms, range(LF)) };
    // `\s` is one property holding `\n`: `[^\P{White_Space}\n]` is a plain class (faster than a lookahead),
    // exact when no case folding can reach the property's complement.
    const only = e.t === 'set' && e.atoms.length === 1 ? e.atoms[0] : undefined;
    if (only?.t === 'prop' && (!this.ctx.iFlag || this.isFoldClosed(e))) {
      return { t: 'not', e: setOf({ t: 'nprop', js: only.js }, range(LF)) };
    }
    return { t: 'sub', a: e, b: setOf(range(LF)) };
  }
}

const PROBES = [
  'a',
  'A',
  '0',
  ' ',
  '\t',
  '_',
  '-',
  '\r',
  '\u00e9',
  '\u6771',
  '\u{1f600}',
  '\0',
  '\u00a0',
  '\u2028',
];

let everyCodePoint: string | undefined;

/** Every code point once (surrogates excluded), for the rare exhaustive emptiness test. */
function allCodePoints(): string {
  if (everyCodePoint === undefined) {
    const chunks: string[] = [];
    let units: number[] = [];
    for (let cp = 0; cp <= MAX_CP; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (cp < 0x10000) units.push(cp);
      else units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
      if (units.length >= 8192) {
        chunks.push(String.fromCharCode(...units));
        units = [];
      }
    }
    chunks.push(String.fromCharCode(...units));
    everyCodePoint = chunks.join('');
  }
  return everyCodePoint;
}
