import * as path from 'node:path';
import { EngineUnavailableError, type SearchRequest, search, searchContent } from '../engine/index.js';
import { type CompiledPattern, PatternError } from '../match/index.js';
import type { SearchEvent, SearchSummary } from '../search/events.js';
import { SearchToolError } from './errors.js';
import type { ShownFile } from './format.js';
import { ENGINE_LINE_BYTES, VIRTUAL_MAX_BYTES } from './limits.js';
import type { LineRange } from './line-ranges.js';
import { commonBase, displayPath, escapeGlob } from './paths.js';
import { type ShapedLines, shapeRecords, type ToolRecord } from './shape.js';
import type { Target } from './targets.js';
import { type EngineRoot, type Expanded, type PageEntry, type PendingFile, SKIP_DIRS } from './types.js';

/**
 * Running a search plan: each group (plain paths, globs, ranged files, in-memory content) runs in turn
 * against one shared page, deadline and signal; matching files are counted past the page, exactly.
 */
export class Notes {
  private readonly items: Array<{ kind: string; text: string }> = [];
  add(kind: string, text: string): void {
    this.items.push({ kind, text });
  }
  get all(): string[] {
    return this.items.map((i) => i.text);
  }
}

export class RunState {
  readonly seen = new Set<string>();
  total = 0;
  readonly page: PageEntry[] = [];
  timedOut = false;
  engine: string | undefined;
  readonly walkedTooLarge: string[] = [];
  readonly unreadable: string[] = [];
  readonly engineErrors: string[] = [];
  readonly binaryCuts: Array<{ path: string; offset: number }> = [];

  constructor(
    readonly skip: number,
    readonly pageSize: number,
  ) {}

  /** Matching files still wanted in full (the rest of the page). */
  get detailWanted(): number {
    return Math.max(0, this.skip + this.pageSize - this.total);
  }

  /** Counts a matching file; true when it belongs on the page. Duplicates are neither counted nor shown. */
  accept(key: string): 'page' | 'counted' | 'duplicate' {
    if (this.seen.has(key)) return 'duplicate';
    this.seen.add(key);
    const index = this.total++;
    return index >= this.skip && index < this.skip + this.pageSize ? 'page' : 'counted';
  }
}

export interface RunContext {
  /**
   * Walks only find and count matching files; the page's files are then searched in full (a second, small
   * search). Used with the rg engine, which would otherwise return every file's lines.
   */
  countFirst: boolean;
  /** Milliseconds kept back from a counting walk so the page can still be searched after it. */
  detailReserveMs: number;
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

export type Group =
  | { type: 'engine'; roots: EngineRoot[]; ranges: LineRange[] | null }
  | { type: 'glob'; baseAbs: string; globs: string[]; skipDirs: Set<string> }
  | { type: 'memory'; file: PendingFile; content: Buffer };

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
        groups.push({ type: 'glob', baseAbs: '', globs: [], skipDirs: new Set() }); // placeholder
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
      // A leading `**` needs no anchor (and the js engine's walker mishandles a lone `/**`).
      if (rel === '') return g.bare || g.rest.startsWith('**') ? g.rest : `/${g.rest}`;
      return g.bare ? `/${escapeGlob(rel)}/**/${g.rest}` : `/${escapeGlob(rel)}/${g.rest}`;
    });
    const skipDirs = new Set(SKIP_DIRS.filter((d) => !patterns.some((p) => p.includes(d))));
    return { type: 'glob', baseAbs: b, globs: patterns, skipDirs } as Group;
  });
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
        skipDirs: new Set(SKIP_DIRS),
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
      skipDirs: g.skipDirs,
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
  const remaining = ctx.deadline - Date.now() - (countOnly ? ctx.detailReserveMs : 0);
  if (remaining <= 0) {
    ctx.state.timedOut = true;
    return;
  }
  let events: AsyncGenerator<SearchEvent, void, undefined>;
  try {
    events = search({ ...request, timeoutMs: remaining });
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
    ctx.notes.add(
      'not-searched',
      `Not searched: ${g.file.display} (larger than ${VIRTUAL_MAX_BYTES / (1024 * 1024)} MiB)`,
    );
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
    ctx.notes.add('not-searched', `Not searched: ${g.file.display} (binary content)`);
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
