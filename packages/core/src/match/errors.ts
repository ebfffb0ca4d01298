/**
 * A pattern the engine cannot run: a syntax error ripgrep would also report, or a construct that has no
 * faithful JavaScript translation. `position` is a 0-based index into the pattern the caller passed.
 */
export class PatternError extends Error {
  readonly code = 'invalid_pattern';

  constructor(
    message: string,
    readonly position?: number,
  ) {
    super(message);
    this.name = 'PatternError';
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
