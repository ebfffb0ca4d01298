import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_FIELD_MAX_CHARS,
  AUDIT_KEY_FILE,
  AuditKeyError,
  AuditLog,
  type AuditRecord,
  auditSegments,
  GENESIS_HASH,
  verifyAuditLog,
} from '../src/audit/index.js';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
let tmp: string;
let seq = 0;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-audit-')));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const dataDir = () => path.join(tmp, `d${seq++}`);
const logFile = (d: string) => path.join(d, 'audit', 'audit.jsonl');
const records = (file: string): AuditRecord[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditRecord);

async function writeN(d: string, n: number, over: Partial<Parameters<typeof AuditLog.open>[0]> = {}) {
  const log = AuditLog.open({ dataDir: d, ...over });
  for (let i = 0; i < n; i++)
    log.record({ operation: 'file_search', outcome: 'allowed', resources: `q=n${i}` });
  await log.close();
}

function rewrite(file: string, edit: (lines: string[]) => string[]) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  fs.writeFileSync(file, `${edit(lines).join('\n')}\n`);
}

describe('the audit log', () => {
  it('writes one JSON line per record with the spec fields, chained from genesis', async () => {
    const d = dataDir();
    await writeN(d, 3);
    const recs = records(logFile(d));
    expect(recs).toHaveLength(3);
    expect(Object.keys(recs[0]!).sort()).toEqual(
      [
        'agent',
        'caller_identity',
        'downstream_service',
        'entry_hash',
        'error',
        'event_id',
        'event_type',
        'metadata',
        'operation',
        'outcome',
        'prev_hash',
        'request_id',
        'resources',
        'seq',
        'source',
        'timestamp',
        'tool_kind',
      ].sort(),
    );
    expect(recs[0]).toMatchObject({
      event_type: 'api_access',
      source: 'dashboard',
      caller_identity: 'dashboard',
      operation: 'file_search',
      outcome: 'allowed',
      resources: 'q=n0',
      prev_hash: GENESIS_HASH,
    });
    expect(recs.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(recs[0]!.event_id).toMatch(/^[0-9a-f]{16}$/);
    expect(recs[1]!.prev_hash).toBe(recs[0]!.entry_hash);
    expect(recs[2]!.prev_hash).toBe(recs[1]!.entry_hash);
    expect(await verifyAuditLog(d)).toMatchObject({ ok: true, records: 3, anchor: 'genesis' });
  });

  it('keeps the key in a 0600 file outside the log directory, and the log 0600 🔒', async () => {
    const d = dataDir();
    await writeN(d, 1);
    const key = path.join(d, AUDIT_KEY_FILE);
    expect(path.dirname(key)).not.toBe(path.join(d, 'audit'));
    expect(fs.statSync(key).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(key)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(logFile(d)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.join(d, 'audit')).sort()).toEqual(['audit.head', 'audit.jsonl']);
    expect(fs.statSync(path.join(d, 'audit', 'audit.head')).mode & 0o777).toBe(0o600);
  });

  it('refuses a key file other accounts can read 🔒', async () => {
    const d = dataDir();
    await writeN(d, 1);
    fs.chmodSync(path.join(d, AUDIT_KEY_FILE), 0o644);
    expect(() => AuditLog.open({ dataDir: d })).toThrow(AuditKeyError);
    await expect(verifyAuditLog(d)).rejects.toBeInstanceOf(AuditKeyError);
  });

  it('resumes the chain after a restart', async () => {
    const d = dataDir();
    await writeN(d, 2);
    await writeN(d, 2);
    const recs = records(logFile(d));
    expect(recs[2]!.prev_hash).toBe(recs[1]!.entry_hash);
    expect(await verifyAuditLog(d)).toMatchObject({ ok: true, records: 4 });
  });

  it('redacts values before clipping them to 500 characters 🔒', async () => {
    const d = dataDir();
    const log = AuditLog.open({ dataDir: d, literals: ['the-server-token-1234567890'] });
    const key = 'AKIAQ3EGRXW4J5N7TKXZ';
    log.record({
      operation: 'file_search',
      outcome: 'allowed',
      resources: `q=${key.toLowerCase()} ${'x'.repeat(2000)}`,
      error: `${'y'.repeat(494)} ${key}`,
    });
    log.record({
      operation: 'access_control',
      outcome: 'denied',
      resources: 'GET /?token=the-server-token-1234567890',
    });
    await log.close();
    const text = fs.readFileSync(logFile(d), 'utf8');
    expect(text.toLowerCase()).not.toContain(key.toLowerCase());
    expect(text).not.toContain('the-server-token-1234567890');
    const [a, b] = records(logFile(d));
    expect(a!.resources.length).toBe(AUDIT_FIELD_MAX_CHARS);
    expect(a!.resources.startsWith('q=[REDACTED: aws-key-id] ')).toBe(true);
    // A secret straddling the clip point is redacted first, so the clip cuts the marker, not the secret.
    expect(a!.error).toBe(`${'y'.repeat(494)} [REDA`);
    expect(b!.resources).toBe('GET /?token=[REDACTED: token]');
  });

  it('never makes the caller wait: record() returns before anything is written', async () => {
    const d = dataDir();
    const log = AuditLog.open({ dataDir: d });
    log.record({ operation: 'x', outcome: 'allowed' });
    expect(fs.readFileSync(logFile(d), 'utf8')).toBe('');
    await log.flush();
    expect(records(logFile(d))).toHaveLength(1);
    await log.close();
  });

  it('bounds its queue: past it records are dropped, counted, and the gap is itself on record', async () => {
    const d = dataDir();
    const log = AuditLog.open({ dataDir: d, maxQueue: 5 });
    for (let i = 0; i < 12; i++) log.record({ operation: 'x', outcome: 'allowed', resources: `i=${i}` });
    expect(log.dropped).toBe(7);
    await log.close();
    const recs = records(logFile(d));
    expect(recs[0]).toMatchObject({
      operation: 'audit',
      outcome: 'failure',
      error: 'audit_dropped',
      resources: 'dropped=7',
    });
    expect(recs.slice(1).map((r) => r.resources)).toEqual(['i=0', 'i=1', 'i=2', 'i=3', 'i=4']);
    expect(await verifyAuditLog(d)).toMatchObject({ ok: true, records: 6 });
  });

  it('rotates at the segment size, keeps 7 rotated segments, and the chain runs across them', async () => {
    const d = dataDir();
    const log = AuditLog.open({ dataDir: d, segmentBytes: 2_000 });
    for (let i = 0; i < 200; i++) {
      log.record({ operation: 'file_search', outcome: 'allowed', resources: `q=${i}` });
      if (i % 10 === 9) await log.flush();
    }
    await log.close();
    const segs = auditSegments(d);
    expect(segs.map((s) => path.basename(s))).toEqual([
      'audit.jsonl.7',
      'audit.jsonl.6',
      'audit.jsonl.5',
      'audit.jsonl.4',
      'audit.jsonl.3',
      'audit.jsonl.2',
      'audit.jsonl.1',
      'audit.jsonl',
    ]);
    for (const s of segs.slice(0, -1)) expect(fs.statSync(s).size).toBeLessThanOrEqual(2_000);
    const r = await verifyAuditLog(d);
    expect(r).toMatchObject({ ok: true, anchor: 'rotated' });
    expect(r.records).toBeLessThan(200);
    // Every rotation here deleted records written a moment before: each is on record as a loss.
    expect(r.losses.length).toBeGreaterThan(0);
    expect(r.losses.every((l) => l.error === 'audit_rotated_early')).toBe(true);
    const last = segs
      .flatMap(records)
      .filter((x) => x.operation === 'file_search')
      .at(-1)!;
    expect(last.resources).toBe('q=199');
  });

  it('a torn last line (a crash mid-write) is reported, and writing resumes on a fresh line', async () => {
    const d = dataDir();
    await writeN(d, 2);
    fs.appendFileSync(logFile(d), '{"event_id":"torn');
    await writeN(d, 1);
    const r = await verifyAuditLog(d);
    expect(r.ok).toBe(false);
    expect(r.broken).toMatchObject({ line: 3, reason: expect.stringContaining('not a JSON record') });
    const lines = fs.readFileSync(logFile(d), 'utf8').split('\n');
    expect(JSON.parse(lines[3]!).prev_hash).toBe(JSON.parse(lines[1]!).entry_hash);
  });
});

describe('verifyAuditLog names the first broken record 🔒', () => {
  it('an edited field', async () => {
    const d = dataDir();
    await writeN(d, 4);
    rewrite(logFile(d), (lines) => {
      const r = JSON.parse(lines[2]!) as AuditRecord;
      r.resources = 'q=innocent';
      lines[2] = JSON.stringify(r);
      return lines;
    });
    const r = await verifyAuditLog(d);
    expect(r.ok).toBe(false);
    expect(r.broken).toMatchObject({
      file: logFile(d),
      line: 3,
      reason: expect.stringContaining('entry_hash'),
    });
    expect(r.records).toBe(2);
  });

  it('a removed record', async () => {
    const d = dataDir();
    await writeN(d, 4);
    rewrite(logFile(d), (lines) => lines.filter((_, i) => i !== 1));
    const r = await verifyAuditLog(d);
    expect(r.broken).toMatchObject({
      line: 2,
      reason: expect.stringContaining('missing'),
      firstMissingSeq: 2,
    });
  });

  it('reordered records', async () => {
    const d = dataDir();
    await writeN(d, 4);
    rewrite(logFile(d), (lines) => [lines[0]!, lines[2]!, lines[1]!, lines[3]!]);
    expect((await verifyAuditLog(d)).broken?.line).toBe(2);
  });

  it('records removed from the start', async () => {
    const d = dataDir();
    await writeN(d, 4);
    rewrite(logFile(d), (lines) => lines.slice(2));
    expect((await verifyAuditLog(d)).broken).toMatchObject({
      line: 1,
      reason: expect.stringContaining('removed'),
    });
  });

  it('a record forged with another key', async () => {
    const d = dataDir();
    await writeN(d, 2);
    const other = dataDir();
    await writeN(other, 1);
    const forged = fs.readFileSync(logFile(other), 'utf8');
    fs.appendFileSync(logFile(d), forged);
    expect((await verifyAuditLog(d)).broken?.line).toBe(3);
  });

  it('`trawl audit verify` exits 0 on a good chain, 1 naming the broken record, 2 without a key', async () => {
    const d = dataDir();
    await writeN(d, 3);
    const run = (dd: string) =>
      spawnSync(process.execPath, [BIN, 'audit', 'verify', '--data-dir', dd], {
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] ?? '', HOME: tmp },
      });
    const ok = run(d);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^audit log ok: 3 record\(s\) \(seq 1\.\.3, 1 segment\(s\)\)/);
    rewrite(logFile(d), (lines) => {
      const r = JSON.parse(lines[1]!) as AuditRecord;
      r.outcome = 'denied';
      lines[1] = JSON.stringify(r);
      return lines;
    });
    const bad = run(d);
    expect(bad.status).toBe(1);
    const id = records(logFile(d))[1]!.event_id;
    expect(bad.stdout).toContain(`audit.jsonl:2 (event ${id})`);
    const none = run(dataDir());
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^trawl: cannot read the audit key/);
  });
});
