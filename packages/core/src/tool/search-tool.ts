import * as path from 'node:path';
import type { SearchRequest } from '../engine/index.js';
import type { IndexWalkOptions, SearchIndex } from '../engine/search-index.js';
import { createSensitiveFence, type SensitiveFence } from '../fence/index.js';
import { homeDir } from '../fence/root.js';
import { type CompiledPattern, compilePattern, PatternError } from '../match/index.js';
import { redactedWords, redactValues } from '../redact/tool-output.js';
import { compose } from './compose.js';
import { SearchToolError } from './errors.js';
import { canonical, type Exclusion, exclusionPredicate, idleExclusions, namedPaths } from './exclusions.js';
import { countCapped, type RunContext, runGroup, walksOf } from './execute.js';
import { explainEmpty, noteUnentered } from './explain.js';
import type { OutputFormat, ShownFile } from './format.js';
import { pageFilesFor, parseSearchToolArgs } from './input.js';
import {
  DEFAULT_CONTEXT_AFTER,
  DEFAULT_CONTEXT_BEFORE,
  DEFAULT_DEADLINE_MS,
  ENGINE_LINE_BYTES,
  GLOB_CHECK_MAX_ENTRIES,
  MAX_FILE_BYTES,
  MULTI_FILE_MATCHES,
  PAGE_FILES,
  SINGLE_FILE_MATCHES,
} from './limits.js';
import {
  dedupeTargets,
  expandResources,
  type Group,
  partitionMissing,
  planGroups,
  readArchives,
  refuseUnsearchable,
  scopeSpelling,
  searchPathOf,
} from './plan.js';
import { defaultResourceRouter } from './resources.js';
import { confineToRoots, readConfinement } from './roots.js';
import { type ShapedLines, unfetchedLines } from './shape.js';
import { Notes, RunState } from './state.js';
import { readTag } from './tag-cache.js';
import { resolveTargets, type Target } from './targets.js';
import { type PendingFile, type SearchToolOptions, type SearchToolResult, SKIP_DIRS } from './types.js';

export type { FileMatchCount, SearchToolDetails, SearchToolOptions, SearchToolResult } from './types.js';

/**
 * The agent `search` tool: validates `args`, resolves the targets, searches them with the engine (files,
 * directories, globs) or the same in-memory searcher (archive members, virtual resources), and returns the
 * text a model reads plus structured details. Refusals are `SearchToolError`s with one-line messages; an
 * aborted call rejects with the signal's reason.
 */
