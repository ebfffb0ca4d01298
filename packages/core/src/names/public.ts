/**
 * The public surface of `@trawl/core/names`: name search. The layer and its modules are described in `index.ts`, the
 * barrel the rest of the engine imports from; only what is named here is the package's API.
 */
export {
  FileIndex,
  type FileIndexOptions,
  FileIndexRegistry,
  matchPositions,
  NAME_LIMITS,
  type NameKind,
  type NameKinds,
  type NameResult,
  type NameSearchFs,
  type NameSearchRequest,
  type NameSearchResponse,
  type NameWalkOptions,
  nodeNameFs,
  normaliseNameLimit,
  parseNameKinds,
  searchNames,
  walkNameSearch,
} from './index.js';
