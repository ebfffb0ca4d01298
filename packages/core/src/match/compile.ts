/**
 * compilePattern: a ripgrep pattern (Rust regex syntax, or -F text) → JS RegExps with rg's match semantics.
 */
import { mustMatchNul } from './ban.js';
import { straightLine } from './bounded.js';
import { ClassCompiler } from './charclass.js';
import { describeAt, PatternError, PatternSyntaxError } from './errors.js';
import { type Hir, LF } from './hir.js';
import { backtrackProne, compileLinear, type LinearProgram, linearRegExp } from './linear.js';
import { LiteralExtractor, type RequiredLiterals } from './literals.js';
import { initialFlags, type ParseResult, parsePattern } from './parse.js';
import { applyBraceRule, composeMaps, escapeUnbalancedParens } from './repair.js';
import { Emitter, leadingRepeatAtom, prepare, simplifyRepeats, trimForLineSelection } from './translate.js';
import { foldClassOf } from './unicode.js';

/** How a pattern is read: fixed string, case, word, multiline, the lenient repairs, captures and NUL rules. */
export interface PatternOptions {
  /** -F: the pattern is a literal string. */
  fixedStrings?: boolean;
  /** -i (Unicode simple case folding, as Rust regex does). */
  caseInsensitive?: boolean;
  /** -w with ripgrep 15's semantics: no word character right before or right after the match. */
  wordRegexp?: boolean;
  /** -U: a match may cross line ends; without it a match never crosses '\n'. */
  multiline?: boolean;
  /** Default true: brace repair + paren retry. false = strict rg behaviour. */
  lenient?: boolean;
  /** Also build `captureRegex` (for `-r` templates). */
  captures?: boolean;
  /**
   * --null-data: NUL is the line terminator. The pattern is compiled for the searcher's swapped text (NUL and
   * '\n' exchanged, see prepare), so a match never crosses a NUL without -U and may cross a '\n'.
   */
  nullData?: boolean;
  /** Refuse a pattern that must match a NUL (ripgrep's rule while binary detection is on; see ban.ts). */
  banNul?: boolean;
}

/**
 * A pattern compiled for the engines: RegExps for whole files and lines, the required literals for the prefilter,
 * and the repairs made.
 */
export interface CompiledPattern {
  /**
   * Flags include 'g' and 'u' (+ 'i' when the whole pattern is case-insensitive; a pattern mixing `(?i)` and
   * `(?-i)` spells case folding out per character instead). Run with lastIndex over the whole file text and
   * iterate with `forEachMatch`/`matchSpans` (Rust's rule for empty matches).
   */
  regex: RegExp;
  /**
   * An equivalent, faster RegExp valid when the haystack is pure ASCII: no `u` flag, ASCII `\w`/`\b`, non-ASCII
   * literals reduced to never-matching classes.
   */
  asciiRegex: RegExp;
  /**
   * Prefilter: if non-null, every match contains at least one of these literal strings (as UTF-8 bytes).
   * When `caseInsensitive` is true compare with ASCII case folding only: the literals already spell out every
   * non-ASCII case variant (e.g. `k` and U+212A KELVIN SIGN). null = no prefilter possible.
   */
  required: RequiredLiterals | null;
  /**
   * Optional cheaper regex that selects exactly the same LINES as `regex` (leading/trailing-repeat trimming,
   * `\w+\d{4}` → `\w\d{4}`); compute spans with `regex` on the selected lines only. Never set with multiline.
   */
  lineRegex?: RegExp;
  /** lineRegex's ASCII-haystack twin (set whenever lineRegex is). */
  asciiLineRegex?: RegExp;
  /**
   * With lineRegex, for a pattern beginning with an unbounded one-character repeat `X+`: X alone, sticky.
   * Spans are then found from lineRegex hits (see the searcher), which stays linear on long runs of X.
   */
  leadAtom?: RegExp;
  multiline: boolean;
  /**
   * With multiline: some match can hold a '\n'. ripgrep then searches the file as a whole and joins
   * matches on adjacent lines into one block; otherwise it searches line by line even with -U.
   */
  matchesNewline?: boolean;
  /** With `captures`: `regex` with the pattern's capturing groups kept (numbered and named as in Rust). */
  captureRegex?: RegExp;
  /**
   * Set when V8 could backtrack exponentially on the pattern: `regex` and `asciiRegex` are then this
   * linear-time program behind a RegExp's interface (see linear.ts), and there is no lineRegex.
   */
  linear?: LinearProgram;
  /**
   * How a thread nothing can stop matches the pattern (`boundedMatcher`, bounded.ts): 'regex' when V8's work per
   * start position is bounded by the pattern alone, else this linear-time program (run under a deadline), or null
   * when that program would be too large (such a thread refuses the pattern).
   */
  onThread: 'regex' | LinearProgram | null;
  /** The pattern after lenient repairs, for messages. */
  effectivePattern: string;
  /** The lenient repairs applied, in words (for the tool's text), when the pattern was changed. */
  repairs: string[];
}

