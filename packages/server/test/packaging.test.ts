/**
 * What the three packages ship, read from `npm pack --dry-run` (the file list npm would publish, without building)
 * and from the manifests: the `trawl` package carries the workbench and the engine as dependencies, nothing
 * packed is a test, a fixture, a source file or a source map, and pdf.js travels inside the PDF child rather than
 * as pdfjs-dist (whose optional canvas renderer alone is 33 MB). `npm run smoke` installs the real tarballs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = path.resolve(__dirname, '../../..');
interface Manifest {
  version: string;
  private?: boolean;
  scripts: Record<string, string>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  exports?: Record<string, unknown>;
}
const manifest = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(repo, dir, 'package.json'), 'utf8')) as Manifest;

interface Packed {
  name: string;
  files: Array<{ path: string }>;
}

function packedFiles(dir: string): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '-w', dir], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [packed] = JSON.parse(out) as Packed[];
  return packed!.files.map((f) => f.path);
}

describe('the published packages', () => {
  it('trawl depends on the engine and the built workbench, at the one workspace version', () => {
    const version = manifest('.').version;
    const trawl = manifest('packages/server');
    expect(trawl.dependencies?.['@trawl/core']).toBe(version);
    expect(trawl.dependencies?.['@trawl/web']).toBe(version);
    // The CLI's own libraries (commander, hono, the MCP SDK) are inside its bundle; only what it shares with the
    // engine is installed beside it.
    expect(Object.keys(trawl.dependencies ?? {}).sort()).toEqual(['@trawl/core', '@trawl/web', 'zod']);
    const web = manifest('packages/web');
    expect(web.private).toBeUndefined();
    // The workbench is a Vite build: React and the rest are inside its assets, not installed beside them.
    expect(web.dependencies ?? {}).toEqual({});
  });

  it('@trawl/core does not install pdfjs-dist (pdf.js is bundled into its PDF child)', () => {
    const core = manifest('packages/core');
    expect(Object.keys(core.dependencies ?? {})).not.toContain('pdfjs-dist');
    expect(Object.keys(core.optionalDependencies ?? {})).not.toContain('pdfjs-dist');
    expect(core.scripts.prepack).toMatch(/bundle\.mjs core/);
  });

  it.each([
    ['packages/core', ['dist/index.js', 'dist/docs/pdf-child.js', 'docs/search-tool.md', 'README.md']],
    [
      'packages/server',
      [
        'bin/trawl.js',
        'bundle/main.js',
        'bundle/worker.js',
        'bundle/THIRD_PARTY_LICENSES.txt',
        'dist/wire.d.ts',
      ],
    ],
    ['packages/web', ['dist/index.html']],
  ])('%s packs what runs and nothing else (no test, fixture, source or source map)', (dir, musts) => {
    const files = packedFiles(dir);
    for (const must of musts) expect(files).toContain(must);
    const stray = files.filter((f) =>
      /\.map$|(^|\/)(test|fixtures?)\/|\.test\.[cm]?[jt]sx?$|(^|\/)src\/|tsbuildinfo$/.test(f),
    );
    expect(stray).toEqual([]);
  });
});

describe('trawl/wire, the wire types of the HTTP API', () => {
  it('is a types-only export whose declarations, and every file they import, are packed', () => {
    expect(manifest('packages/server').exports?.['./wire']).toEqual({ types: './dist/wire.d.ts' });
    const files = packedFiles('packages/server');
    // The closure of relative imports from the entry declaration file: each must ship, or a client's tsc fails.
    const seen = new Set<string>();
    const visit = (rel: string) => {
      if (seen.has(rel)) return;
      seen.add(rel);
      const text = fs.readFileSync(path.join(repo, 'packages/server', rel), 'utf8');
      for (const m of text.matchAll(/from '(\.[^']+)\.js'/g))
        visit(path.posix.join(path.posix.dirname(rel), `${m[1]}.d.ts`));
    };
    visit('dist/wire.d.ts');
    expect(seen.size).toBeGreaterThan(1);
    expect([...seen].filter((f) => !files.includes(f))).toEqual([]);
  });

  it('documents every type it exports (scripts/api-report.mjs --docs, as for @trawl/core)', () => {
    const r = spawnSync(process.execPath, [path.join(repo, 'scripts/api-report.mjs'), '--docs'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, TRAWL_API_PACKAGE: 'packages/server' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fs.existsSync(path.join(repo, 'packages/server/api-report.txt'))).toBe(false);
  });
});

describe('one version for the workspace (scripts/version.mjs)', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-version-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const script = path.join(repo, 'scripts/version.mjs');
  const write = (file: string, json: unknown) => {
    fs.mkdirSync(path.dirname(path.join(tmp, file)), { recursive: true });
    fs.writeFileSync(path.join(tmp, file), `${JSON.stringify(json, null, 2)}\n`);
  };
  const runVersion = (...args: string[]) =>
    spawnSync(process.execPath, [script, ...args], {
      encoding: 'utf8',
      env: { ...process.env, TRAWL_VERSION_ROOT: tmp },
    });

  it('the repository agrees with itself', () => {
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });

  it('a package or an internal dependency that drifts from the root version fails the check, naming it', () => {
    write('package.json', { name: 'w', version: '1.2.0', workspaces: ['a', 'b'] });
    write('a/package.json', { name: 'a', version: '1.2.0' });
    write('b/package.json', { name: 'b', version: '1.2.0', dependencies: { a: '1.1.0', other: '^3' } });
    const r = runVersion();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('b/package.json: dependencies.a is 1.1.0, not 1.2.0');
  });

  it('setting a version writes it to the root, every package and every internal dependency', () => {
    write('package.json', { name: 'w', version: '1.2.0', workspaces: ['a', 'b'] });
    write('a/package.json', { name: 'a', version: '1.2.0' });
    write('b/package.json', { name: 'b', version: '1.0.0', dependencies: { a: '1.1.0', other: '^3' } });
    const r = runVersion('2.0.0');
    expect(r.status, r.stderr).toBe(0);
    const b = JSON.parse(fs.readFileSync(path.join(tmp, 'b/package.json'), 'utf8'));
    expect(b).toMatchObject({ version: '2.0.0', dependencies: { a: '2.0.0', other: '^3' } });
    expect(JSON.parse(fs.readFileSync(path.join(tmp, 'package.json'), 'utf8')).version).toBe('2.0.0');
    expect(runVersion('two').status).toBe(2);
  });
});
