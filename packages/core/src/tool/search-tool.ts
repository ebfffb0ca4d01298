import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type EngineChoice, resolveRipgrep, type SearchRequest } from '../engine/index.js';
import { createSensitiveFence, type SensitiveFence } from '../fence/index.js';
import { type CompiledPattern, compilePattern, PatternError } from '../match/index.js';
import { readArchiveMember } from './archive.js';
import { compose, listNames, unique } from './compose.js';
import { SearchToolError } from './errors.js';
import type { OutputFormat, ShownFile } from './format.js';
import { hashlineTag } from './hashline.js';
import { parseSearchToolArgs } from './input.js';
import {
  BINARY_SNIFF_BYTES,
  DEFAULT_CONTEXT_AFTER,
  DEFAULT_CONTEXT_BEFORE,
  DEFAULT_DEADLINE_MS,
  DETAIL_RESERVE_MAX_MS,
  ENGINE_LINE_BYTES,
  MAX_FILE_BYTES,
  MULTI_FILE_MATCHES,
  PAGE_FILES,
  SINGLE_FILE_MATCHES,
  TAG_CACHE_ENTRIES,
  TAG_CACHE_STABLE_MS,
  TAG_MAX_FILE_BYTES,
} from './limits.js';
import type { LineRange } from './line-ranges.js';
import { commonBase, describeSpecialFile, displayPath } from './paths.js';
import { defaultResourceRouter } from './resources.js';
import { Notes, planGroups, type RunContext, RunState, refetchCounted, runGroup } from './run.js';
import type { ShapedLines } from './shape.js';
import { describeCode, resolveTargets, type Target, unionRanges } from './targets.js';
import type { Expanded, PendingFile, SearchToolOptions, SearchToolResult } from './types.js';

export type { FileMatchCount, SearchToolDetails, SearchToolOptions, SearchToolResult } from './types.js';

/**
 * The agent `search` tool: validates `args`, resolves the targets, searches them with the engine (files,
 * directories, globs) or the same in-memory searcher (archive members, virtual resources), and returns the
 * text a model reads plus structured details. Refusals are `SearchToolError`s with one-line messages; an
 * aborted call rejects with the signal's reason.
 */
