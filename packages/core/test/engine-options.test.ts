import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SearchRequest, search } from '../src/index.js';
import { BUNDLED_RG } from './parity/harness.js';

/** Engine options ripgrep has no flag for: both engines must still agree on them. */
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-engine-options-'));
  const put = (rel: string, text = 'needle\n') => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  fs.mkdirSync(path.join(dir, '.git'));
  put('.gitignore', 'gen.ts\nbuild/\n');
  put('a.ts');
  put('gen.ts');
  put('build/b.ts');
  put('src/c.ts');
  put('src/c.md');
  put('secret/key.ts');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function files(engine: 'js' | 'rg', extra: Partial<SearchRequest>): Promise<string[]> {
  const out: string[] = [];
  for await (const e of search({
    pattern: 'needle',
    paths: ['.'],
    cwd: dir,
    engine,
    ...(engine === 'rg' && BUNDLED_RG ? { rgPath: BUNDLED_RG } : {}),
    ...extra,
  })) {
    if (e.type === 'begin') out.push(e.path);
  }
  return out;
}

describe.each(['js', 'rg'] as const)('%s engine', (engine) => {
  it("lets an include glob admit ignored files in 'override' mode, as ripgrep's -g does", async () => {
    // gen.ts is ignored but matches the glob; build/ is ignored and does not, so it is never entered.
    expect(await files(engine, { globs: ['*.ts'] })).toEqual([
      './a.ts',
      './gen.ts',
      './secret/key.ts',
      './src/c.ts',
    ]);
  });

  it("only narrows with globs in 'filter' mode: ignore rules still apply", async () => {
    expect(await files(engine, { globs: ['*.ts'], globMode: 'filter' })).toEqual([
      './a.ts',
      './secret/key.ts',
      './src/c.ts',
    ]);
  });

  it('never reports what the exclude predicate refuses, nor anything below it', async () => {
    const secret = path.join(dir, 'secret');
    const exclude = (abs: string) => abs === secret || abs.startsWith(`${secret}/`);
    expect(await files(engine, { exclude })).toEqual(['./a.ts', './src/c.md', './src/c.ts']);
  });
});
