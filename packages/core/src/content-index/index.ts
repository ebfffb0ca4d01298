/**
 * content-index: a live gram index of a directory tree that picks the files a search reads (never what
 * it finds). A layer the engines use; no surface knows its format.
 *
 * Module map: grams.ts (hashed byte quadgrams, lowercased), postings-builder.ts (postings in one pass, delta
 * varints), format.ts (the persisted file: atomic write, checked read), tree.ts (the index's own walk),
 * blocks.ts (files are indexed in 64 KiB blocks), build.ts (+ index-worker.ts: a build off the caller's
 * thread), query.ts (required literals → gram query → candidate files), overlay.ts (files re-indexed in
 * memory), watch.ts (directory watchers), base.ts (a loaded base and its stale records), freshness.ts (watchers,
 * the barrier, what changed since the base), walk-cache.ts (a search's walk, kept under a key no walk option escapes),
 * selection.ts (which walked files a search reads), content-index.ts (ContentIndex: the lifecycle, and the
 * engine's SearchIndex, engine/search-index.ts, that a search asks).
 *
 *   const index = openIndex('/src/linux', { dataDir });
 *   await index.whenReady();
 *   for await (const ev of search({ pattern: 'sched_clock', cwd: '/src/linux', index })) …
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContentIndex, type ContentIndexOptions } from './content-index.js';

export type {
  IndexSelection,
  IndexSelectRequest,
  IndexUse,
  IndexWalkOptions,
  IndexWalkRequest,
  SearchIndex,
} from '../engine/search-index.js';
export {
  ensurePrivateDataDir,
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
  indexDirFor,
} from './content-index.js';
export { ContentIndexRegistry } from './registry.js';

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
