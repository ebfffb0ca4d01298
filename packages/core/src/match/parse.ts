/**
 * Parser for Rust regex syntax as ripgrep 15 accepts it (regex-syntax 0.8), producing the flag-resolved HIR.
 *
 * It mirrors regex-syntax's parser closely, because what is an error (and which error comes first) is part
 * of the contract. Facts checked against rg 13.0.0 and rg 15.0.0 are noted where they matter:
 * - rg 15 parses `(?:` + pattern + `)`, so `a)(b` is valid there (rg 13: "unopened group") and a pattern
 *   ending in a `(?x)` comment or a lone `\` is an "unclosed group" there. We follow rg 15.
 * - `\<`, `\>`, `\b{start}` etc., `(?<name>…)`, `(?R)`, escaping any ASCII punctuation (`\/`), and empty
 *   classes (`[a&&b]`) are rg 15 only.
 * - Octal and backreferences (`\0`, `\1`), `\Q…\E`, `\e`, `\h`, `\cA`, `\Z`, `\G`, `\K` and look-around are
 *   errors in both.
 * - `a**` is accepted by both; `a{,3}` is an error in both ("repetition quantifier expects a valid decimal").
 */
import { describeAt, PatternSyntaxError } from './errors.js';
import type { Atom, Casing, ClassExpr, Hir, Look } from './hir.js';
import { LF, MAX_CP, range, setOf } from './hir.js';
import { DIGIT_ATOMS, isWhiteSpace, resolveProperty, SPACE_ATOMS, WORD_ATOMS } from './unicode.js';

export interface Flags {
  /** case-insensitive */
  i: boolean;
  /** multi-line anchors: `^`/`$` at line boundaries */
  m: boolean;
  /** `.` matches `\n` */
  s: boolean;
  /** swap greed */
  U: boolean;
  /** Unicode mode */
  u: boolean;
  /** ignore whitespace, `#` comments */
  x: boolean;
  /** CRLF mode for `^`, `$`, `.` */
  R: boolean;
}

export interface ParseResult {
  hir: Hir;
  /**
   * The first error regex-syntax would raise while translating the AST (unknown property, Unicode in
   * `(?-u)` …) — reported only when the whole pattern parsed, as in Rust.
   */
  semanticError: { message: string; position: number } | null;
  /** Some part was parsed in `(?-u)` mode (then the JS `i` flag cannot express its case rules). */
  asciiModeUsed: boolean;
}

const WRAP_OPEN = '(?:';
const WRAP_CLOSE = ')';

const META = new Set('\\.+*?()|[]{}^$#&-~');

function isHexDigit(c: string): boolean {
  return /^[0-9A-Fa-f]$/.test(c);
}

/** regex-syntax 0.8 `is_escapeable_character`: meta characters and ASCII punctuation except `<` and `>`. */
function isEscapeable(c: string): boolean {
  if (META.has(c)) return true;
  const code = c.codePointAt(0)!;
  if (code > 0x7f) return false;
  if (/[0-9A-Za-z<>]/.test(c)) return false;
  return true;
}

/** regex-syntax 0.8 capture names: letters or `_` first, then also digits, `.`, `[`, `]`. */
function isCaptureChar(c: string, first: boolean): boolean {
  if (c === '_') return true;
  if (first) return /^\p{Alphabetic}$/u.test(c);
  return c === '.' || c === '[' || c === ']' || /^[\p{Alphabetic}\p{Nd}\p{Nl}\p{No}]$/u.test(c);
}

/** The items of the concatenation being built; `flags` marks a `(?i)` so `(?i)*` is rejected like in Rust. */
type Item = Hir | { t: 'flags' };

interface Frame {
  branches: Hir[];
  /** Nesting depth of each finished branch. */
  branchDepths: number[];
  items: Item[];
}

/** regex-syntax's default nest limit; rg 15's own `(?:…)` wrapper counts as one level. */
const NEST_LIMIT = 250;

interface OpenGroup {
  outer: Frame;
  start: number;
  savedFlags: Flags;
  capture?: { index: number; name?: string };
}

const ASCII_CLASSES: Readonly<Record<string, Atom[]>> = {
  alnum: [range(0x30, 0x39), range(0x41, 0x5a), range(0x61, 0x7a)],
  alpha: [range(0x41, 0x5a), range(0x61, 0x7a)],
  ascii: [range(0x00, 0x7f)],
  blank: [range(0x09), range(0x20)],
  cntrl: [range(0x00, 0x1f), range(0x7f)],
  digit: [range(0x30, 0x39)],
  graph: [range(0x21, 0x7e)],
  lower: [range(0x61, 0x7a)],
  print: [range(0x20, 0x7e)],
  punct: [range(0x21, 0x2f), range(0x3a, 0x40), range(0x5b, 0x60), range(0x7b, 0x7e)],
  space: [range(0x09, 0x0d), range(0x20)],
  upper: [range(0x41, 0x5a)],
  word: [range(0x30, 0x39), range(0x41, 0x5a), range(0x5f), range(0x61, 0x7a)],
  xdigit: [range(0x30, 0x39), range(0x41, 0x46), range(0x61, 0x66)],
};

