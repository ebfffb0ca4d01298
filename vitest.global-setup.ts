import { execFileSync } from 'node:child_process';

/**
 * CLI tests spawn the built `trawl` bin, so bring `dist/` up to date once before any test runs
 * (incremental: a no-op when nothing changed). A type error fails the build step loudly here.
 */
export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'packages/core', 'packages/server'], {
    stdio: 'inherit',
  });
}
