import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SearchRequest, search } from '../src/index.js';
import { BUNDLED_RG } from './fixtures/ripgreps.js';

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
    ...(engine === 'rg' && BUNDLED_RG.path ? { rgPath: BUNDLED_RG.path } : {}),
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

describe('files-with-matches mode (the search tool’s counting pass)', () => {
  let odd: string;
  beforeAll(() => {
    odd = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-engine-files-'));
    fs.writeFileSync(path.join(odd, 'new\nline.txt'), 'needle\n');
    fs.writeFileSync(path.join(odd, 'co:lon 1.txt'), 'x\nneedle\n');
    fs.writeFileSync(path.join(odd, 'no.txt'), 'nothing\n');
    // The match comes first, the NUL after rg's first 64 KiB read: ripgrep's own -l lists it only sometimes.
    fs.writeFileSync(
      path.join(odd, 'late.dat'),
      Buffer.concat([Buffer.from('needle early\n'), Buffer.alloc(70_000, 0x61), Buffer.from('\n\u0000\n')]),
    );
  });
  afterAll(() => fs.rmSync(odd, { recursive: true, force: true }));

  it.each(['js', 'rg'] as const)('%s: lists odd names and a late-NUL file, every run', async (engine) => {
    for (let run = 0; run < 5; run++) {
      const listed: string[] = [];
      let searched = 0;
      for await (const e of search({
        pattern: 'needle',
        cwd: odd,
        mode: 'files-with-matches',
        engine,
        ...(engine === 'rg' && BUNDLED_RG.path ? { rgPath: BUNDLED_RG.path } : {}),
      })) {
        if (e.type === 'end') listed.push(e.path);
        if (e.type === 'summary') searched = e.summary.filesSearched;
      }
      expect(listed).toEqual(['co:lon 1.txt', 'late.dat', 'new\nline.txt']);
      expect(searched).toBe(4);
    }
  });
});
