import { createHmac, randomBytes } from 'node:crypto';
import { type Redactor, redactText } from './credentials.js';

/** Hex characters of the HMAC label appended to a redacted segment: enough to keep distinct secrets distinct. */
export const PATH_LABEL_HEX_CHARS = 12;

export interface PathRedactorOptions {
  /** The HMAC key for labels (default: random per process, so labels are stable within one run only). */
  key?: Buffer | string;
  /** The text redactor applied to the path and to each segment (default: the credential table). */
  redactor?: Redactor;
}

let processKey: Buffer | undefined;
function defaultKey(): Buffer {
  processKey ??= randomBytes(32);
  return processKey;
}

/**
 * Redacts credentials in a path without losing what makes rows distinct:
 *
 * - a clean path comes back byte for byte (so it still opens);
 * - otherwise each `/`-separated segment is redacted on its own, and every changed segment gets `~` plus the first
 *   12 hex characters of HMAC-SHA256(key, original segment), so two files named after two different secrets stay
 *   two different rows, with labels stable for the key's lifetime;
 * - whenever the segment-wise answer would redact less than redacting the whole string (a secret that spans a
 *   separator), or the labelled result is not itself clean, the whole-string redaction is returned instead.
 *   Never less redaction than the plain redactor.
 */
export function redactPathSegments(p: string, options: PathRedactorOptions = {}): string {
  const redactor = options.redactor ?? redactText;
  const whole = redactor(p);
  if (whole === p) return p;
  const parts = p.split('/');
  const redactedParts = parts.map((s) => redactor(s));
  if (redactedParts.join('/') !== whole) return whole;
  const key = options.key ?? defaultKey();
  const labelled = parts.map((orig, i) => {
    const r = redactedParts[i]!;
    if (r === orig) return orig;
    const label = createHmac('sha256', key).update(orig).digest('hex').slice(0, PATH_LABEL_HEX_CHARS);
    return `${r}~${label}`;
  });
  const out = labelled.join('/');
  return redactor(out) === out ? out : whole;
}

/** A path redactor bound to one key and redactor. */
export function createPathRedactor(options: PathRedactorOptions = {}): (p: string) => string {
  const key = options.key ?? randomBytes(32);
  return (p) => redactPathSegments(p, { ...options, key });
}
