/**
 * The public surface of `@trawl/core/names/limits`: the name-search numbers a caller quotes or validates against (`NAME_LIMITS`),
 * from a leaf module, so a command's `--help` can say them without loading the name-search layer.
 */
export { NAME_LIMITS } from './limits.js';
