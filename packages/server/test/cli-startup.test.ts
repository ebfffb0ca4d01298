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

describe("trawl start-up: Node's compile cache", () => {
  it('is turned on before the CLI loads, where the running Node has it', () => {
    // A stand-in for Node >= 22.1's module.enableCompileCache, installed before bin/trawl.js runs: it says when it
    // is called, among the module loader's trace lines.
    const preload = `import module from 'node:module';
      module.enableCompileCache = () => process.stderr.write('compile-cache on\\n');`;
    const r = spawnSync(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(preload)}`, BIN, '--version'],
      {
        cwd: tmp,
        encoding: 'utf8',
        timeout: 60_000,
        env: { PATH: process.env['PATH'] ?? '', HOME: tmp, NODE_DEBUG: 'esm' },
      },
    );
    expect(r.status, r.stderr.slice(-500)).toBe(0);
    const called = r.stderr.indexOf('compile-cache on');
    expect(called).toBeGreaterThanOrEqual(0);
    // Nothing of the CLI (dist/cli or bundle/) was loaded before the cache was on.
    const cliMain = /(dist\/cli|bundle)\/main\.js/;
    expect(r.stderr.slice(0, called)).not.toMatch(cliMain);
    expect(r.stderr.slice(called)).toMatch(cliMain);
  });
});
