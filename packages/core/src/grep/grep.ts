import * as path from 'node:path';
import { documentStoreFor } from '../content-index/documents.js';
import { gramQuery } from '../content-index/query.js';
import { DOCUMENT_EXTENSIONS, documentKindOf } from '../docs/extract.js';
import type { DocumentTextStore } from '../docs/store.js';
import type { ExtractOptions } from '../docs/types.js';
import type { SpawnRg } from '../engine/run.js';
import type { EngineChoice } from '../engine/search.js';
import type { SearchIndex } from '../engine/search-index.js';
import type { SensitiveFence } from '../fence/fence.js';
import { compileGlob, escapeGlob, GlobError } from '../glob/glob.js';
import { boundedMatcher, compilePattern } from '../match/index.js';
import type { SearchOutcome } from '../search/events.js';
import { isWithin } from '../util/fs-safety.js';
import { docPass } from './doc-pass.js';
import { countMatchingLines } from './file-counts.js';
import {
  GREP_ANSWER_RESERVE_MS,
  GREP_COUNT_PAST_CAP_MS,
  GREP_DOC_MAX_BYTES,
  GREP_LINE_READ_BYTES,
  GREP_MAX_DIRS_VISITED,
  GREP_MAX_FILE_BYTES,
  GREP_MAX_LINES_PER_FILE,
  GREP_MAX_RESULTS,
  GREP_SKIP_DIRS,
  GREP_TIME_BUDGET_MS,
} from './limits.js';
import { GREP_PARTIAL_REASONS, type GrepPartialReason } from './reasons.js';
import { type GrepRow, lineWithoutTerminator, makeRow, type RawHit } from './rows.js';
import { type TextPassOptions, textPass } from './text-pass.js';

/** One content grep: which files under `root` contain `query`. */
export interface GrepRequest {
  /** Canonical directory (resolved by the caller through the root policy). */
  root: string;
  /** A query `grepQuery` accepted. */
  query: string;
  /** Opt-in beyond the seed (absent: literal, case-insensitive, anywhere in a line). */
  caseSensitive?: boolean;
  wholeWord?: boolean;
  /** The query is a pattern in the engine's Rust-regex dialect (an invalid one throws `PatternError`). */
  regex?: boolean;
  fence: SensitiveFence;
  engine?: EngineChoice;
  rgPath?: string;
  /** Budgets and caps (tests shrink them). */
  limits?: Partial<GrepLimits>;
  extract?: Omit<ExtractOptions, 'deadline' | 'now'>;
  now?: () => number;
  /**
   * When the request arrived, on `now`'s clock (default: the call): the budget counts from here, so time the
   * request spent waiting for a worker is not added on top of it.
   */
  startedAt?: number;
  spawnRg?: SpawnRg;
  /** A content index of a directory holding `root`: the text pass reads only the files it may match in. */
  index?: SearchIndex;
  /**
   * What the walks enter, when not the dashboard's rules (no ignore files, dot files searched, GREP_SKIP_DIRS
   * pruned): an agent's `grep_files` walks the tree as its `search` does (tool/tree-view.ts).
   */
  walk?: GrepWalkRules;
  /**
   * ripgrep `-g` globs, relative to the root: with any `include`, a file must match one of them; a file matching an
   * `exclude` is not searched (both passes). Checked by {@link grepGlobs} (a malformed one throws GlobError).
   */
  include?: readonly string[];
  exclude?: readonly string[];
  /**
   * Rows per text file: its first `perFile` matching lines, each row carrying the file's `count` of matching lines
   * (1..GREP_MAX_LINES_PER_FILE, clamped). Absent: one row per file, and no `count`. A document stays one row.
   * The row cap (`limits.maxResults`) is of files either way.
   */
  perFile?: number;
  /**
   * Previews and labels keep credential-shaped values (an MCP operator's `trawl mcp --no-redact`). Default false:
   * the /api/file-grep contract redacts them.
   */
  raw?: boolean;
  /**
   * The root's document text store (docs/store.ts, content-index/documents.ts): documents are extracted once per
   * version and searched from it. Absent: the store of the covering `index`, if any; else the root's store in
   * `dataDir`; else each search extracts every document it reads.
   */
  documents?: DocumentTextStore;
  /**
   * The data directory (this account's alone): a root no index covers keeps its documents' text in its store
   * there (content-index/documents.ts), so the next search, in this process or the next, does not parse them again.
   */
  dataDir?: string;
}

/** The walk rules a grep may replace (GrepRequest.walk). */
export interface GrepWalkRules {
  hidden: boolean;
  ignoreFiles: boolean;
  requireGit: boolean;
  skipDirs: ReadonlySet<string>;
}