const ASCII_WORD: Atom[] = ASCII_CLASSES['word']!;
const ASCII_DIGIT: Atom[] = ASCII_CLASSES['digit']!;
const ASCII_SPACE: Atom[] = ASCII_CLASSES['space']!;

/** One bracket-class item before Rust decides whether it is a range end point. */
type ClassPrim = { t: 'char'; cp: number; byte: boolean } | { t: 'set'; e: ClassExpr };

class Parser {
  private readonly chars: string[];
  private readonly offsets: number[];
  private readonly end: number;
  private i = 0;
  private flags: Flags;
  private semantic: { message: string; position: number } | null = null;
  private readonly captureNames = new Set<string>();
  private captureCount = 0;
  /** Count of `\xHH` bytes above 0x7F seen in `(?-u)` classes. */
  private highBytes = 0;
  /** regex-syntax's nesting depth of each node (groups, repetitions, concatenations, alternations, classes). */
  private readonly depth = new WeakMap<object, number>();
  private classDepth = 0;

  private depthOf(x: Item): number {
    return this.depth.get(x) ?? 0;
  }

  /** Records a node's depth and refuses it past regex-syntax's default nest limit (which rg keeps). */
  private nest<T extends object>(node: T, d: number, at: number): T {
    if (d > NEST_LIMIT)
      this.fail(`exceeds the nesting limit of ${NEST_LIMIT} (groups, repetitions, classes)`, at);
    this.depth.set(node, d);
    return node;
  }

  /** A finished group body: the alternation or concatenation Rust would build, with its depth. */
  private finish(frame: Frame, at: number): Hir {
    const node = finishFrame(frame);
    let d = this.concatDepth(frame.items);
    for (const b of frame.branchDepths) d = Math.max(d, b);
    if (frame.branches.length > 0) d += 1;
    return this.nest(node, d, at);
  }

  /** A concatenation of two or more items (`(?i)` counts, as in Rust's AST) is one level deeper. */
  private concatDepth(items: Item[]): number {
    let max = 0;
    for (const x of items) max = Math.max(max, this.depthOf(x));
    return items.length >= 2 ? max + 1 : max;
  }

  /** Set when any part of the pattern was parsed in `(?-u)` mode. */
  asciiModeUsed = false;
  /** Char index of the user's `)` that closed rg's `(?:` wrapper early, if any. */
  private wrapperClosedAt = -1;
  /** Start of the user's group that rg's closing `)` closed instead of its own `(?:`, if any. */
  private closedByWrapperParen = -1;
  /** What swallowed rg's closing `)`: a trailing escape or `(?x)` comment. */
  private wrapperEatenBy: { what: 'escape' | 'comment'; at: number } | undefined;

  constructor(
    wrapped: string,
    private readonly originalLength: number,
    initial: Flags,
    private readonly positionMap: readonly number[] | undefined,
  ) {
    this.chars = Array.from(wrapped);
    this.offsets = [];
    let off = 0;
    for (const c of this.chars) {
      this.offsets.push(off);
      off += c.length;
    }
    this.offsets.push(off);
    this.end = this.chars.length;
    this.flags = { ...initial };
  }

  // --- positions and errors ----------------------------------------------------------------------------------

  /** Maps a char index of the wrapped pattern to a UTF-16 index of the caller's pattern. */
  position(index: number): number {
    const off = (this.offsets[Math.min(index, this.end)] ?? 0) - WRAP_OPEN.length;
    const local = Math.max(0, Math.min(off, this.originalLength));
    return this.positionMap ? (this.positionMap[local] ?? local) : local;
  }

  private fail(
    what: string,
    index: number,
    kind: 'group_unclosed' | 'group_unopened' | 'other' = 'other',
  ): never {
    const pos = this.position(index);
    throw new PatternSyntaxError(describeAt(what, pos), pos, kind);
  }

  private semanticFail(message: string, index: number): void {
    if (this.semantic === null) this.semantic = { message, position: this.position(index) };
  }

  // --- cursor ------------------------------------------------------------------------------------------------

  private eof(): boolean {
    return this.i >= this.end;
  }

  private c(): string {
    return this.chars[this.i] ?? '';
  }

  private peekRaw(): string | null {
    return this.chars[this.i + 1] ?? null;
  }

  private bump(): boolean {
    if (this.i < this.end) this.i++;
    return this.i < this.end;
  }

