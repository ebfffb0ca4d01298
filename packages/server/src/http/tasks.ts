import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  type CompletionOutcome,
  type DirOpener,
  type DocumentReadOutcome,
  type FileReadOutcome,
  listCompletion,
  listProjectDir,
  readProjectDocument,
  readProjectFile,
  type TreeOutcome,
} from '@trawl/core/complete';
import { PatternError } from '@trawl/core/engine';
import { type CanonicalRoot, type RootProbeFs, resolveUserRoot, SensitiveFence } from '@trawl/core/fence';
import { type GrepPayload, type GrepRequest, grepFiles } from '@trawl/core/grep';
import {
  type NameResult,
  type NameSearchFs,
  type NameWalkOptions,
  nodeNameFs,
  searchNames,
} from '@trawl/core/names';
import type { TaskRunner } from './pool.js';

/** What a worker needs to build the server's fence: plain data, so it crosses a thread boundary. */
export interface FenceConfig {
  home: string;
  env: Record<string, string | undefined>;
  /** Operator additions and trawl's own data directory. */
  extra: string[];
  /** Niceness of the worker thread (Linux), so bulk work yields to the event loop. */
  nice?: number;
  /** /api/file-grep's shared budget in ms (default 2 000; tests on a loaded machine give more). */
  grepBudgetMs?: number;
  /** The server's data directory, where a searched root's document text store persists (GrepRequest.dataDir). */
  dataDir?: string;
}

/** What every task runs with. The seams are for in-process tests only (functions cannot cross to a worker). */
export interface TaskContext {
  fence: SensitiveFence;
  home: string;
  platform: string;
  /** Canonicaliser for path completion's server-held root (tests install a tripwire). */
  completionRealpath?: (p: string) => string;
  opener?: DirOpener;
  windows?: boolean;
  /** Filesystem for the name walk (default: synchronous calls, which on a worker block only that worker). */
  nameFs?: NameSearchFs;
  /** Walk budgets and clock (tests shrink them to pin the endpoint's termination rules). */
  walk?: Partial<
    Pick<NameWalkOptions, 'maxScan' | 'maxCandidates' | 'maxDirsVisited' | 'timeBudgetMs' | 'now'>
  >;
  /** Content grep's seams: engine, caps and clock, the rg spawner, extraction caps. */
  grep?: Partial<Pick<GrepRequest, 'engine' | 'rgPath' | 'limits' | 'extract' | 'now' | 'spawnRg' | 'index'>>;
  /** Probe filesystem (default `fs.promises`). */
  probeFs?: RootProbeFs;
  /** Where content grep keeps the document text of roots no index covers (absent: extracted per search). */
  dataDir?: string;
}

export function createTaskContext(config: FenceConfig & { platform?: string }): TaskContext {
  return {
    fence: new SensitiveFence({ home: config.home, env: config.env, extra: config.extra }),
    home: config.home,
    platform: config.platform ?? process.platform,
    ...(config.grepBudgetMs !== undefined ? { grep: { limits: { timeBudgetMs: config.grepBudgetMs } } } : {}),
    ...(config.dataDir !== undefined ? { dataDir: config.dataDir } : {}),
  };
}

/**
 * The name walk's filesystem on a worker: synchronous calls behind the async interface. A worker exists to block;
 * this keeps walks off libuv's small shared thread pool, which the event loop's own file I/O needs.
 */
export const syncNameFs: NameSearchFs = {
  ...nodeNameFs,
  readdir: async (dir) => fs.readdirSync(dir, { withFileTypes: true }),
  stat: async (p) => fs.statSync(p),
  realpath: async (p) => fs.realpathSync(p),
};

export type ResolveProjectResult =
  | { status: 'ok'; root: CanonicalRoot }
  | { status: 'sensitive'; path: string }
  | { status: 'not-dir'; path: string };

/**
 * `?project=` of /api/file-search, by the one root policy ({@link resolveUserRoot}: sensitivity first, so
 * existence cannot be probed behind the fence). A relative path names nothing here (the server's working
 * directory is not the caller's business), and neither does a control character: both answer as "not a directory".
 */
