import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  RG_BATCH_EVENTS,
  RG_HELD_FILES,
  RG_HELD_OUTPUT_BYTES,
  RG_LIST_ARGV_BYTES,
  RG_ORDERED_RESERVE_SHARE,
} from '../../limits.js';
import type { SearchEvent, SearchOutcome, SearchSummary } from '../../search/events.js';
import { isFencedIdentity, TreeWitness } from '../../util/fs-safety.js';
import { compareUtf8 } from '../../util/path-order.js';
import { belowRoot, resolvePlain } from '../../util/resolve-plain.js';
import { Walker } from '../../walk/walker.js';
import { runJsEngine } from '../js/js-engine.js';
import { tooLargeMessage } from '../js/protocol.js';
import { type EngineRun, EngineUnavailableError, emptySummary } from '../run.js';
import { holdNamedFiles } from './held-files.js';
import { PathOrderWindow } from './path-order-window.js';
import { argvBatches, buildRgArgs, NAMED_DASH } from './rg-argv.js';
import { detailHorizonApplies, entryOf, withDetailHorizon } from './rg-detail.js';
import {
  collectErrors,
  type FileBlock,
  outputSpelling,
  type RgControl,
  readCounts,
  readJson,
} from './rg-output.js';
import { RgStderr } from './rg-stderr.js';

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
  if (end?.type === 'skip' && end.reason === 'too-large') summary.skipped['too-large']--;
  if (end?.type === 'end' && end.stats.matchedLines > 0) {
    summary.filesWithMatch--;
    summary.matches -= end.stats.matches;
    summary.matchedLines -= end.stats.matchedLines;
  }
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
  const stderr = new RgStderr();
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => stderr.push(chunk));

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
  const spelled = outputSpelling(roots, named);
  const spell = held?.spelling.size ? (p: string) => held.spelling.get(p) ?? spelled(p) : spelled;
  try {
    const read = run.reportUnmatched || run.searcher.mode !== 'lines' ? readCounts : readJson;
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
    stderr.end();
    // Killed because the consumer stopped reading: rg's complaints about the cut are not errors.
    if (!spawnError && (finished || control.outcome !== 'complete'))
      collectErrors(stderr.text, summary, code, held?.spelling);
  }
  if (spawnError) throw new EngineUnavailableError(`cannot run rg: ${(spawnError as Error).message}`);
  // The files rg skipped for their size, named and counted as the js engine does: rg's log holds them all once it
  // has exited, so they come after its files (held output is put in path order; streamed output has them last).
  for (const p of stderr.tooLarge) {
    const spelledPath = spell(p);
    summary.skipped['too-large']++;
    yield {
      path: spelledPath,
      rootIndex: 0,
      events: [
        { type: 'skip', path: spelledPath, reason: 'too-large', message: tooLargeMessage(run.maxFilesize) },
      ],
      bytes: 0,
    };
  }
}

function killChild(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

type Counters = Pick<
  SearchSummary,
  'filesWithMatch' | 'matches' | 'matchedLines' | 'filesSearched' | 'bytesSearched'
> & {
  errors: number;
  unreadable: number;
  tooLarge: number;
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
    tooLarge: s.skipped['too-large'],
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
  s.skipped['too-large'] = c.tooLarge;
}