export async function searchTool(args: unknown, options: SearchToolOptions = {}): Promise<SearchToolResult> {
  const call = await planCall(args, options);
  const { input, cwd, format, output, multiline, resolved, exclusions, notes, missingPaths } = call;
  const { unreadableMembers, runnable, notSearched, single, cap, skip, fence, state, ctx, groups } = call;
  const { started, clock, deadline, deadlineMs, signal } = call;
  for (const g of groups) {
    if (state.timedOut) break;
    if (clock() >= deadline) {
      state.timedOut = true;
      break;
    }
    // One root (a walk, a glob's base, one file in memory) yields each file once.
    state.lastUnique = g === groups.at(-1) && (g.type !== 'engine' || g.roots.length === 1);
    await runGroup(g, ctx);
    signal?.throwIfAborted();
  }
  signal?.throwIfAborted();
  if (state.total === 0 && !state.timedOut) {
    await explainEmpty(groups, ctx, { gitignore: input.gitignore, hidden: input.hidden });
    signal?.throwIfAborted();
  }
  // A capped file says how many matching lines it did not show.
  // (Not for a multi-line pattern: the cap counts matches, a count counts the lines they span.)
  if (output === 'content' && !multiline && !state.timedOut) {
    const capped = state.page.filter((e) => e.shaped?.more && e.file.abs && e.file.ranges === null);
    const counts = await countCapped(
      capped.map((e) => e.file.abs!),
      ctx,
    );
    for (const e of capped) {
      const n = counts.get(e.file.abs!);
      if (n !== undefined && e.shaped) e.shaped.totalMatches = n;
    }
    signal?.throwIfAborted();
  }
  if (exclusions.length > 0 && !state.timedOut) noteIdleExclusions(exclusions, groups, ctx, fence, cwd);
  const unentered =
    state.timedOut || options.nameUnentered !== true
      ? []
      : await noteUnentered(groups, ctx, { gitignore: input.gitignore, hidden: input.hidden });

  // Tags for the files shown (hashline mode), read once each, concurrently.
  // A file the deadline left without its lines (counted, then not fetched in time) is still shown, by
  // name: the page and its count must agree (issue 11 item 2). Fetched files whose matches all fell
  // outside their ranges are not matches at all.
  const pageEntries: Array<{ file: PendingFile; shaped: ShapedLines; count?: number | null }> = [];
  for (const e of state.page) {
    const shaped = e.shaped ?? unfetchedLines();
    if (shaped.unfetched || shaped.matches > 0 || output !== 'content')
      pageEntries.push({ file: e.file, shaped, count: e.count });
  }
  const tags = await Promise.all(
    pageEntries.map((e) =>
      format === 'hashline' && output === 'content' && e.file.taggable && e.file.abs
        ? readTag(e.file.abs, options.tagCache ?? null)
        : Promise.resolve(null),
    ),
  );
  // Redaction (MCP): lines were redacted as they were shaped; the names and the notes are redacted here, so every
  // line of the answer is, and the count covers what this page shows.
  let redacted = 0;
  const clean = (s: string) => {
    const r = redactValues(s);
    redacted += r.count;
    return r.text;
  };
  if (options.redact) {
    for (const e of pageEntries) {
      redacted += e.shaped.redacted;
      e.file = { ...e.file, display: clean(e.file.display) };
    }
    notes.rewrite(clean);
    for (const list of [state.unreadable, state.engineErrors, state.walkedTooLarge, missingPaths])
      list.splice(0, list.length, ...list.map(clean));
    for (const n of notSearched) n.path = clean(n.path);
    if (redacted > 0) notes.add(redactedWords(redacted));
  }
  const page: ShownFile[] = pageEntries.map((e, k) => ({
    display: e.file.display,
    kind: e.file.kind,
    tag: tags[k] ?? null,
    lines: e.shaped.lines,
  }));

  const result = compose({
    input: { skip, single, cap, format, output },
    page,
    pageEntries,
    state,
    notes,
    missingPaths,
    notSearched: [...notSearched, ...unreadableMembers],
    unentered,
    searchedTargets: runnable.length,
    scopePath: resolved.map((t) => scopeSpelling(t, cwd)).join(', '),
    searchPath: searchPathOf(runnable, cwd),
    started,
    clock,
    deadlineMs,
  });
  if (options.redact) result.details.redacted = redacted;
  return result;
}

/** A call made ready to run: its input, what it searches (`groups`) and the context they run in. */
interface PlannedCall {
  input: Awaited<ReturnType<typeof parseSearchToolArgs>>;
  cwd: string;
  format: OutputFormat;
  output: RunContext['output'];
  multiline: boolean;
  resolved: Target[];
  exclusions: Exclusion[];
  notes: Notes;
  missingPaths: string[];
  unreadableMembers: Awaited<ReturnType<typeof readArchives>>['unreadableMembers'];
  runnable: Awaited<ReturnType<typeof refuseUnsearchable>>['runnable'];
  notSearched: Awaited<ReturnType<typeof refuseUnsearchable>>['notSearched'];
  single: boolean;
  cap: number;
  skip: number;
  fence: SensitiveFence;
  state: RunState;
  ctx: RunContext;
  groups: Group[];
  started: number;
  clock: () => number;
  deadline: number;
  deadlineMs: number;
  signal: AbortSignal | undefined;
}

/**
 * Everything of a call before its first search: the arguments checked, the targets resolved and refused, the
 * pattern compiled, the groups planned. Throws the call's SearchToolErrors.
 */