async function resolveProject(ctx: TaskContext, p: { project: string }): Promise<ResolveProjectResult> {
  const r = await resolveUserRoot(p.project, {
    fence: ctx.fence,
    home: ctx.home,
    ...(ctx.probeFs ? { fs: ctx.probeFs } : {}),
  });
  if (r.ok) return { status: 'ok', root: r.root };
  if (r.code === 'sensitive_path') return { status: 'sensitive', path: r.lexical ?? '' };
  return { status: 'not-dir', path: r.lexical ?? p.project };
}

/**
 * `root` of /api/file-grep, by the one root policy. Every refusal by rule — a sensitive location however spelled,
 * a control character, a relative spelling — is one answer (`sensitive`: 403), so no spelling can be used to
 * probe what lies behind the fence; only "not a directory" is told apart.
 */
async function resolveGrepRoot(ctx: TaskContext, p: { root: string }): Promise<ResolveProjectResult> {
  const r = await resolveUserRoot(p.root, {
    fence: ctx.fence,
    home: ctx.home,
    ...(ctx.probeFs ? { fs: ctx.probeFs } : {}),
  });
  if (r.ok) return { status: 'ok', root: r.root };
  if (r.code === 'not_a_directory') return { status: 'not-dir', path: r.lexical ?? p.root };
  return { status: 'sensitive', path: r.lexical ?? p.root };
}

export interface GrepPayloadTask {
  /** When the request arrived (epoch ms): the grep's budget counts from here, not from when a worker took it. */
  startedAt?: number;
  /** The root the `grep-root` task judged. */
  root: CanonicalRoot;
  query: string;
  caseSensitive: boolean;
  wholeWord: boolean;
  regex: boolean;
  /** Globs relative to the root (GrepRequest include/exclude). */
  include?: string[];
  exclude?: string[];
  /** Rows at most (default the endpoint's 200). */
  limit?: number;
  /** Matching lines per text file, each row with the file's count (GrepRequest.perFile). */
  perFile?: number;
}

export type GrepTaskResult =
  | { ok: true; payload: GrepPayload; fallback?: string; capped: boolean }
  | { ok: false; code: PatternError['code'] | 'invalid_glob'; message: string };

/**
 * /api/file-grep's search (the engine's `grepFiles`); a refused regex (`invalid_pattern`, or `pattern_too_complex`
 * for one no deadline-bounded matcher can take) or glob (`invalid_glob`) is a value, not a worker failure.
 */
async function grep(ctx: TaskContext, p: GrepPayloadTask): Promise<GrepTaskResult> {
  try {
    const { payload, detail } = await grepFiles({
      root: p.root,
      query: p.query,
      caseSensitive: p.caseSensitive,
      wholeWord: p.wholeWord,
      regex: p.regex,
      fence: ctx.fence,
      ...(ctx.dataDir !== undefined ? { dataDir: ctx.dataDir } : {}),
      ...(p.include ? { include: p.include } : {}),
      ...(p.exclude ? { exclude: p.exclude } : {}),
      ...(p.perFile !== undefined ? { perFile: p.perFile } : {}),
      // Only on the real clock: a test's injected clock has its own epoch.
      ...(p.startedAt !== undefined && !ctx.grep?.now ? { startedAt: p.startedAt } : {}),
      ...ctx.grep,
      ...(p.limit !== undefined ? { limits: { ...ctx.grep?.limits, maxResults: p.limit } } : {}),
    });
    return {
      ok: true,
      payload,
      capped: detail.capped,
      ...(detail.fallback ? { fallback: detail.fallback } : {}),
    };
  } catch (err) {
    if (err instanceof PatternError)
      return { ok: false, code: err.code, message: `invalid pattern: ${err.message}` };
    // The engine's GlobError (not a public name of @trawl/core): an include or exclude glob it cannot compile.
    if (err instanceof Error && (err as { code?: unknown }).code === 'invalid_glob')
      return { ok: false, code: 'invalid_glob', message: err.message };
    throw err;
  }
}

export type ProbedRoot =
  /** `root` as spelled; `canonical`, where the root policy led it. */
  | { root: string; canonical: CanonicalRoot; status: 'ok' | 'home' }
  | { root: string; status: 'not-dir' | 'sensitive' };