  /** `(?x)`: skip whitespace and `#` comments. */
  private bumpSpace(): void {
    if (!this.flags.x) return;
    while (!this.eof()) {
      const ch = this.c();
      if (isWhiteSpace(ch.codePointAt(0)!)) {
        this.i++;
      } else if (ch === '#') {
        const commentStart = this.i;
        this.i++;
        while (!this.eof()) {
          const cc = this.c();
          this.i++;
          if (cc === '\n') break;
        }
        if (this.eof()) this.wrapperEatenBy ??= { what: 'comment', at: commentStart };
      } else {
        break;
      }
    }
  }

  private bumpAndBumpSpace(): boolean {
    if (!this.bump()) return false;
    this.bumpSpace();
    return !this.eof();
  }

  /** The next char after the current one, skipping `(?x)` whitespace and comments. */
  private peekSpace(): string | null {
    if (!this.flags.x) return this.peekRaw();
    const save = this.i;
    this.i++;
    this.bumpSpace();
    const r = this.eof() ? null : this.c();
    this.i = save;
    return r;
  }

  private bumpIf(prefix: string): boolean {
    const want = Array.from(prefix);
    for (let k = 0; k < want.length; k++) if (this.chars[this.i + k] !== want[k]) return false;
    this.i += want.length;
    return true;
  }

  // --- top level ---------------------------------------------------------------------------------------------

  parse(): ParseResult {
    const stack: OpenGroup[] = [];
    let frame: Frame = { branches: [], branchDepths: [], items: [] };
    for (;;) {
      this.bumpSpace();
      if (this.eof()) break;
      const ch = this.c();
      switch (ch) {
        case '(': {
          const open = this.pushGroup(frame, stack);
          if (open === 'flags') {
            frame.items.push({ t: 'flags' });
          } else {
            frame = open;
          }
          break;
        }
        case ')': {
          const top = stack.pop();
          if (!top) {
            // Only rg's closing `)` can get here after a stray `)` of the user's closed the wrapper.
            const at = this.wrapperClosedAt >= 0 ? this.wrapperClosedAt : this.i;
            this.fail('unopened group', at, 'group_unopened');
          }
          if (stack.length === 0 && this.i < this.end - 1) this.wrapperClosedAt = this.i;
          if (this.i === this.end - 1) this.closedByWrapperParen = top.start;
          const node = this.finish(frame, top.start);
          this.flags = top.savedFlags;
          frame = top.outer;
          const groupNode: Hir = top.capture
            ? { t: 'group', sub: node, capture: top.capture }
            : { t: 'group', sub: node };
          frame.items.push(this.nest(groupNode, this.depthOf(node) + 1, top.start));
          this.i++;
          break;
        }
        case '|': {
          frame.branchDepths.push(this.concatDepth(frame.items));
          frame.branches.push(concat(frame.items));
          frame.items = [];
          this.i++;
          break;
        }
        case '[':
          frame.items.push(this.parseBracketed());
          break;
        case '?':
        case '*':
        case '+':
          this.parseUncountedRepetition(frame, ch);
          break;
        case '{':
          this.parseCountedRepetition(frame);
          break;
        default:
          frame.items.push(this.parsePrimitive());
      }
    }
    const top = stack.pop();
    if (top && stack.length === 0) {
      // Only rg's own `(?:` is open. Either its `)` closed one of the user's groups (`foo(`: that group is the
      // unclosed one), or a trailing `\` or `(?x)` comment ate it — rg 15 says "unclosed group" for both, but
      // escaping parentheses can only fix the first.
      if (this.closedByWrapperParen >= 0)
        this.fail('unclosed group', this.closedByWrapperParen, 'group_unclosed');
      const eaten = this.wrapperEatenBy ?? { what: 'escape', at: this.end - 1 };
      this.fail(
        eaten.what === 'escape'
          ? 'incomplete escape sequence at the end of the pattern (rg 15 reports an unclosed group)'
          : 'unclosed group: a (?x) comment runs to the end of the pattern (end it with a newline)',
        eaten.at,
      );
    }
    if (top) this.fail('unclosed group', top.start, 'group_unclosed');
    return { hir: this.finish(frame, 0), semanticError: this.semantic, asciiModeUsed: this.asciiModeUsed };
  }

