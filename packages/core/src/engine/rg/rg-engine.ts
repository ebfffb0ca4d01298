import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { escapeGlob } from '../../glob/glob.js';
import {
  RG_BATCH_EVENTS,
  RG_FILE_PART_BYTES,
  RG_HELD_FILES,
  RG_HELD_OUTPUT_BYTES,
  RG_LIST_ARGV_BYTES,
  RG_ORDERED_RESERVE_SHARE,
} from '../../limits.js';
import type { LineRecord, SearchEvent, SearchOutcome, SearchSummary } from '../../search/events.js';
import { charBoundaryAtOrBefore } from '../../search/utf8.js';
import { isFencedIdentity, TreeWitness } from '../../util/fs-safety.js';
import { compareUtf8 } from '../../util/path-order.js';
import { belowRoot, resolvePlain } from '../../util/resolve-plain.js';
import { Walker } from '../../walk/walker.js';
import { runJsEngine } from '../js/js-engine.js';
import { type EngineRun, EngineUnavailableError, emptySummary } from '../run.js';
import { holdNamedFiles } from './held-files.js';
import { detailHorizonApplies, entryOf, withDetailHorizon } from './rg-detail.js';

/** stderr kept for error reporting; rg can be chatty about unreadable files. */
const STDERR_CAP_BYTES = 64 * 1024;

/**
 * What one file produced, or a part of it (a file with a lot of output comes in parts of about
 * RG_FILE_PART_BYTES, in order, the first holding its `begin`), so files can be put in walk order.
 */
interface FileBlock {
  path: string;
  /** Its root's place among the roots (a candidate list's files are its roots: its place in the list). */
  rootIndex: number;
  events: SearchEvent[];
  /** Size of rg's output for it: what holding it costs, roughly. */
  bytes: number;
  /** This part continues the file of the part before it. */
  continued?: true;
  /** More of this file follows in the next part. */
  more?: true;
  /** A named file rg read through a descriptor judged where it is (held-files.ts): no filter is asked again. */
  judged?: true;
}

/**
 * The rg engine: runs a vetted ripgrep with `--json` and translates its output into our events. rg's
 * parallel output order depends on scheduling, so blocks are collected and emitted in path byte order at
 * the end — the same order the js engine produces. The child is killed and reaped on deadline, abort, or
 * when the consumer stops reading.
 */
export function runRgEngine(run: EngineRun): AsyncGenerator<SearchEvent[], void, undefined> {
  return detailHorizonApplies(run) ? withDetailHorizon(run, runRg) : runRg(run);
}

