import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  type DocSegment,
  extractDocument,
  PDF_CHILD_DATA_HEADROOM_MB,
  PdfPool,
  type PdfPoolOptions,
} from '../src/docs/index.js';
import { SensitiveFence } from '../src/fence/index.js';
import { grepFiles } from '../src/grep/index.js';
import { write } from './fixtures/grep-trees.js';
import { docx, pdf } from './fixtures/office-docs.js';
import { TempTrees } from './fixtures/temp-trees.js';

/**
 * PDF, bounded: pdf.js runs in a child with a heap ceiling, an RSS watchdog, a wall-time limit, a page cap and the
 * character cap. Budgets here are roomy (the machine may be loaded); the ceilings under test are memory and pages.
 */
const trees = new TempTrees('trawl-pdf-');
afterAll(() => trees.remove());
const fence = new SensitiveFence({ home: trees.home, env: {} });
const ROOMY = { maxMs: 120_000 };

async function all(bytes: Buffer, options = {}) {
  const segments: DocSegment[] = [];
  const result = await extractDocument(
    'pdf',
    bytes,
    (s) => {
      segments.push(s);
      return false;
    },
    { pdf: ROOMY, ...options },
  );
  return { segments, result };
}

describe('PDF extraction in a bounded child', () => {
  it('reads pages in order, labelled p N', async () => {
    const { segments, result } = await all(pdf(['cover page', 'the WIDGET plan', 'end']));
    expect(segments.map((s) => [s.label, s.text.trim()])).toEqual([
      ['p 1', 'cover page'],
      ['p 2', 'the WIDGET plan'],
      ['p 3', 'end'],
    ]);
    expect(result).toEqual({ whole: true, stopped: false });
  }, 120_000);

  it('stops at the page cap and says the parse is not whole', async () => {
    const { segments, result } = await all(pdf(['one', 'two', 'three']), { pdf: { ...ROOMY, maxPages: 2 } });
    expect(segments.map((s) => s.label)).toEqual(['p 1', 'p 2']);
    expect(result.whole).toBe(false);
  }, 120_000);

  it('a decompression bomb is stopped by the memory ceiling: skipped, not read, and this process never held it', async () => {
    const bomb = pdf(['first page'], { bombBytes: 768 * 1024 * 1024 });
    expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
    const { result } = await all(bomb, { pdf: { ...ROOMY, maxRssMb: 200, heapMb: 128 } });
    expect(result.skipped).toMatch(/^(memory|signal:|exit:)/);
    expect(result.whole).toBe(false);
  }, 120_000);

  it('a file the parser refuses is a settled answer (refused), not a skipped one', async () => {
    const { result } = await all(Buffer.from('%PDF-1.4\nthis is not a pdf at all\n'));
    expect(result.skipped).toBeUndefined();
    expect(result.refused).toBeDefined();
    const notPdf = await all(Buffer.from('plain text'));
    expect(notPdf.result.refused).toBe('not a PDF');
  }, 120_000);
});

describe('PDF in the content grep', () => {
  const root = trees.fresh('g');
  fs.mkdirSync(root, { recursive: true });

  it('reports the page it matched, as its label and as doc_line', async () => {
    write(root, { 'paper.pdf': pdf(['intro', 'the WIDGET plan']), 'spec.docx': docx(['nothing here']) });
    const { payload } = await grepFiles({
      root,
      query: 'widget',
      fence,
      limits: { timeBudgetMs: 120_000 },
      extract: { pdf: ROOMY },
    });
    expect(payload.results).toEqual([
      {
        file: 'paper.pdf',
        line: 0,
        preview: 'the WIDGET plan',
        label: 'p 2',
        doc_line: 2,
        ranges: [[4, 10]],
      },
    ]);
    expect(payload.truncated).toBe(false);
    expect(payload.skipped_docs).toBe(0);
  }, 120_000);

  it('a bomb PDF counts in skipped_docs, marks the answer truncated, and the search still answers', async () => {
    const r = trees.fresh('b');
    write(r, {
      'bomb.pdf': pdf(['nothing on page one'], { bombBytes: 768 * 1024 * 1024 }),
      'spec.docx': docx(['the WIDGET spec']),
    });
    const { payload } = await grepFiles({
      root: r,
      query: 'widget',
      fence,
      limits: { timeBudgetMs: 120_000 },
      extract: { pdf: { ...ROOMY, maxRssMb: 200, heapMb: 128 } },
    });
    expect(payload.results.map((x) => x.file)).toEqual(['spec.docx']);
    expect(payload.skipped_docs).toBe(1);
    expect(payload.truncated).toBe(true);
  }, 120_000);
});