  /** At `(`: returns the new frame, or `'flags'` for a `(?flags)` directive. */
  private pushGroup(frame: Frame, stack: OpenGroup[]): Frame | 'flags' {
    const open = this.i;
    this.bump();
    this.bumpSpace();
    if (this.isLookAroundPrefix()) {
      this.fail('look-around, including look-ahead and look-behind, is not supported', open);
    }
    const saved = { ...this.flags };
    if (this.bumpIf('?P<') || this.bumpIf('?<')) {
      const name = this.parseCaptureName();
      stack.push({
        outer: frame,
        start: open,
        savedFlags: saved,
        capture: { index: ++this.captureCount, name },
      });
      return { branches: [], branchDepths: [], items: [] };
    }
    if (this.bumpIf('?')) {
      if (this.eof()) this.fail('unclosed group', open, 'group_unclosed');
      const inner = this.i - 1;
      const { flags, count } = this.parseFlags();
      const endChar = this.c();
      if (endChar === ')' && this.i === this.end - 1) this.closedByWrapperParen = open;
      this.bump();
      if (endChar === ')') {
        // `(?)` is read as a repetition operator with nothing to repeat, as in Rust.
        if (count === 0) this.fail('repetition operator missing expression', inner);
        this.flags = flags;
        return 'flags';
      }
      stack.push({ outer: frame, start: open, savedFlags: saved });
      this.flags = flags;
      return { branches: [], branchDepths: [], items: [] };
    }
    stack.push({ outer: frame, start: open, savedFlags: saved, capture: { index: ++this.captureCount } });
    return { branches: [], branchDepths: [], items: [] };
  }

  private isLookAroundPrefix(): boolean {
    const s = this.chars.slice(this.i, this.i + 4).join('');
    return s.startsWith('?=') || s.startsWith('?!') || s.startsWith('?<=') || s.startsWith('?<!');
  }

  private parseCaptureName(): string {
    if (this.eof()) this.fail('unclosed capture group name', this.i);
    const start = this.i;
    for (;;) {
      if (this.c() === '>') break;
      if (!isCaptureChar(this.c(), this.i === start)) this.fail('invalid capture group character', this.i);
      if (!this.bump()) break;
    }
    if (this.eof()) this.fail('unclosed capture group name', start);
    const name = this.chars.slice(start, this.i).join('');
    this.bump();
    if (name.length === 0) this.fail('empty capture group name', start);
    if (this.captureNames.has(name)) this.fail(`duplicate capture group name '${name}'`, start);
    this.captureNames.add(name);
    return name;
  }

  /** Reads flags up to `:` or `)` (left current), returning the resulting flag state. */
  private parseFlags(): { flags: Flags; count: number } {
    const next = { ...this.flags };
    const seen = new Set<string>();
    let negated = false;
    let lastNegation: number | null = null;
    let count = 0;
    while (this.c() !== ':' && this.c() !== ')') {
      const ch = this.c();
      if (ch === '-') {
        if (negated) this.fail('flag negation operator repeated', this.i);
        negated = true;
        lastNegation = this.i;
        count++;
      } else {
        lastNegation = null;
        if (!'imsUuxR'.includes(ch) || ch === '') this.fail('unrecognized flag', this.i);
        if (seen.has(ch)) this.fail('duplicate flag', this.i);
        seen.add(ch);
        (next as unknown as Record<string, boolean>)[ch] = !negated;
        count++;
      }
      if (!this.bump()) this.fail('expected flag but got end of regex', this.i);
    }
    if (lastNegation !== null) this.fail('dangling flag negation operator', lastNegation);
    return { flags: next, count };
  }

  // --- repetition ----------------------------------------------------------------------------------------------

  private popRepeatable(frame: Frame, at: number): Hir {
    const last = frame.items.pop();
    if (!last || last.t === 'flags') this.fail('repetition operator missing expression', at);
    return last;
  }

  private parseUncountedRepetition(frame: Frame, op: string): void {
    const at = this.i;
    const sub = this.popRepeatable(frame, at);
    let greedy = true;
    if (this.bump() && this.c() === '?') {
      greedy = false;
      this.bump();
    }
    const [min, max] = op === '?' ? [0, 1] : op === '*' ? [0, null] : [1, null];
    frame.items.push(
      this.nest({ t: 'rep', sub, min, max, greedy: greedy !== this.flags.U }, this.depthOf(sub) + 1, at),
    );
  }

  private parseDecimal(what: string): number {
    this.bumpSpace();
    const start = this.i;
    let digits = '';
    while (!this.eof() && /[0-9]/.test(this.c())) {
      digits += this.c();
      this.bump();
    }
    if (digits === '') this.fail(what, start);
    this.bumpSpace();
    const n = Number(digits);
    if (n > 0xffffffff) this.fail('decimal literal invalid', start);
    return n;
  }

