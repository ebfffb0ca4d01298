import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SensitiveFence } from '../fence/index.js';
import { escapeGlob } from '../glob/glob.js';
import { BINARY_SNIFF_BYTES } from '../limits.js';
import { startsWithUtf16Bom } from '../search/searcher.js';
import { readArchiveMember, sniffArchiveFormat } from './archive.js';
import { listNames, unique } from './compose.js';
import { SearchToolError } from './errors.js';
import { MAX_FILE_BYTES } from './limits.js';
import type { LineRange } from './line-ranges.js';
import { commonBase, describeSpecialFile, displayPath } from './paths.js';
import type { Notes } from './state.js';
import { describeCode, type Target, unionRanges } from './targets.js';
import { type EngineRoot, type Expanded, type PendingFile, SKIP_DIRS } from './types.js';

/**
 * Planning a call: the resolved targets become groups the executor runs in order. Missing and unreadable
 * targets become notes (or the error, when nothing is left), archive members are read, URLs expanded,
 * duplicates merged, and named files that cannot be searched (sensitive, binary, too large, FIFOs) are set
 * aside with their reason.
 */

export type Absent = Extract<Target, { kind: 'missing' } | { kind: 'unreadable' }>;
export type Present = Exclude<Target, Absent | { kind: 'exclude' }>;

/** Missing entries are skipped with a note, unless nothing else is left (then: "Path not found"). */
export function partitionMissing(
  resolved: readonly Exclude<Target, { kind: 'exclude' }>[],
  notes: Notes,
): { present: Present[]; missingPaths: string[] } {
  const isAbsent = (t: Exclude<Target, { kind: 'exclude' }>): t is Absent =>
    t.kind === 'missing' || t.kind === 'unreadable';
  const present = resolved.filter((t): t is Present => !isAbsent(t));
  const absent = resolved.filter(isAbsent);
  if (present.length === 0) {
    const only = absent.length === 1 ? absent[0]! : null;
    if (only?.kind === 'unreadable') {
      throw new SearchToolError('path_unreadable', `Cannot access ${only.shown}: ${describeCode(only.code)}`);
    }
    const shown = only ? [only.shown] : absent.map((t) => t.input);
    throw new SearchToolError('path_not_found', `Path not found: ${unique(shown).join(', ')}`);
  }
  const missingPaths = unique(absent.filter((t) => t.kind === 'missing').map((t) => t.input));
  if (missingPaths.length > 0) notes.add(`Skipped missing paths: ${listNames(missingPaths)}`);
  const unreadable = absent.flatMap((t) =>
    t.kind === 'unreadable' ? [`${t.input} (${describeCode(t.code)})`] : [],
  );
  if (unreadable.length > 0) notes.add(`Skipped unreadable paths: ${listNames(unreadable)}`);
  return { present, missingPaths };
}

export type MemberRead = { ok: true; bytes: Buffer } | { ok: false; reason: string };

/** Archive members are read first: when none can be read and nothing else is left, that is the answer. */
export async function readArchives(
  present: readonly Present[],
  notes: Notes,
  signal: AbortSignal | undefined,
): Promise<{
  archiveReads: Map<string, MemberRead>;
  unreadableMembers: Array<{ path: string; reason: string }>;
}> {
  const archiveReads = new Map<string, MemberRead>();
  const unreadableMembers: Array<{ path: string; reason: string }> = [];
  for (const t of present) {
    if (t.kind !== 'archive' || archiveReads.has(t.memberKey)) continue;
    const read = await readArchiveMember(t.archiveAbs, t.selector, signal);
    signal?.throwIfAborted();
    archiveReads.set(t.memberKey, read);
    if (!read.ok) unreadableMembers.push({ path: t.input, reason: read.reason });
  }
  const list = unreadableMembers.map((m) => `${m.path} (${m.reason})`);
  const nothingElse =
    present.every((t) => t.kind === 'archive') && [...archiveReads.values()].every((r) => !r.ok);
  if (unreadableMembers.length > 0 && nothingElse) {
    throw new SearchToolError(
      'archive_unreadable',
      `Cannot search archive member(s): ${list.join(', ')}.${
        unreadableMembers.some((m) => /binary|non-UTF-8/.test(m.reason))
          ? ' Only UTF-8 text members can be searched.'
          : ''
      }`,
    );
  }
  if (list.length > 0) {
    notes.add(`Skipped archive entries (search supports text members only): ${listNames(list)}`);
  }
  return { archiveReads, unreadableMembers };
}

