/**
 * HIR → JavaScript regex source.
 *
 * Two variants come out of one HIR: the `u` regex for any text, and an ASCII one (no `u`) that is only
 * valid on pure-ASCII haystacks, where Unicode `\w`/`\b`/`\d`/`\s` equal their cheap ASCII forms.
 *
 * Line semantics (rg without -U) — verified against rg 13 and 15, both agree:
 * - `^`/`$` are line anchors at `\n` only: `foo$` does not match the line `foo\r` (JS `m` would), so they are
 *   emitted as `(?:^|(?<=\n))` / `(?:$|(?=\n))` and the `m` flag is never used.
 * - `.` matches `\r`, U+2028, U+2029 (everything but `\n`); JS `.` does not, so it becomes `[^\n]`.
 * - rg matches a pattern holding `\A`/`\z` (or `(?-m)^`, `(?-m)$`) line by line, so these act as line anchors
 *   for line selection. (Its printer then looks for `\A` submatches from the buffer start, so on lines after
 *   the first it reports the line with no submatch; we report the span.)
 * - Other patterns are matched over the buffer, the `\n` in view: `(?R)$` is false between `\r` and `\n`.
 * With -U the anchors `\A`/`\z` are the file's start/end and `^`/`$` stay `\n`-only line anchors.
 */
import type { ClassCompiler } from './charclass.js';
import { describeAt, PatternError } from './errors.js';
import type { ClassExpr, Hir, Look } from './hir.js';
import { LF, NUL, range, setOf } from './hir.js';
import {
  ASCII_WORD_CLASS_SOURCE,
  asciiFoldPartner,
  escapeLiteral,
  foldClassOf,
  WORD_CLASS_SOURCE,
} from './unicode.js';

export interface Variant {
  /** `u` regex for any text; false = the ASCII-haystack regex (no `u` flag, ASCII-only source). */
  unicode: boolean;
  /** The regex carries the `i` flag (the whole pattern is case-insensitive, Unicode mode). */
  iFlag: boolean;
  multiline: boolean;
  /** Emit capturing groups as captures (the regex `-r` expands templates with); default: none capture. */
  captures?: boolean;
}

/** How an emitted piece binds: only an `atom` may take a quantifier without a `(?:…)` around it. */
type Prec = 'empty' | 'atom' | 'look' | 'rep' | 'seq' | 'alt';
interface Out {
  src: string;
  prec: Prec;
}

function group(o: Out): string {
  return o.prec === 'atom' ? o.src : `(?:${o.src})`;
}

function quantifier(min: number, max: number | null, greedy: boolean): string {
  let q: string;
  if (min === 0 && max === null) q = '*';
  else if (min === 1 && max === null) q = '+';
  else if (min === 0 && max === 1) q = '?';
  else if (max === null) q = `{${min},}`;
  else if (min === max) q = `{${min}}`;
  else q = `{${min},${max}}`;
  return greedy ? q : `${q}?`;
}

const ASCII_SHORTHANDS: [string, string][] = (() => {
  const word = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz'].map((c) =>
    c.charCodeAt(0),
  );
  const digit = [...'0123456789'].map((c) => c.charCodeAt(0));
  const all = Array.from({ length: 128 }, (_, k) => k);
  const not = (xs: number[]): number[] => all.filter((k) => !xs.includes(k));
  return [
    [word.join(), '\\w'],
    [digit.join(), '\\d'],
    [not(word).join(), '\\W'],
    [not(digit).join(), '\\D'],
  ];
})();

/** An explicit ASCII set as source, using `\w`/`\d`/`\W`/`\D` when it is one (V8 has fast paths for them). */
function asciiClassSource(members: readonly number[]): string {
  const key = members.join();
  for (const [k, src] of ASCII_SHORTHANDS) if (k === key) return src;
  if (members.length === 1) return escapeLiteral(members[0]!);
  let body = '';
  for (let k = 0; k < members.length; ) {
    let j = k;
    while (j + 1 < members.length && members[j + 1] === members[j]! + 1) j++;
    const lo = members[k]!;
    const hi = members[j]!;
    const esc = (cp: number): string =>
      /[0-9A-Za-z_]/.test(String.fromCharCode(cp))
        ? String.fromCharCode(cp)
        : `\\x${cp.toString(16).padStart(2, '0')}`;
    body += lo === hi ? esc(lo) : hi === lo + 1 ? esc(lo) + esc(hi) : `${esc(lo)}-${esc(hi)}`;
    k = j + 1;
  }
  return `[${body}]`;
}

/** Beyond this many optional copies `X{n,m}` keeps the JS quantifier (see optionalChain). */
const MAX_OPTIONAL_EXPANSION = 16;

