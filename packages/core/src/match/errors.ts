/**
 * A pattern the engine cannot run: a syntax error ripgrep would also report, or a construct that has no
 * faithful JavaScript translation. `position` is a 0-based index into the pattern the caller passed.
 */
export class PatternError extends Error {
  /** `invalid_pattern`, or `pattern_too_complex` (PatternTooComplexError). */
  readonly code: 'invalid_pattern' | 'pattern_too_complex' = 'invalid_pattern';

  constructor(
    message: string,
    readonly position?: number,
  ) {
    super(message);
    this.name = 'PatternError';
  }
}

/**
 * A valid pattern that cannot be matched where it would have to be: on a thread nothing can stop, V8 could
 * backtrack on it for ever and the linear-time matcher's program for it is too large (nested counted
 * repetitions: `((a{1,100}){1,100}){1,100}` is a million instructions). See bounded.ts.
 */
export class PatternTooComplexError extends PatternError {
  override readonly code = 'pattern_too_complex';

  constructor(message: string) {
    super(message, 0);
    this.name = 'PatternTooComplexError';
  }
}

/** Error kinds the parser reports; the paren retry keys on the two group ones. */
export type SyntaxErrorKind = 'group_unclosed' | 'group_unopened' | 'other';

/** A parse failure with its kind, so the lenient layer can decide whether a retry can help. */
export class PatternSyntaxError extends PatternError {
  constructor(
    message: string,
    position: number,
    readonly kind: SyntaxErrorKind = 'other',
  ) {
    super(message, position);
  }
}

/** `what at position N`, the one-line shape every pattern error uses. */
export function describeAt(what: string, position: number): string {
  return `${what} at position ${position}`;
}