  private parseCountedRepetition(frame: Frame): void {
    const start = this.i;
    const sub = this.popRepeatable(frame, start);
    if (!this.bumpAndBumpSpace()) this.fail('unclosed counted repetition', start);
    const min = this.parseDecimal('repetition quantifier expects a valid decimal');
    let max: number | null = min;
    if (this.eof()) this.fail('unclosed counted repetition', start);
    if (this.c() === ',') {
      if (!this.bumpAndBumpSpace()) this.fail('unclosed counted repetition', start);
      if (this.c() !== '}') {
        max = this.parseDecimal('repetition quantifier expects a valid decimal');
      } else {
        max = null;
      }
    }
    if (this.eof() || this.c() !== '}') this.fail('unclosed counted repetition', start);
    let greedy = true;
    if (this.bumpAndBumpSpace() && this.c() === '?') {
      greedy = false;
      this.bump();
    }
    if (max !== null && min > max) {
      this.fail('invalid repetition count range, the start must be <= the end', start);
    }
    frame.items.push(
      this.nest({ t: 'rep', sub, min, max, greedy: greedy !== this.flags.U }, this.depthOf(sub) + 1, start),
    );
  }

  // --- primitives ----------------------------------------------------------------------------------------------

  private parsePrimitive(): Hir {
    if (!this.flags.u) this.asciiModeUsed = true;
    const ch = this.c();
    const at = this.i;
    switch (ch) {
      case '\\':
        return this.parseEscapeAsNode();
      case '.':
        this.bump();
        return this.dot(at);
      case '^':
        this.bump();
        return this.anchor(true);
      case '$':
        this.bump();
        return this.anchor(false);
      default:
        this.bump();
        return this.literal(ch.codePointAt(0)!, at, false);
    }
  }

  private anchor(start: boolean): Hir {
    const f = this.flags;
    let look: Look;
    if (!f.m) look = start ? 'textStart' : 'textEnd';
    else if (f.R) look = start ? 'lineStartCrlf' : 'lineEndCrlf';
    else look = start ? 'lineStart' : 'lineEnd';
    return { t: 'look', look, ascii: false };
  }

  private dot(at: number): Hir {
    const f = this.flags;
    let e: ClassExpr;
    if (f.s) e = setOf(range(0, MAX_CP));
    else if (f.R) e = { t: 'not', e: setOf(range(0x0a), range(0x0d)) };
    else e = { t: 'not', e: setOf(range(LF)) };
    // In `(?-u)` Rust's `.` matches one byte; we match one whole character (documented deviation).
    return { t: 'class', e, casing: 'neutral', pos: this.position(at) };
  }

  /** A literal char with the current flags; `byte` marks `\xHH` escapes, which are bytes in `(?-u)`. */
  private literal(cp: number, at: number, byte: boolean): Hir {
    const f = this.flags;
    if (!f.u && cp > 0x7f && byte) {
      this.semanticFail(
        `(?-u) byte escape \\x${cp.toString(16).toUpperCase()} matches a raw non-UTF-8 byte, which decoded text cannot contain`,
        at,
      );
    }
    const fold = f.i ? (f.u ? 'unicode' : 'ascii') : 'none';
    return { t: 'lit', cp, fold, pos: this.position(at) };
  }

  private parseEscapeAsNode(): Hir {
    const at = this.i;
    const prim = this.parseEscape(false);
    switch (prim.t) {
      case 'char':
        return this.literal(prim.cp, at, prim.byte);
      case 'set':
        return { t: 'class', e: prim.e, casing: prim.casing, pos: this.position(at) };
      case 'look':
        return { t: 'look', look: prim.look, ascii: !this.flags.u };
    }
  }

  /**
   * At `\`. In a class, assertions come back as `assert` so the caller can refuse them where Rust does.
   */
  private parseEscape(
    inClass: boolean,
  ):
    | { t: 'char'; cp: number; byte: boolean }
    | { t: 'set'; e: ClassExpr; casing: Casing }
    | { t: 'look'; look: Look } {
    const start = this.i;
    if (!this.bump()) this.fail('incomplete escape sequence, reached end of pattern prematurely', start);
    if (this.i === this.end - 1) this.wrapperEatenBy ??= { what: 'escape', at: start };
    const c = this.c();
    if (/[0-9]/.test(c)) this.fail('backreferences are not supported', start);
    if (c === 'x' || c === 'u' || c === 'U') {
      const cp = this.parseHex(start);
      // `\xHH` (and `\x{HH}`) below 0x100 is a byte in `(?-u)` mode; `\u`/`\U` are always characters.
      return { t: 'char', cp, byte: c === 'x' && cp <= 0xff };
    }
    if (c === 'p' || c === 'P') return this.parseUnicodeClass(start);
    if ('dswDSW'.includes(c)) {
      this.bump();
      return this.perlClass(c);
    }
    this.bump();
    if (META.has(c) || isEscapeable(c)) return { t: 'char', cp: c.codePointAt(0)!, byte: false };
    switch (c) {
      case 'a':
        return { t: 'char', cp: 0x07, byte: false };
      case 'f':
        return { t: 'char', cp: 0x0c, byte: false };
      case 't':
        return { t: 'char', cp: 0x09, byte: false };
      case 'n':
        return { t: 'char', cp: 0x0a, byte: false };
      case 'r':
        return { t: 'char', cp: 0x0d, byte: false };
      case 'v':
        return { t: 'char', cp: 0x0b, byte: false };
      case 'A':
        return { t: 'look', look: 'textStart' };
      case 'z':
        return { t: 'look', look: 'textEnd' };
      case 'b': {
        if (!inClass && !this.eof() && this.c() === '{') {
          const special = this.maybeSpecialWordBoundary(start);
          if (special) return { t: 'look', look: special };
        }
        return { t: 'look', look: 'word' };
      }
      case 'B':
        return { t: 'look', look: 'notWord' };
      case '<':
        return { t: 'look', look: 'wordStart' };
      case '>':
        return { t: 'look', look: 'wordEnd' };
      default:
        this.fail('unrecognized escape sequence', start);
    }
  }

