/** Why a search tool call was refused. Every code is a caller mistake or a missing target, never a crash. */
export type SearchToolErrorCode =
  | 'invalid_arguments'
  | 'empty_pattern'
  | 'invalid_skip'
  | 'invalid_context'
  | 'invalid_output'
  | 'invalid_per_file'
  | 'invalid_exclude'
  | 'invalid_type'
  | 'invalid_limit'
  | 'empty_path'
  | 'comma_joined_paths'
  | 'unsupported_selector'
  | 'invalid_line_range'
  | 'line_range_target'
  | 'path_not_found'
  | 'path_unreadable'
  | 'path_outside_roots'
  | 'unknown_scheme'
  | 'url_glob'
  | 'resource_not_found'
  | 'archive_unreadable'
  | 'invalid_glob'
  | 'invalid_regex'
  | 'engine_unavailable';

/** A refused call: `message` is one line, meant for the model (or the CLI's stderr) as it is. */
export class SearchToolError extends Error {
  constructor(
    readonly code: SearchToolErrorCode,
    message: string,
  ) {
    super(oneLine(message));
    this.name = 'SearchToolError';
  }
}

/** Collapses line breaks so an error is always one line. */
export function oneLine(message: string): string {
  return message.replace(/\s*\r?\n\s*/g, ' ').trim();
}
