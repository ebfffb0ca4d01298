/**
 * match: ripgrep's pattern dialect (Rust regex syntax as rg 15 accepts it) → JavaScript RegExps with rg's
 * per-line match semantics, required literals for a byte prefilter, and the lenient repairs of the search tool.
 * Internal to core (no subpath of its own): `@trawl/core/engine` exports `PatternError`.
 *
 * Module map: parse.ts (Rust syntax → flag-resolved HIR, rg's errors), charclass.ts (character sets as JS
 * classes), translate.ts (HIR → JS source, line rules, line-selection trimming), literals.ts (prefilter),
 * repair.ts (brace rule, paren retry), unicode.ts + unicode-names.ts + fold-table.ts (Unicode data from V8),
 * iterate.ts (Rust's empty-match iteration), compile.ts (compilePattern), linear.ts (the linear-time VM),
 * bounded.ts (`boundedMatcher`: a pattern matched on a thread nothing can stop, under a deadline).
 *
 * Known differences from rg 15, each pinned by a test:
 * - Empty matches inside a multi-byte UTF-8 sequence (rg reports one at every byte offset) cannot exist in
 *   decoded text; we report empty matches at character boundaries only.
 * - `(?-u)` classes that match any non-ASCII byte (`.`, `[^a]`, `\W`) match one whole character here.
 *   Classes holding only some non-ASCII bytes, and raw byte escapes like `(?-u)\xE9`, are refused.
 * - A loop (`*`, `+`, `{n,}`) whose body prefers an empty match (`(?:|a)*`, `(?:a*?|b)+`): rg 15 may end the
 *   loop on the empty iteration; JS tries the body's other alternatives first. Line selection is the same.
 * - `\A` without -U: rg selects the lines where it holds at the line start but reports no submatch on lines
 *   after the first; we report the span.
 * - `(?R)$` without -U on a line selected by another part of the pattern: rg's printer also reports an empty
 *   match after a trailing `\r`; we do not (we follow rg's line selection, which does not see one).
 * - Unicode data is V8's (ICU) rather than Rust's tables; properties V8 lacks (Age, Word_Break, Other_*…)
 *   are refused. Patterns V8 cannot compile (about 50 000 literal characters) are refused.
 */
export { boundedMatcher } from './bounded.js';
export { type CompiledPattern, compilePattern, type PatternOptions } from './compile.js';
export { PatternError, PatternTooComplexError } from './errors.js';
export { forEachMatch, matchSpans, type Span } from './iterate.js';
export { type MatchClock, MatchDeadlineError } from './linear.js';
export type { RequiredLiterals } from './literals.js';