async function planCall(args: unknown, options: SearchToolOptions): Promise<PlannedCall> {
  const clock = options.clock ?? Date.now;
  const started = clock();
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const deadline = started + deadlineMs;
  const signal = options.signal;
  signal?.throwIfAborted();
  const input = await parseSearchToolArgs(args);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const format: OutputFormat = options.format ?? 'hashline';
  // The caller's context wins over the host's, which wins over the seed's 1 before / 3 after.
  const before = input.before ?? options.contextBefore ?? DEFAULT_CONTEXT_BEFORE;
  const after = input.after ?? options.contextAfter ?? DEFAULT_CONTEXT_AFTER;
  const output = input.output;
  const resources = options.resources ?? defaultResourceRouter();
  const multiline = input.multiline || input.pattern.includes('\n') || input.pattern.includes('\\n');

  const targetContext = {
    cwd,
    resources,
    pathsWasString: input.pathsWasString,
    ...(options.homeDir ? { home: options.homeDir } : {}),
  };
  // `exclude` globs are `!glob` entries; an exclusion applies wherever it stands.
  const resolved = await resolveTargets([...input.paths, ...input.exclude], targetContext);
  const notes = new Notes();
  // `!glob` entries take out what they match; alone, they apply to the working directory (as rg -g '!x').
  const exclusions = resolved.flatMap((t) => (t.kind === 'exclude' ? [t.exclusion] : []));
  let positive = resolved.filter((t): t is Exclude<Target, { kind: 'exclude' }> => t.kind !== 'exclude');
  const implicitCwd = positive.length === 0;
  if (implicitCwd) positive = (await resolveTargets(['.'], targetContext)) as typeof positive;
  // An MCP server's confinement: every place named lies inside a root, as spelled and where it leads.
  if (options.roots) confineToRoots(positive, options.roots, cwd);
  // ...and where each file read turns out to be, judged at the read on the path its descriptor must read back as.
  const outsideRoots = readConfinement(options.roots);
  const excluded = exclusionPredicate(exclusions, namedPaths(positive), canonical(cwd));

  const { present, missingPaths } = partitionMissing(positive, notes);

  // Pattern: compiled once up front, for the in-memory searches and to refuse a bad one before any work.
  let compiled: CompiledPattern;
  try {
    compiled = compilePattern(input.pattern, {
      caseInsensitive: input.caseInsensitive,
      multiline,
      lenient: !input.literal,
      fixedStrings: input.literal,
      wordRegexp: input.word,
    });
  } catch (err) {
    if (err instanceof PatternError)
      throw new SearchToolError('invalid_regex', `Invalid regex: ${err.message}`);
    throw err;
  }
  if (compiled.repairs.length > 0) {
    notes.add(`Pattern searched as ${compiled.effectivePattern} (${compiled.repairs.join('; ')}).`);
  }

  const { archiveReads, unreadableMembers } = await readArchives(present, notes, signal);
  const expanded = await expandResources(present, cwd, signal);
  const { targets, fileRanges, memberRanges, virtualRanges } = dedupeTargets(expanded);

  // One file, one member or one resource: a single-file result (no paging, 200 matches).
  const searchable = targets.filter(
    (t) => t.kind !== 'archive' || archiveReads.get(t.memberKey)?.ok === true,
  );
  const single = searchable.length === 1 && searchable[0]!.kind !== 'dir' && searchable[0]!.kind !== 'glob';
  const cap = input.perFile ?? (single ? SINGLE_FILE_MATCHES : MULTI_FILE_MATCHES);
  const skip = single ? 0 : input.skip;
  const pageSize = single ? 1 : (input.limit ?? pageFilesFor(output, PAGE_FILES));

  // The fence (DESIGN decision 6): named sensitive paths are refused, walks never enter them.
  const fence =
    options.fence ?? createSensitiveFence({ home: options.homeDir ?? homeDir(), env: process.env });
  // A host's long-lived fence: what changed before this call is in its table.
  await fence.settled();
  const { runnable, notSearched } = await refuseUnsearchable(targets, cwd, notes, fence);

  const baseRequest: SearchRequest = {
    pattern: input.pattern,
    cwd,
    caseInsensitive: input.caseInsensitive,
    multiline,
    lenient: !input.literal,
    fixedStrings: input.literal,
    wordRegexp: input.word,
    ...(input.types ? { fileTypes: input.types } : {}),
    hidden: input.hidden,
    ignoreFiles: input.gitignore,
    requireGit: false,
    beforeContext: before,
    afterContext: after,
    maxColumns: ENGINE_LINE_BYTES,
    maxFilesize: MAX_FILE_BYTES,
    engine: options.engine ?? 'auto',
    // Off rg's argv: any local account can read a command line, and an agent's pattern may hold a secret.
    patternChannel: 'stdin',
    exclude: (abs) => fence.isSensitiveCanonical(abs) || outsideRoots(abs) || excluded?.(abs) === true,
    // ...and by identity: a hard link to a credential file has a path of the project.
    fencedIdentities: fence.fencedIdentities(),
    ...(signal ? { signal } : {}),
    ...(options.index ? { index: options.index } : {}),
    ...(options.oneShot ? { prewarmWorker: false } : {}),
  };

  const state = new RunState(skip, pageSize);
  const ctx: RunContext = {
    cwd,
    cap,
    before,
    after,
    output,
    notes,
    state,
    deadline,
    signal,
    baseRequest,
    compiled,
    redact: options.redact === true,
    clock,
  };

  const groups = planGroups(runnable, cwd, fileRanges, memberRanges, virtualRanges, archiveReads);
  return {
    input,
    cwd,
    format,
    output,
    multiline,
    resolved,
    exclusions,
    notes,
    missingPaths,
    unreadableMembers,
    runnable,
    notSearched,
    single,
    cap,
    skip,
    fence,
    state,
    ctx,
    groups,
    started,
    clock,
    deadline,
    deadlineMs,
    signal,
  };
}