/** URLs become what they stand for: collections expand; file-backed ones are files shown as their URL. */
export async function expandResources(
  present: readonly Present[],
  cwd: string,
  signal: AbortSignal | undefined,
): Promise<Expanded[]> {
  const expanded: Expanded[] = [];
  for (const t of present) {
    if (t.kind !== 'resource') {
      expanded.push(t);
      continue;
    }
    let urls: string[] | null;
    try {
      urls = t.handler.list ? await t.handler.list(t.url, signal) : null;
    } catch (err) {
      throw new SearchToolError('resource_not_found', (err as Error).message);
    }
    for (const url of urls ?? [t.url]) {
      let r: Awaited<ReturnType<typeof t.handler.resolve>>;
      try {
        r = await t.handler.resolve(url, signal);
      } catch (err) {
        throw new SearchToolError('resource_not_found', (err as Error).message);
      }
      if ('sourcePath' in r) {
        const abs = path.resolve(cwd, r.sourcePath);
        expanded.push({
          kind: 'backed',
          input: t.input,
          url,
          abs,
          immutable: r.immutable ?? false,
          ranges: t.ranges,
        });
      } else {
        const content =
          typeof r.content === 'string' ? Buffer.from(r.content, 'utf8') : Buffer.from(r.content);
        expanded.push({ kind: 'virtual', input: t.input, v: { url, content, ranges: t.ranges } });
      }
    }
  }
  return expanded;
}

type RangeMap = Map<string, LineRange[] | null>;

/** One target named twice is searched once; a file's line ranges are the union of its mentions. */
export function dedupeTargets(expanded: readonly Expanded[]): {
  targets: Expanded[];
  fileRanges: RangeMap;
  memberRanges: RangeMap;
  virtualRanges: RangeMap;
} {
  const fileRanges: RangeMap = new Map();
  const memberRanges: RangeMap = new Map();
  const virtualRanges: RangeMap = new Map();
  const merge = (map: RangeMap, key: string, ranges: LineRange[] | null) =>
    map.set(key, map.has(key) ? unionRanges(map.get(key)!, ranges) : ranges);
  const seen = new Set<string>();
  const targets: Expanded[] = [];
  for (const t of expanded) {
    let key: string;
    if (t.kind === 'file' || t.kind === 'backed') {
      key = `f:${t.abs}`;
      merge(fileRanges, t.abs, t.ranges);
    } else if (t.kind === 'archive') {
      key = `a:${t.memberKey}`;
      merge(memberRanges, t.memberKey, t.ranges);
    } else if (t.kind === 'virtual') {
      key = `v:${t.v.url}`;
      merge(virtualRanges, t.v.url, t.v.ranges);
    } else if (t.kind === 'glob') key = `g:${t.baseAbs}\u0000${t.rest}\u0000${t.bare}`;
    else key = `d:${t.abs}`;
    if (seen.has(key)) continue;
    seen.add(key);
    targets.push(t);
  }
  return { targets, fileRanges, memberRanges, virtualRanges };
}

/** Named files that cannot be searched (binary, too large, FIFOs) are said, not silently dropped. */
export async function refuseUnsearchable(
  targets: readonly Expanded[],
  cwd: string,
  notes: Notes,
  fence: SensitiveFence,
): Promise<{ runnable: Expanded[]; notSearched: Array<{ path: string; reason: string }> }> {
  const notSearched: Array<{ path: string; reason: string }> = [];
  const runnable: Expanded[] = [];
  for (const t of targets) {
    const abs = t.kind === 'glob' ? t.baseAbs : 'abs' in t ? t.abs : null;
    if (abs !== null && (await fence.isSensitive(abs))) {
      notSearched.push({ path: displayPath(abs, cwd), reason: 'sensitive location' });
      continue;
    }
    if (t.kind === 'special') {
      notSearched.push({ path: displayPath(t.abs, cwd), reason: describeSpecialFile(t.abs) });
      continue;
    }
    if (t.kind === 'file' || t.kind === 'backed') {
      const shown = t.kind === 'backed' ? t.url : displayPath(t.abs, cwd);
      const problem = await explicitFileProblem(t.abs, shown);
      if (problem) {
        notSearched.push({ path: shown, reason: problem });
        continue;
      }
    }
    runnable.push(t);
  }
  if (notSearched.length > 0) {
    notes.add(`Not searched: ${listNames(notSearched.map((n) => `${n.path} (${n.reason})`))}`);
  }
  return { runnable, notSearched };
}

/** Why a named file is not searched (binary, too large), or null when it can be. */
async function explicitFileProblem(abs: string, shown: string): Promise<string | null> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    return describeCode((err as NodeJS.ErrnoException).code ?? 'EIO');
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return describeSpecialFile(abs);
    if (st.size > MAX_FILE_BYTES) return `larger than ${MAX_FILE_BYTES / (1024 * 1024)} MiB`;
    const buf = Buffer.alloc(Math.min(BINARY_SNIFF_BYTES, st.size));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    // A UTF-16 file is text to both engines (decoded from its BOM, as ripgrep does), named or walked.
    if (!startsWithUtf16Bom(buf, bytesRead) && buf.subarray(0, bytesRead).includes(0)) {
      const archive = sniffArchiveFormat(abs);
      return archive ? `a ${archive} archive: search a member as ${shown}:path/inside` : 'binary file';
    }
    return null;
  } finally {
    await fh.close();
  }
}

export type Group =
  | { type: 'engine'; roots: EngineRoot[]; ranges: LineRange[] | null }
  | { type: 'glob'; baseAbs: string; globs: string[]; skipDirs: Set<string>; inputs: string[] }
  | { type: 'memory'; file: PendingFile; content: Buffer };

