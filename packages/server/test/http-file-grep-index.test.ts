import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specDocs, specTree, write } from '../../core/test/fixtures/grep-trees.js';
import { TempTrees } from '../../core/test/fixtures/temp-trees.js';
import { type Answer, startTestServer, type TestServer } from './http-helpers.js';

let trees: TempTrees;
let root: string;
let indexed: TestServer;
let scanning: TestServer;

beforeAll(async () => {
  trees = new TempTrees('trawl-http-grep-index-');
  root = trees.fresh('g');
  fs.mkdirSync(root, { recursive: true });
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++)
    files[`src/m${i % 9}/f${i}.py`] = `x = ${i}\n${i % 41 === 0 ? 'rare_marker_q here\n' : 'nothing\n'}`;
  specDocs(specTree(write(root, files)));
  // The 2 s budget is the endpoint's; on a loaded machine a scan can run out of it, so both sides get a long one
  // (the comparison is about what is found, not how fast).
  const long = { grep: { limits: { timeBudgetMs: 120_000 } } };
  // `indexes` left undefined: the server builds its real indexes (names and content) for its projects.
  indexed = await startTestServer({
    projects: [root],
    home: trees.home,
    dataDir: path.join(trees.dir, 'd1'),
    indexes: undefined,
    grepBudgetMs: 120_000,
  });
  scanning = await startTestServer({
    projects: [root],
    home: trees.home,
    dataDir: path.join(trees.dir, 'd2'),
    inline: long,
  });
  const host = indexed.server.context.grepHost;
  if (!host) throw new Error('the server opened no content index');
  await host.whenSettled(root);
  // Until the background extraction has visited the documents, the index leaves them unsearched (doc_not_extracted).
  await host.whenStatus(root, (st) => st.documents?.state === 'done');
}, 120_000);
afterAll(async () => {
  await indexed?.close();
  await scanning?.close();
  trees.remove();
});

function post(s: TestServer, body: unknown): Promise<Answer> {
  return s.request('/api/file-grep', {
    method: 'POST',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('POST /api/file-grep through the content index', () => {
  it('answers exactly as a scan does, for literals, case, words and regexes, and sees a fresh edit', async () => {
    expect(indexed.server.context.grepHost!.covering(root)?.state).toBe('ready');
    const bodies = [
      { root, q: 'rare_marker_q' },
      { root, q: 'RARE_MARKER_Q', case_sensitive: true },
      { root, q: 'needle' },
      { root, q: 'marker', whole_word: true },
      { root, q: 'rare_\\w+_q', regex: true },
      { root, q: 'x = 4[0-9]', regex: true },
      // Lines per file and their counts: f41.py matches on both its lines.
      { root, q: 'x = 4[0-9]|rare_marker', regex: true, per_file: 1 },
    ];
    for (const b of bodies) {
      const a = await post(indexed, b);
      const z = await post(scanning, b);
      expect(a.status, JSON.stringify(b)).toBe(200);
      expect(z.body.truncated, JSON.stringify(b)).toBe(false);
      expect({ ...a.body, engine: '' }, JSON.stringify(b)).toEqual({ ...z.body, engine: '' });
    }
    const counted = await post(indexed, bodies.at(-1)!);
    expect(counted.body.results!.find((r) => r['file'] === 'src/m5/f41.py')?.['count']).toBe(2);
    fs.writeFileSync(path.join(root, 'src/m1/f1.py'), 'rare_marker_q written just now\n');
    const a = await post(indexed, { root, q: 'rare_marker_q' });
    expect(a.body.results!.map((r) => r['file'])).toContain('src/m1/f1.py');
    expect({ ...a.body, engine: '' }).toEqual({
      ...(await post(scanning, { root, q: 'rare_marker_q' })).body,
      engine: '',
    });
  });
});
