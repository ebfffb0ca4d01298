/**
 * The parsed pattern with every inline flag already applied (like regex-syntax's HIR): later stages never
 * look at flags, only at what each node matches.
 */

/** One member of a positive character set: a code point range or a Unicode property V8 knows (`\p{…}` body). */
export type Atom =
  | { t: 'range'; lo: number; hi: number }
  | { t: 'prop'; js: string }
  /** `\P{…}` inside a bracket; only emitted where folding cannot change its meaning (see withoutNewline). */
  | { t: 'nprop'; js: string };

/**
 * A set of code points, kept symbolic so it can be emitted as a JS class (or a lookahead composition of
 * classes) instead of being enumerated. `fold` is Unicode simple case folding (or ASCII-only folding in
 * `(?-u)` mode) applied where Rust applies it: before negation.
 */
export type ClassExpr =
  | { t: 'set'; atoms: Atom[] }
  | { t: 'not'; e: ClassExpr }
  | { t: 'or'; es: ClassExpr[] }
  | { t: 'and'; a: ClassExpr; b: ClassExpr }
  | { t: 'sub'; a: ClassExpr; b: ClassExpr }
  | { t: 'xor'; a: ClassExpr; b: ClassExpr }
  | { t: 'fold'; e: ClassExpr; ascii: boolean }
  /**
   * A `(?-u)` byte class holding some bytes above 0x7F: over decoded text it can only mean "no non-ASCII
   * character" or "any non-ASCII character"; anything in between is refused by the translator.
   */
  | { t: 'bytes'; e: ClassExpr };

export type Look =
  | 'lineStart'
  | 'lineEnd'
  | 'textStart'
  | 'textEnd'
  | 'lineStartCrlf'
  | 'lineEndCrlf'
  /**
   * --null-data's `(?m)^`/`$`, in the swapped text (see prepare): a line starts after the terminator ('\n'
   * there, a NUL in the file) and, without -U, also after a '\0' there (a newline in the file).
   */
  | 'lineStartNulData'
  | 'lineEndNulData'
  | 'word'
  | 'notWord'
  | 'wordStart'
  | 'wordEnd'
  | 'wordStartHalf'
  | 'wordEndHalf';

/**
 * How case matters to a node: `ci` folded with Unicode rules, `ascii-ci` folded with ASCII rules (`(?i-u)`),
 * `cs` case-sensitive with cased content, `neutral` unaffected by case (digits, `.`, `\w`, …).
 */
export type Casing = 'ci' | 'ascii-ci' | 'cs' | 'neutral';

export type Hir =
  | { t: 'empty' }
  | { t: 'lit'; cp: number; fold: 'none' | 'unicode' | 'ascii'; pos: number }
  | { t: 'class'; e: ClassExpr; casing: Casing; pos: number }
  | { t: 'look'; look: Look; ascii: boolean }
  | { t: 'rep'; sub: Hir; min: number; max: number | null; greedy: boolean }
  /** `capture`: a capturing group (numbered by its opening paren, as in Rust and JS), for `-r` templates. */
  | { t: 'group'; sub: Hir; capture?: { index: number; name?: string } }
  | { t: 'cat'; items: Hir[] }
  | { t: 'alt'; items: Hir[] };

export const LF = 0x0a;
export const NUL = 0x00;
export const CR = 0x0d;
export const MAX_CP = 0x10ffff;

export function range(lo: number, hi: number = lo): Atom {
  return { t: 'range', lo, hi };
}

export function setOf(...atoms: Atom[]): ClassExpr {
  return { t: 'set', atoms };
}
