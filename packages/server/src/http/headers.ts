/**
 * Headers on every answer, the app's and the Node layer's alike (docs/security.md): nothing is sniffed, framed,
 * referred or read cross-origin. `Cache-Control: no-store` is set by each answerer (static assets cache).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
