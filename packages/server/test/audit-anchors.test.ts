// The audit log's anchors and its refusal share (issue 12 items 1 and 2): records cut from either end, an emptied or
// deleted segment, and a flood of refusals are each found or contained; each test here failed before the head and
// the refusal tally existed ("ok … older ones rotated away", exit 0).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog, type AuditRecord, auditSegments, verifyAuditLog } from '../src/audit/index.js';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
let tmp: string;
let n = 0;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-audit-anchors-')));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const fresh = () => path.join(tmp, `d${n++}`);
const logFile = (d: string, suffix = '') => path.join(d, 'audit', `audit.jsonl${suffix}`);
const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
const records = (file: string) => lines(file).map((l) => JSON.parse(l) as AuditRecord);

/** A copy of a written data directory, for one tampering each. */
function copyOf(d: string): string {
  const c = fresh();
  fs.cpSync(d, c, { recursive: true });
  return c;
}

async function write(d: string, count: number, options: Partial<Parameters<typeof AuditLog.open>[0]> = {}) {
  const log = AuditLog.open({ dataDir: d, ...options });
  for (let i = 0; i < count; i++) {
    log.record({ operation: 'file_search', outcome: 'allowed', resources: `q=n${i}` });
    if (i % 256 === 255) await log.flush();
  }
  await log.close();
}

function cli(d: string) {
  return spawnSync(process.execPath, [BIN, 'audit', 'verify', '--data-dir', d], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: tmp },
  });
}

describe('verify finds records removed at either end, and says which is the first missing 🔒', () => {
  let one: string;
  let rotated: string;
  let oldest: AuditRecord[];
  let previous: AuditRecord[];

  beforeAll(async () => {
    one = fresh();
    await write(one, 800);
    // Three segments of ~1 500 records each: the oldest one deleted by rotation twice over.
    rotated = fresh();
    await write(rotated, 9_000, { segmentBytes: 600_000, keep: 2, retentionMs: 0 });
    oldest = records(logFile(rotated, '.2'));
    previous = records(logFile(rotated, '.1'));
  });

  it('an intact log verifies, from genesis or from the oldest kept record', async () => {
    expect(await verifyAuditLog(one)).toMatchObject({ ok: true, records: 800, firstSeq: 1, lastSeq: 800 });
    expect(auditSegments(rotated).map((s) => path.basename(s))).toEqual([
      'audit.jsonl.2',
      'audit.jsonl.1',
      'audit.jsonl',
    ]);
    expect(oldest.length).toBeGreaterThan(1_000);
    expect(oldest[0]!.seq).toBeGreaterThan(1);
    expect(await verifyAuditLog(rotated)).toMatchObject({ ok: true, anchor: 'rotated', lastSeq: 9_000 });
  });

  it('the last 500 records dropped', async () => {
    const d = copyOf(one);
    fs.writeFileSync(logFile(d), `${lines(logFile(d)).slice(0, 300).join('\n')}\n`);
    const r = await verifyAuditLog(d);
    expect(r.ok).toBe(false);
    expect(r.broken).toMatchObject({ firstMissingSeq: 301, reason: expect.stringContaining('end') });
    const out = cli(d);
    expect(out.status).toBe(1);
    expect(out.stdout).toMatch(/^audit log BROKEN at audit\.jsonl: records were removed from the end/);
    expect(out.stdout).toContain('first missing record: seq 301');
  });

  it('audit.jsonl emptied, or deleted', async () => {
    for (const tamper of [(f: string) => fs.writeFileSync(f, ''), (f: string) => fs.rmSync(f)]) {
      const d = copyOf(one);
      tamper(logFile(d));
      expect((await verifyAuditLog(d)).broken?.firstMissingSeq).toBe(1);
      expect(cli(d).status).toBe(1);
      const r = copyOf(rotated);
      tamper(logFile(r));
      expect((await verifyAuditLog(r)).broken?.firstMissingSeq).toBe(previous.at(-1)!.seq + 1);
    }
  });

  it('the current segment deleted once rotation was full', async () => {
    const d = copyOf(rotated);
    fs.rmSync(logFile(d));
    const r = await verifyAuditLog(d);
    expect(r.ok).toBe(false);
    expect(r.broken!.firstMissingSeq).toBe(previous.at(-1)!.seq + 1);
  });

  it('1 000 records cut off the start of the oldest segment', async () => {
    const d = copyOf(rotated);
    fs.writeFileSync(logFile(d, '.2'), `${lines(logFile(d, '.2')).slice(1_000).join('\n')}\n`);
    const r = await verifyAuditLog(d);
    expect(r.ok).toBe(false);
    expect(r.broken).toMatchObject({
      line: 1,
      firstMissingSeq: oldest[0]!.seq,
      reason: expect.stringContaining('start'),
    });
    expect(cli(d).stdout).toContain(`first missing record: seq ${oldest[0]!.seq}`);
  });

  it('the oldest segment deleted, a middle segment deleted, the head deleted or edited', async () => {
    const a = copyOf(rotated);
    fs.rmSync(logFile(a, '.2'));
    expect((await verifyAuditLog(a)).broken?.firstMissingSeq).toBe(oldest[0]!.seq);
    const b = copyOf(rotated);
    fs.rmSync(logFile(b, '.1'));
    expect((await verifyAuditLog(b)).broken?.firstMissingSeq).toBe(previous[0]!.seq);
    const c = copyOf(rotated);
    fs.rmSync(path.join(c, 'audit', 'audit.head'));
    expect((await verifyAuditLog(c)).broken?.reason).toMatch(/head is missing/);
    const e = copyOf(one);
    const headFile = path.join(e, 'audit', 'audit.head');
    fs.writeFileSync(headFile, fs.readFileSync(headFile, 'utf8').replace('"seq":800', '"seq":300'));
    expect((await verifyAuditLog(e)).broken?.reason).toMatch(/head does not verify/);
  });

  it('a server started on a cut log puts the gap on record and the log stays broken there', async () => {
    const d = copyOf(one);
    fs.writeFileSync(logFile(d), `${lines(logFile(d)).slice(0, 300).join('\n')}\n`);
    const warnings: string[] = [];
    await write(d, 2, { warn: (l) => warnings.push(l) });
    expect(warnings.join('\n')).toMatch(/audit_records_missing: seq 301\.\.800 missing/);
    const recs = records(logFile(d));
    expect(recs[300]).toMatchObject({ seq: 801, error: 'audit_records_missing' });
    expect((await verifyAuditLog(d)).broken?.firstMissingSeq).toBe(301);
  });
});

