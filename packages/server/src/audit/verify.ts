import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { loadAuditKey } from './key.js';
import { AUDIT_KEEP_SEGMENTS } from './limits.js';
import { AUDIT_DIR, AUDIT_FILE } from './log.js';
import { type AuditRecord, entryHash, GENESIS_HASH } from './record.js';

export interface AuditBreak {
  /** The segment file and 1-based line of the first record that does not verify. */
  file: string;
  line: number;
  eventId?: string;
  reason: string;
}

export interface AuditVerifyResult {
  ok: boolean;
  records: number;
  /** Segment files read, oldest first. */
  segments: string[];
  /** `genesis`: the chain starts at the first record ever written; `rotated`: older segments were rotated away. */
  anchor: 'genesis' | 'rotated' | 'empty';
  broken?: AuditBreak;
}

const FIELDS: readonly (keyof AuditRecord)[] = [
  'event_id',
  'timestamp',
  'event_type',
  'caller_identity',
  'agent',
  'source',
  'operation',
  'tool_kind',
  'outcome',
  'resources',
  'downstream_service',
  'request_id',
  'error',
  'prev_hash',
  'entry_hash',
];

/** Segment files oldest first: `audit.jsonl.N` (highest N first), then `audit.jsonl`. */
export function auditSegments(dataDir: string): string[] {
  const dir = path.join(dataDir, AUDIT_DIR);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const rotated = names
    .map((n) => /^audit\.jsonl\.(\d+)$/.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => b - a)
    .map((n) => path.join(dir, `${AUDIT_FILE}.${n}`));
  const current = names.includes(AUDIT_FILE) ? [path.join(dir, AUDIT_FILE)] : [];
  return [...rotated, ...current];
}

/**
 * Checks every record's HMAC and the chain through `prev_hash`, across segments, and names the first record that
 * fails. A chain may start after genesis only at the oldest rotated segment of a full rotation (older ones were
 * deleted by rotation); anywhere else a non-genesis start means records were removed.
 */
export async function verifyAuditLog(
  dataDir: string,
  options: { keep?: number } = {},
): Promise<AuditVerifyResult> {
  const key = loadAuditKey(dataDir, { create: false });
  const segments = auditSegments(dataDir);
  const keep = options.keep ?? AUDIT_KEEP_SEGMENTS;
  const result: AuditVerifyResult = { ok: true, records: 0, segments, anchor: 'empty' };
  let prev: string | undefined;
  for (const [si, file] of segments.entries()) {
    const rl = readline.createInterface({
      input: fs.createReadStream(file),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    let lineNo = 0;
    const fail = (reason: string, eventId?: string): AuditVerifyResult => {
      rl.close();
      return {
        ...result,
        ok: false,
        broken: { file, line: lineNo, reason, ...(eventId ? { eventId } : {}) },
      };
    };
    for await (const line of rl) {
      lineNo++;
      if (line.trim() === '') continue;
      let rec: AuditRecord;
      try {
        rec = JSON.parse(line) as AuditRecord;
      } catch {
        return fail('not a JSON record (torn or edited)');
      }
      if (rec === null || typeof rec !== 'object') return fail('not a JSON record');
      for (const f of FIELDS) {
        if (typeof rec[f] !== 'string') return fail(`field ${f} is missing or not a string`, idOf(rec));
      }
      if (entryHash(key, rec) !== rec.entry_hash) {
        return fail(
          'entry_hash does not match the record (edited, or written with another key)',
          rec.event_id,
        );
      }
      if (prev === undefined) {
        if (rec.prev_hash === GENESIS_HASH) result.anchor = 'genesis';
        else {
          const m = /\.jsonl\.(\d+)$/.exec(file);
          const index = m ? Number(m[1]) : 0;
          if (si !== 0 || index < keep) {
            return fail(
              'the chain does not start at the first record ever written (records were removed)',
              rec.event_id,
            );
          }
          result.anchor = 'rotated';
        }
      } else if (rec.prev_hash !== prev) {
        return fail(
          'prev_hash does not chain to the record before it (a record was removed or reordered)',
          rec.event_id,
        );
      }
      prev = rec.entry_hash;
      result.records++;
    }
  }
  return result;
}

function idOf(rec: Partial<AuditRecord>): string | undefined {
  return typeof rec.event_id === 'string' ? rec.event_id : undefined;
}
