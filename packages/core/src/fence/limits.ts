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