/** The roots {@link probeRoots} judges, and whether bare HOME is refused among them. */
export interface ProbeRootsPayload {
  roots: string[];
  dropHome: boolean;
}

/**
 * Workspace and implicit roots, each by the one root policy ({@link resolveUserRoot}: sensitivity before
 * existence, so a missing path inside a store answers `sensitive`, never `not-dir`); a sensitive one is dropped
 * (`sensitive`), a relative spelling or a non-directory names nothing (`not-dir`); with `dropHome`, bare HOME is
 * never an implicit root (status `home`).
 */
async function probeRoots(ctx: TaskContext, p: ProbeRootsPayload): Promise<ProbedRoot[]> {
  const probe = ctx.probeFs ?? fs.promises;
  let home: string;
  try {
    home = await probe.realpath(ctx.home);
  } catch {
    home = path.resolve(ctx.home);
  }
  const out: ProbedRoot[] = [];
  for (const root of p.roots) {
    const r = await resolveUserRoot(root, { fence: ctx.fence, home: ctx.home, fs: probe });
    if (!r.ok) out.push({ root, status: r.code === 'sensitive_path' ? 'sensitive' : 'not-dir' });
    else if (p.dropHome && r.root === home) out.push({ root, canonical: r.root, status: 'home' });
    else out.push({ root, canonical: r.root, status: 'ok' });
  }
  return out;
}

export interface WalkNamesPayload {
  query: string;
  roots: string[];
  scoped: boolean;
  limit: number;
  kinds: string;
}
export interface WalkNamesResult {
  results: NameResult[];
  partial: boolean;
}

/** The per-request walk fallback of /api/file-search (budgets, deadline and fence are the engine's). */
async function walkNames(ctx: TaskContext, p: WalkNamesPayload): Promise<WalkNamesResult> {
  const answer = await searchNames({
    query: p.query,
    roots: p.roots,
    scoped: p.scoped,
    limit: p.limit,
    kinds: p.kinds,
    dotFiles: true, // the workbench's picker offers them (below other files)
    fence: ctx.fence,
    fs: ctx.nameFs ?? syncNameFs,
    // dot directories entered after the rest, as the workbench's index does
    walk: { ...ctx.walk, home: ctx.home, platform: ctx.platform, dotDirsLast: true },
  });
  return { results: answer.results, partial: answer.partial === true };
}

export interface ListCompletionPayload {
  project: string;
  dir: string;
  q: string;
}

/** One directory level for /api/path-complete (the engine's no-follow descriptor walk). */
async function completion(ctx: TaskContext, p: ListCompletionPayload): Promise<CompletionOutcome> {
  return listCompletion({
    project: p.project,
    dir: p.dir,
    q: p.q,
    fence: ctx.fence,
    home: ctx.home,
    ...(ctx.completionRealpath ? { realpath: ctx.completionRealpath } : {}),
    ...(ctx.opener ? { opener: ctx.opener } : {}),
    ...(ctx.windows !== undefined ? { windows: ctx.windows } : {}),
  });
}

export interface ProjectPathPayload {
  /** The server-held known project. */
  project: string;
  rel: string;
}

/** One level of a known project for /api/tree (the engine's no-follow descriptor walk). */
async function tree(ctx: TaskContext, p: ProjectPathPayload): Promise<TreeOutcome> {
  return listProjectDir({ project: p.project, rel: p.rel, ...projectFsSeams(ctx) });
}

/** A file of a known project, at most `maxBytes` of it, or the whole lines around `line`. */
export interface ReadFilePayload extends ProjectPathPayload {
  maxBytes?: number;
  line?: number;
}

/** A text file of a known project for /api/file and agent attachments (never through a link). */
async function readFile(ctx: TaskContext, p: ReadFilePayload): Promise<FileReadOutcome> {
  return readProjectFile({
    project: p.project,
    rel: p.rel,
    ...projectFsSeams(ctx),
    ...(p.maxBytes !== undefined ? { maxBytes: p.maxBytes } : {}),
    ...(p.line !== undefined ? { line: p.line } : {}),
  });
}

