import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `trawl rg`'s heap flags (cli/rg-process.ts) hold after a worker thread starts: a worker's start set V8's flags back to
 * the defaults, and the main thread's young generation then grew to 2 × 16 MiB while the js engine's workers ran.
 * Run in a child process, as the flags are the whole process's.
 */
const rgProcess = fileURLToPath(new URL('../dist/cli/rg-process.js', import.meta.url));

/** The young generation's size (MiB) after churning through short-lived objects with a worker thread running. */
function youngGenerationMb(hold: boolean): number {
  const script = `
    import v8 from 'node:v8';
    import { Worker } from 'node:worker_threads';
    import { once } from 'node:events';
    import { holdHeapNearLive } from ${JSON.stringify(rgProcess)};
    if (${hold}) holdHeapNearLive();
    const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
    await once(worker, 'online');
    let kept = [];
    for (let i = 0; i < 2e6; i++) {
      kept.push({ text: 'line ' + i, at: [i, i + 1] });
      if (kept.length > 20000) kept = [];
    }
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    console.log(young.space_size / 1048576);
    process.exit(0);
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return Number(r.stdout.trim());
}

describe('trawl rg process: V8 heap flags', () => {
  it('keep the young generation at its initial size while a worker thread runs', () => {
    // Without the flags V8 grows it to its maximum on this churn: the comparison shows the churn is enough.
    expect(youngGenerationMb(false)).toBeGreaterThanOrEqual(16);
    expect(youngGenerationMb(true)).toBeLessThanOrEqual(4);
  });
});
