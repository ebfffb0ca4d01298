// The switches agents reach for from other search tools: a file type filter, whole words, a literal pattern, an
// explicit multi-line mode and a page size — each as ripgrep means it, on both engines.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSearchToolInputSchema } from '../src/tool/input.js';
import { type Engine, makeTree, refusal, run } from './fixtures/tool/helpers.js';

let dir: string;
beforeAll(() => {
  const files: Record<string, string> = {
    'src/app.ts': 'const needle = 1;\nneedles();\n',
    'src/app.test.ts': 'needle in a test\n',
    'lib/util.py': 'def __repr__(self):\n    x = 1\n    return "needle"\n',
    'docs/a.b.md': 'a.b literal\naxb regex only\n',
  };
  for (let i = 0; i < 12; i++) files[`many/f${String(i).padStart(2, '0')}.txt`] = 'needle\n';
  dir = makeTree(files);
});

describe.each<Engine>(['js', 'rg'])('search tool: switches agents expect, engine %s', (engine) => {
  it('type selects files by rg\'s type table; "!name" excludes', async () => {
    const ts = await run(dir, { pattern: 'needle', paths: '.', type: 'ts', output: 'files' }, { engine });
    expect(ts.details.files).toEqual(['src/app.test.ts', 'src/app.ts']);
    const notTxt = await run(
      dir,
      { pattern: 'needle', paths: '.', type: ['!txt', '!ts'], output: 'files' },
      { engine },
    );
    expect(notTxt.details.files).toEqual(['lib/util.py']);
    const bad = await refusal(run(dir, { pattern: 'needle', paths: '.', type: 'tyepscript' }, { engine }));
    expect(bad.code).toBe('invalid_type');
    expect(bad.message).toMatch(/Unknown file type "tyepscript"/);
  });

  it('word matches whole words only; literal takes the pattern as text', async () => {
    const word = await run(dir, { pattern: 'needle', paths: 'src/app.ts', word: true }, { engine });
    expect(word.details.matchCount).toBe(1);
    const regex = await run(dir, { pattern: 'a.b', paths: 'docs/a.b.md' }, { engine });
    expect(regex.details.matchCount).toBe(2);
    const literal = await run(dir, { pattern: 'a.b', paths: 'docs/a.b.md', literal: true }, { engine });
    expect(literal.details.matchCount).toBe(1);
  });

  it('multiline lets (?s) cross lines', async () => {
    const pattern = '(?s)def __repr__.*?return';
    const flat = await run(dir, { pattern, paths: 'lib/util.py' }, { engine });
    expect(flat.details.matchCount).toBe(0);
    const spans = await run(dir, { pattern, paths: 'lib/util.py', multiline: true }, { engine });
    expect(spans.text).toContain('*1:def __repr__(self):');
    expect(spans.text).toContain('*3:    return "needle"');
  });

  it('limit sets the files a page, within 1-100', async () => {
    const page = await run(dir, { pattern: 'needle', paths: 'many', limit: 5 }, { engine });
    expect(page.details.files).toHaveLength(5);
    expect(page.text).toContain('Showing files 1-5 of 12. Use skip=5 for the next page');
    expect((await refusal(run(dir, { pattern: 'x', paths: '.', limit: 101 }, { engine }))).code).toBe(
      'invalid_limit',
    );
  });
});

describe('the schema a client is shown', () => {
  it('carries the real bounds of every number', async () => {
    const { searchToolInputShape } = await loadSearchToolInputSchema();
    const { z } = await import('zod');
    const json = z.toJSONSchema(z.object(searchToolInputShape)) as {
      properties: Record<string, { minimum?: number; maximum?: number }>;
    };
    expect(json.properties['context']).toMatchObject({ minimum: 0, maximum: 10 });
    expect(json.properties['perFile']).toMatchObject({ minimum: 1, maximum: 200 });
    expect(json.properties['limit']).toMatchObject({ minimum: 1, maximum: 100 });
    expect(json.properties['skip']).toMatchObject({ minimum: 0 });
  });
});

describe.each<Engine>(['js', 'rg'])(
  'search tool: an exclusion that takes nothing out, engine %s',
  (engine) => {
    it('is said, on either engine; one that excludes something is not', async () => {
      const r = await run(
        dir,
        { pattern: 'needle', paths: ['src', '!**/tests/**', '!*.test.ts'], output: 'files' },
        { engine },
      );
      expect(r.details.files).toEqual(['src/app.ts']);
      expect(r.text).toContain('"!**/tests/**" excluded nothing: no searched path matches it');
      expect(r.text).not.toContain('"!*.test.ts" excluded nothing');
    });
  },
);