/** Whether the node can match the empty string. */
export function nullable(h: Hir): boolean {
  switch (h.t) {
    case 'empty':
    case 'look':
      return true;
    case 'lit':
    case 'class':
      return false;
    case 'rep':
      return h.min === 0 || nullable(h.sub);
    case 'group':
      return nullable(h.sub);
    case 'cat':
      return h.items.every(nullable);
    case 'alt':
      return h.items.some(nullable);
  }
}

export class Emitter {
  constructor(
    private readonly v: Variant,
    private readonly classes: ClassCompiler,
  ) {}

  emit(h: Hir): string {
    const src = this.node(h).src;
    // V8's `u`-mode search also tries positions inside a surrogate pair. No class matches half a pair, but
    // an empty match made of negative lookarounds would succeed there; this guard ("a character or the
    // end follows") fails inside a pair. Only a pattern that can match empty needs it.
    if (this.v.unicode && nullable(h)) return `(?=[^]|$)(?:${src})`;
    return src;
  }

  private node(h: Hir): Out {
    switch (h.t) {
      case 'empty':
        return { src: '', prec: 'empty' };
      case 'lit':
        return this.literal(h.cp, h.fold);
      case 'class':
        return this.charClass(h.e);
      case 'look':
        return this.look(h.look, h.ascii);
      case 'group':
        if (this.v.captures && h.capture) {
          const name =
            h.capture.name && /^[A-Za-z_][A-Za-z0-9_]*$/.test(h.capture.name) ? `?<${h.capture.name}>` : '';
          return { src: `(${name}${this.node(h.sub).src})`, prec: 'atom' };
        }
        return this.node(h.sub);
      case 'rep': {
        const sub = this.node(h.sub);
        if (h.min === 1 && h.max === 1) return sub;
        // (The chain repeats its body, which would repeat its captures: not in the capturing variant.)
        if (
          !this.v.captures &&
          h.max !== null &&
          h.max > h.min &&
          h.max - h.min <= MAX_OPTIONAL_EXPANSION &&
          nullable(h.sub)
        ) {
          return this.optionalChain(sub, h.min, h.max, h.greedy);
        }
        return { src: group(sub) + quantifier(h.min, h.max, h.greedy), prec: 'rep' };
      }
      case 'cat': {
        const parts = h.items.map((x) => this.node(x)).filter((o) => o.prec !== 'empty');
        if (parts.length === 0) return { src: '', prec: 'empty' };
        if (parts.length === 1) return parts[0]!;
        return { src: parts.map((o) => (o.prec === 'alt' ? `(?:${o.src})` : o.src)).join(''), prec: 'seq' };
      }
      case 'alt':
        return { src: h.items.map((x) => this.node(x).src).join('|'), prec: 'alt' };
    }
  }

  /**
   * `X?` and `X{n,m}` for an X that can match empty. JS rejects an optional iteration that matches empty and
   * tries X's other alternatives; Rust compiles these as plain alternations (`(?:X|)`, nested for `{n,m}`),
   * where X's empty match is as good as any. E.g. `(?:a*|b)?` on `b`: rg matches empty, a JS `?` takes `b`.
   */
  private optionalChain(sub: Out, min: number, max: number, greedy: boolean): Out {
    const x = group(sub);
    let tail = '';
    for (let k = min; k < max; k++) {
      const inner = `${x}${tail}`;
      tail = greedy ? `(?:${inner}|)` : `(?:|${inner})`;
    }
    const prefix = min === 0 ? '' : min === 1 ? x : `${x}{${min}}`;
    return { src: prefix + tail, prec: min === 0 ? 'atom' : 'seq' };
  }

  private literal(cp: number, fold: 'none' | 'unicode' | 'ascii'): Out {
    let members: readonly number[];
    if (fold === 'none' || (fold === 'unicode' && this.v.iFlag)) members = [cp];
    else if (fold === 'unicode') members = foldClassOf(cp);
    else {
      const partner = asciiFoldPartner(cp);
      members = partner === null ? [cp] : [cp, partner].sort((a, b) => a - b);
    }
    if (!this.v.unicode) {
      const ascii = members.filter((m) => m < 0x80);
      // A non-ASCII literal can never match a pure-ASCII haystack.
      if (ascii.length === 0) return { src: '[]', prec: 'atom' };
      return { src: asciiClassSource(ascii), prec: 'atom' };
    }
    if (members.length === 1) return { src: escapeLiteral(cp), prec: 'atom' };
    return {
      src: this.classes.source({ t: 'set', atoms: members.map((m) => ({ t: 'range', lo: m, hi: m })) }),
      prec: 'atom',
    };
  }

