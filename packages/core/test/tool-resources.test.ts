import * as fs from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultResourceRouter, ResourceRouter } from '../src/tool/index.js';
import { RUNAWAY_LINE, RUNAWAY_PATTERN } from './fixtures/runaway.js';
import { makeTree, refusal, run, runDefault } from './fixtures/tool/helpers.js';

const DOC = `alpha line\nneedle in virtual\ngamma\nNEEDLE two\n${'q'.repeat(600)}needle long\n`;

let dir: string;
let router: ResourceRouter;
beforeAll(() => {
  dir = makeTree({
    'plain.txt': 'needle plain\n',
    'mixed.txt': 'needle mixed\n',
    'artifacts/5.bash.log': 'build ok\nneedle artifact five\n',
    'artifacts/9.log': 'needle immutable\n',
    'local/plan.md': '# plan\nneedle plan\n',
  });
  const docs: Record<string, string> = {
    'doc.md': DOC,
    'range.md': 'needle outside range\nmiddle line\nneedle inside range\n',
    'multi.md': 'foo\nbar\nfoo\nbaz\n',
    'evil.md': `${RUNAWAY_LINE}\n`,
  };
  router = defaultResourceRouter()
    .register('virtual', {
      resolve(url) {
        const name = url.slice('virtual://'.length);
        const content = docs[name];
        if (content === undefined) throw new Error(`Virtual doc not found: ${name}`);
        return { content };
      },
    })
    .register('artifact', {
      resolve(url) {
        const id = url.slice('artifact://'.length);
        const file = id === '5' ? '5.bash.log' : id === '9' || id === '11' ? '9.log' : null;
        if (!file) throw new Error(`Artifact ${id} not found`);
        return { sourcePath: path.join(dir, 'artifacts', file), immutable: true };
      },
    })
    .register('local', {
      resolve(url) {
        return { sourcePath: path.join(dir, 'local', url.slice('local://'.length)) };
      },
    });
});

