/**
 * Issue 11 item 12: a command loads what it runs. `trawl --help` used to load most of @trawl/core (the search
 * tool, the engine, the matcher, name search: ~80 modules) before printing a screen of text. Which modules a
 * process loads is read from Node's own module-loader trace (NODE_DEBUG=esm), never from a timing.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-startup-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The @trawl/core modules a `trawl ARGS` process loaded, as paths below its dist/. */
function coreModulesLoaded(args: string[]): string[] {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: tmp,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env['PATH'] ?? '', HOME: tmp, NODE_DEBUG: 'esm' },
  });
  expect(r.status, r.stderr.slice(-500)).toBe(0);
  const loaded = new Set<string>();
  for (const m of r.stderr.matchAll(/core\/dist\/([\w./-]+\.js)/g)) loaded.add(m[1]!);
  return [...loaded].sort();
}

describe('trawl start-up: a command loads only what it runs', () => {
  it('--help loads no engine, tool or search module of @trawl/core (only the name limits its text quotes)', () => {
    expect(coreModulesLoaded(['--help'])).toEqual(['names/limits.js', 'names/public-limits.js']);
    expect(coreModulesLoaded(['search', '--help'])).toEqual(['names/limits.js', 'names/public-limits.js']);
  });

  it('the trace sees what a command does load (a positive control)', () => {
    fs.writeFileSync(path.join(tmp, 'a.txt'), 'needle\n');
    const search = coreModulesLoaded(['search', 'needle', 'a.txt']);
    expect(search).toContain('tool/search-tool.js');
    expect(search).toContain('engine/search.js');
    const find = coreModulesLoaded(['find', 'a.txt']);
    expect(find).toContain('names/search.js');
    expect(find).not.toContain('tool/search-tool.js');
  });
});
