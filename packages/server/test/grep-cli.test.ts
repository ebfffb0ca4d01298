import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { SensitiveFence } from '@trawl/core/fence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grepEngines, specDocs, specTree, write } from '../../core/test/fixtures/grep-trees.js';
import { pdf, xlsx } from '../../core/test/fixtures/office-docs.js';
import { TempTrees } from '../../core/test/fixtures/temp-trees.js';
import { registerGrepFilesTool } from '../src/mcp/tools/grep-files.js';
import { judgedRoot, type LinkedTools, linkTools } from './mcp-helpers.js';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
const run = promisify(execFile);
let trees: TempTrees;
let proj: string;

/** Runs the built CLI with a fake HOME (the real ~/.ssh is never involved). */
async function trawl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // A budget no search here can exhaust, however loaded the machine (usage-error cases ignore it).
    const full = args[0] === 'grep' ? [...args, '--deadline', '120'] : args;
    const r = await run(process.execPath, [BIN, ...full], {
      cwd: proj,
      env: { PATH: process.env['PATH'] ?? '', HOME: trees.home },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(() => {
  trees = new TempTrees('trawl-grep-cli-');
  proj = path.join(trees.home, 'proj');
  fs.mkdirSync(proj, { recursive: true });
  specDocs(specTree(proj));
  write(proj, { 'book.xlsx': xlsx([{ name: 'Ledger', rows: [['x'], ['the needle cell']] }]) });
});
afterAll(() => trees.remove());

describe('trawl grep', () => {
  it('prints path:line: preview for text and path [label]: preview for documents', async () => {
    const r = await trawl(['grep', 'needle']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'alpha.py:2: NEEDLE lives here',
        'ignored.py:1: needle',
        'notes.md:3: the needle line',
        'pkg/deep.py:4: find the needle',
        'book.xlsx [Ledger · row 2]: the needle cell',
        '',
      ].join('\n'),
    );
    const doc = await trawl(['grep', 'WIDGET decision', '--root', proj]);
    expect(doc.stdout).toBe('spec.docx: the WIDGET decision\n');
  }, 120_000);

  it('--json prints the endpoint payload; the toggles reach the engine', async () => {
    const r = await trawl(['grep', 'NEEDLE', '--json', '--case-sensitive', '--engine', 'js']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      results: [{ file: 'alpha.py', line: 2, preview: 'NEEDLE lives here', ranges: [[0, 6]] }],
      truncated: false,
      engine: 'js',
      skipped_docs: 0,
      root: proj,
      total_files: 1,
    });
    const w = await trawl(['grep', 'need', '--word', '--json']);
    expect(JSON.parse(w.stdout).results).toEqual([]);
    const rx = await trawl(['grep', 'fi.d the', '--regex', '--json']);
    expect(JSON.parse(rx.stdout).results.map((x: { file: string }) => x.file)).toEqual(['pkg/deep.py']);
  }, 120_000);

  it('says in words that no file matched, and when more files match than are shown', async () => {
    const none = await trawl(['grep', 'absent-text']);
    expect(none.stdout).toBe('No file contains "absent-text".\n');
    const many = trees.fresh('many');
    write(
      many,
      Object.fromEntries(
        Array.from({ length: 205 }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, 'hay\n']),
      ),
    );
    const r = await trawl(['grep', 'hay', '--root', many]);
    expect(r.stdout.split('\n').filter((l) => l.endsWith(': hay'))).toHaveLength(200);
    // The count past the cap runs within a quarter second: all 205 files, or at least the one past the cap.
    expect(r.stdout).toMatch(/Partial \(cap\): (205 files match|at least 20[1-5] files match), 200 shown/);
    const json = await trawl(['grep', 'hay', '--root', many, '--json']);
    expect(JSON.parse(json.stdout).partial_reasons).toEqual(['cap']);
    expect(json.stderr).toContain('trawl: Partial (cap)');
  }, 120_000);

  it("keeps a PDF's text in the data directory: the next trawl grep answers from it without parsing the file again", async () => {
    const dir = trees.fresh('pdf');
    write(dir, { 'paper.pdf': pdf(['the needle plan']) });
    const file = path.join(dir, 'paper.pdf');
    // Whole seconds an hour back: the version is not racy, and the same times can be set again exactly.
    const past = Math.floor(Date.now() / 1000) - 3600;
    fs.utimesSync(file, past, past);
    const first = await trawl(['grep', 'needle plan', '--root', dir, '--json']);
    expect(JSON.parse(first.stdout).results.map((r: { file: string }) => r.file)).toEqual(['paper.pdf']);
    expect(fs.existsSync(path.join(trees.home, '.local/share/trawl/content-index'))).toBe(true);
    // The same file (inode, size, times) holding bytes no parser takes: only the stored text can still answer.
    const size = fs.statSync(file).size;
    fs.writeFileSync(file, Buffer.alloc(size, 0x20));
    fs.utimesSync(file, past, past);
    const second = await trawl(['grep', 'needle plan', '--root', dir, '--json']);
    expect(JSON.parse(second.stdout)).toMatchObject({
      results: [{ file: 'paper.pdf', preview: 'the needle plan' }],
      truncated: false,
      skipped_docs: 0,
    });
    const other = trees.fresh('data');
    const elsewhere = await trawl(['grep', 'needle plan', '--root', dir, '--json', '--data-dir', other]);
    expect(JSON.parse(elsewhere.stdout).results).toEqual([]);
  }, 120_000);

  it('refuses bad input with one line and exit 2', async () => {
    for (const args of [
      ['grep', 'n'],
      ['grep', 'needle', '--root', path.join(trees.home, '.ssh')],
      ['grep', 'needle', '--root', path.join(proj, 'missing')],
      ['grep', '[z-a]', '--regex'],
      ['grep', 'needle', '--engine', 'fast'],
    ]) {
      const r = await trawl(args);
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 2]);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stdout).toBe('');
    }
  }, 120_000);
});

