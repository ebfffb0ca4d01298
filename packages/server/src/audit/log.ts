import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactCredentials } from '@trawl/core/redact';
import { AUDIT_HEAD_FILE, type AuditHead, isSeq, readHead, writeHead } from './head.js';
import { loadAuditKey } from './key.js';
import {
  AUDIT_BATCH_RECORDS,
  AUDIT_FIELD_MAX_CHARS,
  AUDIT_KEEP_SEGMENTS,
  AUDIT_MAX_QUEUE,
  AUDIT_REFUSAL_KEYS,
  AUDIT_REFUSAL_SHARE,
  AUDIT_REFUSAL_WINDOW_MS,
  AUDIT_RETENTION_MS,
  AUDIT_SEGMENT_BYTES,
  AUDIT_TAIL_BYTES,
} from './limits.js';
import { type AuditRecord, entryHash, GENESIS_HASH, newEventId } from './record.js';
import { HeldRefusals, type Refusal, type RefusalTally, RefusalWindow, tallyEvent } from './refusals.js';

/** The log directory and current segment, relative to the data directory. */
export const AUDIT_DIR = 'audit';
export const AUDIT_FILE = 'audit.jsonl';

/** One API access, as a route reports it. */
export interface AuditEvent {
  /** `file_search`, `path_complete`, `projects`, `access_control`, `audit`, … */
  operation: string;
  outcome: 'allowed' | 'denied' | 'failure';
  resources?: string;
  error?: string;
  /** Who asked (default `dashboard`: the token holder). */
  caller?: string;
  requestId?: string;
}

/** Where routes send audit events. */
export interface AuditSink {
  record(event: AuditEvent): void;
  /**
   * An unauthenticated request refused before routing. Never one record per request: counted per address and kind
   * each second, and capped to a share of the log (see {@link AuditLog}), so whoever lacks the token cannot decide
   * what the log keeps.
   */
  refused(refusal: Refusal): void;
}

/**
 * `error` values of the records in which the log says it lost records (dropped under load, rotated away before
 * their time, cut from the end while the server was down, a missing or rewritten head). `verify` lists them.
 */
export const AUDIT_LOSS_CODES: ReadonlySet<string> = new Set([
  'audit_dropped',
  'audit_rotated_early',
  'audit_records_missing',
  'audit_head_missing',
  'audit_head_invalid',
  'audit_head_mismatch',
]);

export interface AuditLogOptions {
  dataDir: string;
  /** Secrets to redact wherever they appear, in any letter case (the server's access token). */
  literals?: readonly string[];
  segmentBytes?: number;
  keep?: number;
  maxQueue?: number;
  retentionMs?: number;
  refusalWindowMs?: number;
  /** Wall clock for timestamps, refusal windows and retention (default `new Date()`). */
  now?: () => Date;
  /** A write that failed (disk full, permissions): reported, never thrown at a caller. */
  onError?: (err: Error) => void;
  /** Losses the operator must hear of now (records rotated away before their time, a head that disagrees). */
  warn?: (line: string) => void;
}

interface Queued {
  event: AuditEvent;
  at: Date;
  /** A refusal tally: written only while refusals are under their share of the segment. */
  tally?: RefusalTally;
  /** Counts against the refusal share (tallies and the held-back tally). */
  refusal?: boolean;
}

interface Line {
  buf: Buffer;
  seq: number;
  hash: string;
}

/** Redacts, then clips (never the other way round: a clip must not cut a secret into an unrecognisable stub). */
function clean(text: string | undefined, literals: readonly string[]): string {
  if (!text) return '';
  const redacted = redactCredentials(text, { literals }).text;
  if (redacted.length <= AUDIT_FIELD_MAX_CHARS) return redacted;
  let cut = redacted.slice(0, AUDIT_FIELD_MAX_CHARS);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut;
}

