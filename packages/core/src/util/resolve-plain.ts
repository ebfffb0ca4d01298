import * as path from 'node:path';

/**
 * `path.resolve(base, p)` without its cost when there is nothing to resolve. Node's resolve normalizes the
 * joined path character by character (about 2.5 KB of garbage a call), and a broad search resolves a path per
 * matching file: 13 k files for `return -EINVAL` on the Linux tree made resolve, relative and join a quarter
 * of everything the search tool allocated (bench: broad queries through `trawl mcp`). A path already in the
 * form resolve returns — absolute, or relative below an absolute base, with no empty, `.` or `..` segment and
 * no trailing slash — is joined by concatenation; anything else goes to path.resolve.
 */
export function resolvePlain(base: string, p: string): string {
  if (path.sep !== '/' || p === '' || !isPlain(p)) return path.resolve(base, p);
  if (p.charCodeAt(0) === SLASH) return p;
  if (base.charCodeAt(0) !== SLASH || !isPlain(base)) return path.resolve(base, p);
  return base === '/' ? `/${p}` : `${base}/${p}`;
}

/**
 * The canonical form of `abs` (a resolved path) below `rootAbs` (a resolved root whose real location is
 * `rootReal`): the root's real location plus the names below it, as `path.join(rootReal, path.relative(rootAbs,
 * abs))` gives, or null when `abs` is not at or below the root.
 */
export function belowRoot(rootAbs: string, rootReal: string, abs: string): string | null {
  if (abs === rootAbs) return rootReal;
  const prefix = rootAbs === '/' ? '/' : `${rootAbs}/`;
  if (path.sep !== '/' || !abs.startsWith(prefix) || !isPlain(abs) || !isPlain(rootReal)) {
    const rel = path.relative(rootAbs, abs);
    if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
    return rel === '' ? rootReal : path.join(rootReal, rel);
  }
  const rest = abs.slice(prefix.length);
  return rootReal === '/' ? `/${rest}` : `${rootReal}/${rest}`;
}

const SLASH = 0x2f;

/** An empty, `.` or `..` segment, or a trailing slash (the root `/` alone counts as plain). */
const UNPLAIN = /\/\/|(?:^|\/)\.\.?(?:\/|$)|.\/$/;

function isPlain(p: string): boolean {
  return !UNPLAIN.test(p);
}
