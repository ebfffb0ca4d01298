import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../src/content-index/build.js';
import {
  INDEX_FILE,
  openIndexFile,
  parseIndexHead,
  readIndexFile,
  readIndexHead,
} from '../src/content-index/format.js';
import { forEachGram } from '../src/content-index/gram-table.js';
import { indexDirFor, openIndex } from '../src/content-index/index.js';
import { search } from '../src/engine/search.js';
import type { SearchSummary } from '../src/search/events.js';

let tmp: string;
let root: string;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-cindex-persist-')));
  root = path.join(tmp, 'tree');
  for (let i = 0; i < 300; i++) {
    const d = path.join(root, `d${i % 10}`);
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(
      path.join(d, `f${i}.txt`),
      `line ${i}\n${i % 29 === 0 ? 'rare_token_xyz\n' : 'common words here\n'}`,
    );
  }
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function summaryOf(pattern: string, index?: ReturnType<typeof openIndex>): Promise<SearchSummary> {
  let s: SearchSummary | null = null;
  for await (const e of search({ pattern, cwd: root, engine: 'js', ...(index ? { index } : {}) }))
    if (e.type === 'summary') s = e.summary;
  return s!;
}

describe('content index: the persisted file', () => {
  it('round-trips: a second open loads the file instead of building', async () => {
    const dataDir = path.join(tmp, 'data-roundtrip');
    const a = openIndex(root, { dataDir, buildIn: 'inline' });
    await a.whenReady();
    expect(a.status().reason).toMatch(/^rebuilt: no index/);
    await a.close();
    const b = openIndex(root, { dataDir });
    await b.whenReady();
    expect(b.status()).toMatchObject({ state: 'ready', files: 300 });
    expect(b.status().reason).toMatch(/^loaded;/);
    const s = await summaryOf('rare_token_xyz', b);
    expect(s.index).toMatchObject({ used: true, candidates: 11, files: 300 });
    expect(s.filesWithMatch).toBe(11);
    await b.close();
  });

  it('a loaded base reads its lists from its own file, even after a new index is renamed over it', async () => {
    const other = path.join(tmp, 'tree-other');
    fs.cpSync(root, other, { recursive: true });
    const dir = path.join(tmp, 'data-lists');
    await buildIndex(other, dir, () => false);
    const whole = readIndexFile(dir, other); // everything in memory: the reference
    const fd = openIndexFile(dir);
    const loaded = parseIndexHead(readIndexHead(fd), other, true);
    expect(loaded.residentBytes).toBeLessThan(loaded.fileBytes);
    // A rebuild of a changed tree replaces the file (rename): the open base still reads the old lists.
    for (let i = 0; i < 40; i++)
      fs.appendFileSync(path.join(other, `d${i % 10}`, `f${i}.txt`), `more_${i}_zzzz\n`);
    await buildIndex(other, dir, () => false);
    expect(readIndexFile(dir, other).postings.dataBytes).not.toBe(whole.postings.dataBytes);
    const p = loaded.postings;
    let lists = 0;
    forEachGram(p, p.dataBytes, ({ offset, length }) => {
      expect(Buffer.from(p.bytes(offset, length))).toEqual(Buffer.from(whole.postings.bytes(offset, length)));
      lists++;
    });
    expect(lists).toBeGreaterThan(100);
    // Let go, it never reads again (its descriptor's number may be another file's by then).
    loaded.release();
    expect(() => p.bytes(0, 1)).toThrow(/let go/);
  });

  it('a corrupt, truncated or foreign-version index is rebuilt, never trusted', async () => {
    const dataDir = path.join(tmp, 'data-corrupt');
    const dir = indexDirFor(dataDir, root);
    await buildIndex(root, dir, () => false);
    const file = path.join(dir, INDEX_FILE);
    const good = fs.readFileSync(file);
    const cases: Array<[string, Buffer, RegExp]> = [
      ['flipped byte', Buffer.from(good).fill(0x55, good.length - 40, good.length - 39), /checksum/],
      ['truncated', good.subarray(0, good.length - 100), /checksum|section/],
      ['other version', Buffer.from(good).fill(0x63, 8, 9), /format version 99/],
      ['not an index', Buffer.from('hello world, not an index at all'), /not a trawl index/],
    ];
    for (const [what, bytes, reason] of cases) {
      fs.writeFileSync(file, bytes);
      expect(() => readIndexFile(dir, root), what).toThrow(reason);
      const index = openIndex(root, { dataDir, buildIn: 'inline', watch: false });
      await index.whenReady();
      expect(index.status().reason, what).toMatch(reason);
      expect(index.status().state).toBe('ready');
      const s = await summaryOf('rare_token_xyz', index);
      expect(s.filesWithMatch, what).toBe(11);
      await index.close();
      expect(() => readIndexFile(dir, root)).not.toThrow();
    }
    // An index of another root (a hash collision, a copied data directory) is not used either.
    expect(() => readIndexFile(dir, path.join(tmp, 'elsewhere'))).toThrow(/another root/);
  });

  it('a FIFO or a link at the index file is refused without blocking, and rebuilt over', async () => {
    const dataDir = path.join(tmp, 'data-fifo');
    const dir = indexDirFor(dataDir, root);
    await buildIndex(root, dir, () => false);
    const file = path.join(dir, INDEX_FILE);
    const elsewhere = path.join(tmp, 'elsewhere-index.bin');
    fs.copyFileSync(file, elsewhere);
    const cases: Array<[string, () => void, RegExp]> = [
      [
        'fifo',
        () => {
          fs.rmSync(file);
          execFileSync('mkfifo', [file]);
        },
        /not a regular file/,
      ],
      [
        'link',
        () => {
          fs.rmSync(file);
          fs.symlinkSync(elsewhere, file);
        },
        /symbolic link/,
      ],
    ];
    for (const [what, plant, reason] of cases) {
      plant();
      // A blocking open of the FIFO would wait on this thread for a writer: this one comes (much) later, so
      // an open that blocked ends with the wrong reason instead of hanging the run.
      const writer =
        what === 'fifo' ? spawn('sh', ['-c', `sleep 20; exec 3>'${file}'`], { stdio: 'ignore' }) : null;
      try {
        expect(() => readIndexFile(dir, root), what).toThrow(reason);
        const index = openIndex(root, { dataDir, watch: false });
        await index.whenReady();
        expect(index.status().reason, what).toMatch(reason);
        expect(index.status().state, what).toBe('ready');
        expect((await summaryOf('rare_token_xyz', index)).filesWithMatch, what).toBe(11);
        await index.close();
        expect(fs.lstatSync(file).isFile(), what).toBe(true);
      } finally {
        writer?.kill('SIGKILL');
      }
    }
  }, 60_000);

  it('an index file truncated in place while loaded is let go: searches scan, exact, until it is rebuilt', async () => {
    const dataDir = path.join(tmp, 'data-truncated-live');
    const dir = indexDirFor(dataDir, root);
    await buildIndex(root, dir, () => false);
    const file = path.join(dir, INDEX_FILE);
    const index = openIndex(root, { dataDir });
    await index.whenReady();
    expect(index.status().reason).toMatch(/^loaded;/);
    expect((await summaryOf('rare_token_xyz', index)).index).toMatchObject({ used: true, candidates: 11 });
    // Cut into the lists, on the same inode the index holds open (not a rename).
    fs.truncateSync(file, index.status().indexBytes - 64);
    for (const pattern of ['rare_token_xyz', 'common words']) {
      const s = await summaryOf(pattern, index);
      expect(s.index?.used, pattern).toBe(false);
      expect(s.index?.reason, pattern).toMatch(/rebuilding: the index file was changed in place/);
      expect(s.filesWithMatch, pattern).toBe(pattern === 'rare_token_xyz' ? 11 : 300 - 11);
    }
    await index.whenReady();
    expect(index.status()).toMatchObject({ state: 'ready', files: 300 });
    expect(index.status().reason).toMatch(/^rebuilt: the index file was changed in place/);
    const s = await summaryOf('rare_token_xyz', index);
    expect(s.index).toMatchObject({ used: true, candidates: 11 });
    expect(s.filesWithMatch).toBe(11);
    await index.close();
    expect(() => readIndexFile(dir, root)).not.toThrow();
  });

  it('survives kill -9 in the middle of writing: the old index or the new one, never a torn one', async () => {
    const dataDir = path.join(tmp, 'data-kill');
    const dir = indexDirFor(dataDir, root);
    await buildIndex(root, dir, () => false);
    const dist = path.resolve(__dirname, '../dist/content-index/format.js');
    const tableDist = path.resolve(__dirname, '../dist/content-index/gram-table.js');
    // The child rewrites the index over and over (with a large payload, so a write takes a while) and says
    // when each write starts; it is killed at the n-th start, in the middle of a write.
    const child = `
      const { writeIndexFile, readIndexFile } = await import(${JSON.stringify(dist)});
      const { forEachGram } = await import(${JSON.stringify(tableDist)});
      const d = readIndexFile(${JSON.stringify(dir)}, ${JSON.stringify(root)});
      // The table as a build hands it over (count 0xffffffff: left out).
      const t = { keys: [], counts: [], offsets: [], lengths: [] };
      forEachGram(d.postings, d.postings.dataBytes, (e) => {
        t.keys.push(e.gram);
        t.counts.push(e.count || 0xffffffff);
        t.offsets.push(e.offset);
        t.lengths.push(e.length);
      });
      const table = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Uint32Array.from(v)]));
      // Both versions are valid: the second carries 48 MiB of unused bytes after the postings.
      const lists = d.postings.bytes(0, d.postings.dataBytes);
      const big = new Uint8Array(48 * 1024 * 1024 + lists.length);
      big.set(lists);
      for (let i = 0; ; i++) {
        process.stdout.write('start\\n');
        writeIndexFile(${JSON.stringify(dir)}, { ...d, postings: { ...table, data: i % 2 ? lists : big } });
      }`;
    for (const killAt of [1, 2, 3]) {
      const p = spawn(process.execPath, ['--input-type=module', '-e', child], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let starts = 0;
      await new Promise<void>((resolve) => {
        p.stdout.on('data', (b: Buffer) => {
          starts += b.toString().split('start').length - 1;
          if (starts >= killAt) p.kill('SIGKILL');
        });
        p.on('exit', () => resolve());
      });
      const d = readIndexFile(dir, root); // throws on a torn file
      expect(d.paths).toHaveLength(300);
    }
    const index = openIndex(root, { dataDir, watch: false });
    await index.whenReady();
    expect(index.status().reason).toMatch(/^loaded;/);
    expect((await summaryOf('rare_token_xyz', index)).filesWithMatch).toBe(11);
    await index.close();
    // The dead writer's temporary files are cleared by the next open.
    expect(fs.readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  }, 120_000);
});

describe('content index: when the watchers cannot be trusted', () => {
  it('falls back to size+mtime checks on ENOSPC and still sees every edit', async () => {
    const dataDir = path.join(tmp, 'data-enospc');
    let calls = 0;
    const index = openIndex(root, {
      dataDir,
      watchDir: () => {
        calls++;
        if (calls > 3)
          throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), {
            code: 'ENOSPC',
          });
        return { close() {} };
      },
    });
    await index.whenReady();
    expect(index.status()).toMatchObject({ freshness: 'stat' });
    expect(index.status().freshnessReason).toMatch(/ENOSPC/);
    const f = path.join(root, 'd3', 'f3.txt');
    const before = fs.readFileSync(f);
    try {
      fs.writeFileSync(f, 'rare_token_xyz appears now\n');
      const s = await summaryOf('rare_token_xyz', index);
      expect(s.index?.used).toBe(true);
      expect(s.index?.reason).toMatch(/size\+mtime/);
      expect(s.filesWithMatch).toBe(12);
    } finally {
      fs.writeFileSync(f, before);
    }
    expect((await summaryOf('rare_token_xyz', index)).filesWithMatch).toBe(11);
    await index.close();
  });

  it('a barrier that never comes back (silent watchers) stops trusting them instead of answering stale', async () => {
    const dataDir = path.join(tmp, 'data-silent');
    const index = openIndex(root, { dataDir, watchDir: () => ({ close() {} }), platform: 'linux' });
    await index.whenReady();
    const f = path.join(root, 'd4', 'f4.txt');
    const before = fs.readFileSync(f);
    try {
      fs.writeFileSync(f, 'rare_token_xyz and more\n');
      const s = await summaryOf('rare_token_xyz', index);
      expect(s.filesWithMatch).toBe(12);
      expect(index.status().freshness).toBe('stat');
      expect(index.status().freshnessReason).toMatch(/barrier/);
    } finally {
      fs.writeFileSync(f, before);
    }
    await index.close();
  });
});
