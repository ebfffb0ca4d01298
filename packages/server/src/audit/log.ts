import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactCredentials } from '@trawl/core/redact';
import { loadAuditKey } from './key.js';
import {
  AUDIT_BATCH_RECORDS,
  AUDIT_FIELD_MAX_CHARS,
  AUDIT_KEEP_SEGMENTS,
  AUDIT_MAX_QUEUE,
  AUDIT_SEGMENT_BYTES,
  AUDIT_TAIL_BYTES,
} from './limits.js';
import { type AuditRecord, entryHash, GENESIS_HASH, newEventId } from './record.js';

/** The log directory and current segment, relative to the data directory. */
export const AUDIT_DIR = 'audit';
export const AUDIT_FILE = 'audit.jsonl';

/** One API access, as a route reports it. */
export interface AuditEvent {
  /** `file_search`, `path_complete`, `projects`, `access_control`, … */
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
}

export interface AuditLogOptions {
  dataDir: string;
  /** Secrets to redact wherever they appear (the server's access token). */
  literals?: readonly string[];
  segmentBytes?: number;
  keep?: number;
  maxQueue?: number;
  /** Wall clock for timestamps (default `new Date()`). */
  now?: () => Date;
  /** A write that failed (disk full, permissions): reported, never thrown at a caller. */
  onError?: (err: Error) => void;
}

interface Queued {
  event: AuditEvent;
  at: Date;
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
 * The audit log (spec/file-api.md §3.6): JSON Lines, one record per API access, each carrying an HMAC-SHA256
 * over its fields and its predecessor's hash (a chain: editing, removing or reordering a record breaks it), with
 * the key in a 0600 file outside the log directory. Callers never wait: {@link record} queues, and one writer
 * drains the queue in batches, computing the chain as it writes. Segments rotate at 32 MiB, 7 rotated ones kept,
 * and the chain continues across them.
 */
export class AuditLog implements AuditSink {
  private readonly key: Buffer;
  private readonly dir: string;
  private readonly file: string;
  private readonly literals: readonly string[];
  private readonly segmentBytes: number;
  private readonly keep: number;
  private readonly maxQueue: number;
  private readonly now: () => Date;
  private fd: number;
  private size: number;
  private prevHash: string;
  /** The current segment does not end with a newline (a torn write before a crash): start with one. */
  private needsNewline: boolean;
  private queue: Queued[] = [];
  private droppedPending = 0;
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
    this.literals = options.literals ?? [];
    this.segmentBytes = options.segmentBytes ?? AUDIT_SEGMENT_BYTES;
    this.keep = options.keep ?? AUDIT_KEEP_SEGMENTS;
    this.maxQueue = options.maxQueue ?? AUDIT_MAX_QUEUE;
    this.now = options.now ?? (() => new Date());
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.key = loadAuditKey(options.dataDir, { create: true });
    const tail = lastHash([this.file, `${this.file}.1`]);
    this.prevHash = tail.hash ?? GENESIS_HASH;
    this.fd = fs.openSync(this.file, 'a', 0o600);
    this.size = fs.fstatSync(this.fd).size;
    this.needsNewline = tail.tornCurrent;
  }

  /** Opens (creating the directory, key and segment as needed) and resumes the chain from the last record. */
  static open(options: AuditLogOptions): AuditLog {
    return new AuditLog(options);
  }

  /** Queues one record. Never blocks and never throws; past the queue bound the record is dropped and counted. */
  record(event: AuditEvent): void {
    if (this.closed) return;
    if (this.queue.length >= this.maxQueue) {
      this.dropped++;
      this.droppedPending++;
      return;
    }
    this.queue.push({ event, at: this.now() });
    this.schedule();
  }

