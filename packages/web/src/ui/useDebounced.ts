import { useEffect, useState } from 'react';

/** `value` once it has stayed unchanged for `ms`: a burst of keystrokes makes one request. */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
