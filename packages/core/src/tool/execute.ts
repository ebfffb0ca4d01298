import * as path from 'node:path';
import {
  EngineUnavailableError,
  type SearchRequest,
  searchBatches,
  searchContent,
  walkOf,
} from '../engine/index.js';
import type { IndexWalkOptions } from '../engine/search-index.js';
import { type CompiledPattern, PatternError } from '../match/index.js';
import { LineRedactor } from '../redact/tool-output.js';
import type { FileStats, SearchEvent, SearchSummary } from '../search/events.js';
import { resolvePlain } from '../util/resolve-plain.js';
import { Walker } from '../walk/walker.js';
import { SearchToolError } from './errors.js';
import type { ShownFile } from './format.js';
import type { SearchOutput } from './input.js';
import { ENGINE_LINE_BYTES, GLOB_CHECK_MAX_ENTRIES, NOTE_MAX_NAMES, VIRTUAL_MAX_BYTES } from './limits.js';
import type { LineRange } from './line-ranges.js';
import { displayPath } from './paths.js';
import type { Group } from './plan.js';
import { type ShapedLines, shapeRecords, type ToolRecord } from './shape.js';
import { type Notes, RunState } from './state.js';
import { type PendingFile, SKIP_DIRS } from './types.js';

/**
 * Executing a plan: each group (plain paths, globs, ranged files, in-memory content) runs in turn against
 * one shared page, deadline and signal; matching files are counted past the page, exactly.
 */

export interface RunContext {
  /** The clock the deadline is measured on (a seam for tests). */
  clock: () => number;
  /** Directory names walks skip, when not the usual SKIP_DIRS (the check for hidden matches). */
  skipDirs?: ReadonlySet<string>;
  cwd: string;
  cap: number;
  before: number;
  after: number;
  /** Lines (`content`), names only (`files`) or matching lines per file (`count`). */
  output: SearchOutput;
  notes: Notes;
  state: RunState;
  deadline: number;
  signal: AbortSignal | undefined;
  baseRequest: SearchRequest;
  compiled: CompiledPattern;
  /** Shown lines go through the tool redactor (redact/tool-output.ts). */
  redact: boolean;
}

/**
 * One group, one engine pass: the page's files in full (the engine's detail horizon), every later matching file
 * counted exactly; a names-only or counting call asks for counts only.
 */
export async function runGroup(g: Group, ctx: RunContext): Promise<void> {
  if (g.type === 'memory') return runMemory(g, ctx);
  if (g.type === 'engine') {
    const byAbs = new Map(g.roots.map((r) => [r.abs, r]));
    const listed = listRequest(ctx, g.ranges !== null);
    await runEngine(
      {
        ...groupRequest(g, ctx),
        ...(listed ??
          (g.ranges === null
            ? { maxCount: ctx.cap + 1, detailFiles: ctx.state.detailWanted + g.roots.length }
            : {})),
      },
      ctx,
      (abs) => {
        const root = byAbs.get(abs);
        if (root && !root.walks) return { ...root, walked: false, ranges: g.ranges };
        return walkedFile(abs, ctx);
      },
      listed === null || listed.mode === 'lines',
    );
    return;
  }
  const listed = listRequest(ctx, false);
  await runEngine(
    {
      ...groupRequest(g, ctx),
      ...(listed ?? { maxCount: ctx.cap + 1, detailFiles: ctx.state.detailWanted }),
    },
    ctx,
    (abs) => walkedFile(abs, ctx),
    listed === null || listed.mode === 'lines',
  );
}

/** What a group's engine call searches and how it walks (runGroup adds what it asks of the matches). */
function groupRequest(g: Exclude<Group, { type: 'memory' }>, ctx: RunContext): SearchRequest {
  if (g.type === 'engine')
    return {
      ...ctx.baseRequest,
      paths: g.roots.map((r) => r.abs),
      skipDirs: ctx.skipDirs ?? new Set(SKIP_DIRS),
    };
  // Globs narrow the walk; they never re-admit what the ignore rules exclude (engine 'filter' mode).
  return {
    ...ctx.baseRequest,
    paths: [g.baseAbs],
    globs: g.globs,
    globBase: 'root',
    globMode: 'filter',
    skipDirs: ctx.skipDirs ?? g.skipDirs,
  };
}