describe.each(grepEngines())('MCP grep_files (%s engine)', (engine) => {
  let linked: LinkedTools;
  beforeAll(async () => {
    const fence = new SensitiveFence({ home: trees.home, env: {} });
    const root = await judgedRoot(proj, fence);
    linked = await linkTools((server) =>
      registerGrepFilesTool(server, {
        root,
        fence,
        engine,
        grep: { limits: { timeBudgetMs: 120_000 } },
      }),
    );
  });
  afterAll(async () => {
    await linked?.close();
  });
  const call = (args: Record<string, unknown>) => linked.call('grep_files', args);

  it('is listed read-only, with the query required', async () => {
    const { tools } = await linked.client.listTools();
    const t = tools.find((x) => x.name === 'grep_files')!;
    expect(t.annotations?.readOnlyHint).toBe(true);
    expect(t.inputSchema.required).toEqual(['query']);
  });

  it('answers rows as text and the payload as structured content', async () => {
    const r = await call({ query: 'widget' });
    expect(r.isError).toBeFalsy();
    // The rows, then what the agent's rules left out (the spec tree's .git/, node_modules/ and ignored.py).
    expect(r.content[0]!.text).toBe(
      'deck.pptx [slide 3]: the WIDGET roadmap\nspec.docx: the WIDGET decision\n\n' +
        'Not searched: .git/ (skipped, 1 file), node_modules/ (skipped, 1 file); 1 file left out by ignore rules. To look there, use `search` with paths naming the directory (gitignore: false for ignored files).',
    );
    expect(r.structuredContent).toMatchObject({ engine, truncated: false, skipped_docs: 0, root: proj });
    const rx = await call({ query: 'NEEDLE', case_sensitive: true });
    expect((rx.structuredContent!['results'] as unknown[]).length).toBe(1);
  });

  it('says how many files match in all when the answer is capped', async () => {
    const fence = new SensitiveFence({ home: trees.home, env: {} });
    const many = trees.fresh('capped');
    write(many, Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`f${i}.txt`, 'hay\n'])));
    const root = await judgedRoot(many, fence);
    const capped = await linkTools((server) =>
      registerGrepFilesTool(server, {
        root,
        fence,
        engine,
        // Time enough to count every file past the cap, however loaded the machine.
        grep: { limits: { maxResults: 2, countPastCapMs: 120_000, timeBudgetMs: 120_000 } },
      }),
    );
    try {
      const r = await capped.call('grep_files', { query: 'hay' });
      expect(r.structuredContent).toMatchObject({
        truncated: true,
        partial_reasons: ['cap'],
        total_files: 5,
      });
      expect(r.content[0]!.text).toContain('Partial (cap): 5 files match, 2 shown');
    } finally {
      await capped.close();
    }
  });

  it('refuses a non-search and an invalid regex as tool errors', async () => {
    expect((await call({ query: 'n' })).isError).toBe(true);
    const bad = await call({ query: '[z-a]', regex: true });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toMatch(/Invalid regular expression/);
  });
});
