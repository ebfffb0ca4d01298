import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpawnRg } from '../src/engine/index.js';
import { SensitiveFence } from '../src/fence/index.js';
import { grepFiles } from '../src/grep/index.js';
import { grepEngines, write } from './fixtures/grep-trees.js';
import { TempTrees } from './fixtures/temp-trees.js';

const trees = new TempTrees('trawl-grep-rg-');
afterAll(() => trees.remove());
const fence = new SensitiveFence({ home: trees.home, env: {} });
const hasRg = grepEngines().includes('rg');
/** A budget no search here can exhaust, however loaded the machine. */
const ROOMY = { timeBudgetMs: 120_000 };

function fresh(files: Record<string, string | Buffer>): string {
  const root = trees.fresh('g');
  fs.mkdirSync(root, { recursive: true });
  return write(root, files);
}

/** An executable script outside every searched tree, for a configured "rg" that misbehaves. */
function script(name: string, body: string): string {
  const dir = trees.fresh('bin');
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const p = path.join(dir, name);
  fs.writeFileSync(p, body, { mode: 0o755 });
  return p;
}

// Skip reason: no usable ripgrep here; grepEngines() warns so, and throws instead under TRAWL_REQUIRE_SYSTEM_DEPS=1 (CI).
describe.skipIf(!hasRg)('the rg engine of content grep', () => {
  it('never puts the query in the child argv: /proc/<pid>/cmdline read while rg runs', async () => {
    const query = 'hunter2-secret-query';
    const root = fresh({ 'a.txt': `${query}\n` });
    const seen: string[] = [];
    // rg reads its pattern (`--file -`) before anything else, and the engine writes it only after spawn returns:
    // while this seam runs, rg is alive and waiting on stdin, so its command line is there to read.
    const spawnRg: SpawnRg = (cmd, args, options) => {
      const child = spawn(cmd, args, options);
      seen.push(fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8'));
      return child;
    };
    const { payload } = await grepFiles({ root, query, fence, engine: 'rg', spawnRg, limits: ROOMY });
    expect(payload.engine).toBe('rg');
    expect(payload.results.map((r) => r.file)).toEqual(['a.txt']);
    expect(seen).toHaveLength(1);
    const argv = seen[0]!.split('\0');
    expect(argv.some((a) => a.includes('hunter2'))).toBe(false);
    expect(argv).toContain('--no-config');
    expect(argv).toContain('--fixed-strings');
    expect(argv).toContain('--ignore-case');
    expect(argv).toContain('--no-ignore');
    expect(argv).toContain('--hidden');
    const file = argv.indexOf('--file');
    expect(argv[file + 1]).toBe('-');
    expect(argv[argv.indexOf('--max-count') + 1]).toBe('1');
    expect(argv[argv.indexOf('--max-filesize') + 1]).toBe(String(2 * 1024 * 1024));
    // Every glob is negated: one positive glob would turn rg's whole set into an allowlist.
    argv.forEach((a, i) => {
      if (a === '--glob' || a === '--iglob') expect(argv[i + 1]!.startsWith('!')).toBe(true);
    });
    // Document extensions are excluded case-insensitively, skip directories case-sensitively.
    for (const ext of ['docx', 'pptx', 'xlsx']) expect(argv[argv.indexOf(`!*.${ext}`) - 1]).toBe('--iglob');
    expect(argv[argv.indexOf('!node_modules/') - 1]).toBe('--glob');
    expect(argv).not.toContain('--glob-case-insensitive');
  });

  it('an rg that cannot start is no verdict: the js engine answers within the same deadline', async () => {
    const root = fresh({ 'a.txt': 'needle\n' });
    const broken = script('rg', '#!/nonexistent/interpreter\n');
    const { payload, detail } = await grepFiles({
      root,
      query: 'needle',
      fence,
      rgPath: broken,
      limits: ROOMY,
    });
    expect(payload.engine).toBe('js');
    expect(payload.results.map((r) => r.file)).toEqual(['a.txt']);
    expect(detail.fallback).toMatch(/rg failed/);
  });

  it('an rg that exits with an error and no hits is no verdict either, not "no matches"', async () => {
    const root = fresh({ 'a.txt': 'needle\n' });
    const failing = script('rg', '#!/bin/sh\ncat >/dev/null\necho "rg: something broke" >&2\nexit 2\n');
    const { payload, detail } = await grepFiles({
      root,
      query: 'needle',
      fence,
      rgPath: failing,
      limits: ROOMY,
    });
    expect(payload.engine).toBe('js');
    expect(payload.results.map((r) => r.file)).toEqual(['a.txt']);
    expect(detail.fallback).toContain('something broke');
  });

  it('an rg asked for by name that cannot run is an error, not a silent switch', async () => {
    const root = fresh({ 'a.txt': 'needle\n' });
    const broken = script('rg', '#!/nonexistent/interpreter\n');
    await expect(grepFiles({ root, query: 'needle', fence, rgPath: broken, engine: 'rg' })).rejects.toThrow();
  });

  it('a refused binary (world-writable) is not run: the js engine answers', async () => {
    const root = fresh({ 'a.txt': 'needle\n' });
    const open = script('rg', '#!/bin/sh\nexit 0\n');
    fs.chmodSync(open, 0o777);
    const { payload } = await grepFiles({ root, query: 'needle', fence, rgPath: open, limits: ROOMY });
    expect(payload.engine).toBe('js');
    expect(payload.results).toHaveLength(1);
  });
});
