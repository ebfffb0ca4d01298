// /api/health tells a caller holding the token each served project's content index and its document store: how many
// documents the background extraction has stored of how many, how many were cut by a cap, and the store's bytes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docx } from '../../core/test/fixtures/office-docs.js';
import { TempTrees } from '../../core/test/fixtures/temp-trees.js';
import { startTestServer } from './http-helpers.js';

let trees: TempTrees;
let root: string;

beforeAll(() => {
  trees = new TempTrees('trawl-http-health-');
  root = trees.fresh('p');
  fs.mkdirSync(path.join(root, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(root, 'readme.txt'), 'plain text\n');
  fs.writeFileSync(path.join(root, 'docs', 'plan.docx'), docx(['the quarterly plan', 'second paragraph']));
  fs.writeFileSync(path.join(root, 'docs', 'notes.docx'), docx(['meeting notes']));
  // Written a minute ago: a version modified within the store's racy window is used but not kept.
  const past = new Date(Date.now() - 60_000);
  for (const f of ['readme.txt', 'docs/plan.docx', 'docs/notes.docx'])
    fs.utimesSync(path.join(root, f), past, past);
  root = fs.realpathSync(root);
});
afterAll(() => trees.remove());

describe('/api/health with the token', () => {
  it("shows each project's index and its documents' extraction into the store, with the store's bytes", async () => {
    const s = await startTestServer({
      projects: [root],
      home: trees.home,
      dataDir: path.join(trees.dir, 'data'),
      indexes: undefined,
    });
    try {
      const host = s.server.context.grepHost!;
      // Events, not time: the host reports the end of the extraction at once and the store's write on its next report.
      await host.whenStatus(
        root,
        (x) => x.documents?.state === 'done' && (x.documentStore?.fileBytes ?? 0) > 0,
      );
      const a = await s.get('/api/health');
      expect(a.status).toBe(200);
      expect(a.body.status).toBe('ok');
      const indexes = a.body.indexes as Array<Record<string, unknown>>;
      expect(indexes).toHaveLength(1);
      expect(indexes[0]).toMatchObject({ root, state: 'ready', files: 3 });
      const d = indexes[0]!.documents as Record<string, number | string>;
      expect(d).toMatchObject({ state: 'done', total: 2, extracted: 2, partial: 0 });
      expect(d.stored_bytes).toBeGreaterThan(0);
      expect(d.file_bytes).toBeGreaterThan(0);
      // Without the token the probe still reveals nothing.
      expect((await s.request('/api/health')).body).toEqual({ status: 'ok' });
    } finally {
      await s.close();
    }
  }, 120_000);
});