  /** Resolves once everything queued so far is written (or failed). */
  flush(): Promise<void> {
    if (!this.writing && this.queue.length === 0 && this.droppedPending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.schedule();
    });
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    try {
      fs.closeSync(this.fd);
    } catch {
      // closed
    }
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  private build(q: Queued): AuditRecord {
    const e = q.event;
    const rec: Omit<AuditRecord, 'entry_hash'> = {
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
    this.prevHash = full.entry_hash;
    return full;
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.queue.length > 0 || this.droppedPending > 0) {
        const batch = this.queue.splice(0, AUDIT_BATCH_RECORDS);
        const lines: Buffer[] = [];
        if (this.droppedPending > 0) {
          const dropped = this.build({
            event: {
              operation: 'audit',
              outcome: 'failure',
              error: 'audit_dropped',
              resources: `dropped=${this.droppedPending}`,
            },
            at: this.now(),
          });
          lines.push(Buffer.from(`${JSON.stringify(dropped)}\n`, 'utf8'));
          this.droppedPending = 0;
        }
        for (const q of batch) lines.push(Buffer.from(`${JSON.stringify(this.build(q))}\n`, 'utf8'));
        try {
          await this.writeLines(lines);
          this.written += batch.length;
        } catch (err) {
          this.options.onError?.(err as Error);
        }
      }
    } finally {
      this.writing = false;
      for (const w of this.waiters.splice(0)) w();
    }
  }

  /** Appends lines, rotating between two lines whenever the next one would take the segment past its size. */
  private async writeLines(lines: Buffer[]): Promise<void> {
    let chunk: Buffer[] = [];
    let chunkBytes = 0;
    const flushChunk = async () => {
      if (chunk.length === 0) return;
      const buf = Buffer.concat(this.needsNewline ? [Buffer.from('\n'), ...chunk] : chunk);
      await writeAll(this.fd, buf);
      this.needsNewline = false;
      this.size += buf.length;
      chunk = [];
      chunkBytes = 0;
    };
    for (const line of lines) {
      if (this.size + chunkBytes > 0 && this.size + chunkBytes + line.length > this.segmentBytes) {
        await flushChunk();
        await this.rotate();
      }
      chunk.push(line);
      chunkBytes += line.length;
    }
    await flushChunk();
  }

  /** `audit.jsonl` → `.1` → … → `.keep`; the oldest beyond `keep` is deleted. The chain carries on. */
  private async rotate(): Promise<void> {
    fs.closeSync(this.fd);
    await fs.promises.rm(`${this.file}.${this.keep}`, { force: true });
    for (let i = this.keep - 1; i >= 1; i--) {
      await fs.promises.rename(`${this.file}.${i}`, `${this.file}.${i + 1}`).catch(() => {});
    }
    await fs.promises.rename(this.file, `${this.file}.1`);
    this.fd = fs.openSync(this.file, 'a', 0o600);
    this.size = 0;
    this.needsNewline = false;
  }
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

/**
 * The `entry_hash` of the last intact record, looking at each file in turn (the current segment, then the newest
 * rotated one); `tornCurrent` when the current segment's last line was cut short.
 */
function lastHash(files: string[]): { hash?: string; tornCurrent: boolean } {
  let tornCurrent = false;
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    let text: string;
    try {
      const fd = fs.openSync(file, 'r');
      try {
        const size = fs.fstatSync(fd).size;
        const len = Math.min(size, AUDIT_TAIL_BYTES);
        const buf = Buffer.alloc(len);
        fs.readSync(fd, buf, 0, len, size - len);
        text = buf.toString('utf8');
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      continue;
    }
    if (i === 0 && text.length > 0 && !text.endsWith('\n')) tornCurrent = true;
    const lines = text.split('\n');
    for (let j = lines.length - 1; j >= 0; j--) {
      const line = lines[j]!.trim();
      if (!line) continue;
      try {
        const rec = JSON.parse(line) as Partial<AuditRecord>;
        if (typeof rec.entry_hash === 'string' && /^[0-9a-f]{64}$/.test(rec.entry_hash)) {
          return { hash: rec.entry_hash, tornCurrent };
        }
      } catch {
        // torn or foreign line: keep looking
      }
    }
  }
  return { tornCurrent };
}