  private charClass(e: ClassExpr): Out {
    if (this.v.unicode) return { src: this.classes.source(e), prec: 'atom' };
    const members = this.classes.asciiMembers(e);
    return { src: members.length === 0 ? '[]' : asciiClassSource(members), prec: 'atom' };
  }

  private look(look: Look, asciiWord: boolean): Out {
    const ml = this.v.multiline;
    const asciiHaystack = !this.v.unicode;
    const w = asciiWord || asciiHaystack ? ASCII_WORD_CLASS_SOURCE : WORD_CLASS_SOURCE;
    let src: string;
    switch (look) {
      case 'lineStart':
        src = '(?:^|(?<=\\n))';
        break;
      case 'lineEnd':
        src = '(?:$|(?=\\n))';
        break;
      case 'textStart':
        src = ml ? '^' : '(?:^|(?<=\\n))';
        break;
      case 'textEnd':
        src = ml ? '$' : '(?:$|(?=\\n))';
        break;
      // (?R): `^` after \n, or after \r unless a \n follows; `$` before \r, or before \n unless after \r.
      // rg selects lines with the terminator in view, so a line `x\r` has no `(?R)$` after the \r even
      // without -U (its printer, which trims the \n, would report one on a line selected otherwise).
      case 'lineStartCrlf':
        src = '(?:^|(?<=\\n)|(?<=\\r)(?!\\n))';
        break;
      case 'lineEndCrlf':
        src = '(?:$|(?=\\r)|(?<!\\r)(?=\\n))';
        break;
      case 'lineStartNulData':
        src = ml ? '(?:^|(?<=\\0))' : '(?:^|(?<=[\\n\\0]))';
        break;
      case 'lineEndNulData':
        src = ml ? '(?:$|(?=\\0))' : '(?:$|(?=[\\n\\0]))';
        break;
      case 'word':
        src = asciiHaystack ? '\\b' : `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`;
        break;
      case 'notWord':
        src = asciiHaystack ? '\\B' : `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))`;
        break;
      case 'wordStart':
        src = `(?<!${w})(?=${w})`;
        break;
      case 'wordEnd':
        src = `(?<=${w})(?!${w})`;
        break;
      case 'wordStartHalf':
        src = `(?<!${w})`;
        break;
      case 'wordEndHalf':
        src = `(?!${w})`;
        break;
    }
    return { src, prec: 'look' };
  }
}

// --- preparation: what rg does to the HIR before matching ------------------------------------------------------

/**
 * Applies rg's line-terminator rule (without -U): a literal `\n` is an error, every class loses `\n`, and a
 * class left empty by that is an error — rg 13 and 15 agree, e.g. `a\nb`, `\x0A`, `[\n]` are refused while
 * `[\na]`, `\s`, `[^x]` lose the newline. Also resolves `(?-u)` byte classes. Returns a new HIR.
 */
export function prepare(h: Hir, classes: ClassCompiler, lineMode: boolean, nullData = false): Hir {
  const walk = (n: Hir): Hir => {
    switch (n.t) {
      case 'empty':
        return n;
      case 'look':
        if (nullData && (n.look === 'lineStart' || n.look === 'lineEnd'))
          return { ...n, look: n.look === 'lineStart' ? 'lineStartNulData' : 'lineEndNulData' };
        return n;
      case 'lit': {
        const cp = nullData ? swapTerminators(n.cp) : n.cp;
        if (lineMode && cp === LF) throw newlineError(n.pos, nullData);
        return cp === n.cp ? n : { ...n, cp };
      }
      case 'class': {
        let e = classes.resolveBytes(n.e, n.pos);
        if (nullData) e = swapClassTerminators(e, classes);
        if (lineMode && classes.has(e, LF)) {
          e = classes.withoutNewline(e);
          if (classes.isEmpty(e)) throw newlineError(n.pos, nullData);
        }
        return e === n.e ? n : { ...n, e };
      }
      case 'rep':
        return { ...n, sub: walk(n.sub) };
      case 'group':
        return { ...n, sub: walk(n.sub) };
      case 'cat':
        return { ...n, items: n.items.map(walk) };
      case 'alt':
        return { ...n, items: n.items.map(walk) };
    }
  };
  return walk(h);
}

function newlineError(pos: number, nullData: boolean): PatternError {
  const what = nullData ? '"\\0"' : '"\\n"';
  return new PatternError(
    describeAt(`the literal ${what} is not allowed in a regex without multiline mode (-U)`, pos),
    pos,
  );
}

