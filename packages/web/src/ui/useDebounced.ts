import { createContext, useContext, useEffect, useState } from 'react';

/** Where debounce windows are timed: the browser's timers, or a clock a test moves by hand. */
export interface DebounceTimers {
  set(fire: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const browserTimers: DebounceTimers = {
  set: (fire, ms) => setTimeout(fire, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The timers every `useDebounced` below it uses (default: the browser's). A seam for tests: with a hand-moved clock a
 * test says "no request before the window, one after" exactly, on any machine.
 */
export const DebounceTimersContext = createContext<DebounceTimers>(browserTimers);

/** `value` once it has stayed unchanged for `ms`: a burst of keystrokes makes one request. */
export function useDebounced<T>(value: T, ms: number): T {
  const timers = useContext(DebounceTimersContext);
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = timers.set(() => setV(value), ms);
    return () => timers.clear(t);
  }, [value, ms, timers]);
  return v;
}
