// scripts/api-report.mjs over a small package made here: the report lists each entry point's names, fails on an
// export without a doc comment, and names the types a public signature meets that no entry point exports.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = path.resolve(__dirname, '../../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-api-report-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function reportOf(files: Record<string, string>): { status: number | null; stderr: string; report: string } {
  const dir = fs.mkdtempSync(path.join(tmp, 'pkg-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  write(
    'package.json',
    JSON.stringify({
      name: 'fixture',
      type: 'module',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    }),
  );
  write(
    'tsconfig.json',
    JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', types: [] }, include: ['src'] }),
  );
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  const r = spawnSync(process.execPath, [path.join(repo, 'scripts/api-report.mjs')], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, TRAWL_API_PACKAGE: dir },
  });
  const reportFile = path.join(dir, 'api-report.txt');
  return {
    status: r.status,
    stderr: r.stderr,
    report: fs.existsSync(reportFile) ? fs.readFileSync(reportFile, 'utf8') : '',
  };
}

describe('scripts/api-report.mjs', () => {
  it('names a type a public signature meets that no entry point exports, and where it is met', () => {
    const r = reportOf({
      'src/index.ts': "export { open } from './open.js';\n",
      'src/open.ts': [
        '/** How to open. */',
        'export interface OpenOptions { mode: Mode }',
        '/** A mode. */',
        "export type Mode = 'r' | 'w';",
        '/** Opens. */',
        'export function open(options: OpenOptions): boolean { return options.mode === "r"; }',
        '',
      ].join('\n'),
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.report).toMatch(/^function open\(options: .*OpenOptions\): boolean$/m);
    const unexported =
      r.report.split('## named in a public signature, exported by no entry point\n')[1] ?? '';
    // Mode is met through OpenOptions, itself unexported: both are listed, each with the public name that meets it.
    expect(unexported.trim().split('\n')).toEqual(['Mode (met in open)', 'OpenOptions (met in open)']);
  });

  it('lists nothing once the signature types are exported too', () => {
    const r = reportOf({
      'src/index.ts': "export { type Mode, open, type OpenOptions } from './open.js';\n",
      'src/open.ts': [
        '/** How to open. */',
        'export interface OpenOptions { mode: Mode }',
        '/** A mode. */',
        "export type Mode = 'r' | 'w';",
        '/** Opens. */',
        'export function open(options: OpenOptions): boolean { return options.mode === "r"; }',
        '',
      ].join('\n'),
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.report).not.toContain('exported by no entry point');
  });

  it('follows the members of a constant with no written type to the types their signatures name', () => {
    const r = reportOf({
      'src/index.ts': "export { tools } from './open.js';\n",
      'src/open.ts': [
        '/** What open gives. */',
        'export interface Opened { ok: boolean }',
        '/** Opens. */',
        'export function open(): Opened { return { ok: true }; }',
        '/** The tools, bound. */',
        'export const tools = Object.freeze({ open, opener: open });',
        '',
      ].join('\n'),
    });
    expect(r.status, r.stderr).toBe(0);
    const unexported =
      r.report.split('## named in a public signature, exported by no entry point\n')[1] ?? '';
    expect(unexported.trim().split('\n')).toEqual(['Opened (met in tools)']);
  });

  it("takes a file's header comment, parted by a blank line, for the module's and not the first export's", () => {
    const r = reportOf({
      'src/index.ts':
        "/**\n * The module.\n */\n\nexport type Mode = 'r';\n/** Documented. */\nexport type Other = 'w';\n",
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('fixture: Mode');
    expect(r.stderr).not.toContain('fixture: Other');
  });

  it('fails on an export without a doc comment, naming it', () => {
    const r = reportOf({ 'src/index.ts': 'export const answer = 42;\n' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('fixture: answer');
  });
});