/** A document of a known project as its extracted text, for /api/file (read never through a link, fenced). */
async function readDocument(ctx: TaskContext, p: ProjectPathPayload): Promise<DocumentReadOutcome> {
  return readProjectDocument({ project: p.project, rel: p.rel, ...projectFsSeams(ctx) });
}

function projectFsSeams(ctx: TaskContext) {
  return {
    fence: ctx.fence,
    home: ctx.home,
    ...(ctx.completionRealpath ? { realpath: ctx.completionRealpath } : {}),
    ...(ctx.opener ? { opener: ctx.opener } : {}),
  };
}

/**
 * Every task the server's pools run, by name: its payload and its answer. A route asks for a task by name and gets
 * the answer's type with it, so a misspelt name or a payload of another task is a type error, not a worker failure.
 */
export interface ServerTasks {
  'resolve-project': { payload: { project: string }; result: ResolveProjectResult };
  'probe-roots': { payload: ProbeRootsPayload; result: ProbedRoot[] };
  'walk-names': { payload: WalkNamesPayload; result: WalkNamesResult };
  'list-completion': { payload: ListCompletionPayload; result: CompletionOutcome };
  'list-tree': { payload: ProjectPathPayload; result: TreeOutcome };
  'read-file': { payload: ReadFilePayload; result: FileReadOutcome };
  'read-document': { payload: ProjectPathPayload; result: DocumentReadOutcome };
  'grep-root': { payload: { root: string }; result: ResolveProjectResult };
  grep: { payload: GrepPayloadTask; result: GrepTaskResult };
}

/** A task of the server's table. */
export type ServerTaskName = keyof ServerTasks;

/** What runs the server's tasks: a worker pool, or {@link InlineRunner}. */
export type ServerTaskRunner = TaskRunner<ServerTasks>;

const HANDLERS: {
  [K in ServerTaskName]: (
    ctx: TaskContext,
    payload: ServerTasks[K]['payload'],
  ) => Promise<ServerTasks[K]['result']>;
} = {
  'resolve-project': resolveProject,
  'probe-roots': probeRoots,
  'walk-names': walkNames,
  'list-completion': completion,
  'list-tree': tree,
  'read-file': readFile,
  'read-document': readDocument,
  'grep-root': resolveGrepRoot,
  grep,
};

/** Runs one task of the table (in a worker, or inline). */
export function runTask<K extends ServerTaskName>(
  ctx: TaskContext,
  task: K,
  payload: ServerTasks[K]['payload'],
): Promise<ServerTasks[K]['result']> {
  return HANDLERS[task](ctx, payload);
}

/**
 * Runs a task a worker received by message. The message is what a typed {@link TaskRunner.run} posted (a
 * structured clone of that payload), so only its name is checked here: an unknown one is a programming error.
 */
export function runTaskMessage(ctx: TaskContext, task: string, payload: unknown): Promise<unknown> {
  if (!Object.hasOwn(HANDLERS, task)) return Promise.reject(new Error(`unknown task ${task}`));
  return runTask(ctx, task as ServerTaskName, payload as never);
}

/** Runs tasks on the calling thread: for tests that install seams, and for single-client surfaces. */
export class InlineRunner implements ServerTaskRunner {
  constructor(readonly context: TaskContext) {}
  run<K extends ServerTaskName>(
    task: K,
    payload: ServerTasks[K]['payload'],
  ): Promise<ServerTasks[K]['result']> {
    return runTask(this.context, task, payload);
  }
}

/**
 * Lowers the calling thread's scheduling priority (Linux: `setpriority` on the thread's own id, read from
 * `/proc/thread-self`). Worker threads doing bulk walks then yield the CPU to the event loop, whose latency is what
 * every other request waits on: on 2 cores, 8 busy walkers at equal priority starve it. Elsewhere (or without
 * /proc) nothing changes. Returns whether the priority was set.
 */
export function lowerThreadPriority(nice: number): boolean {
  if (nice <= 0 || process.platform !== 'linux') return false;
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0 || tid === process.pid) return false;
    os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
