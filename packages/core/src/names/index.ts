export { FileIndex, type FileIndexOptions, type FileIndexProgress } from './file-index.js';
export * from './limits.js';
export { referenceFuzzyScore } from './reference-score.js';
export { FileIndexRegistry, type FileIndexRegistryOptions } from './registry.js';
export { isDotName, NAME_SKIP_DIRS, tccPruner } from './rules.js';
export {
  charMask,
  FUZZY_SCORE_CEILING,
  fuzzyQuality,
  fuzzyScore,
  fuzzyScoreTarget,
  lastMatchWasAliasOnly,
  lexicalScoreTarget,
  type NameQuery,
  type NameTarget,
  nameTarget,
  prepareNameQuery,
  scoreTarget,
} from './score.js';
export {
  type NameSearchRequest,
  type NameSearchResponse,
  normalizeNameLimit,
  searchNames,
} from './search.js';
export { EntryStore, type RankedSlot } from './store.js';
export {
  clampNameLimit,
  compareRanked,
  type NameDirent,
  type NameKind,
  type NameKinds,
  type NameResult,
  type NameScorer,
  type NameSearchFs,
  type NameSearchOptions,
  type NameStat,
  type NameWatcher,
  nodeNameFs,
  parseNameKinds,
  type RankedCandidate,
} from './types.js';
export { type NameWalkOptions, type NameWalkResult, walkNameSearch } from './walk.js';