  private maybeSpecialWordBoundary(wbStart: number): Look | null {
    const isValid = (ch: string): boolean => /^[A-Za-z-]$/.test(ch);
    const start = this.i;
    if (!this.bumpAndBumpSpace()) {
      this.fail(
        'found either the beginning of a special word boundary or a bounded repetition on a \\b with an opening brace, but no closing brace',
        wbStart,
      );
    }
    if (!isValid(this.c())) {
      this.i = start;
      return null;
    }
    let name = '';
    while (!this.eof() && isValid(this.c())) {
      name += this.c();
      this.bumpAndBumpSpace();
    }
    if (this.eof() || this.c() !== '}') {
      this.fail('special word boundary assertion is either unclosed or contains an invalid character', start);
    }
    this.bump();
    switch (name) {
      case 'start':
        return 'wordStart';
      case 'end':
        return 'wordEnd';
      case 'start-half':
        return 'wordStartHalf';
      case 'end-half':
        return 'wordEndHalf';
      default:
        this.fail(
          'unrecognized special word boundary assertion, valid choices are: start, end, start-half or end-half',
          start,
        );
    }
  }

  /** At `x`, `u` or `U` after a backslash. */
  private parseHex(start: number): number {
    const kind = this.c();
    const digits = kind === 'x' ? 2 : kind === 'u' ? 4 : 8;
    if (!this.bumpAndBumpSpace()) {
      this.fail('incomplete escape sequence, reached end of pattern prematurely', start);
    }
    let hex = '';
    if (this.c() === '{') {
      const brace = this.i;
      while (this.bumpAndBumpSpace() && this.c() !== '}') {
        if (!isHexDigit(this.c())) this.fail('invalid hexadecimal digit', this.i);
        hex += this.c();
      }
      if (this.eof()) this.fail('incomplete escape sequence, reached end of pattern prematurely', brace);
      this.bump();
      if (hex === '') this.fail('hexadecimal literal empty', brace);
    } else {
      for (let k = 0; k < digits; k++) {
        if (k > 0 && !this.bumpAndBumpSpace()) {
          this.fail('incomplete escape sequence, reached end of pattern prematurely', start);
        }
        if (!isHexDigit(this.c())) this.fail('invalid hexadecimal digit', this.i);
        hex += this.c();
      }
      this.bumpAndBumpSpace();
    }
    const cp = hex.length > 8 ? Number.NaN : Number.parseInt(hex, 16);
    if (!(cp <= MAX_CP) || (cp >= 0xd800 && cp <= 0xdfff)) {
      this.fail('hexadecimal literal is not a Unicode scalar value', start);
    }
    return cp;
  }

  private parseUnicodeClass(start: number): { t: 'set'; e: ClassExpr; casing: Casing } {
    const negatedEscape = this.c() === 'P';
    if (!this.bumpAndBumpSpace()) {
      this.fail('incomplete escape sequence, reached end of pattern prematurely', start);
    }
    let name: string;
    let value: string | null = null;
    if (this.c() === '{') {
      let body = '';
      while (this.bumpAndBumpSpace() && this.c() !== '}') body += this.c();
      if (this.eof()) this.fail('incomplete escape sequence, reached end of pattern prematurely', start);
      this.bump();
      const ne = body.indexOf('!=');
      const eq = body.search(/[:=]/);
      if (ne >= 0) {
        name = body.slice(0, ne);
        value = body.slice(ne + 2);
      } else if (eq >= 0) {
        name = body.slice(0, eq);
        value = body.slice(eq + 1);
      } else {
        name = body;
      }
    } else {
      if (this.c() === '\\') this.fail('invalid Unicode character class', this.i);
      name = this.c();
      this.bumpAndBumpSpace();
    }
    // rg 13 and 15 both ignore `!=`: `\p{gc!=L}` matches letters, exactly like `\p{gc=L}`. We do the same.
    const negated = negatedEscape;
    if (!this.flags.u) {
      this.semanticFail('Unicode classes like \\p{…} are not allowed in (?-u) mode', start);
      return { t: 'set', e: setOf(), casing: 'neutral' };
    }
    const resolved = resolveProperty(name, value);
    if (!resolved.ok) {
      this.semanticFail(resolved.message, start);
      return { t: 'set', e: setOf(), casing: 'neutral' };
    }
    return this.foldAndNegate(setOf(resolved.atom), negated);
  }