/** The rg engine without a detail horizon: every file's events as rg reports them. */
async function* runRg(run: EngineRun): AsyncGenerator<SearchEvent[], void, undefined> {
  if (run.files) {
    yield* runRgList(run, run.files.entries, run.files.stats);
    return;
  }
  const started = run.now();
  const summary = emptySummary('rg', run.engineReason);
  const cwd = run.walk.cwd;
  const existing: Array<{ spelling: string; index: number }> = [];
  // Regular files among the roots: opened and judged here, read by rg through those descriptors (held-files.ts).
  const namedFiles = new Set<string>();
  let allFiles = true;
  run.walk.roots.forEach((root, index) => {
    if (root === '-' && run.stdinContent) {
      existing.push({ spelling: root, index });
      return;
    }
    try {
      if (fs.statSync(path.resolve(cwd, root === '' ? '.' : root)).isFile()) namedFiles.add(root);
      else allFiles = false;
      existing.push({ spelling: root, index });
    } catch (err) {
      summary.missingRoots.push(root);
      summary.errors.push({
        path: root,
        code: (err as NodeJS.ErrnoException).code ?? 'ENOENT',
        message: 'No such file or directory',
      });
    }
  });

  // One rg per root, in order: ripgrep 15 given several roots applies parent-directory ignore rules
  // racily (about 1 run in 30 here); one root per run is deterministic. With root-relative globs, rg must
  // also run inside the root, since its globs are relative to where it runs.
  const rootRelative = run.walk.globBase === 'root' && (run.walk.globs?.length ?? 0) > 0;
  type Invocation = {
    cwd: string;
    roots: string[];
    prefix: (typeof existing)[number] | null;
    /** The named files of a batch (null: one root), run again one by one if the batch's output is too large. */
    batch: typeof existing | null;
  };
  const perRoot = (of: typeof existing): Invocation[] =>
    of.map((r) =>
      rootRelative
        ? { cwd: path.resolve(cwd, r.spelling || '.'), roots: [''], prefix: r, batch: null }
        : { cwd, roots: [r.spelling], prefix: null, batch: null },
    );
  // Named files only (nothing to walk, so no ignore rule to apply racily): one rg for up to RG_HELD_FILES of
  // them, put back in the caller's order. One rg per file made a page of 20 files cost 20 process starts (issue
  // 11 item 12). Output too large to hold falls back to one rg per file.
  const invocations: Invocation[] = [];
  if (allFiles && existing.length > 1 && !rootRelative) {
    for (let i = 0; i < existing.length; i += RG_HELD_FILES) {
      const batch = existing.slice(i, i + RG_HELD_FILES);
      invocations.push({ cwd, roots: batch.map((r) => r.spelling), prefix: null, batch });
    }
  } else invocations.push(...perRoot(existing));

  // rg walks by path: a name it reports must be a file of the tree (see TreeWitness), on surfaces that fence.
  const witness = run.walk.exclude && !run.walk.followLinks ? new TreeWitness() : null;
  const keep = resultFilter(run, witness);
  const heldRun = withSoftDeadline(run, started);
  const fencedLink = fencedLinkCheck(run);
  let admitted = true;
  /**
   * A block as the caller sees it: its path spelled from the caller's root; dropped if the filter says so
   * (decided on a file's first part, kept for the parts that continue it).
   */
  const admit = (b: FileBlock, inv: (typeof invocations)[number], counted = true): boolean => {
    if (inv.prefix) {
      const spelled = inv.prefix.spelling.replace(/\/+$/, '');
      b.path = spelled === '' ? b.path : `${spelled}/${b.path}`;
      for (const e of b.events) if ('path' in e) e.path = b.path;
      b.rootIndex = inv.prefix.index;
    } else {
      b.rootIndex = rootIndexOf(b.path, existing);
    }
    if (!b.continued) admitted = b.judged === true || ((!keep || keep(b)) && !fencedLink(b.path));
    if (!admitted && counted) unreport(b, summary);
    return admitted;
  };
  let outcome: SearchOutcome = 'complete';
  for (let i = 0; i < invocations.length; i++) {
    const inv = invocations[i]!;
    if (outcome !== 'complete') break;
    // First as ripgrep runs best, in parallel, holding its results to put them in path order. Most
    // searches end here. One whose output outgrows RG_HELD_OUTPUT_BYTES is started again with
    // `--sort path` (one rg thread, files in order) and streamed, so memory stays flat whatever the output.
    const before = countersOf(summary);
    let control: RgControl = { outcome: 'complete' };
    const blocks = (extra: string[], within: EngineRun = run) =>
      rgBlocks(within, inv.cwd, inv.roots, summary, extra, control, null, inv.prefix ? null : namedFiles);
    const held = await holdBlocks(blocks([], heldRun), run, control);
    outcome = control.outcome;
    // Cut while held (rg's threads had reached anywhere in the tree): started again in path order, below.
    const cutUnordered = held !== null && cutBySoftDeadline(control, heldRun, run);
    if (held !== null && !cutUnordered) {
      const listed = new Set(held.map((b) => b.path));
      const kept = held.filter((b) => admit(b, inv));
      if (control.unlisted && outcome === 'complete') {
        const first = rgBlocks(firstMatchRun(run), inv.cwd, inv.roots, scratch(), [], control);
        const found = await collectBlocks(first);
        // Not counted yet, so nothing to take back if left out.
        const missed = found.filter((b) => !listed.has(b.path) && admit(b, inv, false)).map((b) => b.path);
        for (const b of await countedByJs(run, missed, summary)) {
          b.rootIndex = inv.prefix ? inv.prefix.index : rootIndexOf(b.path, existing);
          kept.push(b);
        }
        outcome = control.outcome;
      }
      sortBlocks(kept);
      yield* inBatches(kept);
      continue;
    }
    restoreCounters(summary, before);
    outcome = 'complete';
    control = { outcome: 'complete' };
    if (inv.batch) {
      invocations.splice(i + 1, 0, ...perRoot(inv.batch));
      continue;
    }
    const order = new PathOrderWindow(inv.cwd, inv.roots[0] ?? '');
    for await (const b of blocks(['--sort', 'path'])) {
      for (const ready of order.push(b)) if (admit(ready, inv)) yield ready.events;
    }
    // Cut by the deadline, the files the window still holds wait for siblings that sort before them and may
    // never have been searched: they are the tail the deadline cut, as every file after them is.
    if (control.outcome === 'complete')
      for (const ready of order.flush()) if (admit(ready, inv)) yield ready.events;
    outcome = control.outcome;
  }
  summary.outcome = outcome;
  summary.elapsedMs = run.now() - started;
  yield [{ type: 'summary', summary }];
}

/**
 * The run rg is first given, in parallel with its output held: one that ends RG_ORDERED_RESERVE_SHARE of the
 * time before the deadline. rg's threads reach files anywhere in the tree, so what a cut leaves held is no prefix
 * in path order (a next page would skip what it missed); cut there, rg starts again in path order for the time
 * kept back, and what the deadline cuts then is the tail.
 */
function withSoftDeadline(run: EngineRun, started: number): EngineRun {
  if (run.deadline === undefined) return run;
  return { ...run, deadline: run.deadline - Math.max(0, run.deadline - started) * RG_ORDERED_RESERVE_SHARE };
}

/** The held run was stopped by its early deadline (not the search's own, nor an abort). */
function cutBySoftDeadline(control: RgControl, held: EngineRun, run: EngineRun): boolean {
  return control.outcome === 'timeout' && held !== run;
}

/**
 * A run's blocks held whole (a part continuing a file joins it), to be put in order; null once they outgrow the
 * run's RG_HELD_OUTPUT_BYTES (rg is stopped then: the caller starts it again in a mode whose output is in order).
 */
async function holdBlocks(
  blocks: AsyncGenerator<FileBlock, void, undefined>,
  run: EngineRun,
  control: RgControl,
): Promise<FileBlock[] | null> {
  const held: FileBlock[] = [];
  let heldBytes = 0;
  for await (const b of blocks) {
    if (b.continued) held.at(-1)!.events.push(...b.events);
    else held.push(b);
    heldBytes += b.bytes;
    if (heldBytes > (run.rgHeldOutputBytes ?? RG_HELD_OUTPUT_BYTES) && control.outcome === 'complete') {
      await blocks.return();
      return null;
    }
  }
  return held;
}

/** The same search stopped at each file's first match (`rg --count -m 1`: a walked file's late NUL unseen). */
function firstMatchRun(run: EngineRun): EngineRun {
  return { ...run, searcher: { ...run.searcher, mode: 'files-with-matches' } };
}

/** A summary whose counts are thrown away (a run that only names files). */
function scratch(): SearchSummary {
  return emptySummary('rg', '');
}

async function collectBlocks(blocks: AsyncGenerator<FileBlock, void, undefined>): Promise<FileBlock[]> {
  const out: FileBlock[] = [];
  for await (const b of blocks) out.push(b);
  return out;
}

/**
 * Files rg's count left out (a walked file with a NUL after its matches), counted by the js engine's searcher
 * with the walk's binary rule: their counts are the matches before the NUL, their end says where it is, as rg's
 * lines output reports them. rg's statistics already counted their matches; only the files are added.
 */
