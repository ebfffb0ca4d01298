import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { AUDIT_HEAD_FILE, type AuditHead, isSeq, readHead } from './head.js';
import { loadAuditKey } from './key.js';
import { AUDIT_DIR, AUDIT_FILE, AUDIT_LOSS_CODES } from './log.js';
import { type AuditRecord, entryHash, GENESIS_HASH } from './record.js';

export interface AuditBreak {
  /** The segment file and 1-based line of the first record that does not verify (line 0: the file as a whole). */
  file: string;
  line: number;
  eventId?: string;
  reason: string;
  /** When records are missing: the sequence number of the first one. */
  firstMissingSeq?: number;
}

/** A record in which the log says it lost records (see AUDIT_LOSS_CODES). */
export interface AuditLoss {
  seq: number;
  timestamp: string;
  error: string;
  resources: string;
}

export interface AuditVerifyResult {
  /** Every record verifies, the chain is whole, and it reaches both anchors of the head. */
  ok: boolean;
  records: number;
  /** Segment files read, oldest first. */
  segments: string[];
  /** `genesis`: the log starts at the first record ever written; `rotated`: rotation deleted older ones. */
  anchor: 'genesis' | 'rotated' | 'empty';
  firstSeq?: number;
  lastSeq?: number;
  broken?: AuditBreak;
  /** Losses the log itself records (dropped, rotated away early, …): the chain is whole but not complete. */
  losses: AuditLoss[];
}

const STRING_FIELDS: readonly (keyof AuditRecord)[] = [
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
 * Checks the log against its key and its head, and names the first thing wrong:
 * - each record's HMAC (an edited or forged record);
 * - the chain: each record's `prev_hash` is its predecessor's hash and its `seq` is one more (a record removed
 *   inside the log, a segment removed, records reordered);
 * - the start: the first record is the one the head says the log must still hold (`oldest`, which only rotation
 *   moves on), so records cut off the start of the oldest segment are found;
 * - the end: the log reaches the record the head names (`seq`, `hash`), so records cut off the end, an emptied or
 *   deleted current segment, or a current segment deleted after a full rotation are found;
 * and lists the losses the log records about itself (`losses`), which leave the chain whole but the log incomplete.
 */
export async function verifyAuditLog(dataDir: string): Promise<AuditVerifyResult> {
  const key = loadAuditKey(dataDir, { create: false });
  const segments = auditSegments(dataDir);
  const headFile = path.join(dataDir, AUDIT_DIR, AUDIT_HEAD_FILE);
  const headRead = readHead(headFile, key);
  const head: AuditHead | undefined = headRead.status === 'ok' ? headRead.head : undefined;
  const result: AuditVerifyResult = { ok: true, records: 0, segments, anchor: 'empty', losses: [] };
  const broken = (b: AuditBreak): AuditVerifyResult => ({ ...result, ok: false, broken: b });

  let prev: AuditRecord | undefined;
  let hashAtHead: string | undefined;
  for (const file of segments) {
    const rl = readline.createInterface({
      input: fs.createReadStream(file),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    let lineNo = 0;
    const fail = (reason: string, eventId?: string, firstMissingSeq?: number): AuditVerifyResult => {
      rl.close();
      return broken({
        file,
        line: lineNo,
        reason,
        ...(eventId ? { eventId } : {}),
        ...(firstMissingSeq !== undefined ? { firstMissingSeq } : {}),
      });
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
      for (const f of STRING_FIELDS) {
        if (typeof rec[f] !== 'string') return fail(`field ${f} is missing or not a string`, idOf(rec));
      }
      if (!isSeq(rec.seq, 1)) return fail('field seq is missing or not a positive integer', rec.event_id);
      if (entryHash(key, rec) !== rec.entry_hash) {
        return fail(
          'entry_hash does not match the record (edited, or written with another key)',
          rec.event_id,
        );
      }
      if (prev === undefined) {
        // Without a head the start cannot be judged; the missing head is reported below.
        const oldest = head?.oldest ?? rec.seq;
        if (rec.seq > oldest) {
          return fail(
            `records were removed from the start: the log must begin at seq ${oldest}, it begins at seq ${rec.seq}`,
            rec.event_id,
            oldest,
          );
        }
        if (rec.seq === 1 && rec.prev_hash !== GENESIS_HASH) {
          return fail('seq 1 does not start the chain', rec.event_id);
        }
        result.anchor = rec.seq === 1 ? 'genesis' : 'rotated';
        result.firstSeq = rec.seq;
      } else if (rec.seq > prev.seq + 1) {
        return fail(
          `records seq ${prev.seq + 1}..${rec.seq - 1} are missing (removed, or a segment deleted)`,
          rec.event_id,
          prev.seq + 1,
        );
      } else if (rec.seq <= prev.seq) {
        return fail(`seq ${rec.seq} after seq ${prev.seq}: records reordered or repeated`, rec.event_id);
      } else if (rec.prev_hash !== prev.entry_hash) {
        return fail(
          'prev_hash does not chain to the record before it (a record was removed or reordered)',
          rec.event_id,
        );
      }
      if (head && rec.seq === head.seq) hashAtHead = rec.entry_hash;
      if (AUDIT_LOSS_CODES.has(rec.error)) {
        result.losses.push({
          seq: rec.seq,
          timestamp: rec.timestamp,
          error: rec.error,
          resources: rec.resources,
        });
      }
      prev = rec;
      result.records++;
      result.lastSeq = rec.seq;
    }
  }

  const current = segments.at(-1) ?? path.join(dataDir, AUDIT_DIR, AUDIT_FILE);
  if (headRead.status === 'invalid') {
    return broken({ file: headFile, line: 0, reason: `the head does not verify: ${headRead.reason}` });
  }
  if (!head) {
    if (result.records === 0) return result;
    return broken({
      file: headFile,
      line: 0,
      reason: 'the head is missing: records cut from the end of the log cannot be ruled out',
    });
  }
  const lastSeq = result.lastSeq ?? 0;
  if (lastSeq < head.seq) {
    const first = result.records === 0 ? head.oldest : lastSeq + 1;
    return broken({
      file: current,
      line: 0,
      reason:
        result.records === 0
          ? `the log holds no record, the head names seq ${head.seq}: records seq ${first}..${head.seq} are missing`
          : `records were removed from the end: the log ends at seq ${lastSeq}, the head names seq ${head.seq}`,
      firstMissingSeq: first,
    });
  }
  if (head.seq > 0 && hashAtHead !== head.hash) {
    return broken({
      file: current,
      line: 0,
      reason: `the record at seq ${head.seq} is not the one the head names (rewritten)`,
    });
  }
  return result;
}

function idOf(rec: Partial<AuditRecord>): string | undefined {
  return typeof rec.event_id === 'string' ? rec.event_id : undefined;
}
