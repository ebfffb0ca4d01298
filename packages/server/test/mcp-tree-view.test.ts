// The four MCP tools of one server see one tree: what `search` searches, `grep_files` greps, `find_files` finds and
// `list_dir` lists are the same files, and each names the same directories it did not enter, with the same counts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkServer } from './mcp-helpers.js';

// rg is the bundled one (@vscode/ripgrep), as in every install.
const engines: Array<'js' | 'rg'> = ['js', 'rg'];

let proj: string;

beforeAll(() => {
  proj = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-tree-view-')));
  const files = [
    'src/needle_app.ts',
    // The dashboard's skip list leaves these out; an agent's tools do not.
    'build/needle_out.js',
    'venv/lib/needle_site.py',
    '.config/needle.json',
    // Left out by the agent's rules: an ignored file, an ignored directory, node_modules and .git.
    'needle_ignored.log',
    'gen/needle_gen.ts',
    'gen/deep/needle_more.ts',
    'node_modules/pkg/needle_dep.js',
    '.git/needle_obj',
  ];
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(proj, f)), { recursive: true });
    fs.writeFileSync(path.join(proj, f), 'the needle is here\n');
  }
  fs.writeFileSync(path.join(proj, '.gitignore'), '*.log\ngen/\n');
});

afterAll(() => {
  fs.rmSync(proj, { recursive: true, force: true });
});

const IN_VIEW = [
  '.config/needle.json',
  'build/needle_out.js',
  'src/needle_app.ts',
  'venv/lib/needle_site.py',
];
const UNENTERED = [
  { path: '.git/', reason: 'skipped', files: 1, filesExact: true },
  { path: 'gen/', reason: 'ignored', files: 2, filesExact: true },
  { path: 'node_modules/', reason: 'skipped', files: 1, filesExact: true },
];

const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : 1);

describe.each(engines)('one view of the tree for the four MCP tools (%s engine)', (engine) => {
  it('search, grep_files, find_files and list_dir agree on the files and on what they did not enter', async () => {
    const tools = await linkServer({ root: proj, engine });
    try {
      const search = await tools.call('search', { pattern: 'needle', paths: ['.'], output: 'files' });
      expect(search.isError).toBeFalsy();
      const searched = (search.structuredContent as { files: string[] }).files;
      const searchUnentered = (search.structuredContent as { unentered: typeof UNENTERED }).unentered;

      const grep = await tools.call('grep_files', { query: 'needle' });
      expect(grep.isError).toBeFalsy();
      const grepSc = grep.structuredContent as {
        results: Array<{ file: string }>;
        unentered: typeof UNENTERED;
      };

      const find = await tools.call('find_files', { query: 'needle', kinds: 'files', limit: 60 });
      expect(find.isError).toBeFalsy();
      const findSc = find.structuredContent as {
        results: Array<{ path: string }>;
        unentered: typeof UNENTERED;
      };

      // list_dir, walked level by level from the root.
      const listed: string[] = [];
      const listUnentered: typeof UNENTERED = [];
      const queue = [''];
      while (queue.length > 0) {
        const dir = queue.shift()!;
        const r = await tools.call('list_dir', { dir });
        const sc = r.structuredContent as {
          results: Array<{ path: string; kind: string }>;
          root: string;
          unentered?: typeof UNENTERED;
        };
        listUnentered.push(...(sc.unentered ?? []));
        for (const row of sc.results) {
          const rel = path.relative(sc.root, row.path);
          if (row.kind === 'dir') queue.push(`${rel}/`);
          else if (rel.includes('needle')) listed.push(rel);
        }
      }

      expect(searched.slice().sort()).toEqual(IN_VIEW);
      expect(grepSc.results.map((r) => r.file).sort()).toEqual(IN_VIEW);
      expect(findSc.results.map((r) => r.path).sort()).toEqual(IN_VIEW);
      expect(listed.sort()).toEqual(IN_VIEW);

      expect(searchUnentered.slice().sort(byPath)).toEqual(UNENTERED);
      expect(grepSc.unentered.slice().sort(byPath)).toEqual(UNENTERED);
      expect(findSc.unentered.slice().sort(byPath)).toEqual(UNENTERED);
      expect(listUnentered.sort(byPath)).toEqual(UNENTERED);

      // And in the words every answer ends with, not only when it is empty.
      for (const r of [search, grep, find]) {
        const text = r.content[0]!.text;
        expect(text).toContain('node_modules/ (skipped, 1 file)');
        expect(text).toContain('gen/ (ignored by an ignore file, 2 files)');
        expect(text).toContain('1 file left out by ignore rules');
      }
    } finally {
      await tools.close();
    }
  });
});
