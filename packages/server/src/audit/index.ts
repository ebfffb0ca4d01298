export { AUDIT_KEY_FILE, AuditKeyError, loadAuditKey } from './key.js';
export * from './limits.js';
export {
  AUDIT_DIR,
  AUDIT_FILE,
  type AuditEvent,
  AuditLog,
  type AuditLogOptions,
  type AuditSink,
} from './log.js';
export { type AuditRecord, canonicalJson, entryHash, GENESIS_HASH } from './record.js';
export { type AuditBreak, type AuditVerifyResult, auditSegments, verifyAuditLog } from './verify.js';