/** Whether a group walks a directory (a glob's base, or a directory among an engine group's roots). */
function walksTree(g: Group): g is Exclude<Group, { type: 'memory' }> {
  return g.type === 'glob' || (g.type === 'engine' && g.roots.some((r) => r.walks));
}

/**
 * The walks a call of these groups can ask an index for: every walking group's own, then that of its check for
 * hidden matches (made when the call finds nothing). Made from the same requests runGroup and findHiddenMatches
 * make, so what a host readies ahead (prepareSearchTool) is what the calls ask for.
 */
export function walksOf(groups: readonly Group[], ctx: RunContext): IndexWalkOptions[] {
  // rg asked for by name never asks the index (engine/search.ts).
  if (ctx.baseRequest.engine === 'rg') return [];
  const walking = groups.filter(walksTree);
  const hidden = hiddenCheckContext(ctx, new RunState(0, NOTE_MAX_NAMES));
  return [ctx, hidden].flatMap((c) => walking.map((g) => walkOf(groupRequest(g, c))));
}

/** A names-only walk: the first match of each file is enough. */
const FIRST_MATCH: Partial<SearchRequest> = { mode: 'files-with-matches', beforeContext: 0, afterContext: 0 };

/**
 * The request of a names-only or counting call (null for `content`): the first match of each file, or every
 * matching line counted. Files with line ranges are searched for lines (the ranges decide what counts),
 * without context or a cap.
 */
function listRequest(ctx: RunContext, ranged: boolean): Partial<SearchRequest> | null {
  if (ctx.output === 'content') return null;
  if (ranged) return { mode: 'lines', beforeContext: 0, afterContext: 0 };
  return ctx.output === 'files' ? FIRST_MATCH : { mode: 'count', beforeContext: 0, afterContext: 0 };
}

/** Matches a names-only or counting call shapes (it shows no lines, so nothing is capped). */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

type RootInfo = {
  abs: string;
  display: string;
  kind: ShownFile['kind'];
  taggable: boolean;
  /** Found by walking a directory (not named by the caller). */
  walked: boolean;
  ranges: LineRange[] | null;
};

/** A file a directory walk or a glob found: shown relative to cwd, taggable, never ranged. */
function walkedFile(abs: string, ctx: RunContext): RootInfo {
  return {
    abs,
    display: displayPath(abs, ctx.cwd),
    kind: 'file',
    taggable: true,
    walked: true,
    ranges: null,
  };
}

async function runEngine(
  request: SearchRequest,
  ctx: RunContext,
  describe: (abs: string) => RootInfo | null,
  /** The events carry the lines wanted (not a names-only or counting call). */
  lines: boolean,
): Promise<void> {
  const remaining = ctx.deadline - ctx.clock();
  if (remaining <= 0) {
    ctx.state.timedOut = true;
    return;
  }
  // In the engine's batches: a broad count yields one event per matching file, and an await per event was
  // a visible share of such a call.
  let batches: AsyncGenerator<SearchEvent[], void, undefined>;
  try {
    batches = searchBatches({ ...request, deadlineMs: remaining });
  } catch (err) {
    throw engineError(err);
  }
  let current: { path: string; records: ToolRecord[] } | null = null;
  let summary: SearchSummary | null = null;
  try {
    for await (const batch of batches)
      for (const ev of batch) {
        switch (ev.type) {
          case 'begin':
            current = { path: ev.path, records: [] };
            break;
          case 'match':
          case 'context': {
            const { type, path: _p, ...record } = ev;
            current?.records.push({ ...record, match: type === 'match' });
            break;
          }
          case 'end': {
            const abs = resolvePlain(ctx.cwd, ev.path);
            const info = describe(abs);
            const records =
              ev.counted || !lines ? null : current && current.path === ev.path ? current.records : [];
            current = null;
            if (!info) break;
            acceptFile(ctx, info, records, ev.stats, ev.binaryOffset);
            break;
          }
          case 'skip':
            if (ev.reason === 'too-large')
              ctx.state.walkedTooLarge.push(displayPath(path.resolve(ctx.cwd, ev.path), ctx.cwd));
            else if (ev.reason === 'unreadable')
              ctx.state.unreadable.push(
                `${displayPath(path.resolve(ctx.cwd, ev.path), ctx.cwd)} (${ev.message})`,
              );
            break;
          case 'summary':
            summary = ev.summary;
            break;
        }
      }
  } catch (err) {
    throw engineError(err);
  }
  if (!summary) return;
  ctx.state.engine ??= summary.engine;
  if (summary.outcome === 'timeout') ctx.state.timedOut = true;
  for (const e of summary.errors) {
    if (e.code === 'ERG') ctx.state.engineErrors.push(e.message);
    else if (e.code !== 'ENOENT')
      ctx.state.unreadable.push(
        `${e.path ? displayPath(path.resolve(ctx.cwd, e.path), ctx.cwd) : '?'} (${e.message})`,
      );
  }
}