/**
 * The audit log (docs/http-api.md, "Audit log"): JSON Lines, one record per API access, each carrying its sequence number
 * and an HMAC-SHA256 over its fields and its predecessor's hash (a chain: editing, removing or reordering a record
 * breaks it), with the key in a 0600 file outside the log directory. Callers never wait: {@link record} queues, and
 * one writer drains the queue in batches, computing the chain as it writes. Segments rotate at 32 MiB, 7 rotated
 * ones kept, and the chain continues across them.
 *
 * Anchors outside the records (`audit.head`, see head.ts) name the last record written and the first one the log
 * must hold, so that records cut from either end are found. Refusals of unauthenticated requests are tallied
 * (one record per address and kind per second) and may take at most an eighth of a segment; the rest is counted
 * and written as one tally when the next segment begins. A rotation that deletes records younger than the
 * retention is put on record and said on stderr.
 */
export class AuditLog implements AuditSink {
  private readonly key: Buffer;
  private readonly dir: string;
  private readonly file: string;
  private readonly headFile: string;
  private readonly literals: readonly string[];
  private readonly segmentBytes: number;
  private readonly keep: number;
  private readonly maxQueue: number;
  private readonly retentionMs: number;
  private readonly windowMs: number;
  private readonly refusalCap: number;
  private readonly now: () => Date;
  private fd: number;
  private size: number;
  /** The last record built (its seq and hash): the chain's tip. */
  private seq: number;
  private prevHash: string;
  /** The last record on disk, and the first record the log must still hold: what the head says. */
  private onDisk: { seq: number; hash: string };
  private oldest: number;
  /** The current segment does not end with a newline (a torn write before a crash): start with one. */
  private needsNewline: boolean;
  private queue: Queued[] = [];
  /** The log's own records (losses, held refusals), written before the queue. */
  private notices: Queued[] = [];
  private droppedPending = 0;
  private refusalBytes = 0;
  private readonly window: RefusalWindow;
  private windowStart: number | undefined;
  private windowTimer: NodeJS.Timeout | undefined;
  private readonly held: HeldRefusals;
  private scheduled = false;
  private writing = false;
  private closed = false;
  private waiters: (() => void)[] = [];
  /** Records written and dropped since opening. */
  written = 0;
  dropped = 0;

  private constructor(private readonly options: AuditLogOptions) {
    this.dir = path.join(options.dataDir, AUDIT_DIR);
    this.file = path.join(this.dir, AUDIT_FILE);
    this.headFile = path.join(this.dir, AUDIT_HEAD_FILE);
    this.literals = options.literals ?? [];
    this.segmentBytes = options.segmentBytes ?? AUDIT_SEGMENT_BYTES;
    this.keep = Math.max(1, options.keep ?? AUDIT_KEEP_SEGMENTS);
    this.maxQueue = options.maxQueue ?? AUDIT_MAX_QUEUE;
    this.retentionMs = options.retentionMs ?? AUDIT_RETENTION_MS;
    this.windowMs = options.refusalWindowMs ?? AUDIT_REFUSAL_WINDOW_MS;
    this.refusalCap = this.segmentBytes * AUDIT_REFUSAL_SHARE;
    this.now = options.now ?? (() => new Date());
    this.window = new RefusalWindow(AUDIT_REFUSAL_KEYS);
    this.held = new HeldRefusals(AUDIT_REFUSAL_KEYS * 4);
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.key = loadAuditKey(options.dataDir, { create: true });

    const tail = lastRecord([this.file, `${this.file}.1`]);
    const tailSeq = tail.record && isSeq(tail.record.seq, 1) ? tail.record.seq : 0;
    this.prevHash = tail.record?.entry_hash ?? GENESIS_HASH;
    this.seq = tailSeq;
    this.oldest = 1;
    const head = readHead(this.headFile, this.key);
    if (head.status === 'ok') {
      const h = head.head;
      this.oldest = h.oldest;
      if (tailSeq < h.seq) {
        this.notice(
          'audit_records_missing',
          `seq ${tailSeq + 1}..${h.seq} missing at start-up: the head names seq ${h.seq}, the log ends at ${
            tailSeq === 0 ? 'no record' : `seq ${tailSeq}`
          }`,
        );
        this.seq = h.seq;
      } else if (tailSeq === h.seq && tail.record?.entry_hash !== h.hash) {
        this.notice('audit_head_mismatch', `the record at seq ${h.seq} is not the one the head names`);
      }
    } else if (head.status === 'invalid' || tail.record) {
      this.oldest = this.oldestOnDisk() ?? 1;
      if (head.status === 'invalid')
        this.notice('audit_head_invalid', `the head did not verify: ${head.reason}`);
      else {
        this.notice(
          'audit_head_missing',
          `the head was missing at start-up, the log ending at seq ${tailSeq}: records cut from its end cannot be ruled out`,
        );
      }
    }
    this.onDisk = { seq: tailSeq, hash: this.prevHash };
    this.fd = fs.openSync(this.file, 'a', 0o600);
    this.size = fs.fstatSync(this.fd).size;
    this.needsNewline = tail.tornCurrent;
    if (this.notices.length > 0) this.schedule();
  }