async function countedByJs(run: EngineRun, paths: string[], summary: SearchSummary): Promise<FileBlock[]> {
  if (paths.length === 0) return [];
  const entries = paths.map((p) => entryOf(run, p)).filter((e) => !run.walk.exclude?.(e.canon));
  const out: FileBlock[] = [];
  const counting: EngineRun = {
    ...run,
    searcher: { ...run.searcher, mode: 'count' },
    files: {
      entries,
      stats: { entries: entries.length, dirs: 0, files: entries.length, errors: [], missingRoots: [] },
    },
  };
  delete counting.detailFiles;
  for await (const batch of runJsEngine(counting))
    for (const e of batch) {
      if (e.type === 'end' && e.stats.matchedLines > 0) {
        out.push({ path: e.path, rootIndex: 0, events: [e], bytes: 0 });
        summary.filesWithMatch++;
      }
    }
  return out;
}

/**
 * A content index's candidates (`run.files`, in walk order), given to rg on its command line: files that read
 * the same named as walked (see run.ts `files`), so no walk flag, glob or size cap applies to them. In argv
 * batches of RG_LIST_ARGV_BYTES, one rg per batch in turn; a batch is a stretch of the walk, so its output put
 * back in the order given is walk order. A batch whose output outgrows what is held runs again with
 * `--threads 1`, which searches named files in the order given, and streams. The walk's own report (errors,
 * missing roots) is the summary's, as the js engine reports a list.
 *
 * rg opens a named file whatever it has become since the index listed it, following a link: each file reported
 * is checked to be a file where the walk found it (TreeWitness), else it is left out, as the walk would leave it
 * now.
 */
async function* runRgList(
  run: EngineRun,
  entries: ReadonlyArray<{ path: string; abs: string }>,
  walked: NonNullable<EngineRun['files']>['stats'],
): AsyncGenerator<SearchEvent[], void, undefined> {
  const started = run.now();
  const summary = emptySummary('rg', run.engineReason);
  summary.missingRoots = [...walked.missingRoots];
  summary.errors.push(...walked.errors);
  let outcome: SearchOutcome = 'complete';
  // `-` would be standard input to rg: it is named `./-`, and spelled back only when the walk spelled it `-`.
  const dash = entries.some((e) => e.path === '-');
  const argv = entries.map((e) => (e.path === '-' ? NAMED_DASH : e.path));
  const absOf = new Map(entries.map((e) => [e.path, e.abs]));
  // Each file reported must still be a file where the walk found it, in its directory's listing read through a
  // judged descriptor (a list's roots are canonical: the index refuses roots through links): a file swapped for a
  // link since the index listed it, or a directory on the way swapped for one, is left out — instead of reported
  // with what rg read through it.
  const heldRun = withSoftDeadline(run, started);
  const witness = new TreeWitness();
  const still = (abs: string) => witness.isFile(abs);
  const fencedLink = fencedLinkCheck(run);
  let admitted = true;
  const admit = (b: FileBlock): boolean => {
    if (!b.continued) admitted = still(absOf.get(b.path)!) && !fencedLink(b.path);
    if (!admitted) unreport(b, summary);
    return admitted;
  };
  for (const batch of argvBatches(argv, run.rgListArgvBytes ?? RG_LIST_ARGV_BYTES)) {
    if (outcome !== 'complete' || run.signal?.aborted) break;
    const before = countersOf(summary);
    let control: RgControl = { outcome: 'complete' };
    const cwd = run.walk.cwd;
    const named = { dash };
    const held = await holdBlocks(rgBlocks(heldRun, cwd, batch, summary, [], control, named), run, control);
    outcome = control.outcome;
    if (held !== null && !cutBySoftDeadline(control, heldRun, run)) {
      // Each file's place in the batch, looked up once (not per comparison).
      const rank = new Map(batch.map((p, i) => [dash && p === NAMED_DASH ? '-' : p, i]));
      const kept = held.filter(admit);
      for (const b of kept) b.rootIndex = rank.get(b.path)!;
      kept.sort((a, b) => a.rootIndex - b.rootIndex);
      yield* inBatches(kept);
      continue;
    }
    restoreCounters(summary, before);
    control = { outcome: 'complete' };
    for await (const b of rgBlocks(run, cwd, batch, summary, ['--threads', '1'], control, named))
      if (admit(b)) yield b.events;
    outcome = control.outcome;
  }
  if (outcome === 'complete' && run.signal?.aborted) outcome = 'aborted';
  summary.outcome = outcome;
  summary.elapsedMs = run.now() - started;
  yield [{ type: 'summary', summary }];
}

/**
 * Whether a file rg found (by path, relative to the run's cwd) is another name of a fenced file: rg opened it
 * itself, so its identity is taken by path (a hard link is a file of the tree that stays put; a swapped directory
 * is the other checks' business). No look-up at all while no fenced file has other names.
 */
function fencedLinkCheck(run: EngineRun): (p: string) => boolean {
  const fenced = run.fencedIdentities;
  if (!fenced?.size) return () => false;
  return (p) => {
    const st = fs.lstatSync(path.resolve(run.walk.cwd, p), { bigint: true, throwIfNoEntry: false });
    return st !== undefined && isFencedIdentity(st, fenced);
  };
}

/** Takes a file left out after rg reported it back out of the summary's counts. */
function unreport(b: FileBlock, summary: SearchSummary): void {
  const end = b.events.at(-1);
  if (end?.type === 'end' && end.stats.matchedLines > 0) {
    summary.filesWithMatch--;
    summary.matches -= end.stats.matches;
    summary.matchedLines -= end.stats.matchedLines;
  }
}

/**
 * Consecutive stretches of `paths` whose argv bytes stay within `budget`: each path, its NUL and its pointer in
 * the argument vector (what the kernel counts against ARG_MAX).
 */
