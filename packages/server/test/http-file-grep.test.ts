import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { specDocs, specTree, write } from '../../core/test/fixtures/grep-trees.js';
import { pdf } from '../../core/test/fixtures/office-docs.js';
import { TempTrees } from '../../core/test/fixtures/temp-trees.js';
import { PoolBusyError } from '../src/http/pool.js';
import { type Answer, startTestServer, type TestServer, withTestServer } from './http-helpers.js';

let trees: TempTrees;
let home: string;
let dataDir: string;
const EMPTY = { results: [], truncated: false, engine: '', skipped_docs: 0, root: '' };
const AWS_KEY = 'AKIAQ3EGRXW4J5N7TKXZ';
/** A budget no search here can exhaust, however loaded the machine: answers are complete, so they can be compared. */
const ROOMY_MS = 120_000;

beforeAll(() => {
  trees = new TempTrees('trawl-http-grep-');
  home = trees.home;
  dataDir = path.join(trees.dir, 'data');
});
afterAll(() => trees.remove());

function fresh(files: Record<string, string | Buffer> = {}): string {
  const root = trees.fresh('g');
  fs.mkdirSync(root, { recursive: true });
  return write(root, files);
}

function post(s: TestServer, body: unknown, init: RequestInit = {}): Promise<Answer> {
  return s.request('/api/file-grep', {
    method: 'POST',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

describe('POST /api/file-grep past the row cap', () => {
  it('says how many files match in all, or at least how many when the count past the cap is cut', async () => {
    const root = fresh(Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`f${i}.txt`, 'needle\n'])));
    const answer = async (countPastCapMs: number) => {
      let body: Answer['body'] = {};
      await withTestServer(
        {
          projects: [root],
          home,
          dataDir,
          inline: { grep: { limits: { countPastCapMs, timeBudgetMs: ROOMY_MS } } },
        },
        async (s) => {
          body = (await post(s, { root, q: 'needle', limit: 2 })).body;
        },
      );
      return body;
    };
    const counted = await answer(ROOMY_MS);
    expect(counted.results!.map((r) => r['file'])).toEqual(['f1.txt', 'f2.txt']);
    expect(counted).toMatchObject({ truncated: true, partial_reasons: ['cap'], total_files: 5 });
    expect(counted['total_files_at_least']).toBeUndefined();
    const cut = await answer(0);
    expect(cut.results).toHaveLength(2);
    expect(cut['total_files']).toBeUndefined();
    expect(cut['total_files_at_least']).toBe(3);
  });
});

