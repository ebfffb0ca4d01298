/**
 * The public surface of `@trawl/core/content-index`: the live content index. The layer and its modules are described
 * in `index.ts`, the barrel the rest of the engine imports from; only what is named here is the package's API.
 */
export {
  type BuildProgress,
  ContentIndex,
  type ContentIndexOptions,
  ContentIndexRegistry,
  type ContentIndexStatus,
  closeDocumentStores,
  type DocumentExtractionStatus,
  type DocumentTextStoreStats,
  ensurePrivateDataDir,
  type IndexUse,
  openIndex,
  PrivateDirError,
  type SearchIndex,
} from './index.js';