  /** Opens (creating the directory, key and segment as needed) and resumes the chain from the last record. */
  static open(options: AuditLogOptions): AuditLog {
    return new AuditLog(options);
  }

  /** Queues one record. Never blocks and never throws; past the queue bound the record is dropped and counted. */
  record(event: AuditEvent): void {
    if (this.closed) return;
    this.enqueue({ event, at: this.now() });
  }

  /** Counts one refusal into the current window's tally for its address and kind. */
  refused(refusal: Refusal): void {
    if (this.closed) return;
    const t = this.now().getTime();
    const start = t - (t % this.windowMs);
    if (this.windowStart !== undefined && start !== this.windowStart) this.closeWindow();
    if (this.windowStart === undefined) {
      this.windowStart = start;
      this.windowTimer = setTimeout(() => this.closeWindow(), start + this.windowMs - t);
      this.windowTimer.unref();
    }
    this.window.add(refusal);
  }

  /** Resolves once everything queued so far is written (or failed). */
  flush(): Promise<void> {
    if (!this.writing && this.queue.length === 0 && this.notices.length === 0 && this.droppedPending === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.schedule();
    });
  }

  /** Writes the open refusal window and any held-back tally, then everything queued, and closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closeWindow();
    await this.flush();
    // After the flush: the last window's tallies may themselves have been held back.
    this.releaseHeld();
    await this.flush();
    this.closed = true;
    try {
      fs.closeSync(this.fd);
    } catch {
      // closed
    }
  }

  private enqueue(q: Queued): void {
    if (this.queue.length >= this.maxQueue) {
      this.dropped++;
      this.droppedPending++;
      return;
    }
    this.queue.push(q);
    this.schedule();
  }

  private notice(error: string, resources: string): void {
    this.notices.push({
      event: { operation: 'audit', outcome: 'failure', error, resources },
      at: this.now(),
    });
    this.options.warn?.(`audit: ${error}: ${resources}`);
  }

  private closeWindow(): void {
    if (this.windowTimer) clearTimeout(this.windowTimer);
    this.windowTimer = undefined;
    if (this.windowStart === undefined) return;
    const at = new Date(this.windowStart);
    this.windowStart = undefined;
    for (const tally of this.window.take()) {
      this.enqueue({ event: tallyEvent(tally, this.windowMs), at, tally, refusal: true });
    }
  }

  private releaseHeld(): void {
    const event = this.held.take();
    if (event) this.notices.push({ event, at: this.now(), refusal: true });
    if (event) this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  /** Builds the next record of the chain. */
  private build(q: Queued): AuditRecord {
    const e = q.event;
    const rec: Omit<AuditRecord, 'entry_hash'> = {
      seq: this.seq + 1,
      event_id: newEventId(),
      timestamp: q.at.toISOString(),
      event_type: 'api_access',
      caller_identity: clean(e.caller ?? 'dashboard', this.literals),
      agent: '',
      source: 'dashboard',
      operation: clean(e.operation, this.literals),
      tool_kind: '',
      outcome: clean(e.outcome, this.literals),
      resources: clean(e.resources, this.literals),
      downstream_service: '',
      request_id: clean(e.requestId, this.literals),
      error: clean(e.error, this.literals),
      prev_hash: this.prevHash,
      metadata: {},
    };
    const full: AuditRecord = { ...rec, entry_hash: entryHash(this.key, rec) };
    this.seq = full.seq;
    this.prevHash = full.entry_hash;
    return full;
  }

  private takeBatch(): Queued[] {
    const items: Queued[] = [];
    if (this.droppedPending > 0) {
      items.push({
        event: {
          operation: 'audit',
          outcome: 'failure',
          error: 'audit_dropped',
          resources: `dropped=${this.droppedPending}`,
        },
        at: this.now(),
      });
      this.droppedPending = 0;
    }
    while (this.notices.length > 0 && items.length < AUDIT_BATCH_RECORDS) items.push(this.notices.shift()!);
    items.push(...this.queue.splice(0, AUDIT_BATCH_RECORDS - items.length));
    return items;
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      for (let batch = this.takeBatch(); batch.length > 0; batch = this.takeBatch()) {
        try {
          await this.writeBatch(batch);
          await writeHead(this.headFile, this.key, this.headNow());
        } catch (err) {
          this.options.onError?.(err as Error);
        }
      }
    } finally {
      this.writing = false;
      for (const w of this.waiters.splice(0)) w();
    }
  }

  private headNow(): AuditHead {
    return { seq: this.onDisk.seq, hash: this.onDisk.hash, oldest: this.oldest };
  }

  /**
   * Builds and appends a batch, rotating between two records whenever the next one would take the segment past its
   * size. A refusal tally past the refusal share of the segment is held back instead of written.
   */
  private async writeBatch(batch: Queued[]): Promise<void> {
    let chunk: Line[] = [];
    let chunkBytes = 0;
    const flushChunk = async () => {
      if (chunk.length === 0) return;
      const bufs = chunk.map((l) => l.buf);
      const buf = Buffer.concat(this.needsNewline ? [Buffer.from('\n'), ...bufs] : bufs);
      await writeAll(this.fd, buf);
      this.needsNewline = false;
      this.size += buf.length;
      const last = chunk.at(-1)!;
      this.onDisk = { seq: last.seq, hash: last.hash };
      this.written += chunk.length;
      chunk = [];
      chunkBytes = 0;
    };
    for (const q of batch) {
      if (q.tally && this.refusalBytes >= this.refusalCap) {
        this.held.add(q.tally, q.at);
        continue;
      }
      const rec = this.build(q);
      const buf = Buffer.from(`${JSON.stringify(rec)}\n`, 'utf8');
      if (this.size + chunkBytes > 0 && this.size + chunkBytes + buf.length > this.segmentBytes) {
        await flushChunk();
        await this.rotate();
      }
      chunk.push({ buf, seq: rec.seq, hash: rec.entry_hash });
      chunkBytes += buf.length;
      if (q.refusal) this.refusalBytes += buf.length;
    }
    await flushChunk();
  }

  /**
   * `audit.jsonl` → `.1` → … → `.keep`; the oldest beyond `keep` is deleted. The chain carries on. The head moves
   * its `oldest` on before the records go (a crash in between leaves more records than the head asks for, which
   * `verify` accepts), and a deletion of records younger than the retention is put on record.
   */
  private async rotate(): Promise<void> {
    fs.closeSync(this.fd);
    const doomed = `${this.file}.${this.keep}`;
    if (fs.existsSync(doomed)) {
      const last = lastRecord([doomed]).record;
      const successor = this.keep === 1 ? this.file : `${this.file}.${this.keep - 1}`;
      const first = firstRecord(successor);
      const lastSeq = last && isSeq(last.seq, 1) ? last.seq : undefined;
      const removedFrom = this.oldest;
      this.oldest = first && isSeq(first.seq, 1) ? first.seq : (lastSeq ?? this.onDisk.seq) + 1;
      const newest = last ? Date.parse(last.timestamp) : Number.NaN;
      const age = this.now().getTime() - newest;
      if (Number.isFinite(age) && age < this.retentionMs) {
        this.notice(
          'audit_rotated_early',
          `rotation deleted seq ${removedFrom}..${this.oldest - 1}, the newest written ${last!.timestamp}, ` +
            `within the ${formatDuration(this.retentionMs)} retention`,
        );
      }
      await writeHead(this.headFile, this.key, this.headNow());
      await fs.promises.rm(doomed, { force: true });
    }
    for (let i = this.keep - 1; i >= 1; i--) {
      await fs.promises.rename(`${this.file}.${i}`, `${this.file}.${i + 1}`).catch(() => {});
    }
    await fs.promises.rename(this.file, `${this.file}.1`);
    this.fd = fs.openSync(this.file, 'a', 0o600);
    this.size = 0;
    this.needsNewline = false;
    this.refusalBytes = 0;
    this.releaseHeld();
  }

  /** The seq of the first record of the oldest segment on disk (for a log found without its head). */
  private oldestOnDisk(): number | undefined {
    for (let i = this.keep; i >= 0; i--) {
      const first = firstRecord(i === 0 ? this.file : `${this.file}.${i}`);
      if (first) return isSeq(first.seq, 1) ? first.seq : undefined;
    }
    return undefined;
  }
}

