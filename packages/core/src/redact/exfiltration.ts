/**
 * Exfiltration-shaped URLs: addresses whose only purpose is to receive data someone sends out of a machine —
 * request collectors and tunnels (webhook.site, ngrok, interactsh/OAST, Burp Collaborator, pipedream, requestbin),
 * chat webhooks that post to a channel (Discord, Teams, Telegram's bot API), and any URL whose query carries a
 * long encoded blob. A grep preview that shows one hands the endpoint (and often its secret path) to whoever reads
 * the row, so rows carry `[REDACTED: exfiltration-url]` instead. Credential redaction runs first; this pass is for
 * URLs the credential table does not know.
 */
import type { Redactor } from './credentials.js';

/** Hosts (and their subdomains) that exist to collect requests or tunnel them out. */
const COLLECTOR_HOSTS = [
  'webhook\\.site',
  'requestbin\\.(?:com|net)',
  'requestcatcher\\.com',
  'pipedream\\.net',
  'hookbin\\.com',
  'beeceptor\\.com',
  'ngrok(?:-free)?\\.(?:io|app|dev)',
  'trycloudflare\\.com',
  'loca\\.lt',
  'serveo\\.net',
  'burpcollaborator\\.net',
  'oastify\\.com',
  'oast\\.(?:pro|live|site|online|fun|me)',
  'interact\\.sh',
  'canarytokens\\.com',
  'dnslog\\.cn',
].join('|');

/** A URL: scheme, host, then anything up to whitespace or a quote/bracket that ends it in code and prose. */
const URL_RE = /\bhttps?:\/\/([A-Za-z0-9.-]{1,253})(?::\d{1,5})?([^\s"'`<>)\]]*)/gi;

const COLLECTOR_RE = new RegExp(`(?:^|\\.)(?:${COLLECTOR_HOSTS})$`, 'i');

/** Chat webhooks: the path itself is the credential that lets anyone post. */
const WEBHOOK_PATHS: ReadonlyArray<{ host: RegExp; path: RegExp }> = [
  { host: /(?:^|\.)discord(?:app)?\.com$/i, path: /^\/api\/webhooks\//i },
  { host: /(?:^|\.)webhook\.office\.com$/i, path: /^\// },
  { host: /^api\.telegram\.org$/i, path: /^\/bot/i },
];

/** A query value this long in base64/hex/url-safe characters is a payload, not a parameter. */
const BLOB_PARAM_RE = /[?&][^=&#]{0,64}=[A-Za-z0-9+/_%-]{96,}={0,2}(?:[&#]|$)/;

export const EXFILTRATION_MARKER = '[REDACTED: exfiltration-url]';

/** Replaces exfiltration-shaped URLs with {@link EXFILTRATION_MARKER}; other text is returned unchanged. */
export const redactExfiltrationUrls: Redactor = (text) => {
  if (!text.includes('://')) return text;
  URL_RE.lastIndex = 0;
  return text.replace(URL_RE, (whole, host: string, rest: string) => {
    const h = host.replace(/\.$/, '');
    if (COLLECTOR_RE.test(h)) return EXFILTRATION_MARKER;
    if (WEBHOOK_PATHS.some((w) => w.host.test(h) && w.path.test(rest))) return EXFILTRATION_MARKER;
    if (BLOB_PARAM_RE.test(rest)) return EXFILTRATION_MARKER;
    return whole;
  });
};
