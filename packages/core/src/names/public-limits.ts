/**
 * The public surface of `@trawl/core/names/limits`: the name-search numbers a caller quotes or validates against,
 * from a leaf module, so a command's `--help` can say them without loading the name-search layer.
 */
export { NAME_DEFAULT_LIMIT, NAME_LIMIT_CEILING, NAME_MIN_QUERY_CHARS } from './limits.js';
