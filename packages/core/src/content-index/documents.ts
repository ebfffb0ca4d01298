import * as path from 'node:path';
import { DocumentTextStore, type DocumentTextStoreOptions } from '../docs/store.js';
import type { SensitiveFence } from '../fence/fence.js';
import { ensurePrivateDir, privateSubdir } from '../util/private-dir.js';
import { indexDirFor } from './content-index.js';

/** The file a root's document text store persists to: beside its content index (`documents.bin`). */
export function documentStoreFile(dataDir: string, root: string): string {
  return path.join(indexDirFor(dataDir, root), 'documents.bin');
}

const stores = new Map<string, DocumentTextStore>();

/**
 * The one document text store of `root` in this thread, persisted beside the root's content index, holding no text
 * of a path `fence` calls sensitive. Every search of the root shares it, whether or not the root is indexed.
 * The data directory (and the index's directory in it) must be this account's alone (util/private-dir.ts).
 */
export function documentStoreFor(
  dataDir: string,
  root: string,
  fence: SensitiveFence,
  options: Omit<DocumentTextStoreOptions, 'file' | 'sensitive'> = {},
): DocumentTextStore {
  const file = documentStoreFile(dataDir, root);
  const known = stores.get(file);
  if (known) return known;
  ensurePrivateDir(dataDir);
  privateSubdir(dataDir, path.relative(dataDir, path.dirname(file)).split(path.sep));
  const store = new DocumentTextStore({
    ...options,
    file,
    sensitive: (abs) => fence.isSensitiveCanonical(abs),
  });
  stores.set(file, store);
  return store;
}

/** Writes and forgets every store of this thread (a process about to exit, a test's cleanup). */
export async function closeDocumentStores(): Promise<void> {
  const all = [...stores.values()];
  stores.clear();
  await Promise.all(all.map((s) => s.close()));
}