export function* argvBatches(paths: readonly string[], budget: number): Generator<string[], void, undefined> {
  let batch: string[] = [];
  let bytes = 0;
  for (const p of paths) {
    const n = Buffer.byteLength(p, 'utf8') + 1 + ARGV_POINTER_BYTES;
    if (batch.length > 0 && bytes + n > budget) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(p);
    bytes += n;
  }
  if (batch.length > 0) yield batch;
}

/**
 * Files in path byte order (roots in the caller's order). Most trees' paths have no character from U+D800 up,
 * and then the native string order is byte order: a broad search sorts ~13 k paths sharing a long prefix, which
 * compareUtf8's loop over characters made a visible share of the call.
 */
function sortBlocks(blocks: FileBlock[]): void {
  const native = !blocks.some((b) => ABOVE_SURROGATES.test(b.path));
  blocks.sort((a, b) => {
    if (a.rootIndex !== b.rootIndex) return a.rootIndex - b.rootIndex;
    if (!native) return compareUtf8(a.path, b.path);
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  });
}

/** A UTF-16 unit where UTF-16 order and UTF-8 order may part (surrogates and what follows them). */
const ABOVE_SURROGATES = /[\ud800-\uffff]/;

/**
 * Held files' events, several files to a batch: one batch per file made a broad search (one event per
 * matching file) cost its consumers an await per file.
 */
function* inBatches(blocks: FileBlock[]): Generator<SearchEvent[], void, undefined> {
  let batch: SearchEvent[] = [];
  for (const b of blocks) {
    if (batch.length > 0 && batch.length + b.events.length > RG_BATCH_EVENTS) {
      yield batch;
      batch = [];
    }
    if (batch.length === 0 && b.events.length >= RG_BATCH_EVENTS) {
      yield b.events;
      continue;
    }
    for (const e of b.events) batch.push(e);
  }
  if (batch.length > 0) yield batch;
}

/**
 * What ripgrep cannot be told: glob 'filter' mode (its -g admits ignored files) and the caller's exclude
 * predicate. Results are checked after the fact, against the same rules the js engine walks by.
 */
function resultFilter(run: EngineRun, witness: TreeWitness | null): ((b: FileBlock) => boolean) | null {
  const w = run.walk;
  const filterGlobs = w.globMode === 'filter' && (w.globs?.length ?? 0) > 0 && w.ignoreFiles !== false;
  if (!filterGlobs && !w.exclude) return null;
  const walker = new Walker({ ...w });
  const canonicalRoots = new Map<number, string | null>();
  const rootsAbs = w.roots.map((r) => path.resolve(w.cwd, r || '.'));
  return (b) => {
    const rootAbs = rootsAbs[b.rootIndex] ?? w.cwd;
    const abs = resolvePlain(w.cwd, b.path);
    if (w.exclude) {
      // Decided where the file is, as the walker decides: ripgrep follows a root that is a link, and with
      // -L any link below it, so then each file's own realpath is where it is.
      const canonical = w.followLinks ? realpathOrNull(abs) : canonicalPath(b, rootAbs, abs, canonicalRoots);
      if (canonical === null || w.exclude(canonical)) return false;
      // A name rg read through a directory swapped for a link (`d/…` listing `~/.ssh`) is not in the tree's `d/`.
      if (witness && !witness.isFile(canonical)) return false;
    }
    return !(filterGlobs && abs !== rootAbs && walker.ignoredBelow(rootAbs, abs, false));
  };
}

/**
 * The real location of a file ripgrep reported: its root's realpath plus the names below the root (ripgrep, like
 * the walker, follows no link below a root). `null` when the root cannot be resolved: the caller fails closed.
 */
function canonicalPath(
  b: FileBlock,
  rootAbs: string,
  abs: string,
  cache: Map<number, string | null>,
): string | null {
  let root = cache.get(b.rootIndex);
  if (root === undefined) {
    try {
      root = fs.realpathSync.native(rootAbs);
    } catch {
      root = null;
    }
    cache.set(b.rootIndex, root);
  }
  return root === null ? null : belowRoot(rootAbs, root, abs);
}

function realpathOrNull(abs: string): string | null {
  try {
    return fs.realpathSync.native(abs);
  } catch {
    return null;
  }
}

function rootIndexOf(p: string, roots: Array<{ spelling: string; index: number }>): number {
  for (const r of roots) {
    const s = r.spelling.replace(/\/+$/, '');
    if (s === '' || p === s || p.startsWith(`${s}/`) || (s === '/' && p.startsWith('/'))) return r.index;
  }
  return 0;
}