/** A `!glob` that took nothing out of the walked paths is said: a typo there silently searches everything. */
function noteIdleExclusions(
  exclusions: readonly Exclusion[],
  groups: readonly Group[],
  ctx: RunContext,
  fence: SensitiveFence,
  cwd: string,
): void {
  const roots = groups.flatMap((g) =>
    g.type === 'engine'
      ? g.roots.filter((r) => r.walks).map((r) => canonical(r.abs))
      : g.type === 'glob'
        ? [canonical(g.baseAbs)]
        : [],
  );
  const base = ctx.baseRequest;
  const idle = idleExclusions(
    exclusions,
    roots,
    canonical(cwd),
    {
      hidden: base.hidden ?? true,
      ignoreFiles: base.ignoreFiles ?? true,
      requireGit: false,
      skipDirs: ctx.skipDirs ?? new Set(SKIP_DIRS),
      exclude: (abs) => fence.isSensitiveCanonical(abs),
    },
    GLOB_CHECK_MAX_ENTRIES,
  );
  if (idle && idle.length > 0)
    ctx.notes.add(
      `${idle.map((x) => `"${x.input}"`).join(', ')} excluded nothing: no searched path matches ${idle.length === 1 ? 'it' : 'them'} (a glob without "/" matches a name at any depth; with "/" a path from the working directory).`,
    );
}

/**
 * Readies `options.index` for this tool's searches of `paths` (default `['.']`, the working directory): the walks
 * such a call asks the index for, and those of its check for matches hidden by ignore rules (made when it finds
 * nothing), are listed and kept now, so the first real calls do not walk the tree (~0.5 s each on the Linux tree).
 * For a long-lived host, once its index is ready; it runs on this thread in slices, as a search's own walk does.
 * Returns how many walks were kept.
 */
export async function prepareSearchTool(
  options: SearchToolOptions & { index: SearchIndex },
  paths: string[] = ['.'],
): Promise<number> {
  const index = options.index;
  if (!index.prepareWalk) return 0;
  // Within the deadline such a call has: a walk it would not finish in time is not kept for it either.
  const { groups, ctx } = await planCall({ pattern: 'prepare', paths }, options);
  let kept = 0;
  for (const walk of walksOf(groups, ctx)) {
    ctx.signal?.throwIfAborted();
    const req = {
      walk,
      deadline: ctx.deadline,
      now: ctx.clock,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    };
    if (await index.prepareWalk(req)) kept++;
  }
  return kept;
}

/**
 * The walks a call of this tool with `args` can ask an index for (execute.ts walksOf), found by planning the
 * call (its targets resolved and judged, as the call would) without searching.
 */
export async function callWalks(args: unknown, options: SearchToolOptions = {}): Promise<IndexWalkOptions[]> {
  const { groups, ctx } = await planCall(args, options);
  return walksOf(groups, ctx);
}
