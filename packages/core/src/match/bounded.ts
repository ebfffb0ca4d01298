/**
 * Matching a caller's pattern on a thread nothing else can stop — the thread that runs a document pass, makes a
 * row's highlights, or serves requests. A JavaScript RegExp cannot be interrupted, and V8 backtracks: beyond
 * exponential shapes (`(a+)+b`, which the engine already sends to the linear VM), polynomial ones (`.*foo.*bar`,
 * `a*a*a*a*b`, `\w*…\w*X`) take O(n²)…O(n⁵) steps on one long line, minutes on a 100 KB paragraph. So here V8
 * runs only patterns whose work per start position is bounded by the pattern alone (see `straightLine`); every
 * other pattern runs on the linear VM under the caller's deadline, and one whose VM program is too large is
 * refused (PatternTooComplexError) before anything is searched.
 *
 * The engine's own searches need none of this: they run in search workers that are terminated at the deadline.
 */
import type { CompiledPattern } from './compile.js';
import { PatternTooComplexError } from './errors.js';
import type { Hir } from './hir.js';
import { linearRegExp, MAX_LINEAR_PROGRAM, type MatchClock } from './linear.js';
import { literalFinder } from './literals.js';

/**
 * Whether V8's backtracking does at most O(pattern) steps per start position on this (prepared) HIR: no
 * repetition, and at most one alternation whose branches hold neither (a choice inside a choice, or two in a row,
 * multiplies the paths). Literals, -F, -w, `foo\d`, `[Ff]oo|bar` qualify.
 */
export function straightLine(h: Hir): boolean {
  let alternations = 0;
  const plain = (n: Hir, inAlt: boolean): boolean => {
    switch (n.t) {
      case 'empty':
      case 'lit':
      case 'class':
      case 'look':
        return true;
      case 'group':
        return plain(n.sub, inAlt);
      case 'cat':
        return n.items.every((x) => plain(x, inAlt));
      case 'alt':
        if (inAlt || ++alternations > 1) return false;
        return n.items.every((x) => plain(x, true));
      case 'rep':
        return n.min === 1 && n.max === 1 && plain(n.sub, inAlt);
    }
  };
  return plain(h, false);
}

/**
 * The pattern's matcher for a thread nothing can stop: its own RegExp where V8 is safe (straight-line
 * patterns), else the linear VM, whose `exec` throws MatchDeadlineError once `clock`'s deadline passes. Before
 * the VM runs over a text it looks for the pattern's required literals (one V8 pass over an alternation of
 * strings), so a text without them costs what a RegExp would. Throws PatternTooComplexError when neither can
 * take the pattern.
 */
export function boundedMatcher(compiled: CompiledPattern, clock: MatchClock): RegExp {
  const plan = compiled.onThread;
  if (plan === 'regex') return compiled.regex;
  if (plan === null)
    throw new PatternTooComplexError(
      `pattern too complex to match within a deadline (its linear-time program exceeds ${MAX_LINEAR_PROGRAM} instructions; shorten its counted repetitions)`,
    );
  const vm = linearRegExp(plan, compiled.regex, compiled.regex.flags, clock);
  const candidates = literalFinder(compiled.required);
  return candidates ? new PrefilteredRegExp(vm, candidates) : vm;
}

/**
 * The VM behind a literal prefilter: `exec` from `lastIndex` answers null at once when no required literal occurs
 * from there on (every match holds one). Only the RegExp surface `forEachMatch` uses: `exec`, `lastIndex`.
 */
class PrefilteredRegExp extends RegExp {
  constructor(
    private readonly vm: RegExp,
    private readonly candidates: RegExp,
  ) {
    super(vm.source, vm.flags);
  }

  override exec(text: string): RegExpExecArray | null {
    const from = this.lastIndex;
    this.candidates.lastIndex = from;
    if (!this.candidates.test(text)) {
      this.lastIndex = 0;
      return null;
    }
    this.vm.lastIndex = from;
    const m = this.vm.exec(text);
    this.lastIndex = this.vm.lastIndex;
    return m;
  }
}