export interface GrepLimits {
  timeBudgetMs: number;
  maxResults: number;
  maxFileBytes: number;
  maxDocBytes: number;
  maxDirs: number;
  /** How long matching files are still counted once the rows are full (GREP_COUNT_PAST_CAP_MS). */
  countPastCapMs: number;
}

export const DEFAULT_GREP_LIMITS: GrepLimits = {
  timeBudgetMs: GREP_TIME_BUDGET_MS,
  maxResults: GREP_MAX_RESULTS,
  countPastCapMs: GREP_COUNT_PAST_CAP_MS,
  maxFileBytes: GREP_MAX_FILE_BYTES,
  maxDocBytes: GREP_DOC_MAX_BYTES,
  maxDirs: GREP_MAX_DIRS_VISITED,
};

/** The answer, in the /api/file-grep shape. `engine` is '' only for the empty payload of a non-search. */
export interface GrepPayload {
  results: GrepRow[];
  truncated: boolean;
  engine: 'rg' | 'js' | '';
  skipped_docs: number;
  root: string;
  /**
   * How many files matched in all, when the search knows: every file was searched, or the answer was capped and the
   * matching files past the cap were all counted (every document searched). Absent otherwise.
   */
  total_files?: number;
  /** A capped answer whose count past the cap was cut (time, or documents not searched): at least this many files match. */
  total_files_at_least?: number;
  /** Why the answer is partial (reasons.ts), when it is (`truncated`, or documents skipped); absent otherwise. */
  partial_reasons?: GrepPartialReason[];
}

/** What the audit line and the CLI say beyond the payload. */
export interface GrepDetail {
  textOutcome: SearchOutcome;
  textHits: number;
  docHits: number;
  docsSearched: number;
  /** More files matched than the row cap let through. */
  capped: boolean;
  /** The time budget the search had (ms), for the words that say it ran out. */
  budgetMs: number;
  /** Why rg's answer was replaced by the js engine's, when it was. */
  fallback?: string;
  /** Credential-shaped values redacted in the rows' previews and labels. */
  redacted: number;
  elapsedMs: number;
  /** Of which the text pass, and the document pass (benchmarks compare each with its own anchor). */
  textMs: number;
  docMs: number;
}

/** The payload of a request that is not a search (bad query, empty root). */
export function emptyGrepPayload(): GrepPayload {
  return { results: [], truncated: false, engine: '', skipped_docs: 0, root: '' };
}

/**
 * Content grep with the /api/file-grep contract (docs/http-api.md), on the engine: a text pass (rg or js, one
 * contract) then a document pass, under ONE deadline. Ignore files are not applied, dotfiles are searched, the skip
 * directories are pruned, links are not followed, text files over 2 MiB and binary files are skipped, document
 * extensions belong to the document pass. Sensitive locations are excluded by both walks and again per hit.
 * `truncated` says the answer is short for any reason; `skipped_docs` is a floor of documents not searched.
 */