function engineError(err: unknown): unknown {
  if (err instanceof PatternError)
    return new SearchToolError('invalid_regex', `Invalid regex: ${err.message}`);
  if (err instanceof EngineUnavailableError) return new SearchToolError('engine_unavailable', err.message);
  return err;
}

function acceptFile(
  ctx: RunContext,
  info: RootInfo,
  records: ToolRecord[] | null,
  stats: FileStats,
  binaryOffset: number | null,
): void {
  const key = `f:${info.abs}`;
  // Made only for a file on the page: most files of a broad search are only counted.
  const file = (): PendingFile => ({
    key,
    display: info.display,
    kind: info.kind,
    abs: info.abs,
    taggable: info.taggable,
    walked: info.walked,
    ranges: info.ranges,
  });
  let shaped: ShapedLines | null = null;
  const lines = ctx.output === 'content';
  if (records !== null) {
    shaped = shapeRecords(records, {
      ranges: info.ranges,
      cap: lines ? ctx.cap : UNCAPPED,
      before: lines ? ctx.before : 0,
      after: lines ? ctx.after : 0,
      limitReached: stats.limitReached,
      binaryOffset,
      redactor: ctx.redact ? new LineRedactor() : undefined,
    });
    // Walked files stop at a NUL silently (ripgrep's rule for binary files); named files say so.
    if (shaped.binaryCut !== null && !info.walked) {
      ctx.state.binaryCuts.push({ path: info.display, offset: shaped.binaryCut });
    }
    // A file whose matches all lie outside its ranges (or past a NUL) does not match.
    if (shaped.matches === 0) return;
  }
  // Counting: the lines shaped (ranged files) or the engine's count; a names-only walk knows none.
  const count = ctx.output !== 'count' ? null : shaped ? shaped.matches : stats.matchedLines;
  keep(ctx, key, file, lines ? shaped : null, count);
}

/** Counts a matching file (and its lines, when counting) and keeps it when it falls on the page. */
function keep(
  ctx: RunContext,
  key: string,
  file: () => PendingFile,
  shaped: ShapedLines | null,
  count: number | null,
): void {
  const verdict = ctx.state.accept(key);
  if (verdict === 'duplicate') return;
  if (count !== null) ctx.state.matchedLines += count;
  if (verdict === 'page') ctx.state.page.push({ file: file(), shaped, count });
}

/** Archive members and virtual content: the same searcher the engine runs, on bytes in memory. */
async function runMemory(g: Extract<Group, { type: 'memory' }>, ctx: RunContext): Promise<void> {
  if (g.content.length > VIRTUAL_MAX_BYTES) {
    ctx.notes.add(`Not searched: ${g.file.display} (larger than ${VIRTUAL_MAX_BYTES / (1024 * 1024)} MiB)`);
    return;
  }
  const lines = ctx.output === 'content';
  const result = await searchContent(
    g.content,
    ctx.compiled,
    {
      mode: 'lines',
      beforeContext: lines ? ctx.before : 0,
      afterContext: lines ? ctx.after : 0,
      ...(g.file.ranges === null && lines ? { maxCount: ctx.cap + 1 } : {}),
      maxColumns: ENGINE_LINE_BYTES,
      binary: 'quit',
    },
    ctx.deadline,
    ctx.signal,
  );
  if (result === null) {
    // Stopped by the deadline or the signal (the caller rethrows an abort).
    ctx.state.timedOut = true;
    return;
  }
  if (result.skippedBinary) {
    ctx.notes.add(`Not searched: ${g.file.display} (binary content)`);
    return;
  }
  if (result.stats.matchedLines === 0) return;
  const records: ToolRecord[] = result.lines.map((l) => ({ ...l, match: l.submatches.length > 0 }));
  const shaped = shapeRecords(records, {
    ranges: g.file.ranges,
    cap: lines ? ctx.cap : UNCAPPED,
    before: lines ? ctx.before : 0,
    after: lines ? ctx.after : 0,
    limitReached: result.stats.limitReached,
    binaryOffset: null,
    redactor: ctx.redact ? new LineRedactor() : undefined,
  });
  if (shaped.matches === 0) return;
  keep(ctx, g.file.key, () => g.file, lines ? shaped : null, ctx.output === 'count' ? shaped.matches : null);
}

