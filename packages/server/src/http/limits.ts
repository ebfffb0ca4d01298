/**
 * The dashboard server's pinned numbers, each with its reason (decision 3 of docs/architecture.md).
 */

/** Default port of `trawl serve` (`--port 0` takes any free one). */
export const SERVE_DEFAULT_PORT = 7777;
/** Default bind address: loopback only. The token is the gate; binding wider is the operator's explicit choice. */
export const SERVE_DEFAULT_HOST = '127.0.0.1';

/**
 * Probe pool: short validation probes (project canonicalisation, is-a-directory, the resolving fence). The reference
 * runs 8 threads; each of ours is a V8 isolate (~10 MB), and probes finish in milliseconds, so 4 carry the same load
 * on the 2-core machines this targets. Workers start on demand and retire when idle.
 */
export const PROBE_POOL_SIZE = 4;
/** Transfer pool: walks and listings that hold a worker for their whole run (8, as the reference). */
export const TRANSFER_POOL_SIZE = 8;
/** A call no worker has claimed within this long is withdrawn and answered 503 `path_probe_busy`. */
export const POOL_ADMIT_MS = 2_000;
/** Calls waiting for a worker, at most; more are answered 503 at once (bounded memory under a flood). */
export const POOL_MAX_WAITING = 256;
/**
 * A claimed call that runs past this is presumed wedged (a dead mount): its worker is terminated and replaced, and
 * the caller gets 503 `path_probe_timeout`. Walks stop themselves at 10 s and listings at 5 000 entries, so only a
 * blocked system call gets here. A thread stuck in the kernel keeps its slot until it returns.
 */
export const PROBE_EXEC_CEILING_MS = 30_000;
export const TRANSFER_EXEC_CEILING_MS = 60_000;
/** Workers above one per pool retire after this long idle. */
export const POOL_IDLE_MS = 60_000;
/**
 * How long a worker asked to end may take to release what it holds (killing and reaping its PDF extractor
 * children) before it is terminated.
 */
export const POOL_END_GRACE_MS = 5_000;
/** Heap ceiling of a pool worker (MiB): a runaway task dies alone instead of taking the server's memory. */
export const POOL_WORKER_HEAP_MB = 256;
/** Heap ceiling of the index host (MiB): 100 000 entries per index, a few indexes. */
export const INDEX_HOST_HEAP_MB = 1_024;
/** An index search not answered within this long is a 503 (the index host is one thread). */
export const INDEX_SEARCH_WAIT_MS = 2_000;
/**
 * How long the index host reuses an answer to the same search while its index is unchanged: bounds how stale a
 * row's size/mtime can be (membership changes invalidate at once). Short enough that a picker never shows an
 * old size for long; long enough to absorb identical searches from several tabs and retyped queries.
 */
export const INDEX_ANSWER_TTL_MS = 2_000;
/** Answers the index host keeps (each is one page of rows). */
export const INDEX_ANSWER_CACHE_MAX = 256;
/**
 * How long a `?project=` resolution (the one root policy, on the probe pool) is reused on the event loop: a picker
 * sends the same project with every keystroke, and each resolution is a pool round trip plus filesystem calls.
 * Only accepted roots are kept; a project re-pointed meanwhile is seen at most this late (and the walk or index
 * still judges every row by the fence on its canonical path).
 */
export const PROJECT_RESOLVE_TTL_MS = 1_000;
/** Resolutions kept, at most. */
export const PROJECT_RESOLVE_CACHE_MAX = 256;
/**
 * Projects opened from the workbench (`POST /api/projects/open`) that get a name index, besides the command line's:
 * the most recently opened ones. Each index may hold 100 000 entries; this keeps the host inside its heap ceiling.
 */
export const RUNTIME_INDEXED_PROJECTS_MAX = 4;
/** Index searches in flight at most; more go to the walk pool's admission instead. */
export const INDEX_MAX_PENDING = 256;

/**
 * Greps running on the grep host at once (grep-host.ts). Each spends most of its time waiting on the engine's
 * reader threads and its PDF child; the host's own work (selection, matching documents, rows) is serial on one
 * thread, so more at once only interleaves them: 4 keeps the readers busy on 2 cores.
 */
export const GREP_HOST_MAX_ACTIVE = 4;
/**
 * Greps waiting for the host, at most; more are answered 503 at once. Each waits at most what is left of its
 * budget, so a flood is refused in bounded time and memory instead of queueing past every deadline.
 */
export const GREP_HOST_MAX_WAITING = 32;
/**
 * A grep the host has not answered within this long is presumed wedged (its budget is at most 30 s, and the
 * passes stop themselves at it): the host is restarted, its indexes load again from disk, and meanwhile greps scan.
 */
export const GREP_HOST_EXEC_CEILING_MS = 60_000;
/** Heap ceiling of the grep host (MiB): the content indexes' tables and walk lists (the postings stay on disk). */
export const GREP_HOST_HEAP_MB = 2_048;

/**
 * The most rows `POST /api/file-grep` answers with (`limit`; default 200): enough to narrow a broad query in the
 * Files tab, still one bounded answer (each row is at most a 400-character preview).
 */
export const GREP_MAX_LIMIT = 1_000;

/** Request bodies larger than this are 413 `payload_too_large` (no route needs more; file-grep sends two strings). */
export const BODY_LIMIT_BYTES = 64 * 1024;
/**
 * A file-search `q` longer than this is answered with no results: no entry name is longer than 255 bytes, and the
 * scorer's work grows with the query, so a megabyte of query would be unbounded work per entry.
 */
export const FILE_SEARCH_MAX_QUERY_CHARS = 1_024;
/** A `project`/`path`/`workspace` value longer than this names nothing (PATH_MAX is 4096). */
export const MAX_PATH_PARAM_CHARS = 4_096;
/** `recent-projects.json` larger than this is ignored (it is a short list of paths). */
export const RECENT_PROJECTS_MAX_BYTES = 1024 * 1024;
/** Entries `POST /api/projects/open` keeps in `recent-projects.json` (a switcher's worth; the oldest drop off). */
export const RECENT_PROJECTS_MAX = 50;
/**
 * A reply's event stream sends an SSE comment after this much silence, so a proxy with an idle timeout (nginx's
 * `proxy_read_timeout` is 60 s) does not cut a long, quiet agent run; the web client's parser skips comments.
 */
export const SSE_HEARTBEAT_MS = 15_000;
/** `recent-projects.json` is re-read at most this often. */
export const RECENT_PROJECTS_RECHECK_MS = 1_000;

/**
 * Worker thread niceness on Linux (0 = the event loop's). CFS weights: nice 10 ≈ 1/9 of nice 0, so 8 walkers
 * together weigh less than the event loop and it stays responsive while they run. The index host and the probes
 * stay at 0: their work IS the answer to an interactive request (one A/B run on the loaded bench machine: indexed
 * file-search at 92 req/s with a nice-5 index host, 177 req/s at nice 0).
 */
export const TRANSFER_WORKER_NICE = 10;
export const INDEX_HOST_NICE = 0;
/**
 * The grep host (and the engine's reader threads it starts, which inherit it) at the transfer workers' niceness: its
 * greps are bulk work next to the event loop, which must keep answering while 20 clients search (bench/RESULTS.md,
 * `bench/grep-project.mjs`: loop delay p99 348 ms at nice 0 under 20 clients on the loaded bench machine).
 */
export const GREP_HOST_NICE = 10;
export const PROBE_WORKER_NICE = 0;
