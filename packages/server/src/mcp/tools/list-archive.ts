import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SensitiveFence } from '@trawl/core/fence';
import { archives } from '@trawl/core/tool';

/** One level of an archive, as list_dir shows it: the names, and what a page and the totals are. */
export interface ArchiveLevel {
  /** `bundle.zip:src/a.ts`, `bundle.zip:src/lib/` — spelled as `search` takes them in paths. */
  entries: Array<{ shown: string; dir: boolean; size: number }>;
  dirs: number;
  files: number;
  complete: boolean;
}

/**
 * When `dir` names an archive inside the root (`bundle.whl`, `bundle.whl:pkg/`), the archive's members one level
 * below that member path; null when it names no archive (a directory listing follows). A refusal is a string.
 */
export async function archiveLevel(
  root: string,
  dir: string,
  fence: SensitiveFence,
): Promise<ArchiveLevel | string | null> {
  const spelled = dir.replace(/\/+$/, '');
  const inRoot = (p: string) => {
    const abs = path.resolve(root, p);
    return abs === root || abs.startsWith(`${root}${path.sep}`) ? abs : null;
  };
  const sniff = (p: string) => {
    const abs = inRoot(p);
    return abs ? archives.formatOf(abs) : null;
  };
  let archive: string;
  let prefix: string;
  const colon = spelled.endsWith(':') ? spelled.slice(0, -1) : null;
  if (colon !== null || !spelled.includes(':')) {
    archive = colon ?? spelled;
    prefix = '';
    if (archive === '' || sniff(archive) === null) return null;
  } else {
    const sel = archives.parseSelector(spelled, sniff);
    if (!sel || sniff(sel.archive) === null) return null;
    archive = sel.archive;
    prefix = sel.member.replace(/^\/+/, '');
  }
  const abs = inRoot(archive)!;
  let real: string;
  try {
    real = fs.realpathSync(abs);
  } catch {
    return null;
  }
  if (!(real === root || real.startsWith(`${root}${path.sep}`)))
    return `${archive} leads outside the project root.`;
  if (fence.isSensitiveCanonical(real))
    return `${archive} is a sensitive location (credentials); it is not listed.`;
  const format = archives.formatOf(real);
  if (!format) return null;
  const listed = await archives.listMembers(real, format);
  if (!listed.ok) return `${archive}: ${listed.reason}`;
  const base = prefix === '' ? '' : `${prefix.replace(/\/+$/, '')}/`;
  const level = new Map<string, { dir: boolean; size: number }>();
  for (const m of listed.members) {
    if (!m.path.startsWith(base) || m.path === base.slice(0, -1)) continue;
    const rest = m.path.slice(base.length);
    const slash = rest.indexOf('/');
    const name = slash === -1 ? rest : rest.slice(0, slash);
    const isDir = slash !== -1 || m.dir;
    const had = level.get(name);
    if (!had || isDir) level.set(name, { dir: isDir || had?.dir === true, size: isDir ? 0 : m.size });
  }
  const entries = [...level.entries()]
    .map(([name, e]) => ({ shown: `${archive}:${base}${name}${e.dir ? '/' : ''}`, dir: e.dir, size: e.size }))
    .sort((a, b) =>
      a.dir !== b.dir ? (a.dir ? -1 : 1) : a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0,
    );
  const dirs = entries.filter((e) => e.dir).length;
  return { entries, dirs, files: entries.length - dirs, complete: listed.complete };
}