export function buildRgArgs(
  run: EngineRun,
  roots: string[],
  /** The roots are files read as named (a candidate list): no walk flag, glob or size cap applies to them. */
  named = false,
): { args: string[]; stdin: string | null } {
  const p = run.pattern;
  const w = run.walk;
  const s = run.searcher;
  // Files-with-matches needs paths only: `--count --max-count 1` is a tenth of the JSON and cheap to
  // read. Not rg's own `-l`, which lists a file with a late NUL only sometimes (its sink decides at the
  // file's end); like `--json -m1`, `-c -m1` stops at the first match and reports it.
  const pathsOnly = s.mode === 'files-with-matches' && !run.reportUnmatched;
  // Counts only (-c, the tool's count, a detail horizon's count run): rg's --count, a path and a number per
  // file instead of every match as JSON (34 MB of matches counted in 81 ms, not 3–5 s). With reportUnmatched
  // (--files-without-match, --include-zero) every searched file with its count: rg's own --include-zero.
  const allCounts = run.reportUnmatched === true;
  const counts = allCounts || s.mode === 'count';
  const args = pathsOnly
    ? [
        '--count',
        '--max-count',
        '1',
        '--with-filename',
        '--null',
        '--stats',
        '--no-config',
        '--no-ignore-global',
      ]
    : counts
      ? [
          run.countMatches ? '--count-matches' : '--count',
          ...(allCounts ? ['--include-zero'] : []),
          '--with-filename',
          '--null',
          '--stats',
          '--no-config',
          '--no-ignore-global',
        ]
      : ['--json', '--no-config', '--no-ignore-global'];
  if (p.caseInsensitive) args.push('--ignore-case');
  if (p.fixedStrings) args.push('--fixed-strings');
  if (p.wordRegexp) args.push('--word-regexp');
  if (p.multiline) args.push('--multiline');
  if (!named) args.push(...rgWalkArgs(w));
  if (s.invert) args.push('--invert-match');
  if (s.nullData) args.push('--null-data');
  if (s.stopOnNonmatch) args.push('--stop-on-nonmatch');
  if (s.encoding !== undefined) args.push('--encoding', s.encoding);
  if (s.binaryDetection === 'none') args.push('--text');
  else if (s.binaryDetection === 'search') args.push('--binary');
  if (!named) {
    for (const dir of w.skipDirs ?? []) args.push('--glob', `!${escapeGlob(dir)}/`);
    for (const g of run.rgExcludeIglobs ?? []) args.push('--iglob', g);
  }
  if (run.rgNoMmap) args.push('--no-mmap');
  if (!named && Number.isFinite(run.maxFilesize) && !run.sizesWithinCap)
    args.push('--max-filesize', String(run.maxFilesize));
  if (!pathsOnly && s.maxCount !== undefined) args.push('--max-count', String(s.maxCount));
  if (s.mode === 'lines') {
    if (s.afterContext > 0) args.push('--after-context', String(s.afterContext));
    if (s.beforeContext > 0) args.push('--before-context', String(s.beforeContext));
  } else if (s.mode === 'count' && !pathsOnly && s.maxCount !== undefined && s.afterContext > 0) {
    // ripgrep's -c -m N -A M also counts the matches inside the last match's after-context.
    args.push('--after-context', String(s.afterContext));
  }
  let stdin: string | null = null;
  if (run.patternChannel === 'stdin') {
    // `--file -` reads one pattern per line, so a pattern holding a newline is sent in escaped form.
    stdin = `${p.rust.includes('\n') ? newlineFree(p) : p.rust}\n`;
    if (p.rust.includes('\n') && p.fixedStrings) args.splice(args.indexOf('--fixed-strings'), 1);
    args.push('--file', '-');
  } else {
    args.push('--regexp', p.rust);
  }
  // The root '' means "the working directory, paths unprefixed": rg's `.`, with `./` taken off again.
  args.push('--', ...roots.map((r) => (r === '' ? '.' : r)));
  return { args, stdin };
}

/** The rg flags that choose the same files as the walk options do (the searching flags aside). */
export function rgWalkArgs(w: EngineRun['walk']): string[] {
  const args: string[] = [];
  if (w.hidden) args.push('--hidden');
  if (w.ignoreFiles === false) args.push('--no-ignore');
  if (w.requireGit === false) args.push('--no-require-git');
  if (w.parents === false) args.push('--no-ignore-parent');
  if (w.vcsIgnore === false) args.push('--no-ignore-vcs');
  if (w.dotIgnore === false) args.push('--no-ignore-dot');
  for (const f of w.extraIgnoreFiles ?? []) args.push('--ignore-file', path.resolve(w.cwd, f));
  if (w.maxDepth !== undefined) args.push('--max-depth', String(w.maxDepth));
  if (w.followLinks) args.push('--follow');
  // Our type table, given to rg as two ad-hoc types, so both engines select the same files.
  for (const g of w.fileTypes?.include ?? []) args.push('--type-add', `trawlselected:${g}`);
  for (const g of w.fileTypes?.exclude ?? []) args.push('--type-add', `trawlnegated:${g}`);
  if (w.fileTypes?.include.length) args.push('--type', 'trawlselected');
  if (w.fileTypes?.exclude.length) args.push('--type-not', 'trawlnegated');
  if (w.globCaseInsensitive) args.push('--glob-case-insensitive');
  for (const g of w.globs ?? []) args.push('--glob', g);
  return args;
}

