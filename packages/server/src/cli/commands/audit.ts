import * as path from 'node:path';
import { UsageError, write } from '../io.js';
import type { RegisterCommand } from '../program.js';
import { cliHome } from '../root.js';

/** Loss records printed by `verify` (the rest are counted). */
const LOSSES_SHOWN = 20;

/**
 * `trawl audit verify [--data-dir D]`: checks the audit log's HMAC chain and its head. Exit 0 when every record
 * verifies and none is missing; 1 naming the first broken or missing record; 2 when there is no key to check with;
 * 3 when the chain is whole but the log records losses (records dropped or rotated away before their time).
 */
export const registerAudit: RegisterCommand = (program, io, setExit) => {
  const audit = program.command('audit').description("Inspect trawl serve's audit log.");
  audit
    .command('verify')
    .description(
      'Verify the audit log: exit 0 if whole, 1 naming the first broken or missing record, 3 if it records losses.',
    )
    .option('--data-dir <dir>', 'data directory (env TRAWL_DATA_DIR; default ~/.local/share/trawl)')
    .action(async (flags: { dataDir?: string }) => {
      const [{ verifyAuditLog, AuditKeyError }, { defaultDataDir }] = await Promise.all([
        import('../../audit/index.js'),
        import('../../http/data-dir.js'),
      ]);
      const home = cliHome(io);
      const dataDir = flags.dataDir ? path.resolve(io.cwd, flags.dataDir) : defaultDataDir(io.env, home);
      let result: Awaited<ReturnType<typeof verifyAuditLog>>;
      try {
        result = await verifyAuditLog(dataDir);
      } catch (err) {
        if (err instanceof AuditKeyError) throw new UsageError(err.message);
        throw err;
      }
      const span = result.firstSeq !== undefined ? `seq ${result.firstSeq}..${result.lastSeq}, ` : '';
      const where = `${result.records} record(s) (${span}${result.segments.length} segment(s))`;
      if (!result.ok) {
        const b = result.broken!;
        await write(
          io.stdout,
          `audit log BROKEN at ${path.basename(b.file)}${b.line > 0 ? `:${b.line}` : ''}${
            b.eventId ? ` (event ${b.eventId})` : ''
          }: ${b.reason}\n` +
            (b.firstMissingSeq !== undefined ? `first missing record: seq ${b.firstMissingSeq}\n` : '') +
            `${result.records} record(s) before it verified (${b.file})\n`,
        );
        setExit(1);
        return;
      }
      if (result.losses.length > 0) {
        const shown = result.losses.slice(0, LOSSES_SHOWN);
        const lines = shown.map((l) => `  seq ${l.seq} ${l.timestamp} ${l.error}: ${l.resources}\n`);
        if (result.losses.length > shown.length)
          lines.push(`  … ${result.losses.length - shown.length} more\n`);
        await write(
          io.stdout,
          `audit log INCOMPLETE: the chain of ${where} is whole, but the log records ${result.losses.length} loss(es):\n${lines.join('')}`,
        );
        setExit(3);
        return;
      }
      const from =
        result.anchor === 'genesis'
          ? 'from the first record ever written'
          : result.anchor === 'rotated'
            ? 'from the oldest kept record (older ones rotated away after their retention)'
            : 'empty';
      await write(io.stdout, `audit log ok: ${where}, ${from}\n`);
      setExit(0);
    });
};
