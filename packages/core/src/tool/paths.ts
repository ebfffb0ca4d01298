import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expandHome } from '../fence/index.js';
import { homeDir } from '../fence/root.js';

/** Unicode spaces models and terminals sometimes put into paths; they mean an ordinary space. */
const UNICODE_SPACES = /[\u00a0\u2000-\u200a\u202f\u205f\u3000]/g;

/**
 * Normalises one `paths` entry the way a person would read it: trimmed, one pair of surrounding double
 * quotes removed, unusual spaces made ASCII, an `@` mention prefix dropped before `/` or `~`, `file://` URLs
 * made paths, `~` expanded, and a path of only slashes meaning the working directory (an agent's "/" is its
 * project root).
 */
export function normaliseEntry(raw: string, home: string = homeDir()): string {
  let s = raw.trim();
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) s = s.slice(1, -1).trim();
  s = s.replace(UNICODE_SPACES, ' ');
  if (s.startsWith('@/') || s.startsWith('@~')) s = s.slice(1);
  if (/^file:\/\//i.test(s)) {
    try {
      s = fileURLToPath(s);
    } catch {
      // not a valid file URL: left as is, and reported missing later
    }
  }
  s = expandHome(s, home);
  if (/^\/+$/.test(s)) s = '.';
  return s;
}

/** `scheme://…` for a URL-like entry, else null. */
export function urlScheme(entry: string): string | null {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(entry);
  return m ? m[1]!.toLowerCase() : null;
}

/** Glob metacharacters as the tool understands them. */
export function hasGlobChars(s: string): boolean {
  return /[*?[{]/.test(s);
}

/** A `,` outside `{…}` (a backslash escapes the next character). */
export function hasTopLevelComma(s: string): boolean {
  return splitTopLevelCommas(s).length > 1;
}

/** `s` split at its commas outside braces (`a,{b,c}` is `a` and `{b,c}`), each part trimmed. */
export function splitTopLevelCommas(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(s.slice(from, i).trim());
      from = i + 1;
    }
  }
  parts.push(s.slice(from).trim());
  return parts;
}

/** Appends the `}` an unbalanced `{` is missing (`src/*.{ts,md` works as the reference's does). */
export function closeBraces(glob: string): string {
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
  }
  return glob + '}'.repeat(depth);
}

/**
 * Splits a glob entry at its first segment holding a glob character: `src/app/*.ts` → base `src/app`,
 * rest `*.ts`. `bare` when the entry has no `/` at all: a bare glob matches file names at any depth;
 * otherwise the rest is anchored at the base (`src/*.ts` = direct children of src).
 */
export function splitGlob(entry: string): { base: string; rest: string; bare: boolean } {
  const absolute = entry.startsWith('/');
  const segments = entry.split('/');
  let k = 0;
  while (k < segments.length && !hasGlobChars(segments[k]!)) k++;
  const baseSegments = segments.slice(0, k).filter((s, i) => s !== '' || i === 0);
  let base = baseSegments.join('/');
  if (absolute && base === '') base = '/';
  if (base === '') base = '.';
  const rest = segments
    .slice(k)
    .filter((s) => s !== '')
    .join('/');
  return { base, rest, bare: !entry.includes('/') };
}

/** How a path is shown: relative to cwd when inside it ('.' for cwd itself), absolute otherwise. */
export function displayPath(abs: string, cwd: string): string {
  if (abs === cwd) return '.';
  const prefix = cwd.endsWith('/') ? cwd : `${cwd}/`;
  return abs.startsWith(prefix) ? abs.slice(prefix.length) : abs;
}

/** Longest common directory of absolute paths ('/' when they share nothing). */
export function commonBase(paths: readonly string[]): string {
  if (paths.length === 0) return '/';
  let parts = paths[0]!.split('/').filter(Boolean);
  for (const p of paths.slice(1)) {
    const q = p.split('/').filter(Boolean);
    let n = 0;
    while (n < parts.length && n < q.length && parts[n] === q[n]) n++;
    parts = parts.slice(0, n);
  }
  return `/${parts.join('/')}`;
}

export type StatResult =
  | { kind: 'file' | 'dir' | 'other'; size: number }
  | { kind: 'missing' }
  | { kind: 'error'; code: string };

export async function statPath(abs: string): Promise<StatResult> {
  try {
    const st = await fs.promises.stat(abs);
    if (st.isDirectory()) return { kind: 'dir', size: 0 };
    if (st.isFile()) return { kind: 'file', size: st.size };
    return { kind: 'other', size: 0 };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'error', code };
  }
}

/** What kind of non-regular file a path is, for notes ("FIFO", "socket", "device"). */
export function describeSpecialFile(abs: string): string {
  try {
    const st = fs.statSync(abs);
    if (st.isFIFO()) return 'a FIFO';
    if (st.isSocket()) return 'a socket';
    if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  } catch {
    // fall through
  }
  return 'not a regular file';
}
