/**
 * content-index: a live gram index of a directory tree that picks the files a search reads (never what
 * it finds). A layer the engines use; no surface knows its format.
 *
 * Module map: grams.ts (hashed byte quadgrams, lowercased), postings-builder.ts (postings in one pass, delta
 * varints), format.ts (the persisted file: atomic write, checked read), tree.ts (the index's own walk),
 * blocks.ts (files are indexed in 64 KiB blocks), build.ts (+ index-worker.ts: a build off the caller's
 * thread), query.ts (required literals → gram query → candidate files), overlay.ts (files re-indexed in
 * memory), watch.ts (directory watchers), content-index.ts (ContentIndex: base + overlay + watchers +
 * barrier; what a search asks of it).
 *
 *   const index = openIndex('/src/linux', { dataDir });
 *   await index.whenReady();
 *   for await (const ev of search({ pattern: 'sched_clock', cwd: '/src/linux', index })) …
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContentIndex, type ContentIndexOptions } from './content-index.js';

export {
  ensurePrivateDir,
  type PrivateDirCode,
  PrivateDirError,
  type PrivateDirOptions,
  privateSubdir,
} from '../util/private-dir.js';
export type { BuildProgress, BuildResult } from './build.js';
export {
  ContentIndex,
  type ContentIndexOptions,
  type ContentIndexState,
  type ContentIndexStatus,
  type DocumentExtractionStatus,
  type IndexSelection,
  type IndexSelectRequest,
  type IndexUse,
  indexDirFor,
} from './content-index.js';
export { ContentIndexRegistry, type SearchIndex } from './registry.js';

export class IndexRootError extends Error {
  readonly code = 'index_root_invalid';
}

/**
 * Opens (loads or builds, in the background) the index of `root`, a directory; the index is keyed by its
 * canonical path. Surfaces resolve what a user typed through the fence's root policy first.
 */
export function openIndex(root: string, options: ContentIndexOptions): ContentIndex {
  let canonical: string;
  try {
    canonical = fs.realpathSync.native(path.resolve(root));
  } catch (err) {
    throw new IndexRootError(`cannot index ${root}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  if (!fs.statSync(canonical).isDirectory())
    throw new IndexRootError(`cannot index ${root}: not a directory`);
  return new ContentIndex(canonical, options);
}
export type { DocumentTextStoreStats } from '../docs/store.js';
export { closeDocumentStores, documentStoreFile, documentStoreFor } from './documents.js';
