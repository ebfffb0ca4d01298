/**
 * The content index's numbers, each with its reason. Nothing here changes what a search finds: a file the
 * index cannot vouch for is searched.
 */

/** Version of the on-disk format; an index of any other version is rebuilt, never read. */
export const INDEX_FORMAT_VERSION = 7;

/**
 * Files are indexed in blocks of this many bytes (blocks.ts): a literal's grams must co-occur within one
 * block or two adjacent ones. Per-file sets made every common identifier "present" in the large generated
 * headers and drivers of a kernel tree; 64 KiB keeps most source files one block (so the index grows only
 * with the large ones; bench/RESULTS.md has the sizes measured).
 */
export const INDEX_BLOCK_BYTES = 64 * 1024;

/**
 * A gram found in more than this share of the blocks (and in more than UNLISTED_MIN_BLOCKS of them) gets no
 * list: the index records it as present everywhere. Such a gram narrows a query by less than 4× (the share past
 * which a query scans anyway, MAX_CANDIDATE_FILE_SHARE), the other grams of a literal do the narrowing, and its
 * list would be among the longest a query decodes. Below it the size bound decides (MAX_INDEX_TEXT_SHARE):
 * with exp-Golomb lists (list-codec.ts) the Linux tree's lists up to this share fit the bound, where at 8 %
 * (the varint era's value) `PM_RESUME` had no selective gram listed (2 621 candidate files).
 */
export const UNLISTED_BLOCK_SHARE = 0.25;
export const UNLISTED_MIN_BLOCKS = 1_000;

/**
 * The index's size bound, as a share of the text it indexes (the target: 15 %; this leaves room for
 * the header and rounding). Where the rule above keeps more (minified bundles: the npm corpus came out at 24 %),
 * the longest remaining lists are left out too, until the index fits.
 */
export const MAX_INDEX_TEXT_SHARE = 0.145;
/** …applied from this much text on: a small tree's index is small anyway, and its tables would eat the bound. */
export const MIN_TEXT_FOR_SIZE_BOUND = 64 * 1024 * 1024;

/**
 * Files larger than this are not indexed (they are always searched). Indexing a 1 GiB log costs more than it
 * saves, and such files are rare in source trees.
 */
export const MAX_INDEXED_FILE_BYTES = 32 * 1024 * 1024;

/** The build walk's budget: files beyond it are simply not indexed (searched on every query). */
export const MAX_INDEXED_FILES = 2_000_000;
/** …and directories entered (each is also a watch). */
export const MAX_INDEXED_DIRS = 400_000;

/**
 * Directories watched, at most. Past this the index stops trusting its watchers and checks size and mtime of
 * every file before answering (inotify's default limit is 8 192 to 65 536 watches per user, shared).
 */
export const MAX_WATCHED_DIRS = 32_768;

/**
 * A query whose candidates exceed this share of the walked files, or of their bytes, scans instead: past it,
 * reading the candidates through the js workers (1.5–3× ripgrep's time per byte here; docs/architecture.md, "Facts")
 * stops being clearly cheaper than ripgrep reading everything, and broad queries must stay within 1.1× of rg.
 * Bytes matter as much as files: a literal found in a few minified bundles can mean a quarter of a tree's bytes.
 * The bytes counted are those the searcher reads: a file searched through windows counts its windows only.
 */
export const MAX_CANDIDATE_FILE_SHARE = 0.25;
export const MAX_CANDIDATE_BYTE_SHARE = 0.25;
/**
 * A candidate file of at least this many blocks is searched through windows — the byte ranges of its blocks
 * where a literal may start (search/windows.ts) — instead of whole. Below it, the windows' line-boundary reads
 * and bookkeeping cost about what reading the file does (192 KiB with 64 KiB blocks). Big generated headers
 * (10–32 MB in the Linux tree) are why: a literal in one of their blocks made a search read all of them.
 */
export const WINDOWED_MIN_BLOCKS = 3;
/** Trees this small are not worth an index decision: below it the share rule is not applied. */
export const MIN_FILES_FOR_SHARE_RULE = 200;
/**
 * …unless its files hold this much: a few files can be most of a search's bytes (`typescript/`: 108 files, three
 * bundles of several MB each; reading them through the js workers took 4.4× rg's time, bench/RESULTS.md).
 * Candidates holding less than this are read through the index whatever their byte share: below it a scan's
 * fixed costs (starting rg twice, counting first) outweigh the reading (Linux, `sched_clock` in the .c files of
 * kernel/ by a glob: 42 of 410 files, a quarter of their bytes; scanned ~0.4 s, through the index ~0.07–0.1 s,
 * load 9).
 */
export const MIN_BYTES_FOR_SHARE_RULE = 16 * 1024 * 1024;

/**
 * A file whose mtime is this close to the moment it was read may be modified again within the same mtime
 * tick without changing size (git's "racily clean" problem): it is re-read at the next validation.
 */
export const RACY_MTIME_MS = 2_000;

/**
 * Changed files re-indexed in memory per search, at most, before it answers; the rest stay candidates
 * (searched) and are re-indexed in the background. Keeps one search after a big checkout bounded.
 */
export const REINDEX_PER_SEARCH = 256;

/** The overlay is folded into a new base (a background rebuild) when it holds this share of the base… */
export const MERGE_OVERLAY_SHARE = 0.05;
/** …and at least this many files. */
export const MERGE_OVERLAY_MIN_FILES = 2_000;

/**
 * How long a search waits for its event barrier (the watcher's own echo) before it stops trusting the
 * watchers and checks size+mtime instead. Generous: the machine may be loaded; never a correctness bound.
 */
export const BARRIER_TIMEOUT_MS = 2_000;

/**
 * Threads a build reads and indexes files on (at most the machine's cores). Each holds its own postings
 * (64 MiB of list records plus its share of the lists): two keep a Linux-sized build well under 1.5 GB.
 */
export const BUILD_WORKERS = 2;
/** Trees with fewer files are built on one thread: starting a helper thread costs more than it saves. */
export const BUILD_PARALLEL_MIN_FILES = 2_000;
/**
 * When the files are cut into ranges of equal work, a file costs its bytes plus this (open, stat, read, close,
 * a block's fixed cost), so that a range of many small files is not under-counted.
 */
export const BUILD_FILE_COST_BYTES = 4_096;

/** A progress report at most this often during a build. */
export const BUILD_PROGRESS_MS = 200;

/** Walk lists (one per distinct set of walk options) kept per index. */
export const MAX_CACHED_WALKS = 16;