function formatDuration(ms: number): string {
  const days = ms / 86_400_000;
  if (Number.isInteger(days)) return `${days}-day`;
  return `${Math.round(ms / 1000)}-second`;
}

function writeAll(fd: number, buf: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    let off = 0;
    const step = () => {
      fs.write(fd, buf, off, buf.length - off, null, (err, n) => {
        if (err) return reject(err);
        off += n;
        if (off < buf.length) step();
        else resolve();
      });
    };
    step();
  });
}

/** Reads up to AUDIT_TAIL_BYTES from the start or the end of a file; undefined when it cannot be read. */
function readSlice(file: string, fromEnd: boolean): string | undefined {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const len = Math.min(size, AUDIT_TAIL_BYTES);
      const buf = Buffer.alloc(len);
      fs.readSync(fd, buf, 0, len, fromEnd ? size - len : 0);
      return buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function parseRecord(line: string): AuditRecord | undefined {
  try {
    const rec = JSON.parse(line) as Partial<AuditRecord>;
    if (typeof rec.entry_hash === 'string' && /^[0-9a-f]{64}$/.test(rec.entry_hash))
      return rec as AuditRecord;
  } catch {
    // torn or foreign line
  }
  return undefined;
}

/**
 * The last intact record, looking at each file in turn (the current segment, then the newest rotated one);
 * `tornCurrent` when the current segment's last line was cut short.
 */
function lastRecord(files: string[]): { record?: AuditRecord; tornCurrent: boolean } {
  let tornCurrent = false;
  for (let i = 0; i < files.length; i++) {
    const text = readSlice(files[i]!, true);
    if (text === undefined) continue;
    if (i === 0 && text.length > 0 && !text.endsWith('\n')) tornCurrent = true;
    const lines = text.split('\n');
    for (let j = lines.length - 1; j >= 0; j--) {
      const line = lines[j]!.trim();
      if (!line) continue;
      const rec = parseRecord(line);
      if (rec) return { record: rec, tornCurrent };
    }
  }
  return { tornCurrent };
}

/** The first intact record of a file. */
function firstRecord(file: string): AuditRecord | undefined {
  const text = readSlice(file, false);
  if (text === undefined) return undefined;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const rec = parseRecord(line.trim());
    if (rec) return rec;
  }
  return undefined;
}