describe('search tool: URLs and virtual resources', () => {
  it('virtual content uses the file rules — bytes, "...", and a note', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'virtual://doc.md' }, { resources: router });
    const lines = r.text.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '# virtual://doc.md',
      '*2|needle in virtual',
      '...',
      `*5|${'q'.repeat(509)}...`,
    ]);
    expect(r.text.endsWith('\n\n1 line longer than 512 bytes was cut (shown ending in "...").')).toBe(true);
    expect(r.details.files).toEqual(['virtual://doc.md']);
    expect(r.details.linesTruncated).toBe(true);
  });

  it('default context never repeats a line or goes backwards', async () => {
    const r = await runDefault(dir, { pattern: 'needle', paths: 'virtual://doc.md' }, { resources: router });
    const numbers = r.text
      .split('\n')
      .slice(1)
      .filter((l) => /^[ *]\d+\|/.test(l))
      .map((l) => Number(/\d+/.exec(l)![0]));
    expect(numbers).toEqual([1, 2, 3, 4, 5]);
    expect(r.text).toContain(' 4|NEEDLE two\n*5|');
  });

  it('a line range on virtual content', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'virtual://range.md:3-3' }, { resources: router });
    expect(r.text).toBe('# virtual://range.md\n*3|needle inside range');
  });

  it('no globs in URLs; the handler’s own not-found message; the same regex dialect as files', async () => {
    expect(await refusal(run(dir, { pattern: 'x', paths: 'virtual://*.md' }, { resources: router }))).toEqual(
      {
        code: 'url_glob',
        message: 'Glob patterns are not supported for internal URLs: virtual://*.md',
      },
    );
    expect(
      (await refusal(run(dir, { pattern: 'x', paths: 'virtual://nope.md' }, { resources: router }))).message,
    ).toBe('Virtual doc not found: nope.md');
    const bad = await refusal(run(dir, { pattern: 'a[', paths: 'virtual://doc.md' }, { resources: router }));
    const badFile = await refusal(run(dir, { pattern: 'a[', paths: 'plain.txt' }));
    expect(bad).toEqual(badFile);
    const look = await refusal(
      run(dir, { pattern: '(?<=alpha )line', paths: 'virtual://doc.md' }, { resources: router }),
    );
    expect(look).toEqual(await refusal(run(dir, { pattern: '(?<=alpha )line', paths: 'plain.txt' })));
  });

  it('virtual and file results follow the order of the paths', async () => {
    const r = await run(
      dir,
      { pattern: 'needle', paths: ['virtual://range.md', 'plain.txt'] },
      { resources: router },
    );
    expect(r.text).toBe(
      '# virtual://range.md\n*1|needle outside range\n...\n*3|needle inside range\n\n# plain.txt#2CD5\n*1:needle plain',
    );
    const flipped = await run(
      dir,
      { pattern: 'needle', paths: ['plain.txt', 'virtual://range.md'] },
      { resources: router },
    );
    expect(flipped.details.files).toEqual(['plain.txt', 'virtual://range.md']);
  });

  it('docs:// searches trawl’s own documentation', async () => {
    const r = await run(dir, { pattern: 'Line ranges', paths: 'docs://' });
    expect(r.text).toMatch(/^# docs:\/\/search-tool\.md\n\*\d+\|## Line ranges$/m);
    const one = await run(dir, { pattern: 'hashline tag', paths: 'docs://search-tool.md' });
    expect(one.details.files).toEqual(['docs://search-tool.md']);
    expect((await refusal(run(dir, { pattern: 'x', paths: 'docs://nope.md' }))).message).toBe(
      'Documentation file not found: nope.md. Use docs:// to list available files.',
    );
    // The served file is the one shipped in the package.
    const shipped = fs.readFileSync(path.resolve(__dirname, '../docs/search-tool.md'), 'utf8');
    expect(shipped).toContain('## Line ranges');
  });

  it('a file-backed URL is searched as its file and shown as the URL', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'artifact://5' }, { resources: router });
    expect(r.text).toBe('# artifact://5\n*2|needle artifact five');
    expect(JSON.stringify(r)).not.toContain('5.bash.log');
    expect(
      (await refusal(run(dir, { pattern: 'x', paths: 'artifact://999' }, { resources: router }))).message,
    ).toBe('Artifact 999 not found');
  });

  it('immutable sources have no tags; mutable file-backed URLs and mixed files keep theirs', async () => {
    const imm = await run(dir, { pattern: 'needle', paths: 'artifact://9' }, { resources: router });
    expect(imm.text).not.toMatch(/^¶.*#[0-9A-F]{4}$/m);
    expect(imm.text).not.toMatch(/^\*?\s*\d+:/m);
    const mut = await run(dir, { pattern: 'needle', paths: 'local://plan.md' }, { resources: router });
    expect(mut.text).toMatch(/^¶local:\/\/plan\.md#[0-9A-F]{4}\n\*2:needle plan$/);
    const mixed = await run(
      dir,
      { pattern: 'needle', paths: ['artifact://11', 'mixed.txt'] },
      { resources: router },
    );
    expect(mixed.text).toMatch(/^# mixed\.txt#[0-9A-F]{4}\n\*1:needle mixed$/m);
    expect(mixed.text).toMatch(/^# artifact:\/\/11\n\*1\|needle immutable$/m);
  });

  it('multi-line patterns work on virtual content as on files', async () => {
    const r = await run(dir, { pattern: 'foo\\nba', paths: 'virtual://multi.md' }, { resources: router });
    expect(r.text).toBe('# virtual://multi.md\n*1|foo\n*2|bar\n*3|foo\n*4|baz');
  });

  it('a router without a scheme refuses it; registering file:// is refused', () => {
    expect(() => new ResourceRouter().register('file', { resolve: () => ({ content: '' }) })).toThrow(
      /file:\/\//,
    );
    expect(new ResourceRouter().schemes).toEqual([]);
  });

  it('a URL with a query string is passed to its handler (? is not a glob in URLs)', async () => {
    const seen: string[] = [];
    const r = new ResourceRouter().register('q', {
      resolve(url) {
        seen.push(url);
        return { content: 'needle q\n' };
      },
    });
    const out = await run(dir, { pattern: 'needle', paths: 'q://item?rev=2' }, { resources: r });
    expect(seen).toEqual(['q://item?rev=2']);
    expect(out.text).toBe('# q://item?rev=2\n*1|needle q');
  });

  it('a runaway pattern on virtual content is stopped by the deadline (it runs off the caller’s thread)', async () => {
    const r = await run(
      dir,
      { pattern: RUNAWAY_PATTERN, paths: 'virtual://evil.md' },
      { resources: router, deadlineMs: 800 },
    );
    expect(r.text).toBe('No matches found before the 0.8 s deadline: the search did not finish.');
    expect(r.details.outcome).toBe('timeout');
  });

  it('and by an abort', async () => {
    const ac = new AbortController();
    // Aborted once the resource has been handed over for searching: the search of it cannot finish on its own.
    const aborting = defaultResourceRouter().register('virtual', {
      resolve() {
        setImmediate(() => ac.abort(new Error('enough')));
        return { content: `${RUNAWAY_LINE}\n` };
      },
    });
    const r = await refusal(
      run(
        dir,
        { pattern: RUNAWAY_PATTERN, paths: 'virtual://evil.md' },
        { resources: aborting, signal: ac.signal },
      ),
    );
    expect(r.message).toBe('enough');
  });
});
