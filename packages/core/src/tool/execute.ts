import * as path from 'node:path';
import { EngineUnavailableError, type SearchRequest, search, searchContent } from '../engine/index.js';
import { type CompiledPattern, PatternError } from '../match/index.js';
import type { SearchEvent, SearchSummary } from '../search/events.js';
import { Walker } from '../walk/walker.js';
import { SearchToolError } from './errors.js';
import type { ShownFile } from './format.js';
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
  /**
   * Walks only find and count matching files; the page's files are then searched in full (a second, small
   * search). Used with the rg engine, which would otherwise return every file's lines.
   */
  countFirst: boolean;
  /** Milliseconds kept back from a counting walk so the page can still be searched after it. */
  detailReserveMs: number;
  /** The clock the deadline is measured on (a seam for tests). */
  clock: () => number;
  /** Directory names walks skip, when not the usual SKIP_DIRS (the check for hidden matches). */
  skipDirs?: ReadonlySet<string>;
  cwd: string;
  cap: number;
  before: number;
  after: number;
  notes: Notes;
  state: RunState;
  deadline: number;
  signal: AbortSignal | undefined;
  baseRequest: SearchRequest;
  compiled: CompiledPattern;
}

export async function runGroup(g: Group, ctx: RunContext): Promise<void> {
  if (g.type === 'memory') return runMemory(g, ctx);
  if (g.type === 'engine') {
    const byAbs = new Map(g.roots.map((r) => [r.abs, r]));
    const countOnly = ctx.countFirst && g.ranges === null && g.roots.some((r) => r.walks);
    await runEngine(
      {
        ...ctx.baseRequest,
        paths: g.roots.map((r) => r.abs),
        skipDirs: ctx.skipDirs ?? new Set(SKIP_DIRS),
        ...(countOnly
          ? COUNT_ONLY
          : g.ranges === null
            ? { maxCount: ctx.cap + 1, detailFiles: ctx.state.detailWanted + g.roots.length }
            : {}),
      },
      ctx,
      (abs) => {
        const root = byAbs.get(abs);
        if (root && !root.walks) return { ...root, walked: false, ranges: g.ranges };
        return {
          abs,
          display: displayPath(abs, ctx.cwd),
          kind: 'file',
          taggable: true,
          walked: true,
          ranges: null,
        };
      },
      countOnly,
    );
    return;
  }
  // Globs narrow the walk; they never re-admit what the ignore rules exclude (engine 'filter' mode).
  await runEngine(
    {
      ...ctx.baseRequest,
      paths: [g.baseAbs],
      globs: g.globs,
      globBase: 'root',
      globMode: 'filter',
      skipDirs: ctx.skipDirs ?? g.skipDirs,
      ...(ctx.countFirst ? COUNT_ONLY : { maxCount: ctx.cap + 1, detailFiles: ctx.state.detailWanted }),
    },
    ctx,
    (abs) => ({
      abs,
      display: displayPath(abs, ctx.cwd),
      kind: 'file',
      taggable: true,
      walked: true,
      ranges: null,
    }),
    ctx.countFirst,
  );
}

/** A counting walk: the first match of each file is enough. */
const COUNT_ONLY: Partial<SearchRequest> = { mode: 'files-with-matches', beforeContext: 0, afterContext: 0 };

type RootInfo = {
  abs: string;
  display: string;
  kind: ShownFile['kind'];
  taggable: boolean;
  /** Found by walking a directory (not named by the caller). */
  walked: boolean;
  ranges: LineRange[] | null;
};

