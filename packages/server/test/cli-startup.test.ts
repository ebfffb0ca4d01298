/**
 * Issue 11 item 12: a command loads what it runs. `trawl --help` used to load most of @trawl/core (the search
 * tool, the engine, the matcher, name search: ~80 modules) before printing a screen of text. Which modules a
 * process loads is read from Node's own module-loader trace (NODE_DEBUG=esm), never from a timing.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdf } from '../../core/test/fixtures/office-docs.js';

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

/**
 * The CLI as a registry install lays it out (bench/startup.mjs makes the same layout): the package's bin/ and
 * bundle/ in node_modules/trawl, the engine's package and zod beside it. Without a dist/ beside bin/, bin/trawl.js
 * runs bundle/, which carries the engine's code and its workers (scripts/bundle.mjs).
 */
describe('trawl start-up, installed: the bundle loads its own files, not the engine module by module', () => {
  const server = path.resolve(__dirname, '..');
  const workspace = path.resolve(server, '../..');
  const app = path.join(tmp, 'app');
  const installed = path.join(app, 'node_modules/trawl/bin/trawl.js');
  const proj = path.join(tmp, 'proj');
  beforeAll(() => {
    const trawl = path.join(app, 'node_modules/trawl');
    fs.mkdirSync(path.join(app, 'node_modules/@trawl'), { recursive: true });
    for (const part of ['bin', 'bundle', 'package.json'])
      fs.cpSync(path.join(server, part), path.join(trawl, part), { recursive: true });
    fs.symlinkSync(path.join(workspace, 'packages/core'), path.join(app, 'node_modules/@trawl/core'));
    fs.symlinkSync(path.join(workspace, 'node_modules/zod'), path.join(app, 'node_modules/zod'));
    fs.mkdirSync(proj);
    fs.writeFileSync(path.join(proj, 'a.txt'), 'one\nneedle here\n');
    fs.writeFileSync(path.join(proj, 'report.pdf'), pdf(['the quarterly needle']));
  });

  /** What an installed `trawl ARGS` printed, and every module it loaded (its threads' too), as file paths. */
  function installedRun(args: string[]): { stdout: string; loaded: string[] } {
    const r = spawnSync(process.execPath, [installed, ...args], {
      cwd: proj,
      encoding: 'utf8',
      timeout: 60_000,
      // No PATH: the ripgrep found is the one the engine's package depends on, resolved from that package.
      env: { PATH: '/nonexistent', HOME: tmp, NODE_DEBUG: 'esm' },
    });
    expect(r.status, r.stderr.slice(-500)).toBe(0);
    const loaded = new Set<string>();
    for (const m of r.stderr.matchAll(/file:\/\/([^\s'",]+\.js)/g)) loaded.add(m[1]!);
    return { stdout: r.stdout, loaded: [...loaded].sort() };
  }
  const bundleFiles = (loaded: string[]) => loaded.filter((p) => p.includes('/node_modules/trawl/bundle/'));

  it('--help loads a few bundle files and nothing of @trawl/core', () => {
    const { stdout, loaded } = installedRun(['--help']);
    expect(stdout).toMatch(/Usage: trawl/);
    expect(loaded.filter((p) => !p.includes('/node_modules/trawl/'))).toEqual([]);
    expect(bundleFiles(loaded).length).toBeLessThanOrEqual(8);
  });

  it("a search runs the bundle's own search worker and the package's ripgrep, loading no module of @trawl/core", () => {
    for (const engine of ['js', 'rg']) {
      const { stdout, loaded } = installedRun(['search', 'needle', '.', '--engine', engine]);
      expect(stdout).toMatch(/^\*2:needle here$/m);
      expect(loaded.filter((p) => p.includes('/packages/core/'))).toEqual([]);
      if (engine === 'js')
        expect(bundleFiles(loaded)).toContain(`${app}/node_modules/trawl/bundle/core-search-worker.js`);
    }
  });

  it("finds the engine's shipped files from the bundle: its documentation, its PDF child, its index worker", () => {
    const docs = installedRun(['search', 'pattern', 'docs://search-tool.md', '-l']);
    expect(docs.stdout).toMatch(/search-tool\.md/);
    const grep = installedRun(['grep', 'quarterly', '--deadline', '60']);
    expect(grep.stdout).toMatch(/report\.pdf/);
    // Enough files that the build reads them on two threads (content-index/limits.ts BUILD_PARALLEL_MIN_FILES).
    const many = path.join(tmp, 'many');
    fs.mkdirSync(many);
    for (let i = 0; i < 2_000; i++) fs.writeFileSync(path.join(many, `f${i}.txt`), `line ${i}\n`);
    const built = installedRun(['index', many, '--data-dir', path.join(tmp, 'data')]);
    expect(built.stdout).toMatch(/2000 files/);
    expect(bundleFiles(built.loaded)).toContain(`${app}/node_modules/trawl/bundle/core-index-worker.js`);
  });
});
