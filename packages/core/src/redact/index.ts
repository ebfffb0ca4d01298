/**
 * redact (`@trawl/core/redact`): credential redaction for text trawl writes somewhere durable or hands to a client
 * (one table of token formats, idempotent, linear), and path-segment redaction for labels that must not leak a
 * user's directory names.
 *
 * @example
 * ```ts
 * import { redactCredentials } from '@trawl/core/redact';
 * const { text, kinds } = redactCredentials('token=ghp_' + 'a'.repeat(36));
 * console.log(text, kinds); // token=[REDACTED: github-token] [ 'github-token' ]
 * ```
 */
export {
  CREDENTIAL_KINDS,
  type CredentialRedaction,
  type CredentialRedactionOptions,
  GENERIC_SECRET_MIN_ENTROPY,
  GENERIC_SECRET_MIN_LENGTH,
  REDACTED_PREFIX,
  type Redactor,
  redactCredentials,
  redactText,
  shannonEntropy,
} from './credentials.js';
export { EXFILTRATION_MARKER, redactExfiltrationUrls } from './exfiltration.js';
export {
  createPathRedactor,
  PATH_LABEL_HEX_CHARS,
  type PathRedactorOptions,
  redactPathSegments,
} from './path-segments.js';
export { LineRedactor, redactedWords, redactValues, type ValueRedaction } from './tool-output.js';
