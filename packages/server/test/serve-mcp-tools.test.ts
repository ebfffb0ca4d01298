// The MCP tools of issue 5 (`find_files`, `list_dir`), tested in-process over the SDK's InMemoryTransport.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SensitiveFence } from '@trawl/core/fence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zip } from '../../core/test/fixtures/zip.js';
import { registerFindFilesTool } from '../src/mcp/tools/find-files.js';
import { registerListDirTool } from '../src/mcp/tools/list-dir.js';
import { judgedRoot, type LinkedTools, linkTools } from './mcp-helpers.js';

let tmp: string;
let home: string;
let proj: string;
let linked: LinkedTools;

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-mcp-tools-')));
  home = path.join(tmp, 'home');
  proj = path.join(home, 'proj');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_app'), 'key');
  for (const f of [
    'src/app.ts',
    'src/app.test.ts',
    'readme.md',
    '.env',
    'node_modules/app_dep.js',
    'dist/zzbundle.js',
    'docs/app-guide.md',
  ]) {
    fs.mkdirSync(path.dirname(path.join(proj, f)), { recursive: true });
    fs.writeFileSync(path.join(proj, f), 'x');
  }
  fs.mkdirSync(path.join(proj, 'src', 'appdata'));
  fs.writeFileSync(
    path.join(proj, 'docs', 'tool-1.0-py3-none-any.whl'),
    zip([
      { name: 'tool/__init__.py', data: 'x = 1\n' },
      { name: 'tool/cli.py', data: 'def main(): pass\n' },
      { name: 'tool/sub/deep.py', data: 'y\n' },
      { name: 'tool-1.0.dist-info/METADATA', data: 'Name: tool\n' },
    ]),
  );
  fs.mkdirSync(path.join(proj, 'many'));
  for (let i = 0; i < 60; i++)
    fs.writeFileSync(path.join(proj, 'many', `m${String(i).padStart(2, '0')}`), '');
  fs.symlinkSync(path.join(home, '.ssh', 'id_app'), path.join(proj, 'app_key'));
  fs.symlinkSync(path.join(tmp), path.join(proj, 'up'));

  const fence = new SensitiveFence({ home, env: {} });
  const root = await judgedRoot(proj, fence);
  linked = await linkTools((server) => {
    registerFindFilesTool(server, { root, fence });
    registerListDirTool(server, { root, fence });
  });
});