  /** regex-syntax's `unicode_fold_and_negate`: fold first (when case-insensitive), then negate. */
  private foldAndNegate(e: ClassExpr, negated: boolean): { t: 'set'; e: ClassExpr; casing: Casing } {
    const f = this.flags;
    let out: ClassExpr = e;
    let casing: Casing = 'cs';
    if (f.i) {
      out = { t: 'fold', e: out, ascii: !f.u };
      casing = f.u ? 'ci' : 'ascii-ci';
    }
    if (negated) out = { t: 'not', e: out };
    return { t: 'set', e: out, casing };
  }

  private perlClass(c: string): { t: 'set'; e: ClassExpr; casing: Casing } {
    const lower = c.toLowerCase();
    const negated = c !== lower;
    const u = this.flags.u;
    const atoms =
      lower === 'd'
        ? u
          ? DIGIT_ATOMS
          : ASCII_DIGIT
        : lower === 's'
          ? u
            ? SPACE_ATOMS
            : ASCII_SPACE
          : u
            ? WORD_ATOMS
            : ASCII_WORD;
    // Rust does not fold Perl classes: they are closed under simple case folding already.
    const e: ClassExpr = setOf(...atoms);
    return { t: 'set', e: negated ? { t: 'not', e } : e, casing: 'neutral' };
  }

  // --- bracketed classes ----------------------------------------------------------------------------------------

  /** At the outermost `[`. */
  private parseBracketed(): Hir {
    if (!this.flags.u) this.asciiModeUsed = true;
    const at = this.i;
    this.classDepth = 0;
    let deepest = 0;
    const { e, casing } = this.parseBracketBody((d) => {
      deepest = Math.max(deepest, d);
    });
    return this.nest({ t: 'class', e, casing, pos: this.position(at) }, deepest, at);
  }

  /** At `[`: parses through the matching `]` and applies folding/negation like Rust's translator. */
  private parseBracketBody(reach: (depth: number) => void): { e: ClassExpr; casing: Casing } {
    const start = this.i;
    this.classDepth++;
    // Checked on the way in: a deep `[[[[…` must not exhaust the JS stack before Rust's limit applies.
    if (this.classDepth > NEST_LIMIT)
      this.fail(`exceeds the nesting limit of ${NEST_LIMIT} (groups, repetitions, classes)`, start);
    reach(this.classDepth);
    const highBytesBefore = this.highBytes;
    const unclosed = (): never => this.fail('unclosed character class', start);
    if (!this.bumpAndBumpSpace()) unclosed();
    let negated = false;
    if (this.c() === '^') {
      negated = true;
      if (!this.bumpAndBumpSpace()) unclosed();
    }
    const union: ClassExpr[] = [];
    let sawCased = false;
    while (this.c() === '-') {
      union.push(setOf(range(0x2d)));
      if (!this.bumpAndBumpSpace()) unclosed();
    }
    if (union.length === 0 && this.c() === ']') {
      union.push(setOf(range(0x5d)));
      if (!this.bumpAndBumpSpace()) unclosed();
    }
    let lhs: ClassExpr | null = null;
    let op: 'and' | 'sub' | 'xor' | null = null;
    let items: ClassExpr[] = union;
    const closeOperand = (): ClassExpr => {
      const rhs: ClassExpr = items.length === 1 ? items[0]! : { t: 'or', es: items };
      if (lhs === null || op === null) return rhs;
      // Rust folds both operands of a set operation when case-insensitive.
      const fold = (x: ClassExpr): ClassExpr =>
        this.flags.i ? { t: 'fold', e: x, ascii: !this.flags.u } : x;
      return { t: op, a: fold(lhs), b: fold(rhs) };
    };
    for (;;) {
      this.bumpSpace();
      if (this.eof()) unclosed();
      const ch = this.c();
      if (ch === '[') {
        const ascii = this.maybeAsciiClass();
        if (ascii) {
          items.push(ascii);
          sawCased = true;
          continue;
        }
        const nested = this.parseBracketBody(reach);
        items.push(nested.e);
        if (nested.casing !== 'neutral') sawCased = true;
        continue;
      }
      if (ch === ']') {
        this.bump();
        break;
      }
      const next = this.peekRaw();
      if ((ch === '&' && next === '&') || (ch === '-' && next === '-') || (ch === '~' && next === '~')) {
        this.i += 2;
        lhs = closeOperand();
        op = ch === '&' ? 'and' : ch === '-' ? 'sub' : 'xor';
        items = [];
        continue;
      }
      const item = this.parseClassRange(start);
      if (item.cased) sawCased = true;
      items.push(item.e);
    }
    let e = closeOperand();
    let casing: Casing = sawCased ? 'cs' : 'neutral';
    if (this.flags.i) {
      e = { t: 'fold', e, ascii: !this.flags.u };
      casing = this.flags.u ? 'ci' : 'ascii-ci';
    }
    if (negated) e = { t: 'not', e };
    // A (?-u) class is a byte set; with \xHH escapes above 0x7F it may take only part of the non-ASCII bytes,
    // which the translator resolves (or refuses).
    if (this.highBytes > highBytesBefore) e = { t: 'bytes', e };
    this.classDepth--;
    return { e, casing };
  }

