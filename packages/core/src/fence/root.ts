import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SensitiveFence } from './fence.js';

/**
 * The one root policy (docs/architecture.md, "How a search flows"): how every surface — CLI `--root` and DIR arguments, MCP roots,
 * HTTP `project`/`root` — turns a directory a person or an agent typed into a root it may walk. In order:
 *
 * 1. refuse what names nothing: empty, a NUL or another control character (`invalid_path`);
 * 2. expand `~` ({@link expandHome}); a relative spelling resolves against `cwd`, and without one is refused;
 * 3. **sensitivity before existence**: the lexical path, then where it leads (links, chains of links, a missing
 *    tail on its deepest existing ancestor), is judged by the fence; a resolution that fails or stalls is a
 *    refusal (`sensitive_path`), so existence cannot be probed behind the fence;
 * 4. the canonical path (realpath) must be a directory (`not_a_directory`);
 * 5. the canonical path is judged again, as pure string work, in case a link was swapped between 3 and 4.
 *
 * A root that merely *contains* a credential store (HOME, say) is allowed: walks exclude stores on their
 * canonical paths. What a surface answers for each refusal (exit 2, HTTP 403/404, an MCP error) is its own
 * business; the decision is this function's.
 */

/** Why a typed root was refused. */
export type RootRefusalCode = 'invalid_path' | 'sensitive_path' | 'not_a_directory';

declare const canonicalRoot: unique symbol;

/**
 * A directory the root policy accepted: canonical (realpath'd), a directory, outside every fenced location. Only
 * {@link resolveUserRoot} makes one, so a function that takes it (the server's searches, listings and indexes)
 * cannot be handed a spelling nobody judged, and has no reason to canonicalise it again.
 */
export type CanonicalRoot = string & { readonly [canonicalRoot]: true };

/** A root a caller gave, resolved by the one root policy: its canonical path, or a coded refusal. */
export type ResolvedUserRoot =
  | {
      ok: true;
      /** Canonical: realpath'd, a directory, outside every fenced location. */
      root: CanonicalRoot;
      /** The absolute spelling before resolution (`~` expanded, `..` folded): what a surface may show back. */
      lexical: string;
    }
  | { ok: false; code: RootRefusalCode; message: string; lexical?: string };

/** The file-system calls the policy makes; a worker thread passes synchronous ones behind this interface. */
export interface RootProbeFs {
  realpath(p: string): Promise<string>;
  stat(p: string): Promise<{ isDirectory(): boolean }>;
}

/** Seams and the fence for {@link resolveUserRoot}. */
export interface ResolveUserRootOptions {
  fence: SensitiveFence;
  /** HOME for `~`. */
  home: string;
  /** Base for a relative spelling. Absent: a relative spelling is refused (`invalid_path`). */
  cwd?: string;
  /** Seam for tests and workers (default `fs.promises`). */
  fs?: RootProbeFs;
}

/** Control characters (C0, DEL, C1) never belong in a directory someone typed. */
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The HOME every surface anchors `~` and the fence at: `$HOME` of the environment given (a server's, a test's),
 * else the account's home directory. The one place HOME is derived.
 */
export function homeDir(env: NodeJS.ProcessEnv = process.env): string {
  return env['HOME'] || os.homedir();
}

/**
 * `~` and `~/…` (and `~\…` on Windows) made absolute under `home`; anything else, `~user` included, unchanged.
 * The one expansion every surface uses.
 */
export function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/') || (path.sep === '\\' && p.startsWith('~\\'))) return path.join(home, p.slice(2));
  return p;
}

/** Resolves a root a caller typed, by the policy above. Never throws for any input. */
export async function resolveUserRoot(
  typed: unknown,
  options: ResolveUserRootOptions,
): Promise<ResolvedUserRoot> {
  if (typeof typed !== 'string' || typed.trim() === '')
    return { ok: false, code: 'invalid_path', message: 'a directory is required' };
  if (CONTROL_CHARS.test(typed))
    return { ok: false, code: 'invalid_path', message: 'the directory contains a control character' };
  const expanded = expandHome(typed, options.home);
  if (!path.isAbsolute(expanded) && options.cwd === undefined)
    return { ok: false, code: 'invalid_path', message: 'the directory must be an absolute path' };
  const lexical = path.resolve(options.cwd ?? '/', expanded);

  const { fence } = options;
  if ((await fence.verdict(lexical)) !== 'clear')
    return { ok: false, code: 'sensitive_path', message: 'a sensitive location', lexical };

  const probe = options.fs ?? fs.promises;
  let root: string;
  try {
    root = await probe.realpath(lexical);
    if (!(await probe.stat(root)).isDirectory())
      return { ok: false, code: 'not_a_directory', message: 'not a directory', lexical };
  } catch {
    return { ok: false, code: 'not_a_directory', message: 'no such directory', lexical };
  }
  if (fence.isSensitiveCanonical(root))
    return { ok: false, code: 'sensitive_path', message: 'a sensitive location', lexical };
  return { ok: true, root: root as CanonicalRoot, lexical };
}
