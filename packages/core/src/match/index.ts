export { type CompiledPattern, compilePattern, type PatternOptions } from './compile.js';
export { PatternError } from './errors.js';
export { forEachMatch, matchSpans, type Span } from './iterate.js';
export type { RequiredLiterals } from './literals.js';