afterAll(async () => {
  await linked?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown>) => linked.call(name, args);

describe('MCP tool registration', () => {
  it('lists find_files and list_dir as read-only tools with input schemas', async () => {
    const { tools } = await linked.client.listTools();
    for (const name of ['find_files', 'list_dir']) {
      const t = tools.find((x) => x.name === name)!;
      expect(t).toBeDefined();
      expect(t.annotations?.readOnlyHint).toBe(true);
      expect(t.description!.length).toBeGreaterThan(50);
    }
    const find = tools.find((x) => x.name === 'find_files')!;
    // query or glob: neither is required alone (the tool refuses a call with neither).
    expect(find.inputSchema.required ?? []).toEqual([]);
    expect((find.inputSchema.properties as Record<string, { maximum?: number }>)['limit']!.maximum).toBe(60);
  });
});

describe('find_files', () => {
  it('finds by name, relative paths in the text, rows in structuredContent', async () => {
    const r = await call('find_files', { query: 'app' });
    expect(r.isError).toBeFalsy();
    const lines = r.content[0]!.text.split('\n');
    expect(lines).toEqual(expect.arrayContaining(['src/app.ts', 'src/appdata/', 'docs/app-guide.md']));
    const sc = r.structuredContent as { results: Array<{ path: string }>; root: string };
    expect(sc.root).toBe(proj);
    // Relative to the root, as the description says (issue 11 item 11: they were absolute).
    expect(sc.results.some((x) => x.path === 'src/app.ts')).toBe(true);
    expect(sc.results.some((x) => x.path === 'src/appdata')).toBe(true);
    expect(sc.results.every((x) => !path.isAbsolute(x.path))).toBe(true);
  });

  it('offers dot files and build output, as search searches them, but never node_modules or a link into a credential store 🔒', async () => {
    const r = await call('find_files', { query: 'app', limit: 60 });
    const text = r.content[0]!.text;
    expect(text).not.toContain('app_dep.js');
    expect(text).not.toContain('app_key');
    expect(text).toContain('node_modules/ (skipped, 1 file)');
    expect((await call('find_files', { query: 'env' })).content[0]!.text.split('\n')[0]).toBe('.env');
    expect((await call('find_files', { query: 'zzbundle' })).content[0]!.text.split('\n')[0]).toBe(
      'dist/zzbundle.js',
    );
  });

  it('honours kinds and limit, and says when the limit was reached', async () => {
    const dirs = await call('find_files', { query: 'app', kinds: 'dirs' });
    expect(dirs.content[0]!.text.split('\n')[0]).toBe('src/appdata/');
    const one = await call('find_files', { query: 'app', limit: 1 });
    expect(one.content[0]!.text).toMatch(/^src\/app\.ts\n\nShowing the best 1; pass a larger limit/);
  });

  it('refuses a too-short query with a message the agent can act on', async () => {
    const r = await call('find_files', { query: ' a ' });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/at least 2 characters/);
  });

  it('reports invalid arguments as a tool error, not a crash', async () => {
    const r = await call('find_files', { query: 'app', limit: 1000 });
    expect(r.isError).toBe(true);
  });

  it('an empty answer names the matching names in directories it did not enter, and how to look there', async () => {
    const r = await call('find_files', { query: 'app_dep' });
    expect(r.content[0]!.text).toBe(
      'No file or directory names match "app_dep".\n' +
        'Directories find_files does not enter hold matching names: node_modules/app_dep.js.\n\n' +
        'Not entered: node_modules/ (skipped, 1 file). To look there, list_dir the directory, or `search` with paths naming it.',
    );
    expect(r.structuredContent).toMatchObject({
      results: [],
      unentered: [{ path: 'node_modules/', reason: 'skipped', files: 1, filesExact: true }],
    });
  });

  it('glob takes path globs over the same tree, in path order or newest first, with the total', async () => {
    const t = Date.now() / 1000;
    fs.utimesSync(path.join(proj, 'src/app.ts'), t - 100, t - 100);
    fs.utimesSync(path.join(proj, 'docs/app-guide.md'), t, t);
    const ts = await call('find_files', { glob: '*.ts' });
    expect(ts.content[0]!.text).toBe('src/app.test.ts\nsrc/app.ts\n\n2 files match "*.ts", in path order.');
    expect(ts.structuredContent).toMatchObject({ source: 'glob', total: 2, partial: false });
    const newest = await call('find_files', { glob: ['src/**', 'docs/*.md'], sort: 'newest', limit: 2 });
    expect(newest.content[0]!.text.split('\n').slice(0, 2)).toEqual(['docs/app-guide.md', 'src/app.test.ts']);
    expect(newest.content[0]!.text).toMatch(
      /Showing 2 of 3 files matching "src\/\*\*", "docs\/\*\.md", newest first/,
    );
    // node_modules stays out, as search leaves it out.
    expect((await call('find_files', { glob: '*.js' })).content[0]!.text).toBe(
      'dist/zzbundle.js\n\n1 file matches "*.js", in path order.',
    );
  });

  it('a query that is a glob is matched as one, and says so', async () => {
    const r = await call('find_files', { query: '*.test.ts' });
    expect(r.content[0]!.text).toBe(
      '"*.test.ts" is a glob, so it was matched as one (pass it as glob to say so).\nsrc/app.test.ts\n\n1 file matches "*.test.ts", in path order.',
    );
    expect((await call('find_files', {})).isError).toBe(true);
  });

  it('says so when nothing matches', async () => {
    expect((await call('find_files', { query: 'zzqxv' })).content[0]!.text).toMatch(
      /^No file or directory names match/,
    );
  });
});