function newlineFree(p: EngineRun['pattern']): string {
  if (p.fixedStrings) return p.rust.replace(/[\\.+*?()|[\]{}^$#&~-]/g, '\\$&').replace(/\n/g, '\\n');
  return p.rust.replace(/\n/g, '\\n');
}

/** How one rg run ended: killed by the deadline or an abort, or complete. */
interface RgControl {
  outcome: SearchOutcome;
  /**
   * Count mode: files rg's statistics say matched that its count list left out. ripgrep's `--count` leaves out a
   * walked file whose NUL it met after a match (its lines output reports the matches before the NUL).
   */
  unlisted?: number;
}

/**
 * One rg run as a stream of file blocks, in the order rg prints them. rg's output is read only as fast as
 * the blocks are taken, so a slow consumer holds rg back instead of piling up its output. Stopping early
 * (the consumer returns) kills rg.
 */
async function* rgBlocks(
  run: EngineRun,
  cwd: string,
  roots: string[],
  summary: SearchSummary,
  extraArgs: string[],
  control: RgControl,
  /** The roots are a candidate list's files; `dash`: `./-` among them stands for the walk's `-`. */
  named: { dash: boolean } | null = null,
  /** Roots that are regular files, handed to rg as judged descriptors (held-files.ts). */
  namedFiles: ReadonlySet<string> | null = null,
): AsyncGenerator<FileBlock, void, undefined> {
  const held = namedFiles
    ? holdNamedFiles(roots, namedFiles, cwd, run.walk.exclude, run.fencedIdentities)
    : null;
  if (held) {
    summary.errors.push(...held.errors);
    // Every root left out: rg given none would search its working directory.
    if (held.roots.length === 0) return;
  }
  const { args, stdin: patternInput } = buildRgArgs(run, held?.roots ?? roots, named !== null);
  args.unshift(...extraArgs);
  // The root `-`: rg reads the caller's standard input, handed over here (the pattern is on argv then).
  const stdin = roots.includes('-') && run.stdinContent ? run.stdinContent : patternInput;
  let child: ChildProcess;
  try {
    child = (run.spawnRg ?? spawn)(run.rgPath!, args, {
      cwd,
      stdio: [stdin === null ? 'ignore' : 'pipe', 'pipe', 'pipe', ...(held?.fds ?? [])],
      windowsHide: true,
    });
  } finally {
    held?.close(); // the child has its own copies once started
  }
  const exited = new Promise<number | null>((resolve) => {
    child.on('close', (code) => resolve(code));
    child.on('error', () => resolve(null));
  });
  let spawnError: Error | null = null;
  child.on('error', (err) => {
    spawnError = err;
  });
  if (stdin !== null) {
    child.stdin!.on('error', () => {}); // rg may exit before reading; EPIPE is not our failure
    child.stdin!.end(stdin);
  }
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    if (stderr.length < STDERR_CAP_BYTES) stderr += chunk;
  });

  const kill = (why: SearchOutcome) => {
    if (control.outcome === 'complete') control.outcome = why;
    killChild(child);
  };
  const onAbort = () => kill('aborted');
  run.signal?.addEventListener('abort', onAbort, { once: true });
  if (run.signal?.aborted) kill('aborted');
  const timer =
    run.deadline !== undefined
      ? setTimeout(() => kill('timeout'), Math.max(0, run.deadline - run.now()))
      : null;

  let finished = false;
  try {
    const read = run.reportUnmatched || run.searcher.mode !== 'lines' ? readCounts : readJson;
    const spelled = outputSpelling(roots, named);
    const spell = held?.spelling.size ? (p: string) => held.spelling.get(p) ?? spelled(p) : spelled;
    const judged = new Set(held?.spelling.values());
    const stopped = () => control.outcome !== 'complete';
    for await (const b of read(child.stdout!, spell, run, summary, stopped, control)) {
      // In a run with held files a path spelled as one is that file: the batches name files only.
      if (judged.has(b.path)) b.judged = true;
      yield b;
    }
    finished = true;
  } finally {
    if (timer) clearTimeout(timer);
    run.signal?.removeEventListener('abort', onAbort);
    killChild(child);
    const code = await exited;
    // Killed because the consumer stopped reading: rg's complaints about the cut are not errors.
    if (!spawnError && (finished || control.outcome !== 'complete'))
      collectErrors(stderr, summary, code, held?.spelling);
  }
  if (spawnError) throw new EngineUnavailableError(`cannot run rg: ${(spawnError as Error).message}`);
}

type OutputReader = (
  stdout: Readable,
  spell: (rgPath: string) => string,
  run: EngineRun,
  summary: SearchSummary,
  stopped: () => boolean,
  control: RgControl,
) => AsyncGenerator<FileBlock, void, undefined>;

/**
 * `--count --with-filename --null --stats`: records `PATH\0COUNT\n` (`PATH\0COUNT\0` with --null-data), then rg's statistics as text. A path
 * never holds a NUL and the statistics never do, so what is left without one at the end is the
 * statistics (absent if rg was killed). The one count per file stands in both of an end's counts (SearchRequest
 * `mode`); the statistics give both totals exactly, and replace the sums when rg ran to its end.
 */
const readCounts: OutputReader = async function* (stdout, spell, run, summary, stopped, control) {
  let rest: Buffer = Buffer.alloc(0);
  const summed = { matches: 0, lines: 0, files: 0 };
  for await (const chunk of stdout as AsyncIterable<Buffer>) {
    if (stopped()) continue; // drain what was buffered before the kill
    const buf = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (;;) {
      const nul = buf.indexOf(0, start);
      // --null-data ends every record with a NUL instead (the statistics still use '\n').
      const eol = nul === -1 ? -1 : buf.indexOf(run.searcher.nullData ? 0 : 10, nul + 1);
      if (eol === -1) break;
      const p = spell(buf.toString('utf8', start, nul));
      // With -m1 (files-with-matches) rg stopped at the first matching line: the count is 1.
      const n = Number(buf.toString('utf8', nul + 1, eol));
      start = eol + 1;
      yield {
        path: p,
        rootIndex: 0,
        bytes: eol - nul + p.length,
        events: [
          {
            type: 'end',
            path: p,
            binaryOffset: null,
            stats: { matches: n, matchedLines: n, bytesSearched: 0, limitReached: false },
          },
        ],
      };
      if (n === 0) continue;
      summary.filesWithMatch++;
      summary.matches += n;
      summary.matchedLines += n;
      summed.matches += n;
      summed.lines += n;
      summed.files++;
    }
    rest = buf.subarray(start);
  }
  if (stopped()) return;
  const stats = rest.toString('utf8');
  const stat = (what: string) => {
    const m = new RegExp(`^(\\d+) ${what}$`, 'm').exec(stats);
    return m ? Number(m[1]) : null;
  };
  summary.filesSearched += stat('files searched') ?? 0;
  summary.bytesSearched += stat('bytes searched') ?? 0;
  // files-with-matches stopped each file at its first match: its sums (one a file) are what it knows.
  if (run.searcher.mode === 'files-with-matches' && !run.reportUnmatched) return;
  const matches = stat('matches');
  const lines = stat('matched lines');
  if (matches !== null) summary.matches += matches - summed.matches;
  if (lines !== null) summary.matchedLines += lines - summed.lines;
  const files = stat('files contained matches');
  if (files !== null && files > summed.files && !run.reportUnmatched) control.unlisted = files - summed.files;
};