export async function searchTool(args: unknown, options: SearchToolOptions = {}): Promise<SearchToolResult> {
  const clock = options.now ?? Date.now;
  const started = Date.now();
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const deadline = started + deadlineMs;
  const signal = options.signal;
  signal?.throwIfAborted();
  const input = await parseSearchToolArgs(args);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const format: OutputFormat = options.format ?? 'hashline';
  const before = options.contextBefore ?? DEFAULT_CONTEXT_BEFORE;
  const after = options.contextAfter ?? DEFAULT_CONTEXT_AFTER;
  const resources = options.resources ?? defaultResourceRouter();
  const multiline = input.pattern.includes('\n') || input.pattern.includes('\\n');

  const resolved = await resolveTargets(input.paths, {
    cwd,
    resources,
    ...(options.homeDir ? { home: options.homeDir } : {}),
  });
  const notes = new Notes();

  const { present, missingPaths } = partitionMissing(resolved, notes);

  // Pattern: compiled once up front, for the in-memory searches and to refuse a bad one before any work.
  let compiled: CompiledPattern;
  try {
    compiled = compilePattern(input.pattern, {
      caseInsensitive: input.caseInsensitive,
      multiline,
      lenient: true,
    });
  } catch (err) {
    if (err instanceof PatternError)
      throw new SearchToolError('invalid_regex', `Invalid regex: ${err.message}`);
    throw err;
  }

  const { archiveReads, unreadableMembers } = await readArchives(present, notes, signal);
  const expanded = await expandResources(present, cwd, signal);
  const { targets, fileRanges, memberRanges, virtualRanges } = dedupeTargets(expanded);

  // One file, one member or one resource: a single-file result (no paging, 200 matches).
  const searchable = targets.filter(
    (t) => t.kind !== 'archive' || archiveReads.get(t.memberKey)?.ok === true,
  );
  const single = searchable.length === 1 && searchable[0]!.kind !== 'dir' && searchable[0]!.kind !== 'glob';
  const cap = single ? SINGLE_FILE_MATCHES : MULTI_FILE_MATCHES;
  const skip = single ? 0 : input.skip;
  const pageSize = single ? 1 : PAGE_FILES;

  // The fence (DESIGN decision 6): named sensitive paths are refused, walks never enter them.
  const fence =
    options.fence ?? createSensitiveFence({ home: options.homeDir ?? os.homedir(), env: process.env });
  const { runnable, notSearched } = await refuseUnsearchable(targets, cwd, notes, fence);

  const baseRequest: SearchRequest = {
    pattern: input.pattern,
    cwd,
    caseInsensitive: input.caseInsensitive,
    multiline,
    lenient: true,
    hidden: true,
    ignoreFiles: input.gitignore,
    requireGit: false,
    beforeContext: before,
    afterContext: after,
    maxColumns: ENGINE_LINE_BYTES,
    maxFilesize: MAX_FILE_BYTES,
    engine: options.engine ?? 'auto',
    exclude: (abs) => fence.isSensitiveCanonical(abs),
    ...(signal ? { signal } : {}),
    ...(options.index ? { index: options.index } : {}),
  };

  const state = new RunState(skip, pageSize);
  const ctx: RunContext = {
    cwd,
    cap,
    before,
    after,
    notes,
    state,
    deadline,
    signal,
    baseRequest,
    compiled,
    countFirst: willUseRipgrep(options.engine ?? 'auto', runnable),
    detailReserveMs: Math.min(DETAIL_RESERVE_MAX_MS, deadlineMs / 10),
  };

  // Groups run in the order of their first entry: plain paths (files + directories) share one engine call,
  // globs share one walk from their common base, ranged files / members / virtual content run alone.
  const groups = planGroups(runnable, cwd, fileRanges, memberRanges, virtualRanges, archiveReads);
  for (const g of groups) {
    if (state.timedOut) break;
    if (Date.now() >= deadline) {
      state.timedOut = true;
      break;
    }
    await runGroup(g, ctx);
    signal?.throwIfAborted();
  }
  await refetchCounted(ctx);
  signal?.throwIfAborted();

  // Tags for the files shown (hashline mode), read once each, concurrently.
  const pageEntries = state.page.filter(
    (e): e is { file: PendingFile; shaped: ShapedLines } => e.shaped !== null && e.shaped.matches > 0,
  );
  const tags = await Promise.all(
    pageEntries.map((e) =>
      format === 'hashline' && e.file.taggable && e.file.abs
        ? readTag(e.file.abs, clock)
        : Promise.resolve(null),
    ),
  );
  const page: ShownFile[] = pageEntries.map((e, k) => ({
    display: e.file.display,
    kind: e.file.kind,
    tag: tags[k] ?? null,
    lines: e.shaped.lines,
  }));

  return compose({
    input: { skip, single, cap, format },
    page,
    pageEntries,
    state,
    notes,
    missingPaths,
    notSearched: [...notSearched, ...unreadableMembers],
    searchedTargets: runnable.length,
    scopePath: resolved.map((t) => scopeSpelling(t, cwd)).join(', '),
    searchPath: searchPathOf(runnable, cwd),
    started,
    deadlineMs,
  });
}

type Absent = Extract<Target, { kind: 'missing' } | { kind: 'unreadable' }>;
type Present = Exclude<Target, Absent>;

/** Missing entries are skipped with a note, unless nothing else is left (then: "Path not found"). */
function partitionMissing(
  resolved: readonly Target[],
  notes: Notes,
): { present: Present[]; missingPaths: string[] } {
  const isAbsent = (t: Target): t is Absent => t.kind === 'missing' || t.kind === 'unreadable';
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
  if (missingPaths.length > 0) notes.add('missing', `Skipped missing paths: ${listNames(missingPaths)}`);
  const unreadable = absent.flatMap((t) =>
    t.kind === 'unreadable' ? [`${t.input} (${describeCode(t.code)})`] : [],
  );
  if (unreadable.length > 0) notes.add('missing', `Skipped unreadable paths: ${listNames(unreadable)}`);
  return { present, missingPaths };
}