describe('POST /api/file-grep through the worker pools', () => {
  let s: TestServer;
  let root: string;
  beforeAll(async () => {
    root = specDocs(specTree(fresh()));
    s = await startTestServer({ projects: [root], home, dataDir, grepBudgetMs: ROOMY_MS });
  });
  afterAll(() => s.close());

  it('answers rows, the engine that ran and the canonical root', async () => {
    const a = await post(s, { root: `${root}/pkg/..`, q: 'needle' });
    expect(a.status).toBe(200);
    expect(a.body.root).toBe(root);
    expect(['rg', 'js']).toContain(a.body['engine']);
    expect(a.body.results!.map((r) => r['file'])).toEqual([
      'alpha.py',
      'ignored.py',
      'notes.md',
      'pkg/deep.py',
    ]);
    expect(a.body.results![0]).toEqual({
      file: 'alpha.py',
      line: 2,
      preview: 'NEEDLE lives here',
      ranges: [[0, 6]],
    });
    expect(a.body['truncated']).toBe(false);
    expect(a.body['skipped_docs']).toBe(0);
  });

  it('finds documents, with their labels', async () => {
    const a = await post(s, { root, q: 'widget' });
    expect(a.body.results).toEqual([
      {
        file: 'deck.pptx',
        line: 0,
        preview: 'the WIDGET roadmap',
        label: 'slide 3',
        doc_line: 3,
        ranges: [[4, 10]],
      },
      { file: 'spec.docx', line: 0, preview: 'the WIDGET decision', ranges: [[4, 10]] },
    ]);
    expect(a.body['total_files']).toBe(2);
  });

  it('narrows by include and exclude globs, in both passes', async () => {
    const inc = await post(s, { root, q: 'needle', include: ['*.py'] });
    expect(inc.body.results!.map((r) => r['file'])).toEqual(['alpha.py', 'ignored.py', 'pkg/deep.py']);
    expect(inc.body['total_files']).toBe(3);
    const exc = await post(s, { root, q: 'needle', exclude: ['pkg/**', 'ignored.py'] });
    expect(exc.body.results!.map((r) => r['file'])).toEqual(['alpha.py', 'notes.md']);
    const one = await post(s, { root, q: 'needle', include: 'pkg/*.py' });
    expect(one.body.results!.map((r) => r['file'])).toEqual(['pkg/deep.py']);
    const docs = await post(s, { root, q: 'widget', exclude: ['*.pptx'] });
    expect(docs.body.results!.map((r) => r['file'])).toEqual(['spec.docx']);
    // A glob never opens a skipped directory.
    const skipped = await post(s, { root, q: 'needle', include: ['node_modules/**'] });
    expect(skipped.body.results).toEqual([]);
    expect(skipped.body['truncated']).toBe(false);
  });

  it('refuses a malformed or leading-! glob with a coded 400', async () => {
    for (const body of [
      { root, q: 'needle', include: ['src/[abc'] },
      { root, q: 'needle', exclude: ['!*.py'] },
      { root, q: 'needle', include: Array.from({ length: 40 }, (_, i) => `f${i}`) },
    ]) {
      const a = await post(s, body);
      expect([JSON.stringify(body).slice(0, 60), a.status, a.body.code]).toEqual([
        JSON.stringify(body).slice(0, 60),
        400,
        'invalid_glob',
      ]);
    }
  });

  it('answers at most limit rows and says it is capped', async () => {
    const a = await post(s, { root, q: 'needle', limit: 2 });
    expect(a.body.results!.map((r) => r['file'])).toEqual(['alpha.py', 'ignored.py']);
    expect(a.body['truncated']).toBe(true);
    expect(a.body['partial_reasons']).toEqual(['cap']);
    // Out of range is clamped (0 → 1); another type counts as absent.
    expect((await post(s, { root, q: 'needle', limit: 0 })).body.results).toHaveLength(1);
    expect((await post(s, { root, q: 'needle', limit: '2' })).body.results).toHaveLength(4);
  });

  it("with per_file, answers a text file's first matching lines, each with the file's count", async () => {
    const other = fresh({ 'a.txt': 'needle 1\nneedle 2\nnone\nneedle 3\n', 'b.txt': 'needle\n' });
    const a = await post(s, { root: other, q: 'needle', per_file: 2 });
    expect(a.status).toBe(200);
    expect(a.body.results!.map((r) => [r['file'], r['line'], r['preview'], r['count']])).toEqual([
      ['a.txt', 1, 'needle 1', 3],
      ['a.txt', 2, 'needle 2', 3],
      ['b.txt', 1, 'needle', 1],
    ]);
    expect(a.body['total_files']).toBe(2);
    const absent = await post(s, { root: other, q: 'needle', per_file: null });
    expect(absent.body.results!.map((r) => Object.hasOwn(r, 'count'))).toEqual([false, false]);
  });

  it('refuses a per_file that is not an integer from 1 to 20 with a coded 400, before any search', async () => {
    for (const per_file of [0, -1, 21, 1e9, 2.5, '3', true, [2], {}]) {
      const a = await post(s, { root, q: 'needle', per_file });
      expect([per_file, a.status, a.body.code]).toEqual([per_file, 400, 'invalid_per_file']);
    }
    // Refused before the root is looked at: a bad root does not change the answer.
    expect((await post(s, { root: '/nonexistent', q: 'needle', per_file: 0 })).status).toBe(400);
  });

  it('opt-in toggles reach the engine', async () => {
    const a = await post(s, { root, q: 'NEEDLE', case_sensitive: true });
    expect(a.body.results!.map((r) => r['file'])).toEqual(['alpha.py']);
    const w = await post(s, { root, q: 'need', whole_word: true });
    expect(w.body.results).toEqual([]);
    const rx = await post(s, { root, q: 'NEE+DLE', regex: true, case_sensitive: true });
    expect(rx.body.results!.map((r) => r['file'])).toEqual(['alpha.py']);
  });

  it('an invalid regex is a coded 400, not a 500', async () => {
    const a = await post(s, { root, q: '[z-a]', regex: true });
    expect(a.status).toBe(400);
    expect(a.body.code).toBe('invalid_pattern');
  });

  it('answers the empty payload for a non-search, unaudited', async () => {
    s.audit.clear();
    for (const body of [
      { root, q: 'n' },
      { root, q: 'x'.repeat(201) },
      { root: '', q: 'needle' },
      { q: 'needle' },
      { root, q: 'need\nle' },
      { root, q: 'need\rle' },
      { root, q: 'ne\r\nedle' },
      { root: null, q: null },
      { root: 42, q: ['needle'] },
    ]) {
      const a = await post(s, body);
      expect([JSON.stringify(body), a.status, a.body]).toEqual([JSON.stringify(body), 200, EMPTY]);
    }
    expect(s.audit.of('file_grep')).toEqual([]);
    const trailing = await post(s, { root, q: 'needle\n' });
    expect(trailing.body.results).toHaveLength(4);
  });

  it('refuses a GET (a query in a URL ends up in logs) with 405', async () => {
    const a = await s.get('/api/file-grep', { root, q: 'needle' });
    expect(a.status).toBe(405);
    expect(a.headers.get('allow')).toBe('POST');
  });

  it('refuses a body that is not a JSON object with a coded 400', async () => {
    for (const body of ['[1,2]', '"needle"', 'not json', 'null', '']) {
      const a = await post(s, body);
      expect([body, a.status]).toEqual([body, 400]);
      expect(typeof a.body.code).toBe('string');
    }
  });

  it('refuses an oversize body with 413', async () => {
    const a = await post(s, { root, q: 'needle', pad: 'x'.repeat(100_000) });
    expect(a.status).toBe(413);
  });

  it('denies a sensitive root with one answer for every spelling, and audits it', async () => {
    s.audit.clear();
    const spellings = [
      path.join(home, '.ssh'),
      path.join(home, '.ssh', 'missing'),
      `${home}/x/../.ssh`,
      '~/.ssh',
      `${root}\u0001`,
      `${root}\u007f`,
      `${root}\u0085`,
      'relative/dir',
    ];
    for (const r of spellings) {
      const a = await post(s, { root: r, q: 'needle' });
      expect([r, a.status, a.body]).toEqual([r, 403, { error: 'Access denied', code: 'sensitive_path' }]);
    }
    expect(s.audit.of('file_grep').every((e) => e.outcome === 'denied')).toBe(true);
    expect(s.audit.of('file_grep')).toHaveLength(spellings.length);
  });

  it('denies a link to a sensitive location', async () => {
    const link = trees.fresh('link');
    fs.symlinkSync(path.join(home, '.ssh'), link);
    const a = await post(s, { root: link, q: 'needle' });
    expect(a.status).toBe(403);
  });

  it('answers a file or missing root with 404 not_a_directory and the empty payload', async () => {
    for (const r of [path.join(root, 'alpha.py'), path.join(root, 'nope')]) {
      const a = await post(s, { root: r, q: 'needle' });
      expect(a.status).toBe(404);
      expect(a.body).toEqual({ ...EMPTY, error: 'Search root is not a directory', code: 'not_a_directory' });
    }
  });

  it('writes one audit line per search with engine and counts, and never the query', async () => {
    const secretRoot = fresh({ 'k.txt': `key ${AWS_KEY}\n`, 'p.txt': 'hunter2-password\n' });
    s.audit.clear();
    await post(s, { root: secretRoot, q: AWS_KEY });
    await post(s, { root: secretRoot, q: 'hunter2-password' });
    const lines = s.audit.of('file_grep');
    expect(lines).toHaveLength(2);
    for (const e of lines) {
      const all = JSON.stringify(e);
      expect(all).not.toContain('AKIA');
      expect(all).not.toContain('hunter2');
      expect(e.outcome).toBe('allowed');
      expect(e.resources).toMatch(/engine=(rg|js) results=1 truncated=false skipped_docs=0/);
    }
  });

  it('redacts every string a row carries', async () => {
    const r = fresh({
      [`${AWS_KEY}/notes.txt`]: `needle ${AWS_KEY}\n`,
      'book.docx': Buffer.alloc(0),
    });
    const a = await post(s, { root: r, q: 'needle' });
    expect(a.body.results).toHaveLength(1);
    expect(a.text).not.toContain('AKIA');
  });
});