describe('list_dir', () => {
  it('lists the root: directories first with a slash, dot entries too, no links, node_modules named with its count', async () => {
    const r = await call('list_dir', {});
    expect(r.content[0]!.text.split('\n')).toEqual([
      'dist/',
      'docs/',
      'many/',
      'src/',
      '.env',
      'readme.md',
      '',
      '6 entries (4 directories, 2 files).',
      '',
      'Not listed: node_modules/ (skipped, 1 file). Name one as dir to list it; `search` takes it in paths.',
    ]);
    expect((await call('list_dir', { dir: 'node_modules' })).content[0]!.text).toBe(
      'node_modules/app_dep.js\n\n1 entry (0 directories, 1 file).',
    );
    expect(r.structuredContent).toMatchObject({
      status: 'ok',
      root: proj,
      more: false,
      totals: { entries: 6, dirs: 4, files: 2 },
    });
  });

  it('lists a subdirectory with a prefix, case-insensitively', async () => {
    const r = await call('list_dir', { dir: 'src/', prefix: 'APP' });
    expect(r.content[0]!.text.split('\n').slice(0, 3)).toEqual([
      'src/appdata/',
      'src/app.test.ts',
      'src/app.ts',
    ]);
  });

  it('shows dot entries when the prefix starts with a dot', async () => {
    expect((await call('list_dir', { prefix: '.' })).content[0]!.text.split('\n')[0]).toBe('.env');
  });

  it('pages 50 entries at a time with the totals, to the last page', async () => {
    const r = await call('list_dir', { dir: './many/' });
    expect(r.content[0]!.text).toMatch(
      /\n\nShowing entries 1-50 of 60 entries \(0 directories, 60 files\)\. Use skip=50 for the next page\.$/,
    );
    expect((r.structuredContent as { results: unknown[] }).results).toHaveLength(50);
    expect(r.structuredContent).toMatchObject({ more: true, totals: { entries: 60, files: 60 } });
    const last = await call('list_dir', { dir: './many/', skip: 50 });
    expect(last.content[0]!.text.split('\n')[0]).toBe('many/m50');
    expect(last.content[0]!.text).toMatch(/Showing entries 51-60 of 60 entries .* The last page\.$/);
    expect(last.structuredContent).toMatchObject({ more: false });
    // Directories sort first; a small limit still reaches the files by paging.
    const two = await call('list_dir', { limit: 2, skip: 4 });
    expect(two.content[0]!.text.split('\n').slice(0, 2)).toEqual(['.env', 'readme.md']);
  });

  it("lists an archive's members one level at a time, spelled as search takes them, paged", async () => {
    const top = await call('list_dir', { dir: 'docs/tool-1.0-py3-none-any.whl' });
    expect(top.content[0]!.text.split('\n').slice(0, 3)).toEqual([
      'docs/tool-1.0-py3-none-any.whl:tool-1.0.dist-info/',
      'docs/tool-1.0-py3-none-any.whl:tool/',
      '',
    ]);
    expect(top.structuredContent).toMatchObject({ status: 'ok', totals: { entries: 2, dirs: 2, files: 0 } });
    const inner = await call('list_dir', { dir: 'docs/tool-1.0-py3-none-any.whl:tool/', limit: 2 });
    expect(inner.content[0]!.text).toMatch(
      /^docs\/tool-1\.0-py3-none-any\.whl:tool\/sub\/\ndocs\/tool-1\.0-py3-none-any\.whl:tool\/__init__\.py\n\nShowing 1-2 of 3 members here \(1 directory, 2 files\)\. Use skip=2 for the next page\./,
    );
  });

  it('lists nothing outside the root, nor through a link 🔒', async () => {
    const out = await call('list_dir', { dir: '../' });
    expect(out.content[0]!.text).toMatch(/leads outside the project root/);
    expect(out.structuredContent).toMatchObject({ status: 'outside', results: [] });
    const abs = await call('list_dir', { dir: home });
    expect(abs.structuredContent).toMatchObject({ status: 'outside', results: [] });
    const link = await call('list_dir', { dir: 'up/' });
    expect(link.structuredContent).toMatchObject({ status: 'refused', results: [] });
    expect(link.content[0]!.text).toBe(
      'up/ is reached through a symbolic link (up); links are never followed, nothing is listed.',
    );
  });

  it('a file named as the directory is called a file, not a symbolic link', async () => {
    const r = await call('list_dir', { dir: 'readme.md' });
    expect(r.structuredContent).toMatchObject({ status: 'refused', results: [] });
    expect(r.content[0]!.text).toBe(
      'readme.md is a file, not a directory: search its contents with `search` (paths: "readme.md").',
    );
    const below = await call('list_dir', { dir: 'readme.md/x/' });
    expect(below.content[0]!.text).toBe(
      'readme.md/x/ is not a directory: readme.md along the way is a file.',
    );
  });

  it('says when a directory does not exist', async () => {
    expect((await call('list_dir', { dir: 'nope/' })).content[0]!.text).toBe('nope/ does not exist.');
  });
});