/**
 * --null-data: NUL is the line terminator. The searcher swaps the file's NUL and '\n' bytes so every line
 * rule keeps working on '\n'; the pattern is swapped to match: a NUL it names means the terminator, a '\n'
 * it names means the character '\0' of the swapped text.
 */
function swapTerminators(cp: number): number {
  return cp === LF ? NUL : cp === NUL ? LF : cp;
}

function swapClassTerminators(e: ClassExpr, classes: ClassCompiler): ClassExpr {
  const hasLf = classes.has(e, LF);
  const hasNul = classes.has(e, NUL);
  if (hasLf === hasNul) return e;
  return {
    t: 'or',
    es: [{ t: 'sub', a: e, b: setOf(range(NUL), range(LF)) }, setOf(range(hasLf ? NUL : LF))],
  };
}

/**
 * Collapses `(?:x+)+`-style nesting, which Rust treats as one loop but V8 would explore exponentially.
 * Only same-greed pairs of `*`, `+`, `?` are merged: their language and preference order are unchanged.
 */
export function simplifyRepeats(h: Hir): Hir {
  switch (h.t) {
    case 'rep': {
      const sub = simplifyRepeats(h.sub);
      let inner: Hir = sub;
      while (inner.t === 'group') inner = inner.sub;
      const simple = (r: { min: number; max: number | null }): boolean =>
        r.min <= 1 && (r.max === null || r.max === 1) && !(r.min === 1 && r.max === 1);
      if (inner.t === 'rep' && inner.greedy === h.greedy && simple(inner) && simple(h)) {
        const max = inner.max === 1 && h.max === 1 ? 1 : null;
        return { t: 'rep', sub: inner.sub, min: inner.min * h.min, max, greedy: h.greedy };
      }
      return { ...h, sub };
    }
    case 'group':
      return { ...h, sub: simplifyRepeats(h.sub) };
    case 'cat':
      return { ...h, items: h.items.map(simplifyRepeats) };
    case 'alt':
      return { ...h, items: h.items.map(simplifyRepeats) };
    default:
      return h;
  }
}

// --- line selection shortcut --------------------------------------------------------------------------------------

function isOneChar(h: Hir): boolean {
  if (h.t === 'group') return isOneChar(h.sub);
  return h.t === 'lit' || h.t === 'class';
}

function flattenCat(h: Hir): Hir[] {
  if (h.t === 'group') return flattenCat(h.sub);
  if (h.t === 'cat') return h.items.flatMap(flattenCat);
  if (h.t === 'empty') return [];
  return [h];
}

/**
 * The one-character atom X of a pattern that begins with an unbounded `X+` or `X{n,}` (n ≥ 1), or null.
 * For such a pattern the leftmost match starts where the run of X holding the lineRegex's leftmost match
 * begins (the run can go no further left, and any start in it reaches that match), so spans can be found
 * from lineRegex hits in linear time instead of retrying `X+` at every position of a long run.
 */
export function leadingRepeatAtom(h: Hir): Hir | null {
  const first = flattenCat(h)[0];
  if (first?.t !== 'rep' || first.max !== null || first.min < 1 || !isOneChar(first.sub)) return null;
  return first.sub;
}

/**
 * Leading/trailing-repeat trimming for line selection (engine-notes.md): with X one character, a line has a
 * match of `X+Y` iff it has one of `XY` (take the last X), of `X*Y` iff of `Y`, of `X{n,m}Y` iff of `X{n}Y`;
 * symmetrically at the end. Spans still come from the full regex. Returns null when nothing changes.
 */
export function trimForLineSelection(h: Hir): Hir | null {
  let changed = false;
  const trim = (n: Hir): Hir => {
    if (n.t === 'group') return trim(n.sub);
    if (n.t === 'alt') return { t: 'alt', items: n.items.map(trim) };
    const items = flattenCat(n);
    if (items.length === 1 && items[0]!.t === 'alt') return trim(items[0]!);
    const shorten = (x: Hir): Hir | null => {
      if (x.t !== 'rep' || !isOneChar(x.sub)) return x;
      if (x.max === x.min) return x;
      changed = true;
      if (x.min === 0) return null;
      return { ...x, max: x.min };
    };
    while (items.length > 0) {
      const first = shorten(items[0]!);
      if (first === null) {
        items.shift();
        continue;
      }
      items[0] = first;
      break;
    }
    while (items.length > 1) {
      const last = shorten(items[items.length - 1]!);
      if (last === null) {
        items.pop();
        continue;
      }
      items[items.length - 1] = last;
      break;
    }
    if (items.length === 0) return { t: 'empty' };
    if (items.length === 1) return items[0]!;
    return { t: 'cat', items };
  };
  const out = trim(h);
  return changed ? out : null;
}