/**
 * `--json`: one message a line (begin, match, context, end, summary), translated into our events. A file
 * is passed on in parts of about RG_FILE_PART_BYTES of rg's output, so none is held whole.
 */
const readJson: OutputReader = async function* (stdout, spell, run, summary, stopped) {
  let current: FileBlock | null = null;
  for await (const line of jsonLines(stdout)) {
    if (stopped()) continue; // drain what was buffered before the kill
    if (current) current.bytes += line.length;
    const msg = parseLine(line);
    if (!msg) continue;
    switch (msg.type) {
      case 'begin':
        current = {
          path: spell(decodeData(msg.data.path).text),
          rootIndex: 0,
          events: [],
          bytes: line.length,
        };
        current.events.push({ type: 'begin', path: current.path });
        break;
      case 'match':
      case 'context':
        if (!current) break;
        current.events.push({ type: msg.type, path: current.path, ...toLineRecord(msg.data, run) });
        if (current.bytes >= RG_FILE_PART_BYTES) {
          const part: FileBlock = { ...current, more: true };
          yield part;
          current = { path: current.path, rootIndex: 0, events: [], bytes: 0, continued: true };
        }
        break;
      case 'end': {
        if (!current) break;
        const st = msg.data.stats ?? {};
        const matchedLines = st.matched_lines ?? 0;
        current.events.push({
          type: 'end',
          path: current.path,
          binaryOffset: msg.data.binary_offset ?? null,
          stats: {
            matches: st.matches ?? 0,
            matchedLines,
            bytesSearched: st.bytes_searched ?? 0,
            limitReached: run.searcher.maxCount !== undefined && matchedLines >= run.searcher.maxCount,
          },
        });
        summary.filesWithMatch++;
        summary.matches += st.matches ?? 0;
        summary.matchedLines += matchedLines;
        yield current;
        current = null;
        break;
      }
      case 'summary': {
        const st = msg.data.stats ?? {};
        summary.filesSearched += st.searches ?? 0;
        summary.bytesSearched += st.bytes_searched ?? 0;
        break;
      }
    }
  }
};

/**
 * How rg's paths are given back. Paths under a root spelled '' come back as `./x`: given back as `x`. A file
 * named `-` is given to rg as `./-` (`-` alone is standard input to it): given back as `-`. Decided once per run,
 * not per path (a candidate list has thousands of roots).
 */
function outputSpelling(
  roots: readonly string[],
  named: { dash: boolean } | null,
): (rgPath: string) => string {
  if (named) return named.dash ? (p) => (p === NAMED_DASH ? '-' : p) : (p) => p;
  if (roots.includes('') && !roots.includes('.')) return (p) => (p.startsWith('./') ? p.slice(2) : p);
  return (p) => p;
}

/** A file named `-` in the working directory, as rg is given it among named files (see `outputSpelling`). */
const NAMED_DASH = './-';
/** An argument's pointer in the vector execve copies (64-bit). */
const ARGV_POINTER_BYTES = 8;

