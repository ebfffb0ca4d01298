/** The audit log's pinned numbers (spec/file-api.md §3.6), each with its reason. */

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
/** Bytes read from the end of a segment to find the chain's last hash at start-up. */
export const AUDIT_TAIL_BYTES = 256 * 1024;
