// Roots for tests, judged as the server's surfaces judge theirs (the root policy: core fence/root.ts).
import {
  type CanonicalRoot,
  createSensitiveFence,
  homeDir,
  resolveUserRoot,
  type SensitiveFence,
} from '@trawl/core/fence';

/** `dir` judged by the root policy, as `trawl mcp --root` judges it; a refusal fails the test's set-up. */
export async function judgedRoot(
  dir: string,
  fence: SensitiveFence = createSensitiveFence(),
): Promise<CanonicalRoot> {
  const r = await resolveUserRoot(dir, { fence, home: homeDir() });
  if (!r.ok) throw new Error(`${dir}: ${r.message}`);
  return r.root;
}
