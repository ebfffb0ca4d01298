import { combineRgPatterns, smartCaseInsensitive } from '../match/rg-patterns.js';
import { FILE_TYPES } from '../walk/file-types.js';
import { patternMatchesNewline, replacerFor } from './search.js';

/**
 * What ripgrep's own flags mean where a `SearchRequest` has no field for them: the rules a ripgrep-compatible
 * command line (the `trawl rg` command) applies to its arguments before it searches, on either engine.
 */
export const rgFlags = Object.freeze({
  /** `-t`/`-T`/`--type-list`: ripgrep's default file types, each a name and the file-name globs that select it. */
  fileTypes: FILE_TYPES,
  /** `-e`/`-f`, `-F`, `-x`: several patterns as the one pattern ripgrep searches for (an alternation). */
  combinePatterns: combineRgPatterns,
  /** `-S`: whether the patterns are matched case-insensitively (a literal character and no uppercase one). */
  smartCaseInsensitive,
  /** `-r`: the replacement for a match of a reported line, the request's pattern supplying the groups. */
  replacerFor,
  /** `-c` with `-U`: whether the pattern can match a line end (ripgrep then counts matches, not lines). */
  patternMatchesNewline,
});
