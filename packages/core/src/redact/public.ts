/**
 * The public surface of `@trawl/core/redact`: credential redaction. The layer and its modules are described in
 * `index.ts`, the barrel the rest of the engine imports from; only what is named here is the package's API.
 */
export {
  type CredentialRedaction,
  type CredentialRedactionOptions,
  redactCredentials,
  redactedWords,
  redactValues,
  type ValueRedaction,
} from './index.js';