async function runEngine(
  request: SearchRequest,
  ctx: RunContext,
  describe: (abs: string) => RootInfo | null,
  countOnly = false,
): Promise<void> {
  const remaining = ctx.deadline - ctx.clock() - (countOnly ? ctx.detailReserveMs : 0);
  if (remaining <= 0) {
    ctx.state.timedOut = true;
    return;
  }
  let events: AsyncGenerator<SearchEvent, void, undefined>;
  try {
    events = search({ ...request, deadlineMs: remaining });
  } catch (err) {
    throw engineError(err);
  }
  let current: { path: string; records: ToolRecord[] } | null = null;
  let summary: SearchSummary | null = null;
  try {
    for await (const ev of events) {
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
          const abs = path.resolve(ctx.cwd, ev.path);
          const info = describe(abs);
          const records =
            ev.counted || countOnly ? null : current && current.path === ev.path ? current.records : [];
          current = null;
          if (!info) break;
          acceptFile(ctx, info, records, ev.stats.limitReached, ev.binaryOffset);
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
  limitReached: boolean,
  binaryOffset: number | null,
): void {
  const file: PendingFile = {
    key: `f:${info.abs}`,
    display: info.display,
    kind: info.kind,
    abs: info.abs,
    taggable: info.taggable,
    walked: info.walked,
    ranges: info.ranges,
  };
  let shaped: ShapedLines | null = null;
  if (records !== null) {
    shaped = shapeRecords(records, {
      ranges: info.ranges,
      cap: ctx.cap,
      before: ctx.before,
      after: ctx.after,
      limitReached,
      binaryOffset,
    });
    // Walked files stop at a NUL silently (ripgrep's rule for binary files); named files say so.
    if (shaped.binaryCut !== null && !info.walked) {
      ctx.state.binaryCuts.push({ path: info.display, offset: shaped.binaryCut });
    }
    // A file whose matches all lie outside its ranges (or past a NUL) does not match.
    if (shaped.matches === 0) return;
  }
  const verdict = ctx.state.accept(file.key);
  if (verdict === 'page') ctx.state.page.push({ file, shaped });
}

/** Archive members and virtual content: the same searcher the engine runs, on bytes in memory. */
async function runMemory(g: Extract<Group, { type: 'memory' }>, ctx: RunContext): Promise<void> {
  if (g.content.length > VIRTUAL_MAX_BYTES) {
    ctx.notes.add(`Not searched: ${g.file.display} (larger than ${VIRTUAL_MAX_BYTES / (1024 * 1024)} MiB)`);
    return;
  }
  const result = await searchContent(
    g.content,
    ctx.compiled,
    {
      mode: 'lines',
      beforeContext: ctx.before,
      afterContext: ctx.after,
      ...(g.file.ranges === null ? { maxCount: ctx.cap + 1 } : {}),
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
    cap: ctx.cap,
    before: ctx.before,
    after: ctx.after,
    limitReached: result.stats.limitReached,
    binaryOffset: null,
  });
  if (shaped.matches === 0) return;
  if (ctx.state.accept(g.file.key) === 'page') ctx.state.page.push({ file: g.file, shaped });
}

/** Page files the engine only counted (past its detail horizon) are searched again, in full. */
export async function refetchCounted(ctx: RunContext): Promise<void> {
  const wanted = ctx.state.page.filter((e) => e.shaped === null && e.file.abs);
  // Runs even after a counting walk hit the deadline: time was kept back for this.
  if (wanted.length === 0) return;
  const byAbs = new Map(wanted.map((e) => [e.file.abs!, e]));
  const found = new Map<string, ShapedLines>();
  const sub = new RunState(0, Number.MAX_SAFE_INTEGER);
  const subCtx: RunContext = { ...ctx, state: sub };
  await runEngine(
    { ...ctx.baseRequest, paths: [...byAbs.keys()], maxCount: ctx.cap + 1, skipDirs: new Set(SKIP_DIRS) },
    subCtx,
    (abs) => {
      const e = byAbs.get(abs);
      return e
        ? {
            abs,
            display: e.file.display,
            kind: e.file.kind,
            taggable: e.file.taggable,
            walked: e.file.walked,
            ranges: e.file.ranges,
          }
        : null;
    },
  );
  for (const e of sub.page) if (e.shaped && e.file.abs) found.set(e.file.abs, e.shaped);
  for (const e of wanted) e.shaped = found.get(e.file.abs!) ?? null;
  if (sub.timedOut) ctx.state.timedOut = true;
  ctx.state.binaryCuts.push(...sub.binaryCuts);
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
  const subCtx: RunContext = {
    ...ctx,
    state: sub,
    countFirst: true,
    detailReserveMs: 0,
    skipDirs: new Set(['.git']),
    baseRequest: { ...ctx.baseRequest, ignoreFiles: false },
  };
  for (const g of groups) {
    if (g.type === 'memory' || (g.type === 'engine' && !g.roots.some((r) => r.walks))) continue;
    if (sub.timedOut) break;
    await runGroup(g, subCtx);
  }
  return { files: sub.page.map((e) => e.file.display), total: sub.total, exact: !sub.timedOut };
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