/** Bounds as the defaults, with time no loaded machine runs out of (the ceilings under test are not time). */
const BOUNDS = { heapMb: 256, maxRssMb: 512, maxPages: 2_000, maxChars: 400_000, wallMs: 120_000 };
const BOMB_BOUNDS = { ...BOUNDS, heapMb: 128, maxRssMb: 200 };
const alive = (pid: number) => fs.existsSync(`/proc/${pid}`);
const fixtureChild = (name: string) =>
  fileURLToPath(new URL(`./fixtures/pdf-children/${name}`, import.meta.url));

async function pages(
  pool: PdfPool,
  bytes: Buffer,
  bounds: Omit<Parameters<PdfPool['extract']>[0], 'bytes' | 'sink'> = BOUNDS,
) {
  const labels: string[] = [];
  const result = await pool.extract({
    ...bounds,
    bytes,
    sink: (s) => {
      labels.push(s.label);
      return false;
    },
  });
  return { labels, result };
}

function pool(options: PdfPoolOptions = {}): PdfPool {
  const p = new PdfPool(options);
  pools.push(p);
  return p;
}
const pools: PdfPool[] = [];
afterAll(() => Promise.all(pools.map((p) => p.close())));

describe('the warm PDF pool', () => {
  it('one child serves document after document, across searches', async () => {
    const p = pool();
    const first = await pages(p, pdf(['one', 'two']));
    const pid = p.stats().pids[0]!;
    const second = await pages(p, pdf(['three']));
    expect(first).toEqual({ labels: ['p 1', 'p 2'], result: { whole: true, stopped: false } });
    expect(second).toEqual({ labels: ['p 1'], result: { whole: true, stopped: false } });
    expect(p.stats()).toMatchObject({ started: 1, killed: 0, warmDocs: 1, pids: [pid] });
  }, 120_000);

  it('a sink that stops early gets its answer, and the child drains back to serve the next document', async () => {
    const p = pool();
    const labels: string[] = [];
    const stopped = await p.extract({
      ...BOUNDS,
      bytes: pdf(['a', 'b WIDGET', 'c', 'd']),
      sink: (s) => {
        labels.push(s.label);
        return s.text.includes('WIDGET');
      },
    });
    expect(stopped).toEqual({ whole: true, stopped: true });
    expect(labels).toEqual(['p 1', 'p 2']);
    expect(await pages(p, pdf(['next']))).toEqual({
      labels: ['p 1'],
      result: { whole: true, stopped: false },
    });
    expect(p.stats()).toMatchObject({ started: 1, killed: 0 });
  }, 120_000);

  it('a decompression bomb kills its child; the next document is read by a fresh one', async () => {
    const p = pool();
    await p.warm(BOMB_BOUNDS.heapMb, BOMB_BOUNDS.maxRssMb);
    const bombPid = p.stats().pids[0]!;
    const bomb = await pages(p, pdf(['first page'], { bombBytes: 768 * 1024 * 1024 }), BOMB_BOUNDS);
    expect(bomb.result.skipped).toMatch(/^(memory|signal:|exit:)/);
    expect(bomb.result.whole).toBe(false);
    expect(alive(bombPid)).toBe(false);
    const next = await pages(p, pdf(['after the bomb']), BOMB_BOUNDS);
    expect(next).toEqual({ labels: ['p 1'], result: { whole: true, stopped: false } });
    expect(p.stats().pids).not.toContain(bombPid);
    expect(p.stats()).toMatchObject({ started: 2, killed: 1 });
  }, 120_000);

  it('a hung child is killed at its wall-time limit and counts as skipped', async () => {
    const p = pool({ script: fixtureChild('hangs.mjs') });
    await p.warm(BOUNDS.heapMb, BOUNDS.maxRssMb);
    const pid = p.stats().pids[0]!;
    const { labels, result } = await pages(p, pdf(['x']), { ...BOUNDS, wallMs: 200 });
    expect(labels).toEqual([]);
    expect(result).toEqual({ whole: false, stopped: false, skipped: 'timeout' });
    expect(alive(pid)).toBe(false);
    expect(p.stats().killed).toBe(1);
  }, 120_000);

  it("waiting for a child to start is bounded by the caller's deadline, not charged to the document", async () => {
    // The pool's clock is faked (Date and setTimeout, which it times with): the child's start lasts as long as the
    // test says on that clock, and real time, however loaded the machine, is charged to nothing.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      const p = pool({ script: fixtureChild('slow-start.mjs'), startMs: 10_000 });
      const answer = pages(p, pdf(['x']), { ...BOUNDS, wallMs: 50, waitMs: 5_000 });
      await vi.waitFor(() => expect(p.stats().pids).toHaveLength(1), { timeout: 60_000, interval: 10 });
      const pid = p.stats().pids[0]!;
      // Ten times the document's 50 ms pass before the child may start: a wait charged to the document would be
      // skipped as a timeout now. Within the caller's 5 s, and the child's 10 s to start.
      vi.advanceTimersByTime(500);
      // Then "ready", repeated (a real interval) until the child has its handler in place (a signal before is lost).
      const tell = setInterval(() => {
        try {
          process.kill(pid, 'SIGWINCH');
        } catch {
          // gone: the answer says why
        }
      }, 50);
      try {
        expect(await answer).toEqual({ labels: ['p 1'], result: { whole: true, stopped: false } });
      } finally {
        clearInterval(tell);
      }
    } finally {
      vi.useRealTimers();
    }
  }, 120_000);

  it('a child that answers past the character cap is killed (the caller never holds more than it bounded)', async () => {
    const p = pool({ script: fixtureChild('floods.mjs') });
    const { labels, result } = await pages(p, pdf(['x']), { ...BOUNDS, maxChars: 100 });
    expect(labels).toEqual([]);
    expect(result).toEqual({ whole: false, stopped: false, skipped: 'protocol' });
  }, 120_000);

  it('a child is retired after its share of documents and a successor takes over', async () => {
    const p = pool({ docsPerChild: 2 });
    await pages(p, pdf(['1']));
    const first = p.stats().pids[0]!;
    await pages(p, pdf(['2']));
    const third = await pages(p, pdf(['3']));
    expect(third.result).toEqual({ whole: true, stopped: false });
    expect(p.stats()).toMatchObject({ started: 2, retired: 1, killed: 0 });
    expect(p.stats().pids).not.toContain(first);
    await vi.waitFor(() => expect(alive(first)).toBe(false), { timeout: 60_000, interval: 50 });
  }, 120_000);

  it('an idle pool ends its children', async () => {
    const p = pool({ idleMs: 1 });
    await pages(p, pdf(['1']));
    const pid = p.stats().pids[0]!;
    await vi.waitFor(() => expect(p.stats().pids).toEqual([]), { timeout: 60_000, interval: 50 });
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 60_000, interval: 50 });
  }, 120_000);

  it('a warm child does not keep a one-shot process alive (while no one waits on it), and ends with it', () => {
    // The script's pool never idles out (an hour), so the process can only exit because idle children are unref'd.
    const script = `
      const { PdfPool } = await import(${JSON.stringify(new URL('../dist/docs/index.js', import.meta.url).href)});
      const { pdf } = await import(${JSON.stringify(new URL('./fixtures/office-docs.ts', import.meta.url).href)});
      const pool = new PdfPool({ idleMs: 3_600_000 });
      await pool.warm(256, 512); // a waiter holds the process open while the child starts (exit 13 otherwise)
      const r = await pool.extract({ bytes: pdf(['one']), sink: () => false, heapMb: 256, maxRssMb: 512,
        maxPages: 10, maxChars: 1000, wallMs: 120_000 });
      // close() resolves once its children are reaped (exit 13 if their unref'd exits could not keep the loop up).
      const other = new PdfPool();
      await other.warm(256, 512);
      await other.close();
      console.log(JSON.stringify({ r, pids: pool.stats().pids, closed: other.stats().pids }));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { r: unknown; pids: number[]; closed: number[] };
    expect(out.r).toEqual({ whole: true, stopped: false });
    expect(out.closed).toEqual([]);
    expect(out.pids).toHaveLength(1);
    return vi.waitFor(() => expect(alive(out.pids[0]!)).toBe(false), { timeout: 60_000, interval: 50 });
  }, 120_000);
});

describe('PDF child bounds that hold while the thread that owns the pool is blocked', () => {
  it('a bomb on page 2 is stopped while the sink of page 1 never returns', async () => {
    // The sink (the grep's match, on the pool's thread) blocks for good on page 1: none of this thread's timers can
    // run again, so only the child's own watchdog, or the kernel, can stop page 2 from inflating 768 MiB.
    const script = `
      const fs = await import('node:fs');
      const { PdfPool } = await import(${JSON.stringify(new URL('../dist/docs/index.js', import.meta.url).href)});
      const { pdf } = await import(${JSON.stringify(new URL('./fixtures/office-docs.ts', import.meta.url).href)});
      const pool = new PdfPool();
      await pool.warm(128, 200);
      await pool.extract({ bytes: pdf(['first page'], { bombBytes: 768 * 1024 * 1024 }), heapMb: 128, maxRssMb: 200,
        maxPages: 10, maxChars: 1000, wallMs: 600_000, sink: () => {
          fs.writeSync(1, pool.stats().pids[0] + '\\n');
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
        } });`;
    const owner = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let out = '';
      owner.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
      });
      await vi.waitFor(() => expect(out).toMatch(/^\d+\n/), { timeout: 100_000, interval: 20 });
      const pid = Number(out.trim());
      let peakMb = 0;
      const running = () => {
        try {
          const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
          if (/^State:\s+Z/m.test(status)) return false;
          peakMb = Math.max(peakMb, Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024);
          return true;
        } catch {
          return false;
        }
      };
      await vi.waitFor(() => expect(running()).toBe(false), { timeout: 100_000, interval: 10 });
      expect(owner.exitCode).toBeNull(); // the owner is still blocked: it did not end the child
      // A sample, not the exact peak: the child was stopped near its 200 MiB, nowhere near the bomb's 768.
      expect(peakMb).toBeLessThan(400);
    } finally {
      owner.kill('SIGKILL');
    }
  }, 120_000);

  it('a child runs under the kernel limit on its data, and leaves no core file', async () => {
    const prlimit = ['/usr/bin/prlimit', '/bin/prlimit'].some((p) => fs.existsSync(p));
    if (!prlimit && process.env['TRAWL_REQUIRE_SYSTEM_DEPS'] === '1')
      throw new Error('TRAWL_REQUIRE_SYSTEM_DEPS=1 but util-linux prlimit is not installed');
    const p = pool();
    await p.warm(128, 200);
    const limits = fs.readFileSync(`/proc/${p.stats().pids[0]}/limits`, 'utf8');
    if (!prlimit) return;
    const data = (128 + 200 + PDF_CHILD_DATA_HEADROOM_MB) * 1024 * 1024;
    expect(limits).toMatch(new RegExp(`^Max data size\\s+${data}\\s+${data}\\s+bytes`, 'm'));
    expect(limits).toMatch(/^Max core file size\s+0\s+0\s/m);
  }, 120_000);
});

describe('the warm pool in the content grep', () => {
  it('the next PDF in the same search, and in a later one, is read by a fresh child after a bomb', async () => {
    const p = pool();
    const r = trees.fresh('pool');
    write(r, {
      'a-bomb.pdf': pdf(['nothing on page one'], { bombBytes: 768 * 1024 * 1024 }),
      'b-paper.pdf': pdf(['intro', 'the WIDGET plan']),
    });
    const search = () =>
      grepFiles({
        root: r,
        query: 'widget',
        fence,
        limits: { timeBudgetMs: 120_000 },
        extract: { pdf: { ...ROOMY, maxRssMb: 200, heapMb: 128 }, pdfPool: p },
      });
    const first = await search();
    expect(first.payload.results.map((x) => [x.file, x.label])).toEqual([['b-paper.pdf', 'p 2']]);
    expect(first.payload.skipped_docs).toBe(1);
    expect(first.payload.truncated).toBe(true);
    expect(p.stats()).toMatchObject({ killed: 1, started: 2 });
    const second = await search();
    expect(second.payload.results.map((x) => [x.file, x.label])).toEqual([['b-paper.pdf', 'p 2']]);
    expect(second.payload.skipped_docs).toBe(1);
    expect(p.stats()).toMatchObject({ killed: 2, started: 3 });
  }, 240_000);
});
