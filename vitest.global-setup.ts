import { spawnSync } from 'node:child_process';

/**
 * CLI and worker tests run the built `dist/`, so bring it up to date once before any test runs
 * (incremental: a no-op when nothing changed). `tsc -b` still emits when there are type errors; those
 * are reported here and fail `npm run typecheck`, the check that owns them.
 */
export default function setup(): void {
  const result = spawnSync(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-b', 'packages/core', 'packages/server'],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) {
    process.stderr.write(
      `\n[global setup] tsc -b reported errors (tests run against what was emitted):\n${result.stdout}\n`,
    );
  }
}
