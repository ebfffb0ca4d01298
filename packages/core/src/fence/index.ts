export {
  createSensitiveFence,
  type FenceVerdict,
  SensitiveFence,
  type SensitiveFenceOptions,
} from './fence.js';
export {
  FENCE_RESOLVE_DEADLINE_MS,
  FENCE_STALL_COOLDOWN_MAX_MS,
  FENCE_STALL_COOLDOWN_MS,
} from './limits.js';
export {
  type CanonicalRoot,
  expandHome,
  homeDir,
  type ResolvedUserRoot,
  type ResolveUserRootOptions,
  type RootProbeFs,
  type RootRefusalCode,
  resolveUserRoot,
} from './root.js';
export { SENSITIVE_HOME_LOCATIONS, type SensitiveLocation, trawlDataDirs } from './table.js';