/** Matching files that ignore rules or skipped directories hid from a search that found nothing. */
export interface HiddenMatches {
  /** The first few, as shown. */
  files: string[];
  total: number;
  exact: boolean;
}

/**
 * Asked only when a walk found nothing (issue 11 item 4: "No matches found" in 40 ms over a tree whose
 * .gitignore ignores everything): the same walks again, counting only, with ignore files off and only
 * `.git` skipped, within what is left of the deadline.
 */
export async function findHiddenMatches(groups: readonly Group[], ctx: RunContext): Promise<HiddenMatches> {
  const sub = new RunState(0, NOTE_MAX_NAMES);
  const subCtx = hiddenCheckContext(ctx, sub);
  for (const g of groups.filter(walksTree)) {
    if (sub.timedOut) break;
    await runGroup(g, subCtx);
  }
  return { files: sub.page.map((e) => e.file.display), total: sub.total, exact: !sub.timedOut };
}

/** The check's run: names only, ignore files off, hidden files in, only `.git` skipped, its own page `state`. */
function hiddenCheckContext(ctx: RunContext, state: RunState): RunContext {
  return {
    ...ctx,
    state,
    output: 'files',
    skipDirs: new Set(['.git']),
    baseRequest: { ...ctx.baseRequest, ignoreFiles: false, hidden: true },
  };
}

/**
 * Whether any file at all matches a glob group (ignore rules off): a glob that matches nothing is said,
 * not answered with a bare "No matches found". Unknown (a budget or the deadline stopped the walk) is true.
 */
export function globMatchesAnyFile(g: Extract<Group, { type: 'glob' }>, ctx: RunContext): boolean {
  const walker = new Walker({
    roots: [g.baseAbs],
    cwd: ctx.cwd,
    hidden: true,
    ignoreFiles: false,
    requireGit: false,
    globs: g.globs,
    globBase: 'root',
    globMode: 'filter',
    skipDirs: new Set(['.git']),
    maxEntries: GLOB_CHECK_MAX_ENTRIES,
    deadline: ctx.deadline,
    now: ctx.clock,
    ...(ctx.baseRequest.exclude ? { exclude: ctx.baseRequest.exclude } : {}),
  });
  for (const _ of walker.entries()) return true;
  return walker.stats.stoppedBy !== undefined;
}

/**
 * Matching lines in each capped file of the page (the per-file cap stopped its search), counted in full so the
 * answer can say how many it did not show: one counting run over just those files, named, no walk. Files with
 * line ranges are left out (their count depends on the ranges). Absent from the map: not counted in time.
 */
export async function countCapped(abs: readonly string[], ctx: RunContext): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const remaining = ctx.deadline - ctx.clock();
  if (abs.length === 0 || remaining <= 0) return counts;
  try {
    const batches = searchBatches({
      ...ctx.baseRequest,
      paths: [...abs],
      mode: 'count',
      beforeContext: 0,
      afterContext: 0,
      deadlineMs: remaining,
    });
    for await (const batch of batches)
      for (const ev of batch)
        if (ev.type === 'end') counts.set(resolvePlain(ctx.cwd, ev.path), ev.stats.matchedLines);
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    // A count that could not run leaves the cap unsized, as before; the search itself stands.
  }
  return counts;
}