describe('POST /api/file-grep: pools and the engine', () => {
  it('a busy transfer pool is a coded 503', async () => {
    const root = fresh({ 'a.txt': 'needle\n' });
    const busy = { run: () => Promise.reject(new PoolBusyError('transfer')) };
    await withTestServer({ projects: [root], home, dataDir, runners: { transfer: busy } }, async (s) => {
      const a = await post(s, { root, q: 'needle' });
      expect(a.status).toBe(503);
      expect(a.body.code).toBe('path_probe_busy');
    });
  });

  it('a busy probe pool is a coded 503', async () => {
    const root = fresh({ 'a.txt': 'needle\n' });
    const busy = { run: () => Promise.reject(new PoolBusyError('probe')) };
    await withTestServer({ projects: [root], home, dataDir, runners: { probe: busy } }, async (s) => {
      const a = await post(s, { root, q: 'needle' });
      expect(a.status).toBe(503);
      expect(a.body.code).toBe('path_probe_busy');
    });
  });

  it("the budget runs from the request's arrival: the search gets the arrival time, the pools only what is left", async () => {
    const root = fresh({ 'a.txt': 'needle\n' });
    const seen: Array<{ task: string; payload: unknown; admitMs?: number }> = [];
    const spy = (answer: unknown) => ({
      run: async <T>(task: string, payload: unknown, options: { admitMs?: number } = {}) => {
        seen.push({ task, payload, ...options });
        return answer as T;
      },
    });
    const payload = { results: [], truncated: false, engine: 'js', skipped_docs: 0, root };
    const before = Date.now();
    await withTestServer(
      {
        projects: [root],
        home,
        dataDir,
        grepBudgetMs: 2_000,
        runners: {
          probe: spy({ status: 'ok', root }),
          transfer: spy({ ok: true, payload, capped: false }),
        },
      },
      async (s) => {
        const a = await post(s, { root, q: 'needle' });
        expect(a.status).toBe(200);
      },
    );
    const probe = seen.find((x) => x.task === 'grep-root')!;
    const search = seen.find((x) => x.task === 'grep')!;
    const startedAt = (search.payload as { startedAt: number }).startedAt;
    expect(startedAt).toBeGreaterThanOrEqual(before);
    expect(probe.admitMs).toBeLessThanOrEqual(2_000);
    // A search is admitted only while a quarter of the budget is left for it.
    expect(search.admitMs).toBeLessThanOrEqual(1_500);
  });

  it('a spent budget answers truncated with the engine that ran, not "no matches"', async () => {
    const root = specDocs(specTree(fresh()));
    await withTestServer(
      { projects: [root], home, dataDir, inline: { grep: { engine: 'js', limits: { timeBudgetMs: 0 } } } },
      async (s) => {
        const a = await post(s, { root, q: 'needle' });
        expect(a.status).toBe(200);
        expect(a.body).toMatchObject({ results: [], truncated: true, engine: 'js' });
        expect(a.body['skipped_docs']).toBeGreaterThanOrEqual(1);
      },
    );
  });
});

