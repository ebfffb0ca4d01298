/**
 * The fence's pinned numbers. Each layer keeps its limits beside it, so a layer imported alone (`@trawl/core/fence`)
 * pulls in nothing of the others.
 */

/** A candidate that cannot be canonicalised within this many ms is treated as sensitive (fail closed). */
export const FENCE_RESOLVE_DEADLINE_MS = 2_000;

/** After a resolution stalls, paths under the same two-component prefix are refused without resolving for this long. */
export const FENCE_STALL_COOLDOWN_MS = 30_000;

/** Each repeated stall of one prefix doubles its cooldown, up to this ceiling. */
export const FENCE_STALL_COOLDOWN_MAX_MS = 1_800_000;

/**
 * The fenced files' identities (fence/identities.ts) are looked up again when older than this: a hard link to a
 * credential file made since is refused from then on.
 */
export const FENCE_IDENTITY_TTL_MS = 5_000;

/**
 * A live fence's table (fence/fence.ts `live`) is resolved again when older than this, whatever its watchers saw: a
 * retargeted link further along a chain, or a directory that could not be watched, is fenced from then on.
 */
export const FENCE_TABLE_TTL_MS = 5_000;

/** Entries a look-up of the fenced locations visits at most (a store's files beyond are not in the set). */
export const FENCE_IDENTITY_MAX_ENTRIES = 4_096;

/** Levels below a fenced location that look-up descends (`~/.gnupg/private-keys-v1.d/…` is one). */
export const FENCE_IDENTITY_MAX_DEPTH = 4;
