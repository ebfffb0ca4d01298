/** The audit log's pinned numbers (docs/http-api.md, "Audit log"), each with its reason. */

/** Values (`outcome`, `resources`, `error`) are redacted, then clipped to this many characters. */
export const AUDIT_FIELD_MAX_CHARS = 500;
/** A segment rotates when it reaches this size. */
export const AUDIT_SEGMENT_BYTES = 32 * 1024 * 1024;
/** Rotated segments kept besides the current one (`audit.jsonl.1` … `.7`); older ones are deleted. */
export const AUDIT_KEEP_SEGMENTS = 7;
/**
 * Records waiting for the writer, at most. Past it, records are dropped and counted, and the next write starts with
 * a chained `audit_dropped` record saying how many: memory stays bounded under a flood and the gap is on record.
 */
export const AUDIT_MAX_QUEUE = 10_000;
/** Records written per write call. */
export const AUDIT_BATCH_RECORDS = 512;
/** Bytes read from the end (or the start) of a segment to find its last (or first) record. */
export const AUDIT_TAIL_BYTES = 256 * 1024;
/**
 * A record younger than this that rotation deletes was removed before its time: the writer puts a chained
 * `audit_rotated_early` record in the log (and says so on stderr), and `verify` reports the log as incomplete.
 * A week: long enough to look back on an incident found days later. A typical file-search record is about 525
 * bytes (measured), so the 8 segments hold about 500 000 records: a week at 50 000 a day, a picker queried at
 * every keystroke all day long.
 */
export const AUDIT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * Refusals of unauthenticated requests are counted per address and kind and written as one record per second
 * (not one per request): one client refused 4 800 times a second wrote 4 800 lines a second before.
 */
export const AUDIT_REFUSAL_WINDOW_MS = 1_000;
/** Distinct (address, kind) pairs counted per window; more share one `address=*` tally (bounded memory). */
export const AUDIT_REFUSAL_KEYS = 64;
/**
 * The share of a segment refusal records may take. Past it, refusals are only counted, and the tally is written
 * when the next segment starts (or at shutdown). A segment is then at least 7/8 records of token holders and of the
 * server itself, so an unauthenticated client can never fill one, and never decides what rotation deletes.
 */
export const AUDIT_REFUSAL_SHARE = 1 / 8;