describe('POST /api/file-grep on a root no index covers', () => {
  it("keeps its documents' text in the data directory: a PDF is not parsed again, by this server or the next", async () => {
    const root = fresh({ 'paper.pdf': pdf(['the needle plan']) });
    const file = path.join(root, 'paper.pdf');
    // Whole seconds an hour back: the version is not racy, and the same times can be set again exactly.
    const past = Math.floor(Date.now() / 1000) - 3600;
    fs.utimesSync(file, past, past);
    const data = trees.fresh('data');
    const found = { results: [{ file: 'paper.pdf', preview: 'the needle plan' }], truncated: false };
    await withTestServer(
      { projects: [], home, dataDir: data, grepBudgetMs: ROOMY_MS, transferSize: 1 },
      async (s) => {
        expect((await post(s, { root, q: 'needle plan' })).body).toMatchObject(found);
        // The same file (inode, size, times) holding bytes no parser takes: only the stored text can still answer.
        fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 0x20));
        fs.utimesSync(file, past, past);
        expect((await post(s, { root, q: 'needle plan' })).body).toMatchObject(found);
      },
    );
    // Written when the pool's thread ended: a new server reads it.
    await withTestServer({ projects: [], home, dataDir: data, grepBudgetMs: ROOMY_MS }, async (s) => {
      expect((await post(s, { root, q: 'needle plan' })).body).toMatchObject(found);
    });
  }, 120_000);
});

/** This process's PDF extractor children (spawned from its main thread or its worker threads). */
function pdfChildren(): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('pdf-child.js')) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe('POST /api/file-grep: the PDF extractor children', () => {
  it('stay warm between searches but none outlives the server', async () => {
    const before = new Set(pdfChildren());
    const root = fresh({ 'paper.pdf': pdf(['the needle plan']) });
    const s = await startTestServer({ projects: [root], home, dataDir, grepBudgetMs: ROOMY_MS });
    let children: number[] = [];
    try {
      const a = await post(s, { root, q: 'needle' });
      expect(a.status).toBe(200);
      children = pdfChildren().filter((pid) => !before.has(pid));
      expect(children.length).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
    await vi.waitFor(() => expect(children.filter((pid) => fs.existsSync(`/proc/${pid}`))).toEqual([]), {
      timeout: 60_000,
      interval: 50,
    });
  }, 120_000);
});
