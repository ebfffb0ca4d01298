import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The key file, relative to the data directory: outside the log directory, in a 0700 directory of its own. */
export const AUDIT_KEY_FILE = path.join('keys', 'audit-hmac.key');

/** The key is missing, unreadable, malformed, or readable by other accounts. */
export class AuditKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditKeyError';
  }
}

/**
 * Loads the audit chain's HMAC key, creating it (32 random bytes, hex, mode 0600 in a 0700 directory) when
 * `create` is set and none exists. A key file that group or others can read is refused: the chain is only as good
 * as the key's secrecy.
 */
export function loadAuditKey(dataDir: string, options: { create?: boolean; platform?: string } = {}): Buffer {
  const file = path.join(dataDir, AUDIT_KEY_FILE);
  if (options.create) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new AuditKeyError(`cannot create the audit key ${file}: ${(err as Error).message}`);
      }
    }
  }
  let st: fs.Stats;
  let text: string;
  try {
    st = fs.statSync(file);
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new AuditKeyError(
      `cannot read the audit key ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  if ((options.platform ?? process.platform) !== 'win32' && (st.mode & 0o077) !== 0) {
    throw new AuditKeyError(
      `the audit key ${file} is accessible to other accounts (mode ${(st.mode & 0o777).toString(8)}); run: chmod 600 ${file}`,
    );
  }
  const hex = text.trim();
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new AuditKeyError(`the audit key ${file} is malformed`);
  return Buffer.from(hex, 'hex');
}
