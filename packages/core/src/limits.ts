/**
 * Limits the engine applies by default, named, each with the reason it has the value it has.
 * Surfaces pass their own (stricter) values; nothing here is a hidden cap: every one is reported when it bites.
 */

/** A NUL byte within this many leading bytes marks a file binary: ripgrep's first read covers 64 KiB. */
export const BINARY_SNIFF_BYTES = 64 * 1024;

/** Files handed to one worker task. One task per file costs 4–16× on 2 cores (docs/architecture.md, "Facts"). */
export const WORKER_BATCH_FILES = 256;

/** The first batches are small so the first results arrive early. */
export const WORKER_FIRST_BATCH_FILES = 16;

/** Workers a search may use. Two cores on the target machines; more threads only add contention. */
export const DEFAULT_WORKERS = 2;

/** Up to this many named files (and no directory), engine 'auto' searches with the js engine, not rg. */
export const NAMED_FILES_ONLY_MAX = 256;
/** …when they hold at most this many bytes together (past it, rg's linear-time regex engine pays off). */
export const NAMED_FILES_ONLY_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The rg engine holds ripgrep's output (to print it in path order) up to this many bytes of rg's JSON. A
 * search that outgrows it runs again with `rg --sort path` and streams instead, so memory stays flat for
 * any output (`\w+\d{4}` over the Linux tree: 3.4 M lines). 4 MiB of JSON is about 15 000 matching lines, far
 * more than an agent's search prints; held as parsed events it costs a few times that in heap.
 */
export const RG_HELD_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * Held files reach the consumer several to a batch, up to about this many events: a broad search counting
 * first yields one event per matching file (13 k for `return -EINVAL` on the Linux tree), and a batch per file
 * cost an await per file in every consumer. Small enough that a batch is never a notable allocation.
 */
export const RG_BATCH_EVENTS = 1024;

/**
 * A file with more rg JSON than this is passed on in parts of about this size (its `begin`, lines…, then
 * lines and its `end`), so once output streams one file's output is never held whole (before that, in the held
 * phase, a held file is joined again; that phase is bounded by RG_HELD_OUTPUT_BYTES): the largest file of the
 * Linux tree has 64 000 matching lines for `\w+\d{4}`. 256 KiB is about a thousand lines: one write each.
 */
export const RG_FILE_PART_BYTES = 256 * 1024;

/**
 * The bytes of file paths one rg run is given on its command line when it reads a content index's candidate list
 * (argv batches; one rg per batch, in turn). Linux's ARG_MAX is 2 MiB for argv and the environment together, each
 * argument costing its bytes plus a pointer: 1 MiB leaves room for any environment. The Linux tree's 14 715
 * candidates of `return -EINVAL` (~600 KB of paths) fit in one run; every run more costs a process start.
 */
export const RG_LIST_ARGV_BYTES = 1024 * 1024;

/**
 * The share of a search's time the rg engine keeps back from its parallel run (output held, put in path order at
 * the end) for a run in path order (`--sort path`, one thread) should the deadline come first: a cut of the
 * parallel run leaves files from anywhere in the tree, a cut of the ordered one leaves the first files only.
 */
export const RG_ORDERED_RESERVE_SHARE = 0.3;

/**
 * With a detail horizon the rg engine counts first, then reads the first files' lines: this much of the deadline
 * (at most; RG_DETAIL_RESERVE_SHARE of it for short ones) is kept from the count so that, cut by the deadline, the
 * files it found first are still shown with their lines. A tenth was too little: under a 0.3 s deadline the lines
 * had 30 ms, less than starting a worker.
 */
export const RG_DETAIL_RESERVE_MAX_MS = 2_000;
export const RG_DETAIL_RESERVE_SHARE = 0.4;

/**
 * Named files one rg run is handed as open descriptors (engine/rg/held-files.ts): each is held open until rg is
 * started, and a process's default limit on open files can be as low as 1024. More named files than this are
 * searched by several runs in turn.
 */
export const RG_HELD_FILES = 256;

/**
 * When a content index declines a search for a scan (its candidates are too large a share of the tree's files or
 * bytes for the js workers) but vouches for its candidate list, rg reads that list instead of scanning while the
 * list holds at most this share of the walk's files and of its bytes. rg's cost over a list is about its bytes
 * (measured, load 4–6): Linux `return -EINVAL`, 19 % of the files and 32 % of the bytes, 0.33–0.41× the scan's CPU;
 * the npm corpus's 34 243 files all listed, 1.0–1.2× (nothing saved, a second batch's process start paid). Well
 * below that break-even, so a list never costs more than the scan it replaces.
 */
