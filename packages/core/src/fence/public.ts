/**
 * The public surface of `@trawl/core/fence`: the sensitive-path fence and the root policy. The layer and its modules
 * are described in `index.ts`, the barrel the rest of the engine imports from; only what is named here is the
 * package's API.
 */
export {
  type CanonicalRoot,
  createSensitiveFence,
  expandHome,
  homeDir,
  type ResolvedUserRoot,
  type ResolveUserRootOptions,
  type RootProbeFs,
  resolveUserRoot,
  SensitiveFence,
  type SensitiveFenceOptions,
} from './index.js';
