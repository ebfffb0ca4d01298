export { AUDIT_HEAD_FILE, type AuditHead } from './head.js';
export { AUDIT_KEY_FILE, AuditKeyError, loadAuditKey } from './key.js';
export * from './limits.js';
export {
  AUDIT_DIR,
  AUDIT_FILE,
  AUDIT_LOSS_CODES,
  type AuditEvent,
  AuditLog,
  type AuditLogOptions,
  type AuditSink,
} from './log.js';
export { type AuditRecord, canonicalJson, entryHash, GENESIS_HASH } from './record.js';
export type { Refusal } from './refusals.js';
export {
  type AuditBreak,
  type AuditLoss,
  type AuditVerifyResult,
  auditSegments,
  verifyAuditLog,
} from './verify.js';