export async function grepFiles(request: GrepRequest): Promise<{ payload: GrepPayload; detail: GrepDetail }> {
  const now = request.now ?? Date.now;
  const begun = now();
  const started = request.startedAt ?? begun;
  const limits = { ...DEFAULT_GREP_LIMITS, ...request.limits };
  const deadline = started + limits.timeBudgetMs - Math.min(GREP_ANSWER_RESERVE_MS, limits.timeBudgetMs / 10);
  const root = request.root;
  const compiled = compilePattern(request.query, {
    fixedStrings: !request.regex,
    caseInsensitive: !request.caseSensitive,
    wordRegexp: request.wholeWord ?? false,
  });
  // This thread matches extracted text and previews itself: never with a RegExp that could backtrack past the
  // deadline (a pattern neither V8 nor the linear VM can take is refused here, before anything is searched).
  const docMatcher = boundedMatcher(compiled, { deadline, now });
  // Highlights may use the answer's reserve: they are made after the passes stopped.
  const rowMatcher = boundedMatcher(compiled, { deadline: started + limits.timeBudgetMs, now });
  const inRoot = request.fence.canonicalCheckerFor(root);
  // Judged on canonical paths, which every reader checks its descriptor against (util/fs-safety.ts): a file that
  // turns out to lie outside the root (a named file's realpath, a directory swapped for a link) is refused too.
  const underRoot = (abs: string) => !isWithin(abs, root) || inRoot(abs);
  const sensitive = (abs: string) => underRoot(abs) || request.fence.isSensitiveCanonical(abs);
  // A hard link in the root to a credential file has a path of the root: it is refused by what it is.
  const fenced = request.fence.fencedIdentities();
  const globs = grepGlobs(request.include ?? [], request.exclude ?? []);
  const perFile =
    request.perFile === undefined
      ? undefined
      : Math.min(GREP_MAX_LINES_PER_FILE, Math.max(1, Math.floor(request.perFile) || 1));
  const walkRules = {
    roots: [''],
    cwd: root,
    hidden: true,
    ignoreFiles: false,
    requireGit: false,
    parents: false,
    skipDirs: GREP_SKIP_DIRS,
    ...(request.walk ? { ...request.walk, parents: true } : {}),
    // 'filter': the globs only narrow what the rules above admit (a glob never opens a skipped directory).
    ...(globs.length > 0 ? { globs, globMode: 'filter' as const } : {}),
    maxDirs: limits.maxDirs,
  };

  const textRequest: TextPassOptions['request'] = {
    ...walkRules,
    pattern: request.query,
    paths: [''],
    fixedStrings: !request.regex,
    caseInsensitive: !request.caseSensitive,
    wordRegexp: request.wholeWord ?? false,
    exclude: (abs) => underRoot(abs) || documentKindOf(abs) !== null,
    rgExcludeIglobs: rgExclusions(root, request.fence),
    mode: 'lines',
    maxCount: perFile ?? 1,
    maxColumns: GREP_LINE_READ_BYTES,
    maxFilesize: limits.maxFileBytes,
    patternChannel: 'stdin',
    fencedIdentities: fenced,
    now,
    ...(request.rgPath !== undefined ? { rgPath: request.rgPath } : {}),
    ...(request.index ? { index: request.index } : {}),
  };
  const seams = request.spawnRg ? { spawnRg: request.spawnRg } : {};
  const text = await textPass({
    request: textRequest,
    seams,
    engine: request.engine ?? 'auto',
    cap: limits.maxResults,
    countPastCapMs: limits.countPastCapMs,
    deadline,
    now,
    sensitive,
    root,
  });
  const textDone = now();
  const tally = { redacted: 0 };
  const rowOptions = { tally, ...(request.raw ? { raw: true } : {}) };
  const rows = text.hits.map((h) =>
    makeRow({ ...h, text: lineWithoutTerminator(h.text) }, rowMatcher, rowOptions),
  );
  let truncated = text.more || text.outcome !== 'complete';

  // A persisted store is read before its first search uses it, and what another thread or process added to it since
  // is read in (the reads yield: the loop is not held).
  const documents = request.documents ?? request.index?.documentsFor?.(root) ?? storeIn(request, root);
  await documents?.refresh();
  // While the covering index extracts its documents in the background, one it has not stored yet is left to it.
  const deferExtraction = documents !== undefined && request.index?.extractingDocuments?.(root) === true;
  // On an indexed root the documents come from the index's kept walk (the text pass listed it): no second walk.
  const listed = (await request.index?.walkEntries?.({ walk: walkRules, deadline, now })) ?? null;
  const docs = await docPass({
    walk: { ...walkRules, exclude: underRoot },
    room: limits.maxResults - rows.length,
    deadline,
    now,
    matcher: docMatcher,
    maxDocBytes: limits.maxDocBytes,
    ...(request.extract ? { extract: request.extract } : {}),
    sensitive,
    fenced,
    ...(documents ? { documents, grams: gramQuery(compiled.required), deferExtraction } : {}),
    ...(listed ? { entries: listed } : {}),
  });
  // Counts come last: they only annotate rows, so the document pass is not kept waiting for them.
  if (perFile !== undefined) {
    await countRows(text.hits, rows, perFile, (files) =>
      countMatchingLines({
        request: textRequest,
        seams,
        files,
        engine: request.engine ?? 'auto',
        deadline,
        now,
        sensitive,
        root,
      }),
    );
  }
  for (const h of docs.hits) rows.push(makeRow(h, rowMatcher, rowOptions));
  truncated ||= docs.truncated;
  const reasons = new Set(docs.reasons);
  if (text.more) reasons.add('cap');
  if (text.outcome === 'walk-budget') reasons.add('walk_budget');
  else if (text.outcome !== 'complete') reasons.add('budget'); // timeout, or stopped by its deadline's abort
  const done = now();

  // Every file was searched and none was left out for room: the rows are all the files that match.
  const known = !truncated && docs.skipped === 0;
  // Capped: the text files the engine counted (past the cap too) and the documents that matched; exact only when the
  // count ran to its end and every document was searched (a capped text pass leaves the document pass no room).
  const capTotal = reasons.has('cap')
    ? {
        files: text.files + new Set(docs.hits.map((h) => h.file)).size,
        exact: text.filesExact && !docs.truncated && docs.skipped === 0,
      }
    : undefined;
  return {
    payload: {
      results: rows,
      truncated,
      engine: text.engine,
      skipped_docs: docs.skipped,
      root,
      ...(known ? { total_files: new Set(rows.map((r) => r.file)).size } : {}),
      ...(capTotal
        ? capTotal.exact
          ? { total_files: capTotal.files }
          : { total_files_at_least: capTotal.files }
        : {}),
      ...(reasons.size > 0 ? { partial_reasons: GREP_PARTIAL_REASONS.filter((r) => reasons.has(r)) } : {}),
    },
    detail: {
      textOutcome: text.outcome,
      textHits: text.hits.length,
      docHits: docs.hits.length,
      docsSearched: docs.searched,
      capped: reasons.has('cap'),
      budgetMs: limits.timeBudgetMs,
      ...(text.fallback ? { fallback: text.fallback } : {}),
      redacted: tally.redacted,
      elapsedMs: done - started,
      textMs: textDone - begun,
      docMs: done - textDone,
    },
  };
}