/** -F: the pattern's characters as literals. */
function literalHir(pattern: string, caseInsensitive: boolean): Hir {
  const items: Hir[] = [];
  let pos = 0;
  for (const ch of pattern) {
    items.push({ t: 'lit', cp: ch.codePointAt(0)!, fold: caseInsensitive ? 'unicode' : 'none', pos });
    pos += ch.length;
  }
  return { t: 'cat', items };
}

/** rg 15's -w: `\b{start-half}(?:pattern)\b{end-half}` (rg 13 used `(?:^|\W)(?:pattern)(?:$|\W)`). */
function wordWrap(h: Hir): Hir {
  return {
    t: 'cat',
    items: [
      { t: 'look', look: 'wordStartHalf', ascii: false },
      { t: 'group', sub: h },
      { t: 'look', look: 'wordEndHalf', ascii: false },
    ],
  };
}

interface Casings {
  ci: boolean;
  cs: boolean;
  ascii: boolean;
  /** Case-sensitive literals: they only matter (and the fold table is only loaded) when `ci` is set. */
  plainLiterals: number[];
}

/** What the pattern asks of case: decides whether the JS `i` flag can express it. */
function scanCasing(h: Hir, acc: Casings): void {
  switch (h.t) {
    case 'lit':
      if (h.fold === 'unicode') acc.ci = true;
      else if (h.fold === 'ascii') acc.ascii = true;
      else acc.plainLiterals.push(h.cp);
      return;
    case 'class':
      if (h.casing === 'ci') acc.ci = true;
      else if (h.casing === 'cs') acc.cs = true;
      else if (h.casing === 'ascii-ci') acc.ascii = true;
      return;
    case 'look':
      if (h.ascii) acc.ascii = true;
      return;
    case 'rep':
    case 'group':
      scanCasing(h.sub, acc);
      return;
    case 'cat':
    case 'alt':
      for (const x of h.items) scanCasing(x, acc);
      return;
    case 'empty':
      return;
  }
}

/**
 * The `i` flag only when every case-relevant part is case-insensitive in Unicode mode; otherwise folding is
 * spelled out per character (JS cannot turn `i` off for part of a pattern, nor limit it to ASCII).
 */
function useIFlag(h: Hir, asciiMode: boolean): boolean {
  const acc: Casings = { ci: false, cs: false, ascii: asciiMode, plainLiterals: [] };
  scanCasing(h, acc);
  if (!acc.ci || acc.cs || acc.ascii) return false;
  return acc.plainLiterals.every((cp) => foldClassOf(cp).length === 1);
}

interface Parsed {
  hir: Hir;
  effective: string;
  asciiMode: boolean;
  repairs: string[];
}

function parseWithRepairs(pattern: string, options: PatternOptions): Parsed {
  const flags = initialFlags(options.caseInsensitive === true);
  if (options.lenient === false) return finish(parsePattern(pattern, flags), pattern, []);
  const braced = applyBraceRule(pattern);
  const braceRepairs = braced.text === pattern ? [] : [BRACE_REPAIR];
  try {
    return finish(parsePattern(braced.text, flags, braced.map), braced.text, braceRepairs);
  } catch (err) {
    const groupError =
      err instanceof PatternSyntaxError && (err.kind === 'group_unclosed' || err.kind === 'group_unopened');
    if (!groupError) throw err;
    const retry = escapeUnbalancedParens(braced.text);
    if (!retry.ok) throw new PatternError(`${err.message}: ${retry.reason}`, err.position);
    const escaped = retry.repaired;
    try {
      return finish(parsePattern(escaped.text, flags, composeMaps(braced.map, escaped.map)), escaped.text, [
        ...braceRepairs,
        PAREN_REPAIR,
      ]);
    } catch {
      // The retry was a guess; the error in what the caller wrote is the useful one.
      throw err;
    }
  }
}

const BRACE_REPAIR = 'a brace that is not a repetition was taken literally';
const PAREN_REPAIR = 'an unbalanced parenthesis was taken literally';

function finish(parsed: ParseResult, effective: string, repairs: string[]): Parsed {
  if (parsed.semanticError) {
    const { message, position } = parsed.semanticError;
    throw new PatternError(describeAt(message, position), position);
  }
  return { hir: parsed.hir, effective, asciiMode: parsed.asciiModeUsed, repairs };
}