function killChild(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** rg reports per-file problems on stderr as `rg: PATH: MESSAGE (os error N)`; keep them as errors. */
function collectErrors(
  stderr: string,
  summary: SearchSummary,
  code: number | null,
  /** A held file's `/dev/fd/N` → its spelling. */
  spelling?: ReadonlyMap<string, string>,
): void {
  for (const line of stderr.split('\n')) {
    if (!line.trim()) continue;
    const e = parseRgError(line);
    if (e) {
      e.path = spelling?.get(e.path) ?? e.path;
      if (e.code === 'ENOENT' && summary.missingRoots.includes(e.path)) continue;
      summary.errors.push(e);
      if (e.code === 'EACCES' || e.code === 'EPERM') summary.skipped.unreadable++;
    } else if (code === 2 && !/^No files were searched/.test(line) && !/^Running with --debug/.test(line)) {
      summary.errors.push({ path: '', code: 'ERG', message: line.replace(/^rg: /, '') });
    }
  }
}

/** One of rg's per-path error lines (`rg: PATH: MESSAGE (os error N)`) as an error with its errno name. */
export function parseRgError(line: string): { path: string; code: string; message: string } | null {
  const m = /^(?:rg: )?(.*?): (.*?) \(os error (\d+)\)$/.exec(line);
  if (!m) return null;
  return { path: m[1]!, code: OS_ERRORS[Number(m[3])] ?? `E${m[3]}`, message: m[2]! };
}

const OS_ERRORS: Record<number, string> = {
  1: 'EPERM',
  2: 'ENOENT',
  13: 'EACCES',
  20: 'ENOTDIR',
  21: 'EISDIR',
  40: 'ELOOP',
};

interface RgData {
  text?: string;
  bytes?: string;
}

interface RgMessage {
  type: 'begin' | 'match' | 'context' | 'end' | 'summary';
  // biome-ignore lint/suspicious/noExplicitAny: rg's JSON is validated field by field where it is read
  data: any;
}

function parseLine(line: string): RgMessage | null {
  try {
    const msg = JSON.parse(line) as RgMessage;
    return typeof msg === 'object' && msg !== null && typeof msg.type === 'string' ? msg : null;
  } catch {
    return null;
  }
}

/** rg sends non-UTF-8 paths and lines as base64 `bytes`; decode those lossily and keep the raw form. */
function decodeData(d: RgData | undefined): { text: string; bytes?: Uint8Array } {
  if (!d) return { text: '' };
  if (typeof d.text === 'string') return { text: d.text };
  const raw = Buffer.from(d.bytes ?? '', 'base64');
  return { text: raw.toString('utf8'), bytes: new Uint8Array(raw) };
}

function toLineRecord(
  data: {
    lines?: RgData;
    line_number?: number;
    absolute_offset?: number;
    submatches?: Array<{ start: number; end: number }>;
  },
  run: EngineRun,
): LineRecord {
  const decoded = decodeData(data.lines);
  let submatches = (data.submatches ?? []).map((s) => ({ start: s.start, end: s.end }));
  if (submatches.some((s) => s.start === s.end)) {
    // rg reports empty matches at every byte, even inside a multi-byte character; the js engine (and the
    // contract) only at character boundaries.
    const raw = decoded.bytes ?? Buffer.from(decoded.text, 'utf8');
    submatches = submatches.filter(
      (s) => s.start !== s.end || s.start >= raw.length || (raw[s.start]! & 0xc0) !== 0x80,
    );
  }
  const record: LineRecord = {
    lineNumber: data.line_number ?? 0,
    absoluteOffset: data.absolute_offset ?? 0,
    text: decoded.text,
    submatches,
  };
  if (decoded.bytes) record.bytes = decoded.bytes;
  const cap = run.searcher.maxColumns;
  // Measured before any encoding: most lines are under the cap and need no buffer.
  if (cap !== undefined && (decoded.bytes?.length ?? Buffer.byteLength(decoded.text, 'utf8')) > cap) {
    const raw = decoded.bytes ? Buffer.from(decoded.bytes) : Buffer.from(decoded.text, 'utf8');
    const cut = charBoundaryAtOrBefore(raw, 0, cap);
    record.text = raw.toString('utf8', 0, cut);
    record.truncated = true;
    if (record.bytes) record.bytes = record.bytes.slice(0, cut);
  }
  return record;
}

/** rg's stdout as lines, read only as fast as they are taken (no line is held twice). */
async function* jsonLines(stdout: Readable): AsyncGenerator<string, void, undefined> {
  let rest = '';
  stdout.setEncoding('utf8');
  for await (const chunk of stdout as AsyncIterable<string>) {
    const text = rest + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      yield text.slice(start, nl);
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  if (rest) yield rest;
}

type Counters = Pick<
  SearchSummary,
  'filesWithMatch' | 'matches' | 'matchedLines' | 'filesSearched' | 'bytesSearched'
> & {
  errors: number;
  unreadable: number;
};

function countersOf(s: SearchSummary): Counters {
  return {
    filesWithMatch: s.filesWithMatch,
    matches: s.matches,
    matchedLines: s.matchedLines,
    filesSearched: s.filesSearched,
    bytesSearched: s.bytesSearched,
    errors: s.errors.length,
    unreadable: s.skipped.unreadable,
  };
}

/** Forgets what a run that is started again had counted. */
function restoreCounters(s: SearchSummary, c: Counters): void {
  s.filesWithMatch = c.filesWithMatch;
  s.matches = c.matches;
  s.matchedLines = c.matchedLines;
  s.filesSearched = c.filesSearched;
  s.bytesSearched = c.bytesSearched;
  s.errors.length = c.errors;
  s.skipped.unreadable = c.unreadable;
}

/**
 * From `rg --sort path` order to path byte order, holding as little as it can. rg sorts names within
 * each directory, so a directory `x` comes whole before its siblings `x-y` and `x.c`; in byte order of the
 * path (`x-y` < `x.c` < `x/…`) they come first. Only the files below such a directory — one with a
 * sibling named like it plus a character below `/` — are held, and each is let go as soon as a file that
 * sorts after it arrives. Everything else passes straight through.
 */
export class PathOrderWindow {
  private held: FileBlock[] = [];
  /** The held file whose later parts are still arriving. */
  private filling: FileBlock | null = null;
  /** Per directory: its subdirectories that have such siblings. */
  private readonly conflicts = new Map<string, Set<string>>();
  private readonly rootDepth: number;

  constructor(
    private readonly cwd: string,
    root: string,
  ) {
    const spelled = root.replace(/\/+$/, '');
    this.rootDepth = spelled === '' || spelled === '.' ? 0 : spelled.split('/').length;
  }

  push(b: FileBlock): FileBlock[] {
    // A file's later parts go where its first went: into its held block, or straight through.
    if (b.continued) {
      if (!this.filling) return [b];
      this.filling.events.push(...b.events);
      if (!b.more) this.filling = null;
      return [];
    }
    this.filling = null;
    if (this.mustWait(b.path)) {
      this.held.push(b);
      if (b.more) this.filling = b;
      return [];
    }
    const out = this.releaseBefore(b.path);
    out.push(b);
    return out;
  }

  flush(): FileBlock[] {
    const out = this.held.sort((x, y) => compareUtf8(x.path, y.path));
    this.held = [];
    return out;
  }

  private releaseBefore(p: string): FileBlock[] {
    if (this.held.length === 0) return [];
    const out: FileBlock[] = [];
    const keep: FileBlock[] = [];
    for (const h of this.held) (compareUtf8(h.path, p) < 0 ? out : keep).push(h);
    this.held = keep;
    return out.sort((x, y) => compareUtf8(x.path, y.path));
  }

  private mustWait(p: string): boolean {
    const parts = p.replace(/^\.\//, '').split('/');
    let dir = this.rootDepth === 0 ? '' : parts.slice(0, this.rootDepth).join('/');
    for (let i = this.rootDepth; i < parts.length - 1; i++) {
      if (this.conflictsIn(dir).has(parts[i]!)) return true;
      dir = dir === '' ? parts[i]! : `${dir}/${parts[i]}`;
    }
    return false;
  }

  private conflictsIn(dir: string): Set<string> {
    let set = this.conflicts.get(dir);
    if (set) return set;
    set = new Set();
    let names: string[] = [];
    try {
      names = fs.readdirSync(path.resolve(this.cwd, dir || '.'));
    } catch {}
    const all = new Set(names);
    for (const n of names) {
      // `n` extends a sibling's name with a character below '/': that sibling, if a directory, conflicts.
      for (let k = 1; k < n.length; k++)
        if (n.charCodeAt(k) < 0x2f && all.has(n.slice(0, k))) set.add(n.slice(0, k));
    }
    this.conflicts.set(dir, set);
    return set;
  }
}
