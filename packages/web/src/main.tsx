/** Entry: adopt the token from the URL fragment, then mount the workbench (or the "open the URL" screen). */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { adoptToken } from './api/auth.js';
import { onUnauthorized } from './api/client.js';
import './styles.css';

function Unauthorized() {
  return (
    <div className="gate">
      <h1>trawl</h1>
      <p>
        Open the URL <code>trawl serve</code> printed — it carries this tab's access token.
      </p>
      <p className="hint">
        The token lives in the address's <code>#token=…</code> part, which never leaves your browser.
      </p>
    </div>
  );
}

function Root({ hasToken }: { hasToken: boolean }) {
  const [denied, setDenied] = useState(!hasToken);
  useEffect(() => onUnauthorized(() => setDenied(true)), []);
  return denied ? <Unauthorized /> : <App />;
}

const token = adoptToken(window.location, sessionStorage, window.history);
const client = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      retry: (n, e) => n < 1 && (e as { status?: number }).status === undefined,
    },
  },
});
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <Root hasToken={token !== null} />
    </QueryClientProvider>
  </StrictMode>,
);
