/**
 * `trawl grep --regex` and MCP `grep_files` with patterns V8 would backtrack on for hours over a document's long
 * paragraph: each answers within its budget (plus a margin for a loaded machine), says when the answer is partial,
 * and refuses what no matcher can take with a coded error. Real child processes, so a wedged one is killed by the
 * test's timer and fails the test instead of hanging it.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { write } from '../../core/test/fixtures/grep-trees.js';
import {
  HEAVY_PATTERN,
  HUGE_COUNTED,
  heavyDocs,
  POLYNOMIAL,
} from '../../core/test/fixtures/hostile-patterns.js';
import { docx } from '../../core/test/fixtures/office-docs.js';
import { TempTrees } from '../../core/test/fixtures/temp-trees.js';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
/** Far past any budget used here plus a loaded machine's start-up; V8's backtracking would need hours. */
const KILL_MS = 60_000;
let trees: TempTrees;
let poly: string;
let heavy: string;

beforeAll(() => {
  trees = new TempTrees('trawl-hostile-regex-');
  poly = path.join(trees.home, 'poly');
  heavy = path.join(trees.home, 'heavy');
  fs.mkdirSync(poly, { recursive: true });
  fs.mkdirSync(heavy, { recursive: true });
  // One tree per pattern: each paragraph holds another pattern's literals.
  POLYNOMIAL.forEach((c, k) => {
    fs.mkdirSync(path.join(poly, `${k}`));
    write(path.join(poly, `${k}`), { 'long.docx': docx([c.paragraph]), 'note.txt': 'a note\n' });
  });
  write(heavy, heavyDocs());
});
afterAll(() => trees.remove());

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  killed: boolean;
}

/** Runs the built CLI; a run past KILL_MS is killed (`killed`). */
function trawl(args: string[], cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: trees.home },
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, KILL_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, killed });
    });
  });
}

describe('trawl grep --regex with a hostile pattern', () => {
  it('answers polynomial shapes over 100 KB paragraphs: no match, complete', async () => {
    for (const [k, { pattern }] of POLYNOMIAL.entries()) {
      // A roomy budget: the answer must be complete (the linear matcher needs milliseconds), not cut short.
      const r = await trawl(['grep', pattern, '--regex', '--deadline', '30'], path.join(poly, `${k}`));
      expect(r.killed, pattern).toBe(false);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim(), pattern).toBe(`No file contains "${pattern}".`);
    }
  }, 300_000);

  it('keeps its 2 s budget when even the linear matcher needs minutes, and says the answer is partial', async () => {
    const r = await trawl(['grep', HEAVY_PATTERN, '--regex'], heavy);
    expect(r.killed).toBe(false);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/in the part of the tree that was searched/);
    expect(r.stdout).toMatch(/documents? (was|were) not searched/);
  }, 120_000);

  it('refuses nested counted repetitions with a usage error that names the reason', async () => {
    const r = await trawl(['grep', HUGE_COUNTED, '--regex'], poly);
    expect(r.killed).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid pattern: pattern too complex/);
  }, 120_000);
});

describe('MCP grep_files with a hostile pattern (trawl mcp on stdio)', () => {
  let child: ChildProcessWithoutNullStreams;
  const replies = new Map<number, Record<string, unknown>>();
  const waiters: Array<() => void> = [];
  let nextId = 1;

  beforeAll(() => {
    child = spawn(process.execPath, [BIN, 'mcp', '--root', heavy], {
      cwd: heavy,
      env: { PATH: process.env['PATH'] ?? '', HOME: trees.home },
    });
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
        const msg = JSON.parse(pending.slice(0, nl)) as Record<string, unknown>;
        pending = pending.slice(nl + 1);
        if (typeof msg['id'] === 'number') replies.set(msg['id'], msg);
        for (const w of waiters.splice(0)) w();
      }
    });
  });
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  /** Sends a request; resolves with its reply, or 'late' past `ms` (a wedged server). */
  async function call(
    method: string,
    params: unknown,
    ms = KILL_MS,
  ): Promise<Record<string, unknown> | 'late'> {
    const id = nextId++;
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    const until = Date.now() + ms;
    while (!replies.has(id)) {
      const left = until - Date.now();
      if (left <= 0) return 'late';
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return replies.get(id)!;
  }

  it('answers within its budget, partial, and goes on serving', async () => {
    const init = await call('initialize', {
      protocolVersion: '2025-03-26',
      capabilities: {},
      clientInfo: { name: 'test', version: '0' },
    });
    expect(init).not.toBe('late');
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const r = await call('tools/call', {
      name: 'grep_files',
      arguments: { query: HEAVY_PATTERN, regex: true },
    });
    expect(r).not.toBe('late');
    const result = (
      r as { result: { content: Array<{ text: string }>; structuredContent: { truncated: boolean } } }
    ).result;
    expect(result.structuredContent.truncated).toBe(true);
    expect(result.content[0]!.text).toMatch(/documents? (was|were) not searched/);
    // Not wedged: the next request is answered at once (a generous bound for a loaded machine).
    expect(await call('ping', {}, 20_000)).toMatchObject({ result: {} });
    const refused = await call('tools/call', {
      name: 'grep_files',
      arguments: { query: HUGE_COUNTED, regex: true },
    });
    expect(refused).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(refused)).toMatch(/pattern too complex/);
  }, 180_000);
});
