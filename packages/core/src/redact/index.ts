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
export {
  createPathRedactor,
  PATH_LABEL_HEX_CHARS,
  type PathRedactorOptions,
  redactPathSegments,
} from './path-segments.js';
