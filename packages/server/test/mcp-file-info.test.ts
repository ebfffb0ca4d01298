// file_info: what a path is before an agent reads it — and whether the other tools see it, or why not.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LinkedTools, linkServer } from './mcp-helpers.js';

let proj: string;
let tools: LinkedTools;

beforeAll(async () => {
  proj = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-file-info-')));
  fs.mkdirSync(path.join(proj, 'src'));
  fs.writeFileSync(path.join(proj, 'src', 'a.ts'), 'one\ntwo\nthree');
  fs.writeFileSync(
    path.join(proj, 'wide.txt'),
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('alpha\nbeta\n', 'utf16le')]),
  );
  fs.writeFileSync(path.join(proj, 'blob.bin'), Buffer.from([1, 0, 2, 0, 3]));
  fs.writeFileSync(path.join(proj, 'out.log'), 'x\n');
  fs.writeFileSync(path.join(proj, '.gitignore'), '*.log\n');
  fs.mkdirSync(path.join(proj, 'node_modules', 'dep'), { recursive: true });
  fs.writeFileSync(path.join(proj, 'node_modules', 'dep', 'i.js'), 'x\n');
  fs.symlinkSync(os.tmpdir(), path.join(proj, 'tmp-link'));
  tools = await linkServer({ root: proj, engine: 'js' });
});

afterAll(async () => {
  await tools?.close();
  fs.rmSync(proj, { recursive: true, force: true });
});

const info = async (p: string) => {
  const r = await tools.call('file_info', { path: p });
  return { text: r.content[0]!.text, sc: r.structuredContent as Record<string, unknown>, isError: r.isError };
};

describe('file_info', () => {
  it('gives kind, size, lines, encoding and binary-ness', async () => {
    const a = await info('src/a.ts');
    expect(a.sc).toMatchObject({
      kind: 'file',
      size: 13,
      lines: 3,
      encoding: 'utf-8',
      binary: false,
      inTree: true,
    });
    expect(a.text).toMatch(/^src\/a\.ts: a file, 13 bytes, 3 lines, utf-8, modified /);
    expect((await info('wide.txt')).sc).toMatchObject({ encoding: 'utf-16le', lines: 2, binary: false });
    expect((await info('blob.bin')).sc).toMatchObject({ encoding: 'binary', binary: true });
    expect((await info('src')).sc).toMatchObject({ kind: 'dir', entries: 1, inTree: true });
  });

  it('says whether the other tools see a path, and why not', async () => {
    const log = await info('out.log');
    expect(log.sc).toMatchObject({ inTree: false, notInTreeBecause: 'ignored' });
    expect(log.text).toContain('an ignore file (.gitignore, .ignore) leaves it out');
    expect((await info('node_modules/dep/i.js')).sc).toMatchObject({ notInTreeBecause: 'skipped' });
    expect((await info('.gitignore')).sc).toMatchObject({ inTree: true });
  });

  it('describes a link without following it, and nothing outside the root', async () => {
    expect((await info('tmp-link')).sc).toMatchObject({ kind: 'symlink', inTree: false });
    expect((await info('../')).isError).toBe(true);
    expect((await info('tmp-link/x')).isError).toBe(true);
    expect((await info('nope.txt')).text).toBe('nope.txt does not exist.');
  });
});