export const RG_LIST_MAX_SHARE = 0.75;

/** Batches handed out past the first one not yet emitted, at most (results are emitted in walk order). */
export const REORDER_WINDOW_BATCHES = 16;

/** A worker busy with one batch longer than this sends what it has so far (kept if the deadline stops it). */
export const PARTIAL_ANSWER_MS = 50;
/** …and one that holds more output lines than this sends them. */
export const PARTIAL_ANSWER_LINES = 20_000;
/**
 * …or more than this much output, in OUTPUT_UNITS: a line costs its characters plus OUTPUT_LINE_OVERHEAD (the
 * objects around it: record, submatches, path), so many short lines weigh as much as a few long ones.
 */
export const PARTIAL_ANSWER_UNITS = 128 * 1024;
export const OUTPUT_LINE_OVERHEAD = 256;

/**
 * Output one worker may have sent that the consumer has not taken yet, in the units above; past it the
 * worker waits. Without it a slow consumer (a terminal, a pipe) let workers run ahead and the main thread's
 * heap grew with the output: 2.7 GB RSS for `\w+\d{4}` over the Linux tree. 512 Ki units is 1 500–2 000
 * typical lines, enough that a worker rarely waits on a consumer that keeps up.
 */
export const WORKER_OUTPUT_CREDIT = 512 * 1024;

/** Warm search workers kept between searches (two searches' worth), and how long an idle one stays. */
export const MAX_IDLE_SEARCH_WORKERS = 2 * DEFAULT_WORKERS;
export const IDLE_SEARCH_WORKER_MS = 60_000;

/**
 * A search worker's young generation (MB). V8's default (tens of MB per worker) is garbage a worker rarely
 * needs: its results leave it at once. 4 MB took 75 MB off the peak RSS of a 430 000-line search
 * (drivers/net, bench/RESULTS.md) at the same speed. Only the young generation is capped: an old-space cap
 * would crash a worker on a big file instead of slowing it.
 */
export const WORKER_YOUNG_GENERATION_MB = 4;

/**
 * A walked file larger than this is searched by a js worker in line-aligned windows of this size, each window's
 * lines sent on as it is searched, where that gives the whole file's answer (search-worker.ts): a worker then
 * never holds a huge file, its decoded text and all its lines at once (the Linux tree's largest matching file is
 * 24 MB; two workers reading two such files together were most of the js engine's peak memory).
 */
export const JS_FILE_WINDOW_BYTES = 1024 * 1024;

/**
 * A search worker's heap may grow this far (MB) past what its last full collection left before it collects again
 * (engine/js/heap-budget.ts). Lines live until their batch part is posted, outlive the small young generation and are
 * promoted; V8 left the dead ones in each worker's old generation up to ~75 MB (`\w+\d{4}` over drivers/net).
 */
export const WORKER_HEAP_SLACK_MB = 16;

/** A warm worker's reusable read buffer is shrunk back to this when a new search begins. */
export const WORKER_KEPT_BUFFER_BYTES = 4 * 1024 * 1024;

/** Before a second worker is worth starting (~25 ms), the walk must have found this many files. */
export const SECOND_WORKER_MIN_FILES = 512;

/** The walk yields to the event loop at least this often (ms) so a walk never stalls a server. */
export const WALK_SLICE_MS = 8;

/**
 * The largest file either engine searches (the js engine reads a file whole; Node buffers stop at 4 GiB
 * and memory long before). Larger files are skipped and reported as too-large.
 */
export const MAX_READ_BYTES = 1024 * 1024 * 1024;

/**
 * The js engine's deadline when the caller sets none. A JavaScript RegExp backtracks: `(a+a+)+y` over a 50 KB line
 * of `a`s ran past 60 s, and in a long-lived process (server, MCP, an agent host) a search without a deadline holds
 * a worker for ever. Terminating the worker at the deadline is the only way to stop such a match. Five minutes is
 * far past any search of a large tree on this engine (bench/RESULTS.md), so only a runaway pattern meets it.
 */
export const JS_ENGINE_DEFAULT_DEADLINE_MS = 5 * 60 * 1000;

/**
 * Compiled patterns the engine keeps (most recent first). One agent call compiles the same pattern for every
 * search it runs (each group's search, the check for hidden matches): 0.4–1.0 ms each on this
 * machine kind, more than the rest of an indexed answer with no candidate.
 */
export const COMPILED_PATTERNS_KEPT = 8;
