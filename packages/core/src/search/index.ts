/**
 * search: the line-oriented searcher over one file's bytes, and the event stream every engine produces. Pure: no
 * I/O, no walking; the engines feed it files. Internal to core (no subpath of its own): `@trawl/core/engine`
 * exports the event types.
 *
 * Module map: searcher.ts (`searchBuffer`: literal prefilter on raw bytes, binary detection, lines decoded only
 * when reported, context and max-count as rg does), events.ts (`SearchEvent`, modelled on `rg --json`),
 * utf8.ts (UTF-16 index ↔ byte offset).
 *
 * @example
 * ```ts
 * import { compilePattern } from '../match/index.js';
 * import { Prefilter, searchBuffer } from './index.js';
 * const pattern = compilePattern('fn \\w+');
 * const bytes = Buffer.from('fn main() {}\n');
 * const result = searchBuffer(bytes, bytes.length, pattern, new Prefilter(pattern.required), {
 *   mode: 'lines', beforeContext: 0, afterContext: 0, binary: 'quit',
 * });
 * console.log(result.lines[0]?.submatches); // [{ start: 0, end: 7 }]
 * ```
 */
export type {
  EngineName,
  FileStats,
  LineRecord,
  SearchEvent,
  SearchOutcome,
  SearchSummary,
  SkipReason,
  Submatch,
} from './events.js';
export {
  type FileResult,
  type LineMatcher,
  Prefilter,
  type SearcherConfig,
  type SearchLine,
  type SearchMode,
  searchBuffer,
} from './searcher.js';
