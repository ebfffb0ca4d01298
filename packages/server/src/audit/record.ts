import { createHmac, randomUUID } from 'node:crypto';

/** The `prev_hash` of the first record ever written. */
export const GENESIS_HASH = '0'.repeat(64);

/** One audit record (docs/http-api.md, "Audit log"), as written: one JSON line. */
export interface AuditRecord {
  /**
   * Position in the log: 1 for the first record ever written, one more for each record after it, across segments
   * and restarts. Not a field of the reference record: it is what lets `verify` name the first record missing at either end.
   */
  seq: number;
  event_id: string;
  timestamp: string;
  event_type: string;
  caller_identity: string;
  agent: string;
  source: string;
  operation: string;
  tool_kind: string;
  outcome: string;
  resources: string;
  downstream_service: string;
  request_id: string;
  error: string;
  prev_hash: string;
  entry_hash: string;
  metadata: Record<string, unknown>;
}

/** JSON with object keys sorted at every level: the bytes the chain's HMAC is computed over. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** HMAC-SHA256 (hex) over every field but `entry_hash`, keys sorted: `prev_hash` is inside, which makes the chain. */
export function entryHash(key: Buffer, record: Omit<AuditRecord, 'entry_hash'> | AuditRecord): string {
  const { entry_hash: _omit, ...rest } = record as AuditRecord;
  return createHmac('sha256', key).update(canonicalJson(rest)).digest('hex');
}

export function newEventId(): string {
  return randomUUID().replace(/-/g, '').slice(0, 16);
}