type MemberRead = { ok: true; bytes: Buffer } | { ok: false; reason: string };

/** Archive members are read first: when none can be read and nothing else is left, that is the answer. */
async function readArchives(
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
      `Cannot search archive member(s): ${list.join(', ')}. Only UTF-8 text members can be searched.`,
    );
  }
  if (list.length > 0) {
    notes.add('archive', `Skipped archive entries (search supports text members only): ${listNames(list)}`);
  }
  return { archiveReads, unreadableMembers };
}

/** URLs become what they stand for: collections expand; file-backed ones are files shown as their URL. */
async function expandResources(
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
function dedupeTargets(expanded: readonly Expanded[]): {
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
async function refuseUnsearchable(
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
      const problem = await explicitFileProblem(t.abs);
      if (problem) {
        notSearched.push({ path: t.kind === 'backed' ? t.url : displayPath(t.abs, cwd), reason: problem });
        continue;
      }
    }
    runnable.push(t);
  }
  if (notSearched.length > 0) {
    notes.add(
      'not-searched',
      `Not searched: ${listNames(notSearched.map((n) => `${n.path} (${n.reason})`))}`,
    );
  }
  return { runnable, notSearched };
}

/**
 * Whether the engine will run ripgrep (the same vetting the engine does). The rg engine returns every
 * matching file's lines, so walks then count first and search the page's files after (see RunContext).
 */
function willUseRipgrep(choice: EngineChoice, targets: readonly Expanded[]): boolean {
  if (choice === 'js') return false;
  if (choice === 'rg') return true;
  const roots = targets.flatMap((t) => (t.kind === 'dir' ? [t.abs] : t.kind === 'glob' ? [t.baseAbs] : []));
  return roots.length > 0 && resolveRipgrep({ searchRoots: roots }).rg !== null;
}

/** Why a named file is not searched (binary, too large), or null when it can be. */
async function explicitFileProblem(abs: string): Promise<string | null> {
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
    if (buf.subarray(0, bytesRead).includes(0)) return 'binary file';
    return null;
  } finally {
    await fh.close();
  }
}

/**
 * Tags of recently shown files, keyed by path and checked against inode, size, mtime and ctime (in
 * nanoseconds), so an agent paging through the same tree does not re-read and re-hash big files. File
 * times are coarse (a kernel tick), so a file changed shortly before it was hashed is never remembered
 * (git's "racily clean" rule): a same-size edit within the same tick cannot be mistaken for no change.
 */
const tagCache = new Map<string, { signature: string; tag: string }>();

async function readTag(abs: string, now: () => number): Promise<string | null> {
  try {
    const st = await fs.promises.stat(abs, { bigint: true });
    if (!st.isFile() || st.size > BigInt(TAG_MAX_FILE_BYTES)) return null;
    const signature = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    const cached = tagCache.get(abs);
    if (cached?.signature === signature) {
      tagCache.delete(abs); // re-insert: most recently used last
      tagCache.set(abs, cached);
      return cached.tag;
    }
    const hashedAt = now();
    const tag = hashlineTag(await fs.promises.readFile(abs));
    const newest = Math.max(Number(st.mtimeNs / 1_000_000n), Number(st.ctimeNs / 1_000_000n));
    if (hashedAt - newest > TAG_CACHE_STABLE_MS) tagCache.set(abs, { signature, tag });
    if (tagCache.size > TAG_CACHE_ENTRIES) tagCache.delete(tagCache.keys().next().value!);
    return tag;
  } catch {
    return null;
  }
}

function scopeSpelling(t: Target, cwd: string): string {
  if (t.kind === 'file' || t.kind === 'dir' || t.kind === 'special') {
    if (path.isAbsolute(t.input)) {
      const shown = displayPath(t.abs, cwd);
      return t.input.endsWith('/') && shown !== '.' ? `${shown}/` : shown;
    }
  }
  return t.input;
}

function searchPathOf(targets: readonly Expanded[], cwd: string): string {
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
