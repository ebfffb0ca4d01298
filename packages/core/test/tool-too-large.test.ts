import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchTool } from '../src/tool/index.js';

/**
 * Files larger than the search tool reads (64 MiB) are named in a directory search under both engines, alike: ripgrep
 * skips them in its walk without a word on its output. The large files are sparse, so the test writes no data.
 */

let dir: string;

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-tool-too-large-')));
  fs.mkdirSync(path.join(dir, 'sub'));
  fs.writeFileSync(path.join(dir, 'a.txt'), 'needle a\n');
  fs.writeFileSync(path.join(dir, 'z.txt'), 'needle z\n');
  for (const big of ['big.bin', 'sub/huge.log']) {
    fs.writeFileSync(path.join(dir, big), '');
    fs.truncateSync(path.join(dir, big), 65 * 1024 * 1024);
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('search tool: walked files past 64 MiB', () => {
  it('are named as not searched, with the same answer from both engines', async () => {
    const texts: string[] = [];
    for (const engine of ['js', 'rg'] as const) {
      const r = await searchTool({ pattern: 'needle', paths: '.' }, { cwd: dir, engine });
      expect(r.text).toContain('needle a');
      expect(r.text).toContain('Not searched (larger than 64 MiB): big.bin, sub/huge.log');
      texts.push(r.text);
    }
    expect(texts[1]).toBe(texts[0]);
  });
});
