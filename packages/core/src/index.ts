/**
 * @trawl/core — trawl's engine: file search for AI coding agents and the dashboards around them. No HTTP, no UI;
 * the `trawl` package (CLI, HTTP API, MCP server) is a thin surface over what is exported here.
 *
 * Layers, each knowing nothing of the layers above it (ripgrep's crate split). A layer a caller uses has a subpath;
 * the pattern compiler (match/) and the per-file searcher (search/) are the engine's insides and have none.
 *
 * | subpath                     | what                                                                          |
 * | --------------------------- | ----------------------------------------------------------------------------- |
 * | `@trawl/core/walk`          | traversal with rg's ignore rules and globs, budgets, deadline, AbortSignal     |
 * | `@trawl/core/engine`        | content search over paths: js engine (workers) or a vetted ripgrep, one stream |
 * | `@trawl/core/content-index` | a live n-gram index that picks the files a search reads (never what it finds) |
 * | `@trawl/core/names`         | name search: fuzzy scorer, live FileIndex and registry, walk fallback          |
 * | `@trawl/core/names/limits`  | name search's numbers alone, for a `--help` that must not load the layer        |
 * | `@trawl/core/complete`      | one directory level for a `./` token, race-free on Linux; project files        |
 * | `@trawl/core/fence`         | the sensitive-path fence (credential stores, trawl's data, operator additions) |
 * | `@trawl/core/redact`        | credential and path-segment redaction                                          |
 * | `@trawl/core/tool`          | the agent `search` tool: an LLM's arguments in, text for an LLM out            |
 * | `@trawl/core/docs`          | which files are Office/PDF documents; the shared PDF pool's shutdown           |
 * | `@trawl/core/grep`          | content grep with the /api/file-grep contract: one row per file, documents too |
 *
 * This entry point re-exports each layer's principal entry points (below, one example each); the subpaths hold
 * the rest of each layer's public surface. Anything not exported is internal and may change.
 *
 * Content search, as a stream of events ({@link search}):
 * ```ts
 * for await (const e of search({ pattern: 'fn \\w+', paths: ['src'], deadlineMs: 5_000 })) {
 *   if (e.type === 'match') console.log(`${e.path}:${e.lineNumber}: ${e.text}`);
 * }
 * ```
 *
 * Repeated searches of one tree through a live content index ({@link openIndex}): milliseconds, same results.
 * ```ts
 * const index = openIndex('/home/me/linux', { dataDir: '/home/me/.local/share/trawl' });
 * await index.whenReady(); // searches before this scan
 * for await (const e of search({ pattern: 'sched_clock', cwd: '/home/me/linux', index })) …
 * ```
 *
 * The agent search tool ({@link searchTool}): text an LLM reads, every cap said.
 * ```ts
 * const { text } = await searchTool({ pattern: 'TODO', paths: ['src'] }, { cwd: '/home/me/app' });
 * ```
 *
 * Name search over a live index ({@link FileIndex}, {@link searchNames}):
 * ```ts
 * const index = new FileIndex('/home/me/linux');
 * await index.start();
 * const rows = await index.search('mmapc', { limit: 5 }); // mm/mmap.c first
 * ```
 *
 * Path completion ({@link listCompletion}):
 * ```ts
 * const outcome = listCompletion({ project: '/home/me/app', ...splitCompletionToken('./src/ind'), fence: createSensitiveFence() });
 * ```
 *
 * The fence ({@link createSensitiveFence}) and redaction ({@link redactCredentials}):
 * ```ts
 * await createSensitiveFence().isSensitive(`${os.homedir()}/.ssh/id_ed25519`); // true
 * redactCredentials('password = hunter2hunter2').text; // 'password = [REDACTED: secret]'
 * ```
 *
 * Which files contain a text ({@link grepFiles}): one row per file, Office documents included, one deadline.
 * ```ts
 * const { payload } = await grepFiles({ root: '/home/me/app', query: grepQuery('needle')!, fence: createSensitiveFence() });
 * ```
 */

export {
  type CompletionOutcome,
  type CompletionRequest,
  listCompletion,
  splitCompletionToken,
} from './complete/index.js';
export {
  type BuildProgress,
  ContentIndex,
  type ContentIndexOptions,
  ContentIndexRegistry,
  type ContentIndexStatus,
  type IndexUse,
  openIndex,
  type SearchIndex,
} from './content-index/index.js';
export {
  type EngineChoice,
  EngineUnavailableError,
  PatternError,
  type SearchEvent,
  type SearchRequest,
  type SearchSummary,
  search,
} from './engine/index.js';
export {
  createSensitiveFence,
  type ResolvedUserRoot,
  resolveUserRoot,
  SensitiveFence,
} from './fence/index.js';
export { type GrepPayload, type GrepRequest, type GrepRow, grepFiles, grepQuery } from './grep/index.js';
export {
  FileIndex,
  FileIndexRegistry,
  type NameResult,
  type NameSearchRequest,
  type NameSearchResponse,
  searchNames,
} from './names/index.js';
export { type CredentialRedaction, redactCredentials } from './redact/index.js';
export {
  type OutputFormat,
  SearchToolError,
  type SearchToolOptions,
  type SearchToolResult,
  searchTool,
} from './tool/index.js';