/**
 * Gives each text row (`rows[i]` made from `hits[i]`) its file's `count` of matching lines: exact from the hits
 * alone when a file showed fewer than `perFile` lines (the engine stopped at none of its matches), else from
 * `count` over the files that reached `perFile` (by their paths as found: a row's path may be redacted). A file
 * `count` did not finish keeps no count: more lines match than its rows show, how many is unknown.
 */
async function countRows(
  hits: readonly RawHit[],
  rows: GrepRow[],
  perFile: number,
  count: (files: string[]) => Promise<Map<string, number>>,
): Promise<void> {
  const shown = new Map<string, number>();
  for (const h of hits) shown.set(h.file, (shown.get(h.file) ?? 0) + 1);
  const full = [...shown].filter(([, n]) => n >= perFile).map(([f]) => f);
  const counted = full.length > 0 ? await count(full) : new Map<string, number>();
  hits.forEach((h, i) => {
    const n = shown.get(h.file)!;
    const c = n < perFile ? n : counted.get(h.file);
    // A file that changed between the runs is said with the lines it shows at least.
    if (c !== undefined) rows[i]!.count = Math.max(c, n);
  });
}

/** The root's store in the request's data directory; none when there is none or it cannot be used (searched without). */
function storeIn(request: GrepRequest, root: string): DocumentTextStore | undefined {
  if (request.dataDir === undefined) return undefined;
  try {
    return documentStoreFor(request.dataDir, root, request.fence);
  } catch {
    return undefined; // a data directory that is not this account's alone holds no text: search without a store
  }
}

/** Globs a request may carry per list, and characters per glob: a filter a person types, not a program. */
export const GREP_MAX_GLOBS = 32;
export const GREP_MAX_GLOB_CHARS = 256;

/**
 * The `include` and `exclude` lists as one ripgrep `-g` list (`!` before each exclude), each glob compiled once to
 * refuse a malformed one before anything is searched (GlobError, code `invalid_glob`). A leading `!` is refused in
 * either list (which list a glob is in says what it does), as are too many globs or too long a glob.
 */
export function grepGlobs(include: readonly string[], exclude: readonly string[]): string[] {
  if (include.length + exclude.length > GREP_MAX_GLOBS)
    throw new GlobError(`${include.length + exclude.length} globs`, `at most ${GREP_MAX_GLOBS} are allowed`);
  const check = (g: string) => {
    if (g.length === 0) throw new GlobError(g, 'empty');
    if (g.length > GREP_MAX_GLOB_CHARS)
      throw new GlobError(g.slice(0, 40), `longer than ${GREP_MAX_GLOB_CHARS} characters`);
    if (g.startsWith('!')) throw new GlobError(g, "a leading '!' is not allowed: put the glob in exclude");
    compileGlob(g, { literalSeparator: true });
    return g;
  };
  return [...include.map(check), ...exclude.map((g) => `!${check(g)}`)];
}

/**
 * The exclusions as rg globs, so rg prunes them while it walks: document extensions (case-insensitively: the
 * document pass claims `REPORT.DOCX` too), and each sensitive location that lies strictly inside the root, anchored
 * to it with a leading `/` (a slash-less glob would match that name at any depth, and a project's own `.npmrc` is
 * an ordinary file). The `exclude` predicate stays the rule; these only save rg the work.
 */
export function rgExclusions(root: string, fence: SensitiveFence): string[] {
  const globs = DOCUMENT_EXTENSIONS.map((ext) => `!*${ext}`);
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  const folded = prefix.toLowerCase();
  for (const target of fence.targets) {
    // The glob is case-insensitive, as the fence's comparison is.
    if (!target.toLowerCase().startsWith(folded) || target.length === folded.length) continue;
    const rel = target.slice(folded.length).split(path.sep).join('/');
    globs.push(`!/${escapeGlob(rel)}`);
  }
  return globs;
}
