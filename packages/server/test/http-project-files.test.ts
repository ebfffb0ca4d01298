import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DirOpener } from '@trawl/core/complete';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The base opener, wrapped to race the server (a seam of core's, not its public API).
import { procFdOpener } from '../../core/src/complete/open-dir.js';
import { docx, pptx } from '../../core/test/fixtures/office-docs.js';
import { type TestServer, withTestServer } from './http-helpers.js';

const linux = process.platform === 'linux';
let tmp: string;
let home: string;
let proj: string;
let n = 0;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-http-files-')));
  home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
  fs.mkdirSync(path.join(tmp, 'outside'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'outside', 'secret.txt'), 'outside the project');
  proj = project();
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A fresh project: src/ (with a nested dir and a file), dot entries, links out, a binary file. */
function project(): string {
  const p = path.join(tmp, `proj${n++}`);
  fs.mkdirSync(path.join(p, 'src', 'lib'), { recursive: true });
  fs.mkdirSync(path.join(p, '.github'));
  fs.writeFileSync(path.join(p, 'src', 'main.ts'), 'export const x = 1;\n');
  fs.writeFileSync(path.join(p, 'README.md'), '# hi\n');
  fs.writeFileSync(path.join(p, 'b.txt'), 'b');
  fs.writeFileSync(path.join(p, '.env'), 'A=1\n');
  fs.writeFileSync(path.join(p, 'blob.bin'), Buffer.from([1, 2, 0, 3]));
  fs.symlinkSync(path.join(tmp, 'outside'), path.join(p, 'out-dir'));
  fs.symlinkSync(path.join(tmp, 'outside', 'secret.txt'), path.join(p, 'out-file.txt'));
  fs.symlinkSync(path.join(home, '.ssh'), path.join(p, 'keys'));
  return p;
}

async function withServer(
  p: string,
  inline: Parameters<typeof withTestServer>[0]['inline'],
  fn: (s: TestServer) => Promise<void>,
) {
  await withTestServer({ projects: [p], home, dataDir: path.join(tmp, `data${n++}`), inline }, fn);
}

describe('GET /api/tree', () => {
  it('lists one level: directories first, then names case-insensitively, dot entries in, links out', async () => {
    await withServer(proj, undefined, async (s) => {
      const a = await s.get('/api/tree', { project: proj, path: '' });
      expect(a.status).toBe(200);
      expect(a.body['root']).toBe(proj);
      expect(a.body['path']).toBe('');
      expect(a.body['truncated']).toBe(false);
      const entries = a.body['entries'] as Array<Record<string, unknown>>;
      expect(entries.map((e) => e['name'])).toEqual([
        '.github',
        'src',
        '.env',
        'b.txt',
        'blob.bin',
        'README.md',
      ]);
      expect(entries[1]).toEqual({
        path: 'src',
        name: 'src',
        kind: 'dir',
        size: 0,
        mtime: expect.any(Number),
      });
      expect(entries[3]).toMatchObject({ path: 'b.txt', kind: 'file', size: 1 });
      const sub = await s.get('/api/tree', { project: proj, path: 'src' });
      expect((sub.body['entries'] as Array<Record<string, unknown>>).map((e) => e['path'])).toEqual([
        'src/lib',
        'src/main.ts',
      ]);
      expect(s.audit.last('tree')).toMatchObject({
        outcome: 'allowed',
        resources: `${proj} path=src entries=2`,
      });
    });
  });

  it('refuses unknown projects (403), bad paths (400), files and missing dirs (404), links (403) 🔒', async () => {
    await withServer(proj, undefined, async (s) => {
      const cases: Array<[Record<string, string>, number, string]> = [
        [{ project: tmp, path: '' }, 403, 'unknown_project_dir'],
        [{ project: path.join(tmp, 'outside'), path: '' }, 403, 'unknown_project_dir'],
        [{ path: '' }, 400, 'project_required'],
        [{ project: proj, path: '..' }, 400, 'invalid_path'],
        [{ project: proj, path: 'src/../..' }, 400, 'invalid_path'],
        [{ project: proj, path: '/etc' }, 400, 'invalid_path'],
        [{ project: proj, path: 'src//lib' }, 400, 'invalid_path'],
        [{ project: proj, path: 'src\0' }, 400, 'invalid_path'],
        [{ project: proj, path: 'x'.repeat(5000) }, 400, 'invalid_path'],
        [{ project: proj, path: 'README.md' }, 404, 'not_a_directory'],
        [{ project: proj, path: 'nope' }, 404, 'not_a_directory'],
        [{ project: proj, path: 'out-dir' }, 403, 'link_refused'],
        [{ project: proj, path: 'keys' }, 403, 'link_refused'],
      ];
      for (const [params, status, code] of cases) {
        const a = await s.get('/api/tree', params);
        expect([a.status, a.body.code], JSON.stringify(params)).toEqual([status, code]);
        expect(a.text).not.toContain('PRIVATE KEY');
      }
    });
  });

  it('omits sensitive entries and refuses a sensitive directory of a project (HOME served as a project) 🔒', async () => {
    await withServer(home, undefined, async (s) => {
      const a = await s.get('/api/tree', { project: home, path: '' });
      expect(a.status).toBe(200);
      expect((a.body['entries'] as unknown[]).length).toBe(0);
      const b = await s.get('/api/tree', { project: home, path: '.ssh' });
      expect([b.status, b.body.code]).toEqual([403, 'sensitive_path']);
      const c = await s.get('/api/file', { project: home, path: '.ssh/id_ed25519' });
      expect([c.status, c.body.code]).toEqual([403, 'sensitive_path']);
      expect(c.text).not.toContain('PRIVATE KEY');
    });
  });

  it('caps a wide directory at 2 000 rows and says truncated', async () => {
    const p = path.join(tmp, 'wide');
    fs.mkdirSync(p);
    for (let i = 0; i < 2_050; i++) fs.writeFileSync(path.join(p, `f${i}`), '');
    await withServer(p, true, async (s) => {
      const a = await s.get('/api/tree', { project: p, path: '' });
      expect(a.status).toBe(200);
      expect((a.body['entries'] as unknown[]).length).toBe(2_000);
      expect(a.body['truncated']).toBe(true);
    });
  });
});

describe('GET /api/file', () => {
  it('reads a text file of a known project', async () => {
    await withServer(proj, undefined, async (s) => {
      const a = await s.get('/api/file', { project: proj, path: 'src/main.ts' });
      expect(a.status).toBe(200);
      expect(a.body).toEqual({
        root: proj,
        path: 'src/main.ts',
        size: 20,
        mtime: expect.any(Number),
        text: 'export const x = 1;\n',
        truncated: false,
        binary: false,
        first_line: 1,
      });
      expect(s.audit.last('file')).toMatchObject({
        outcome: 'allowed',
        resources: `${proj} path=src/main.ts size=20`,
      });
    });
  });

  it('never reads through a link, wherever it is in the path: 403 link_refused 🔒', async () => {
    // A link to a file, a link to a directory as a middle component, a link into ~/.ssh.
    await withServer(proj, undefined, async (s) => {
      for (const rel of ['out-file.txt', 'out-dir/secret.txt', 'keys/id_ed25519']) {
        const a = await s.get('/api/file', { project: proj, path: rel });
        expect([a.status, a.body.code], rel).toEqual([403, 'link_refused']);
        expect(a.text).not.toMatch(/outside the project|PRIVATE KEY/);
        expect(s.audit.last('file')).toMatchObject({ outcome: 'denied', error: 'link_refused' });
      }
    });
  });

  it.runIf(linux)(
    'refuses a file swapped for a link after the walk began (the open itself does not follow) 🔒',
    async () => {
      const p = project();
      const base = procFdOpener();
      const opener: DirOpener = {
        ...base,
        openRoot(root) {
          const d = base.openRoot(root);
          fs.renameSync(path.join(p, 'b.txt'), path.join(p, 'b.moved'));
          fs.symlinkSync(path.join(tmp, 'outside', 'secret.txt'), path.join(p, 'b.txt'));
          return d;
        },
      };
      await withServer(p, { opener }, async (s) => {
        const a = await s.get('/api/file', { project: p, path: 'b.txt' });
        expect([a.status, a.body.code]).toEqual([403, 'link_refused']);
        expect(a.text).not.toContain('outside the project');
      });
    },
  );

  it('answers binary files with no text, and directories, missing files and bad paths with codes', async () => {
    await withServer(proj, undefined, async (s) => {
      const bin = await s.get('/api/file', { project: proj, path: 'blob.bin' });
      expect(bin.body).toMatchObject({ text: '', binary: true, size: 4, truncated: false });
      const cases: Array<[string, number, string]> = [
        ['src', 404, 'not_a_file'],
        ['nope.txt', 404, 'file_not_found'],
        ['', 400, 'invalid_path'],
        ['../proj0/b.txt', 400, 'invalid_path'],
        ['./b.txt', 400, 'invalid_path'],
      ];
      for (const [rel, status, code] of cases) {
        const a = await s.get('/api/file', { project: proj, path: rel });
        expect([a.status, a.body.code], rel).toEqual([status, code]);
      }
      const unknown = await s.get('/api/file', { project: path.join(tmp, 'outside'), path: 'secret.txt' });
      expect([unknown.status, unknown.body.code]).toEqual([403, 'unknown_project_dir']);
    });
  });

  it.runIf(linux)('a FIFO does not block the read (refused as not a file)', async () => {
    const p = project();
    execFileSync('mkfifo', [path.join(p, 'pipe')]);
    await withServer(p, true, async (s) => {
      const a = await s.get('/api/file', { project: p, path: 'pipe' });
      expect([a.status, a.body.code]).toEqual([404, 'not_a_file']);
    });
  });

  it('returns at most 1 MiB of text, cut on a character boundary, and says truncated', async () => {
    const p = project();
    // 'é' is 2 bytes: 1 MiB - 1 bytes of ASCII then 'é' puts the cap inside the character.
    fs.writeFileSync(path.join(p, 'big.txt'), `${'a'.repeat(1024 * 1024 - 1)}é and more`);
    await withServer(p, true, async (s) => {
      const a = await s.get('/api/file', { project: p, path: 'big.txt' });
      expect(a.status).toBe(200);
      expect(a.body['truncated']).toBe(true);
      expect(a.body['size']).toBe(1024 * 1024 + 10);
      const text = a.body['text'] as string;
      expect(text.length).toBe(1024 * 1024 - 1);
      expect(text).not.toContain('\ufffd');
    });
  });

  it('answers a document with the text content search reads in it, its places as lines; a link to one is refused', async () => {
    const p = project();
    fs.writeFileSync(path.join(p, 'Plan.docx'), docx(['First paragraph.', 'The budget needle is here.']));
    fs.writeFileSync(path.join(p, 'deck.pptx'), pptx([['Title slide'], ['Second slide with needle']]));
    fs.symlinkSync(path.join(p, 'Plan.docx'), path.join(p, 'link.docx'));
    await withServer(p, true, async (s) => {
      const a = await s.get('/api/file', { project: p, path: 'Plan.docx' });
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ binary: false, truncated: false, document: { too_large: false } });
      expect((a.body['text'] as string).split('\n')).toEqual([
        'First paragraph.',
        'The budget needle is here.',
      ]);
      const deck = await s.get('/api/file', { project: p, path: 'deck.pptx' });
      expect((deck.body['text'] as string).split('\n')).toEqual([
        '[slide 1]',
        'Title slide',
        '[slide 2]',
        'Second slide with needle',
      ]);
      expect((await s.get('/api/file', { project: p, path: 'link.docx' })).body['code']).toBe('link_refused');
    });
  });

  it('with line=N answers the 1 MiB of whole lines around line N, past the first MiB, and says where it starts', async () => {
    const p = project();
    const lines = Array.from({ length: 100_000 }, (_, i) => `line ${i + 1} ${'x'.repeat(30)}`);
    fs.writeFileSync(path.join(p, 'long.log'), `${lines.join('\n')}\n`);
    await withServer(p, true, async (s) => {
      for (const line of [90_000, 100_000, 5]) {
        const a = await s.get('/api/file', { project: p, path: 'long.log', line: String(line) });
        expect(a.status).toBe(200);
        const first = a.body['first_line'] as number;
        const got = (a.body['text'] as string).split('\n');
        expect(got[0]).toBe(lines[first - 1]); // starts on a whole line, the one it says
        expect(got[line - first]).toBe(lines[line - 1]); // and holds line N
        expect((a.body['text'] as string).length).toBeLessThanOrEqual(1024 * 1024);
        expect(a.body['truncated']).toBe(true);
        if (line > 50_000) expect(first).toBeGreaterThan(1);
        else expect(first).toBe(1);
      }
      for (const bad of ['0', '-3', 'x', '1.5', '99999999999']) {
        const a = await s.get('/api/file', { project: p, path: 'long.log', line: bad });
        expect(a.status, bad).toBe(400);
        expect(a.body['code']).toBe('invalid_line');
      }
    });
  });
});
