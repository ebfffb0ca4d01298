import { createHmac, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import { canonicalJson } from './record.js';

/** The head file, beside the segments in the log directory. */
export const AUDIT_HEAD_FILE = 'audit.head';

/**
 * The chain's anchor outside the records it protects. A hash chain alone proves that the records present belong
 * together, not that none are missing at either end: cutting records off the end (or emptying or deleting the
 * current segment) leaves a shorter chain that still verifies, and so does cutting records off the start of the
 * oldest segment. The head names the last record written (`seq` and its `hash`) and the first record the log must
 * still hold (`oldest`, moved on only by rotation), under the same key as the records.
 */
export interface AuditHead {
  seq: number;
  hash: string;
  oldest: number;
}

const DOMAIN = 'trawl-audit-head-v1\n';

function headMac(key: Buffer, head: AuditHead): string {
  return createHmac('sha256', key)
    .update(DOMAIN + canonicalJson({ seq: head.seq, hash: head.hash, oldest: head.oldest }))
    .digest('hex');
}

/** The head as written: its fields and their HMAC. */
export function headText(key: Buffer, head: AuditHead): string {
  return `${JSON.stringify({ seq: head.seq, hash: head.hash, oldest: head.oldest, mac: headMac(key, head) })}\n`;
}

export type HeadRead =
  | { status: 'ok'; head: AuditHead }
  | { status: 'missing' }
  | { status: 'invalid'; reason: string };

/** Reads and authenticates the head file. */
export function readHead(file: string, key: Buffer): HeadRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    return { status: 'invalid', reason: `unreadable (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  let raw: { seq?: unknown; hash?: unknown; oldest?: unknown; mac?: unknown };
  try {
    raw = JSON.parse(text) as typeof raw;
  } catch {
    return { status: 'invalid', reason: 'not JSON' };
  }
  if (
    raw === null ||
    typeof raw !== 'object' ||
    !isSeq(raw.seq, 0) ||
    !isSeq(raw.oldest, 1) ||
    typeof raw.hash !== 'string' ||
    !/^[0-9a-f]{64}$/.test(raw.hash) ||
    typeof raw.mac !== 'string' ||
    !/^[0-9a-f]{64}$/.test(raw.mac)
  ) {
    return { status: 'invalid', reason: 'malformed' };
  }
  const head: AuditHead = { seq: raw.seq, hash: raw.hash, oldest: raw.oldest };
  const want = Buffer.from(headMac(key, head), 'hex');
  if (!timingSafeEqual(want, Buffer.from(raw.mac, 'hex'))) {
    return { status: 'invalid', reason: 'its HMAC does not match (edited, or written with another key)' };
  }
  return { status: 'ok', head };
}

/** Replaces the head atomically (a reader sees the old one or the new one, never half of either). */
export async function writeHead(file: string, key: Buffer, head: AuditHead): Promise<void> {
  const tmp = `${file}.tmp`;
  await fs.promises.writeFile(tmp, headText(key, head), { mode: 0o600 });
  await fs.promises.rename(tmp, file);
}

export function isSeq(v: unknown, min: number): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= min;
}
