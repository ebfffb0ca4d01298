/**
 * The access token travels in the URL's fragment (`/#token=…`), which a browser never sends to a server, and is kept
 * in this tab's session storage. A cookie would be sent to every server on 127.0.0.1 whatever its port, so there is
 * none: every API call carries `Authorization: Bearer`.
 */
export const TOKEN_KEY = 'trawl.token';

/**
 * Takes a `#token=` fragment into session storage and strips it from the address bar (so it is neither bookmarked
 * nor shown), then returns the token for this tab, or null.
 */
export function adoptToken(loc: Location, storage: Storage, history: History): string | null {
  const params = new URLSearchParams(loc.hash.replace(/^#/, ''));
  const fromHash = params.get('token');
  if (fromHash) {
    storage.setItem(TOKEN_KEY, fromHash);
    params.delete('token');
    const rest = params.toString();
    history.replaceState(history.state, '', loc.pathname + loc.search + (rest ? `#${rest}` : ''));
  }
  return storage.getItem(TOKEN_KEY);
}
