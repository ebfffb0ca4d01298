/**
 * Whether the trawl server can be reached, as the last API call found it. Every call goes through `apiFetch`,
 * which reports here: a transport failure (the server stopped, the network dropped) makes it unreachable, any
 * answer reachable again. The workbench shows one banner for it instead of an error in every place that asked.
 */
import { useSyncExternalStore } from 'react';

let reachable = true;
const listeners = new Set<() => void>();

function set(value: boolean): void {
  if (reachable === value) return;
  reachable = value;
  for (const l of listeners) l();
}

/** A call got no answer at all. */
export const reportUnreachable = (): void => set(false);
/** A call got an answer (whatever its status). */
export const reportReachable = (): void => set(true);
export const isReachable = (): boolean => reachable;

/** Calls `listener` whenever reachability changes; returns the unsubscribe. */
export function onConnectionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Resolves the next time the server is reachable (at once when it is). */
export function whenReachable(signal: AbortSignal): Promise<void> {
  if (reachable) return Promise.resolve();
  return new Promise((resolve) => {
    const off = onConnectionChange(() => {
      if (!reachable) return;
      off();
      resolve();
    });
    signal.addEventListener('abort', off, { once: true });
  });
}

/** The current reachability, re-rendering on change. */
export function useReachable(): boolean {
  return useSyncExternalStore(onConnectionChange, isReachable);
}

/** What a caller shows for a call that got no answer: the banner says the rest. */
export const UNREACHABLE_MESSAGE = "can't reach the trawl server";