  /** Tries `[:alpha:]` / `[:^alpha:]` at `[`; restores the position and returns null when it is not one. */
  private maybeAsciiClass(): ClassExpr | null {
    const start = this.i;
    const reset = (): null => {
      this.i = start;
      return null;
    };
    if (!this.bump() || this.c() !== ':') return reset();
    if (!this.bump()) return reset();
    let negated = false;
    if (this.c() === '^') {
      negated = true;
      if (!this.bump()) return reset();
    }
    const nameStart = this.i;
    while (this.c() !== ':' && this.bump()) {
      /* scan to ':' */
    }
    if (this.eof()) return reset();
    const name = this.chars.slice(nameStart, this.i).join('');
    if (!this.bumpIf(':]')) return reset();
    const atoms = ASCII_CLASSES[name];
    if (!atoms) return reset();
    let e: ClassExpr = setOf(...atoms);
    if (this.flags.i) e = { t: 'fold', e, ascii: !this.flags.u };
    if (negated) e = { t: 'not', e };
    return e;
  }

  private parseClassPrim(): ClassPrim {
    if (this.c() === '\\') {
      const at = this.i;
      const p = this.parseEscape(true);
      if (p.t === 'look') this.fail('invalid escape sequence found in character class', at);
      if (p.t === 'char') return { t: 'char', cp: p.cp, byte: p.byte };
      return { t: 'set', e: p.e };
    }
    const cp = this.c().codePointAt(0)!;
    this.bump();
    return { t: 'char', cp, byte: false };
  }

  private classChar(p: { cp: number; byte: boolean }, at: number): void {
    if (this.flags.u || p.cp <= 0x7f) return;
    if (p.byte) this.highBytes++;
    else
      this.semanticFail('Unicode not allowed here: a (?-u) class holds bytes, not non-ASCII characters', at);
  }

  private parseClassRange(classStart: number): { e: ClassExpr; cased: boolean } {
    const at = this.i;
    const p1 = this.parseClassPrim();
    this.bumpSpace();
    if (this.eof()) this.fail('unclosed character class', classStart);
    const nextSpace = this.peekSpace();
    if (this.c() !== '-' || nextSpace === ']' || nextSpace === '-') {
      if (p1.t === 'set') return { e: p1.e, cased: true };
      this.classChar(p1, at);
      return { e: setOf(range(p1.cp)), cased: true };
    }
    if (!this.bumpAndBumpSpace()) this.fail('unclosed character class', classStart);
    const at2 = this.i;
    const p2 = this.parseClassPrim();
    if (p1.t !== 'char') this.fail('invalid range boundary, must be a literal', at);
    if (p2.t !== 'char') this.fail('invalid range boundary, must be a literal', at2);
    if (p1.cp > p2.cp) this.fail('invalid character class range, the start must be <= the end', at);
    this.classChar(p1, at);
    this.classChar(p2, at2);
    return { e: setOf(range(p1.cp, p2.cp)), cased: true };
  }
}

function concat(items: Item[]): Hir {
  const nodes = items.filter((x): x is Hir => x.t !== 'flags');
  if (nodes.length === 0) return { t: 'empty' };
  if (nodes.length === 1) return nodes[0]!;
  return { t: 'cat', items: nodes };
}

function finishFrame(frame: Frame): Hir {
  const last = concat(frame.items);
  if (frame.branches.length === 0) return last;
  return { t: 'alt', items: [...frame.branches, last] };
}

/** Initial flags as rg sets them: multi-line anchors on, Unicode on, case from `-i`. */
export function initialFlags(caseInsensitive: boolean): Flags {
  return { i: caseInsensitive, m: true, s: false, U: false, u: true, x: false, R: false };
}

/** Parses `pattern` exactly as rg 15 does (inside its `(?:…)` wrapper). Throws PatternSyntaxError. */
export function parsePattern(pattern: string, flags: Flags, positionMap?: readonly number[]): ParseResult {
  const parser = new Parser(WRAP_OPEN + pattern + WRAP_CLOSE, pattern.length, flags, positionMap);
  return parser.parse();
}
