/**
 * The one place that says the server cannot be reached. While it cannot, the banner asks again now and then (1 s,
 * doubling to 10 s) and on Retry; once an answer comes, every query is fetched again, so what failed meanwhile
 * recovers without a reload.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useReachable } from './api/connection.js';
import { api } from './api/endpoints.js';

const FIRST_PING_MS = 1000;
const MAX_PING_MS = 10_000;

/** Any answer reports the server reachable (apiFetch does); a failure keeps it unreachable. */
const probe = () =>
  api.projects().then(
    () => undefined,
    () => undefined,
  );

export function ConnectionBanner() {
  const reachable = useReachable();
  const qc = useQueryClient();
  const [checking, setChecking] = useState(false);
  const wasReachable = useRef(true);

  const retry = () => {
    setChecking(true);
    void probe().finally(() => setChecking(false));
  };

  useEffect(() => {
    if (reachable) {
      if (!wasReachable.current) void qc.invalidateQueries();
      wasReachable.current = true;
      return;
    }
    wasReachable.current = false;
    let delay = FIRST_PING_MS;
    let timer = 0;
    const next = () => {
      timer = window.setTimeout(() => {
        void probe();
        delay = Math.min(delay * 2, MAX_PING_MS);
        next();
      }, delay);
    };
    next();
    return () => window.clearTimeout(timer);
  }, [reachable, qc]);

  if (reachable) return null;
  return (
    <div className="connection-banner" role="alert">
      <span>
        Can't reach the trawl server. Is <code>trawl serve</code> still running?
      </span>
      <button type="button" className="small" onClick={retry} disabled={checking}>
        {checking ? 'Checking…' : 'Retry'}
      </button>
    </div>
  );
}