/**
 * Groups run in the order of their first entry: plain paths (files + directories) share one engine call,
 * globs share one walk from their common base, ranged files / members / virtual content run alone.
 */
export function planGroups(
  targets: readonly Expanded[],
  cwd: string,
  fileRanges: Map<string, LineRange[] | null>,
  memberRanges: Map<string, LineRange[] | null>,
  virtualRanges: Map<string, LineRange[] | null>,
  archiveReads: Map<string, { ok: true; bytes: Buffer } | { ok: false; reason: string }>,
): Group[] {
  const groups: Group[] = [];
  let plain: Extract<Group, { type: 'engine' }> | null = null;
  const globTargets: Array<Extract<Target, { kind: 'glob' }>> = [];
  let globSlot = -1;
  for (const t of targets) {
    if (t.kind === 'file' || t.kind === 'backed') {
      const ranges = fileRanges.get(t.abs) ?? null;
      const root: EngineRoot =
        t.kind === 'backed'
          ? { abs: t.abs, display: t.url, kind: 'resource', taggable: !t.immutable, walks: false }
          : { abs: t.abs, display: displayPath(t.abs, cwd), kind: 'file', taggable: true, walks: false };
      if (ranges !== null) {
        groups.push({ type: 'engine', roots: [root], ranges });
      } else {
        if (!plain) {
          plain = { type: 'engine', roots: [], ranges: null };
          groups.push(plain);
        }
        plain.roots.push(root);
      }
    } else if (t.kind === 'dir') {
      if (!plain) {
        plain = { type: 'engine', roots: [], ranges: null };
        groups.push(plain);
      }
      plain.roots.push({
        abs: t.abs,
        display: displayPath(t.abs, cwd),
        kind: 'file',
        taggable: true,
        walks: true,
      });
    } else if (t.kind === 'glob') {
      if (globSlot === -1) {
        globSlot = groups.length;
        groups.push({ type: 'glob', baseAbs: '', globs: [], skipDirs: new Set(), inputs: [] }); // placeholder
      }
      globTargets.push(t);
    } else if (t.kind === 'archive') {
      const read = archiveReads.get(t.memberKey);
      if (!read?.ok) continue;
      const display = `${t.selector.archive}:${t.selector.member}`;
      groups.push({
        type: 'memory',
        file: {
          key: `a:${t.memberKey}`,
          display,
          kind: 'archive',
          taggable: false,
          walked: false,
          ranges: memberRanges.get(t.memberKey) ?? null,
        },
        content: read.bytes,
      });
    } else if (t.kind === 'virtual') {
      groups.push({
        type: 'memory',
        file: {
          key: `v:${t.v.url}`,
          display: t.v.url,
          kind: 'resource',
          taggable: false,
          walked: false,
          ranges: virtualRanges.get(t.v.url) ?? null,
        },
        content: t.v.content,
      });
    }
  }
  if (globSlot !== -1) groups.splice(globSlot, 1, ...globGroups(globTargets));
  return groups;
}

/**
 * Globs become root-relative, anchored globs under their common base, searched in one walk; a common base
 * at the filesystem root would walk everything, so then each glob walks from its own base.
 */
function globGroups(globs: Array<Extract<Target, { kind: 'glob' }>>): Group[] {
  const base = commonBase(globs.map((g) => g.baseAbs));
  const sets: Array<{ base: string; members: typeof globs }> =
    base === '/' && globs.length > 1 && globs.some((g) => g.baseAbs !== '/')
      ? globs.map((g) => ({ base: g.baseAbs, members: [g] }))
      : [{ base, members: globs }];
  return sets.map(({ base: b, members }) => {
    const patterns = members.map((g) => {
      const rel = path.relative(b, g.baseAbs).split(path.sep).join('/');
      if (rel === '') return g.bare ? g.rest : `/${g.rest}`;
      return g.bare ? `/${escapeGlob(rel)}/**/${g.rest}` : `/${escapeGlob(rel)}/${g.rest}`;
    });
    const skipDirs = new Set(SKIP_DIRS.filter((d) => !patterns.some((p) => p.includes(d))));
    return {
      type: 'glob',
      baseAbs: b,
      globs: patterns,
      skipDirs,
      inputs: members.map((g) => g.input),
    } as Group;
  });
}

export function scopeSpelling(t: Target, cwd: string): string {
  if (t.kind === 'file' || t.kind === 'dir' || t.kind === 'special') {
    if (path.isAbsolute(t.input)) {
      const shown = displayPath(t.abs, cwd);
      return t.input.endsWith('/') && shown !== '.' ? `${shown}/` : shown;
    }
  }
  return t.input;
}

export function searchPathOf(targets: readonly Expanded[], cwd: string): string {
  const bases: string[] = [];
  for (const t of targets) {
    if (t.kind === 'file' || t.kind === 'dir' || t.kind === 'special') bases.push(t.abs);
    else if (t.kind === 'glob') bases.push(t.baseAbs);
    else if (t.kind === 'archive') bases.push(t.archiveAbs);
  }
  if (bases.length === 0) return cwd;
  if (bases.length === 1) return bases[0]!;
  return commonBase(bases);
}