describe('rotation before the retention is said loudly 🔒', () => {
  it('a loss record in the log, a warning, and verify exits 3 INCOMPLETE, not 0 "ok"', async () => {
    const d = fresh();
    const warnings: string[] = [];
    await write(d, 60, { segmentBytes: 4_000, keep: 1, warn: (l) => warnings.push(l) });
    expect(warnings.join('\n')).toMatch(/audit_rotated_early: rotation deleted seq 1\.\./);
    const r = await verifyAuditLog(d);
    expect(r.ok).toBe(true);
    expect(r.losses[0]).toMatchObject({ error: 'audit_rotated_early' });
    const out = cli(d);
    expect(out.status).toBe(3);
    expect(out.stdout).toMatch(/^audit log INCOMPLETE: .*whole, but the log records \d+ loss/);
    expect(out.stdout).toMatch(/audit_rotated_early: rotation deleted seq/);
  });

  it('a rotation past the retention is ordinary', async () => {
    const d = fresh();
    let t = Date.parse('2026-01-01T00:00:00Z');
    const log = AuditLog.open({ dataDir: d, segmentBytes: 4_000, keep: 1, now: () => new Date(t) });
    for (let i = 0; i < 60; i++) {
      log.record({ operation: 'file_search', outcome: 'allowed', resources: `q=${i}` });
      await log.flush();
      t += 24 * 60 * 60 * 1000;
    }
    await log.close();
    const r = await verifyAuditLog(d);
    expect(r).toMatchObject({ ok: true, anchor: 'rotated', losses: [] });
    expect(cli(d).status).toBe(0);
  });
});

describe('refusals are tallied and capped to a share of the segment 🔒', () => {
  it('one record per address and kind per second, counting every refusal', async () => {
    const d = fresh();
    let t = Date.parse('2026-01-01T00:00:00.100Z');
    const log = AuditLog.open({ dataDir: d, now: () => new Date(t) });
    for (let i = 0; i < 1_000; i++)
      log.refused({ address: '127.0.0.1', code: 'unauthorized', resources: 'GET /x' });
    log.refused({ address: '::1', code: 'unauthorized', resources: 'GET /y' });
    log.refused({ address: '127.0.0.1', code: 'bad_host', resources: 'GET /z' });
    t += 1_000;
    log.refused({ address: '127.0.0.1', code: 'unauthorized', resources: 'GET /x' });
    await log.close();
    const recs = records(logFile(d));
    expect(recs.map((r) => [r.error, r.resources])).toEqual([
      ['unauthorized', 'refused=1000 from=127.0.0.1 within=1000ms first=GET /x'],
      ['unauthorized', 'refused=1 from=::1 within=1000ms first=GET /y'],
      ['bad_host', 'refused=1 from=127.0.0.1 within=1000ms first=GET /z'],
      ['unauthorized', 'refused=1 from=127.0.0.1 within=1000ms first=GET /x'],
    ]);
    expect(recs[0]).toMatchObject({
      operation: 'access_control',
      outcome: 'denied',
      caller_identity: 'unauthenticated',
    });
    expect(recs[0]!.timestamp).toBe('2026-01-01T00:00:00.000Z');
  });

  it('past their share, refusals are counted and written as one tally when the next segment begins', async () => {
    const d = fresh();
    let t = Date.parse('2026-01-01T00:00:00Z');
    const log = AuditLog.open({ dataDir: d, segmentBytes: 16_000, keep: 1, now: () => new Date(t) });
    log.record({ operation: 'file_search', outcome: 'allowed', resources: 'q=the-earlier-record' });
    for (let s = 0; s < 2_000; s++) {
      log.refused({
        address: `10.0.${s % 7}.1`,
        code: 'unauthorized',
        resources: `GET /${'p'.repeat(3_000)}`,
      });
      t += 1_000;
      if (s % 100 === 99) await log.flush();
    }
    await log.flush();
    // 2 000 refusal records would have filled the segment 80 times over: none of them made it rotate.
    expect(fs.existsSync(logFile(d, '.1'))).toBe(false);
    expect(records(logFile(d))[0]!.resources).toBe('q=the-earlier-record');
    await log.close();
    const recs = records(logFile(d));
    const tallied = recs.filter((r) => r.error === 'unauthorized');
    const held = recs.filter((r) => r.error === 'refusals_held');
    expect(tallied.length).toBeLessThan(10);
    expect(held).toHaveLength(1);
    const count = (r: AuditRecord) => Number(/refused=(\d+)/.exec(r.resources)![1]);
    expect([...tallied, ...held].reduce((a, r) => a + count(r), 0)).toBe(2_000);
    expect(held[0]!.resources).toMatch(/from 7 address\(es\) between 2026-01-01T00:\d\d:\d\d.000Z and /);
    expect(await verifyAuditLog(d)).toMatchObject({ ok: true, losses: [] });
  });
});
