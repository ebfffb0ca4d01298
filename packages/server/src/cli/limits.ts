/**
 * V8's heap for `trawl rg`, which streams a lot of short-lived garbage (one parsed line after another) and keeps
 * little alive. By default V8 grows the young generation up to 2 × 16 MiB and lets the old one grow up to 4×
 * past what was live before collecting; that garbage, not what is live, was most of `trawl rg`'s memory
 * (bench/rg-memory.mjs: 3.4 M lines, `\w+\d{4}` over the Linux tree). Both flags are read by V8 as it
 * collects, so they can be set once the process runs — unlike --max-semi-space-size (measured: `v8.setFlagsFromString`
 * of that one changes nothing after start).
 *
 * The young generation keeps its initial size (a growth factor of 1; 0 crashes V8) …
 */
export const RG_SEMI_SPACE_GROWTH_FACTOR = 1;
/** … and the old generation may grow 10 % past what was live after a full collection before the next. */
export const RG_HEAP_GROWING_PERCENT = 10;

/**
 * The longest `trawl serve --grep-deadline` (seconds). A content search runs on a transfer-pool worker, and a call
 * still running at TRANSFER_EXEC_CEILING_MS (60 s) is taken for wedged and its worker replaced: half of it leaves
 * the search room to answer with what it found.
 */
export const MAX_GREP_DEADLINE_S = 30;
/** The shortest: less leaves a search no time to run at all (every answer partial and empty). */
export const MIN_GREP_DEADLINE_S = 0.1;

/**
 * How often `trawl serve` and `trawl mcp` check that the process that started them is still there (lifetime.ts):
 * a second is soon enough for a stale server to let its port go, and costs a few /proc reads.
 */
export const PARENT_POLL_MS = 1_000;