/** Compiles a pattern in ripgrep's dialect for the engines, or throws a {@link PatternError} that says why not. */
export function compilePattern(pattern: string, options: PatternOptions = {}): CompiledPattern {
  const multiline = options.multiline === true;
  let hir: Hir;
  let effective = pattern;
  let asciiMode = false;
  let repairs: string[] = [];
  if (options.fixedStrings) {
    hir = literalHir(pattern, options.caseInsensitive === true);
  } else {
    ({ hir, effective, asciiMode, repairs } = parseWithRepairs(pattern, options));
  }
  if (options.banNul && mustMatchNul(hir)) {
    throw new PatternError(
      'pattern contains "\\0" but it is impossible to match (binary detection is on; -a searches binary files as text)',
      0,
    );
  }
  if (options.wordRegexp) hir = wordWrap(hir);

  const iFlag = useIFlag(hir, asciiMode);

  const classes = new ClassCompiler({ iFlag });
  hir = simplifyRepeats(prepare(hir, classes, !multiline, options.nullData === true));

  const unicodeEmitter = new Emitter({ unicode: true, iFlag, multiline }, classes);
  const asciiEmitter = new Emitter({ unicode: false, iFlag, multiline }, classes);
  const flags = iFlag ? 'giu' : 'gu';
  const asciiFlags = iFlag ? 'gi' : 'g';
  const build = (source: string, f: string): RegExp => {
    let re: RegExp;
    try {
      re = new RegExp(source, f);
    } catch (err) {
      // A translation bug, not a user error — but still a pattern we cannot run.
      throw new PatternError(`cannot translate pattern: ${(err as Error).message}`, 0);
    }
    // V8 compiles lazily, per subject encoding, and again when it tiers up: run each variant twice on a
    // one-byte and a two-byte string so "Regular expression too large" surfaces here, not mid-search.
    try {
      for (const probe of ['', '', '\u0100', '\u0100']) re.test(probe);
    } catch (err) {
      throw new PatternError(
        `pattern too large for JavaScript's regex engine (${(err as Error).message.replace(/^.*: /, '')})`,
        0,
      );
    }
    re.lastIndex = 0;
    return re;
  };
  let regex = build(unicodeEmitter.emit(hir), flags);
  let asciiRegex = build(asciiEmitter.emit(hir), asciiFlags);
  const plain = straightLine(hir);
  const program = plain
    ? null
    : compileLinear(hir, { iFlag, multiline }, (node) => unicodeEmitter.emit(node));
  const linear = program && backtrackProne(hir) ? program : null;
  if (linear) {
    regex = linearRegExp(linear, regex);
    asciiRegex = linearRegExp(linear, asciiRegex);
  }

  // Whether a match may hold a '\n' byte.
  const lfInMatch = canMatch(hir, LF, classes);
  const result: CompiledPattern = {
    regex,
    asciiRegex,
    // With --null-data the text's lines end at NULs: a match may hold a '\n' of the file.
    required: new LiteralExtractor(classes, iFlag).extract(hir, options.nullData !== true && !lfInMatch),
    multiline,
    ...(linear ? { linear } : {}),
    onThread: plain ? 'regex' : program,
    effectivePattern: effective,
    repairs,
  };
  if (multiline && lfInMatch) result.matchesNewline = true;
  if (options.captures) {
    result.captureRegex = build(
      new Emitter({ unicode: true, iFlag, multiline, captures: true }, classes).emit(hir),
      flags,
    );
  }
  if (!multiline && !linear) {
    const trimmed = trimForLineSelection(hir);
    if (trimmed) {
      result.lineRegex = build(unicodeEmitter.emit(trimmed), flags);
      result.asciiLineRegex = build(asciiEmitter.emit(trimmed), asciiFlags);
      const atom = leadingRepeatAtom(hir);
      if (atom) result.leadAtom = build(unicodeEmitter.emit(atom), flags.replace('g', 'y'));
    }
  }
  return result;
}

/** Whether some match of `hir` can contain the character `cp`. */
function canMatch(hir: Hir, cp: number, classes: ClassCompiler): boolean {
  switch (hir.t) {
    case 'lit':
      return hir.cp === cp;
    case 'class':
      return classes.has(hir.e, cp);
    case 'rep':
      return hir.max !== 0 && canMatch(hir.sub, cp, classes);
    case 'group':
      return canMatch(hir.sub, cp, classes);
    case 'cat':
    case 'alt':
      return hir.items.some((h) => canMatch(h, cp, classes));
    default:
      return false;
  }
}
