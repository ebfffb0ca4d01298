import type {
  BuildProgress,
  ContentIndexStatus,
  DocumentExtractionStatus,
  DocumentTextStoreStats,
} from '@trawl/core/content-index';
import { dataDirOf } from '../data-dir.js';
import { UsageError, write } from '../io.js';
import type { RegisterCommand } from '../program.js';
import { cliHome, cliRoot } from '../root.js';

interface IndexFlags {
  status?: boolean;
  dataDir?: string;
  json?: boolean;
}

/**
 * `trawl index DIR [--status] [--data-dir D] [--json]`: builds the content index of DIR (or brings it up to
 * date: a persisted index that no longer matches the tree is rebuilt), with a progress line on stderr;
 * `--status` only reads it and says how fresh it is. The index lives in the data directory `trawl serve`
 * and `trawl mcp` use, where they load it on start.
 */
export const registerIndex: RegisterCommand = (program, io, setExit) => {
  program
    .command('index')
    .description('Build or update the content index of a directory (trawl mcp / serve load it on start).')
    .argument('<dir>', 'the directory to index')
    .option('--status', 'say how fresh the index is; build nothing')
    .option(
      '--data-dir <dir>',
      'where indexes live (default: $TRAWL_DATA_DIR, else the data directory of trawl serve)',
    )
    .option('--json', 'print the index status as JSON')
    .action(async (dir: string, flags: IndexFlags) => {
      const { root } = await cliRoot(dir, io, { label: 'DIR' });
      const dataDir = await dataDirOf(flags.dataDir, io);
      // Loaded on use: `trawl --help` loads none of the engine.
      const [{ openIndex }, { createSensitiveFence }] = await Promise.all([
        import('@trawl/core/content-index'),
        import('@trawl/core/fence'),
      ]);
      const home = cliHome(io);
      const progress = progressLine(io.stderr);
      const index = openIndex(root, {
        dataDir,
        fence: createSensitiveFence({ home, env: io.env, extra: [dataDir] }),
        watch: false,
        buildIn: 'inline',
        ...(flags.status
          ? { build: false, extractDocuments: false }
          : {
              onChanged: 'rebuild' as const,
              onProgress: progress.update,
              onDocumentProgress: (d: DocumentExtractionStatus) => docLine(io.stderr, d),
            }),
      });
      await index.whenReady();
      progress.done();
      // The text index is usable now; `trawl index` also waits for the documents' extraction into the text store.
      if (!flags.status) await index.whenDocumentsExtracted();
      const store = index.status().state === 'ready' ? index.documentsFor(root) : undefined;
      await store?.ready();
      // Written now, so the line below tells its size on disk.
      if (!flags.status) await store?.flush();
      const st = { ...index.status(), ...(store ? { documentStore: store.stats() } : {}) };
      await index.close();
      if (flags.json) await write(io.stdout, `${JSON.stringify(st)}\n`);
      else await write(io.stdout, describe(st, flags.status === true));
      if (st.state !== 'ready') {
        if (flags.status) setExit(1);
        else throw new UsageError(`cannot index ${dir}: ${st.reason}`);
        return;
      }
      setExit(0);
    });
};

/** `trawl index`'s documents line: rewritten in place on a terminal, once at the end on a pipe. */
function docLine(stream: NodeJS.WritableStream & { isTTY?: boolean }, d: DocumentExtractionStatus): void {
  const text = `extracting documents: ${d.stored}/${d.total}${d.partial ? ` (${d.partial} partial)` : ''}`;
  if (stream.isTTY) stream.write(d.state === 'done' ? `\r\x1b[K${text}\n` : `\r\x1b[K${text}`);
  else if (d.state === 'done') stream.write(`${text}\n`);
}

function describe(
  st: ContentIndexStatus & { documentStore?: DocumentTextStoreStats },
  statusOnly: boolean,
): string {
  if (st.state !== 'ready') return `${st.root}: no usable index (${st.reason})\n`;
  const lines = [`${st.root}`];
  const built = st.builtAt ? new Date(st.builtAt).toISOString() : 'unknown';
  lines.push(
    `  ${st.files} files, ${mb(st.textBytes)} of text; index ${mb(st.indexBytes)} (${pct(st.indexBytes, st.textBytes)} of the text), ${st.grams} grams`,
  );
  if (st.lastBuild && !statusOnly) lines.push(`  built in ${(st.lastBuild.elapsedMs / 1000).toFixed(1)} s`);
  lines.push(`  built ${built}`);
  if (st.changedSinceBuild !== null) {
    lines.push(
      st.changedSinceBuild === 0
        ? '  up to date: every file matches its size, mtime and inode'
        : `  ${st.changedSinceBuild} file(s) changed since it was built${statusOnly ? ' (a search re-reads them; `trawl index` rebuilds)' : ''}`,
    );
  }
  const ds = st.documentStore;
  if (ds) {
    const extracted = st.documents
      ? `, ${st.documents.stored}/${st.documents.total} of the indexed documents`
      : '';
    lines.push(
      `  document text: ${ds.documents} document(s) stored${extracted}${ds.partial ? `, ${ds.partial} partial (cut by a cap)` : ''}, ${mb(ds.fileBytes)} on disk${ds.loaded.startsWith('rebuilt') ? ` (${ds.loaded})` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** One line, rewritten in place on a terminal; on a pipe, a line per phase. */
function progressLine(stream: NodeJS.WritableStream & { isTTY?: boolean }): {
  update: (p: BuildProgress) => void;
  done: () => void;
} {
  let shown = false;
  let lastPhase = '';
  return {
    update: (p) => {
      const text =
        p.phase === 'walk'
          ? 'indexing: listing files…'
          : p.phase === 'read'
            ? `indexing: ${p.files}/${p.totalFiles} files, ${mb(p.bytes)}`
            : `indexing: writing (${p.totalFiles} files, ${mb(p.bytes)})`;
      if (stream.isTTY) {
        stream.write(`\r\x1b[K${text}`);
        shown = true;
      } else if (p.phase !== lastPhase) {
        stream.write(`${text}\n`);
      }
      lastPhase = p.phase;
    },
    done: () => {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}

function mb(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`;
}

function pct(a: number, b: number): string {
  return b > 0 ? `${((100 * a) / b).toFixed(1)}%` : 'n/a';
}
