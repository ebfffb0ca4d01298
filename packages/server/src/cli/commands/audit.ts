import * as os from 'node:os';
import * as path from 'node:path';
import { UsageError, write } from '../io.js';
import type { RegisterCommand } from '../main.js';

/**
 * `trawl audit verify [--data-dir D]`: checks the audit log's HMAC chain. Exit 0 when every record verifies,
 * 1 naming the first broken record, 2 when there is no key to check with.
 */
export const registerAudit: RegisterCommand = (program, io, setExit) => {
  const audit = program.command('audit').description("Inspect trawl serve's audit log.");
  audit
    .command('verify')
    .description('Verify the audit log chain; exit 1 and name the first broken record if it does not verify.')
    .option('--data-dir <dir>', 'data directory (env TRAWL_DATA_DIR; default ~/.local/share/trawl)')
    .action(async (flags: { dataDir?: string }) => {
      const [{ verifyAuditLog, AuditKeyError }, { defaultDataDir }] = await Promise.all([
        import('../../audit/index.js'),
        import('../../http/server.js'),
      ]);
      const home = io.env['HOME'] || os.homedir();
      const dataDir = flags.dataDir ? path.resolve(io.cwd, flags.dataDir) : defaultDataDir(io.env, home);
      let result: Awaited<ReturnType<typeof verifyAuditLog>>;
      try {
        result = await verifyAuditLog(dataDir);
      } catch (err) {
        if (err instanceof AuditKeyError) throw new UsageError(err.message);
        throw err;
      }
      if (result.ok) {
        const from =
          result.anchor === 'genesis'
            ? 'chained from the first record'
            : result.anchor === 'rotated'
              ? 'chained from the oldest kept segment (older ones rotated away)'
              : 'empty';
        await write(
          io.stdout,
          `audit log ok: ${result.records} record(s) in ${result.segments.length} segment(s), ${from}\n`,
        );
        setExit(0);
        return;
      }
      const b = result.broken!;
      await write(
        io.stdout,
        `audit log BROKEN at ${b.file}:${b.line}${b.eventId ? ` (event ${b.eventId})` : ''}: ${b.reason}\n` +
          `${result.records} record(s) before it verified\n`,
      );
      setExit(1);
    });
};
