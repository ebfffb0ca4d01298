import * as fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import {
  BINARY_SNIFF_BYTES,
  JS_FILE_WINDOW_BYTES,
  OUTPUT_LINE_OVERHEAD,
  PARTIAL_ANSWER_LINES,
  PARTIAL_ANSWER_UNITS,
  WORKER_HEAP_SLACK_MB,
  WORKER_KEPT_BUFFER_BYTES,
  WORKER_OUTPUT_CREDIT,
} from '../../limits.js';
import {
  type FileResult,
  type LineMatcher,
  Prefilter,
  type SearcherConfig,
  type SearchLine,
  searchBuffer,
  startsWithBom,
  startsWithUtf16Bom,
  transcodes,
} from '../../search/searcher.js';
import { countNewlines, searchWindows, windowable } from '../../search/windows.js';
import { describeError } from '../../util/errors.js';
import { descriptorIs, FENCED_LINK_MESSAGE, isFencedDescriptor, staleError } from '../../util/fs-safety.js';
import { HeapBudget } from './heap-budget.js';
import {
  type BatchResults,
  type FileOutcome,
  type FileTask,
  type FromWorker,
  fromMatcherSpec,
  type ToWorker,
  tooLargeMessage,
  type WorkerSetup,
} from './protocol.js';

/**
 * A search worker: reads files synchronously into one reused buffer and searches them. Synchronous reads
 * in a worker beat async reads by 15–22× here (docs/architecture.md, "Facts"); the worker thread keeps them off
 * the caller's event loop, and a runaway regex can be stopped by terminating the worker. Workers are kept
 * warm between searches (worker-pool.ts); each search begins with a `setup` message that replaces all
 * of this state.
 */
let setup: WorkerSetup;
/** The lines this worker has posted die in its old generation: collected once they outgrow the slack. */
const heap = new HeapBudget(WORKER_HEAP_SLACK_MB * 1024 * 1024);
let matcher: LineMatcher;
let prefilter: Prefilter;
let mode: SearcherConfig['mode'];
let credit: Int32Array | null = null;
/** Files with matches this worker found in this search (see WorkerSetup.detailFiles). */
let matchedFiles = 0;
/** WorkerSetup.fencedIdentities, for look-ups. */
let fenced: ReadonlySet<string> | undefined;

function begin(next: WorkerSetup): void {
  setup = next;
  fenced = next.fencedIdentities?.length ? new Set(next.fencedIdentities) : undefined;
  matchedFiles = 0;
  credit = next.outputCredit ? new Int32Array(next.outputCredit) : null;
  matcher = fromMatcherSpec(next.matcher);
  prefilter = new Prefilter(matcher.required);
  mode = next.config.mode;
  byWindows = windowsPossible() ? 'maybe' : 'never';
  // One huge file of an earlier search should not stay resident in an idle worker.
  if (whole.length > WORKER_KEPT_BUFFER_BYTES) whole = Buffer.allocUnsafe(CHUNK_BYTES);
}

const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/**
 * Opens a file without blocking on FIFOs and, for walked files (regular files when listed), without
 * following a symlink swapped in since. Named files are fstat'ed; walked ones skip that syscall.
 */
function searchFile(task: FileTask, onWindow: (lines: SearchLine[]) => void): FileOutcome | FileResult {
  let fd: number;
  try {
    fd = fs.openSync(task.abs, fs.constants.O_RDONLY | O_NONBLOCK | (task.explicit ? 0 : O_NOFOLLOW));
  } catch (err) {
    return { seq: task.seq, skip: 'unreadable', code: errCode(err), message: describeError(err) };
  }
  try {
    // What was opened is judged, not the path: a directory on the way swapped for a link reads back elsewhere.
    if (!descriptorIs(fd, task.canon)) {
      const err = staleError(task.abs);
      return { seq: task.seq, skip: 'unreadable', code: 'ESTALE', message: err.message };
    }
    // Another name of a fenced file (a hard link to ~/.ssh/id_ed25519): refused as the fenced path would be.
    if (isFencedDescriptor(fd, fenced)) return fencedLink(task);
    if (task.windows) {
      const r = searchThroughWindows(fd, task);
      if (r !== 'whole') return r;
    }
    let sizeHint = 0;
    if (task.explicit) {
      const st = fs.fstatSync(fd);
      if (!st.isFile())
        return { seq: task.seq, skip: 'not-a-file', code: 'ENOTFILE', message: 'Not a regular file' };
      if (st.size > setup.maxFilesize) return tooLarge(task);
      sizeHint = st.size;
    }
    const file = readForSearch(fd, sizeHint);
    if (file === 'no-match') return searchedNothing(lastReadLength);
    if ('stream' in file) return searchByWindows(fd, task, onWindow);
    if (file.length > setup.maxFilesize) return tooLarge(task);
    return searchBuffer(file.buf, file.length, matcher, prefilter, {
      ...setup.config,
      mode,
      binary: binaryRuleFor(task),
    });
  } catch (err) {
    return { seq: task.seq, skip: 'unreadable', code: errCode(err), message: describeError(err) };
  } finally {
    fs.closeSync(fd);
    // A huge file's buffer is not kept for the rest of the search (the lines reported are copies of it).
    if (whole.length > WORKER_KEPT_BUFFER_BYTES) whole = Buffer.allocUnsafe(CHUNK_BYTES);
  }
}

/** ripgrep's binary rule for this file: walked and named files differ (SearcherConfig.binary). */
function binaryRuleFor(task: FileTask): SearcherConfig['binary'] {
  const detection = setup.config.binaryDetection ?? 'auto';
  return detection === 'none' ? 'none' : task.explicit ? 'text' : detection === 'search' ? 'convert' : 'quit';
}

/**
 * A file through the byte ranges that hold its matches (search/windows.ts), or 'whole' where only reading it
 * all is exact — then it is searched as any other file.
 */
function searchThroughWindows(fd: number, task: FileTask): FileResult | 'whole' {
  if (setup.reportUnmatched) return 'whole';
  const st = fs.fstatSync(fd);
  if (!st.isFile() || st.size > setup.maxFilesize) return 'whole';
  const scratch = { buf: whole };
  const result = searchWindows(
    { size: st.size, mtimeMs: st.mtimeMs, read: (buf, off, len, pos) => fs.readSync(fd, buf, off, len, pos) },
    task.windows!,
    matcher,
    prefilter,
    { ...setup.config, mode, binary: binaryRuleFor(task) },
    scratch,
  );
  whole = scratch.buf;
  return result;
}

/**
 * A named file is refused aloud; a walked one is left out unnamed, as the rg engine does and as the walk leaves the
 * fenced path itself out (naming it would tell which of the project's files are a credential's other names).
 */
function fencedLink(task: FileTask): FileOutcome {
  if (!task.explicit) return { seq: task.seq, leftOut: true };
  return { seq: task.seq, skip: 'unreadable', code: 'EFENCED', message: FENCED_LINK_MESSAGE };
}

function tooLarge(task: FileTask): FileOutcome {
  return {
    seq: task.seq,
    skip: 'too-large',
    code: 'EFBIG',
    message: tooLargeMessage(setup.maxFilesize),
  };
}

/**
 * Reading strategy. Reads land in one small buffer that stays in the CPU cache: that costs the kernel
 * about half the copy time of reading every file whole into a large buffer (measured on the Linux tree,
 * bench notes). Most files fit in it. A larger file is scanned chunk by chunk for the required literals
 * and read whole only when one is there, which is rare for the selective queries that have literals.
 */
const CHUNK_BYTES = 64 * 1024;
const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
let whole = Buffer.allocUnsafe(CHUNK_BYTES);
let lastReadLength = 0;

function readForSearch(
  fd: number,
  sizeHint: number,
): { buf: Buffer; length: number } | { stream: true } | 'no-match' {
  const first = fs.readSync(fd, chunk, 0, CHUNK_BYTES, null);
  if (first < CHUNK_BYTES) return { buf: chunk, length: first };
  // Inverted, UTF-16 or --null-data, the literals say nothing about the raw bytes.
  if (
    !prefilter.active ||
    setup.config.invert ||
    // --null-data: the literals are of the swapped text (a newline in the pattern is a NUL there).
    setup.config.nullData ||
    startsWithUtf16Bom(chunk, first) ||
    transcodes(setup.config.encoding)
  )
    return readWholeOrStream(fd, chunk, first, sizeHint || fs.fstatSync(fd).size);
  // Scan the rest chunk by chunk, keeping an overlap so a literal across a boundary is still seen.
  const overlap = Math.max(0, prefilter.longestLiteralBytes - 1);
  let total = first;
  let filled = first;
  for (;;) {
    if (prefilter.mayMatch(chunk, filled))
      return readWholeOrStream(fd, null, 0, Math.max(sizeHint || fs.fstatSync(fd).size, total));
    if (total > setup.maxFilesize) return { buf: chunk, length: total };
    chunk.copy(chunk, 0, filled - overlap, filled);
    const n = fs.readSync(fd, chunk, overlap, CHUNK_BYTES - overlap, null);
    if (n === 0) break;
    total += n;
    filled = overlap + n;
  }
  lastReadLength = total;
  return 'no-match';
}

/**
 * A large file is not read whole when a search of it window by window is exact (searchByWindows): then the
 * caller searches it so. Otherwise the whole file, in `whole`.
 */
function readWholeOrStream(
  fd: number,
  head: Buffer | null,
  headLength: number,
  size: number,
): { buf: Buffer; length: number } | { stream: true } {
  // Past the size cap: not read, reported too large (a length past the cap says so, as readForSearch's does).
  if (size > setup.maxFilesize) return { buf: chunk, length: size };
  const windowBytes = setup.fileWindowBytes ?? JS_FILE_WINDOW_BYTES;
  if (size > windowBytes && byWindows !== 'never') return { stream: true };
  return readWhole(fd, head, headLength, size);
}

/**
 * Whether this search can take a large walked file window by window and give what the whole file gives: line
 * mode (search/windows.ts's `windowable`: no multi-line pattern, -v, -E, --null-data, --stop-on-nonmatch, -m 0),
 * no context lines and no per-file cap (they reach across windows), ripgrep's walked-file binary rule or none
 * (a named file's NUL offset is the file's first anywhere).
 */
function windowsPossible(): boolean {
  const c = setup.config;
  return (
    windowable(matcher, { ...c, binary: 'none' }) &&
    (mode === 'lines' || mode === 'count') &&
    c.beforeContext === 0 &&
    c.afterContext === 0 &&
    c.maxCount === undefined &&
    (c.binaryDetection ?? 'auto') !== 'search'
  );
}
let byWindows: 'maybe' | 'never' = 'maybe';

/** The stats a window's part carries: the file's come with its last part. */
const WINDOW_PART: FileResult = {
  lines: [],
  stats: { matches: 0, matchedLines: 0, bytesSearched: 0, limitReached: false },
  binaryOffset: null,
  skippedBinary: false,
};

/**
 * A large walked file searched in line-aligned windows of about JS_FILE_WINDOW_BYTES, each window's lines handed
 * to `onWindow` as soon as it is searched: the worker never holds the file, its text or all its lines (the
 * Linux tree's largest matching file is 24 MB). Line numbers count the newlines of the windows before; a NUL
 * acts as in the whole file's search (in the first 64 KiB the file is skipped, later the search ends before its
 * line); a named file is searched through its NULs, its first reported. A file starting with a byte-order mark is
 * read whole instead (its text is not its bytes).
 */
function searchByWindows(fd: number, task: FileTask, onWindow: (lines: SearchLine[]) => void): FileResult {
  const windowBytes = setup.fileWindowBytes ?? JS_FILE_WINDOW_BYTES;
  const binary = binaryRuleFor(task);
  if (whole.length < windowBytes) whole = Buffer.allocUnsafe(windowBytes);
  const stats = { matches: 0, matchedLines: 0, bytesSearched: 0, limitReached: false };
  let binaryOffset: number | null = null;
  let firstNul: number | null = null;
  let literalSeen = false;
  let pos = 0;
  let linesBefore = 0;
  for (;;) {
    const n = readAt(fd, whole, pos);
    if (n === 0) break;
    if (pos === 0 && (startsWithBom(whole, n) || binary === 'convert')) {
      const file = readWhole(fd, null, 0, fs.fstatSync(fd).size);
      return searchBuffer(file.buf, file.length, matcher, prefilter, { ...setup.config, mode, binary });
    }
    let end = n;
    if (n === whole.length) {
      const nl = whole.lastIndexOf(NEWLINE, n - 1);
      if (nl === -1) {
        // One line longer than the window: a larger window, read again from the same place.
        const bigger = Buffer.allocUnsafe(whole.length * 2);
        whole = bigger;
        continue;
      }
      end = nl + 1;
    }
    let stop = false;
    if (binary === 'quit') {
      const nul = whole.subarray(0, end).indexOf(0);
      if (nul !== -1) {
        if (pos + nul < BINARY_SNIFF_BYTES)
          return {
            lines: [],
            stats: { ...stats, bytesSearched: 0 },
            binaryOffset: pos + nul,
            skippedBinary: true,
          };
        binaryOffset = pos + nul;
        end = nul === 0 ? 0 : whole.lastIndexOf(NEWLINE, nul - 1) + 1;
        stop = true;
      }
    }
    if (binary === 'text') {
      // A named file is searched through its NULs; its end reports the first, as the whole file's search does
      // (when its literals are anywhere in it).
      if (firstNul === null) {
        const nul = whole.subarray(0, end).indexOf(0);
        if (nul !== -1) firstNul = pos + nul;
      }
      if (!literalSeen && prefilter.mayMatch(whole, end)) literalSeen = true;
    }
    if (end > 0) {
      const r = searchBuffer(whole, end, matcher, prefilter, {
        ...setup.config,
        mode,
        binary: 'none',
        encoding: 'none',
      });
      stats.matches += r.stats.matches;
      stats.matchedLines += r.stats.matchedLines;
      if (r.lines.length > 0) {
        for (const line of r.lines) {
          line.lineNumber += linesBefore;
          line.absoluteOffset += pos;
        }
        onWindow(r.lines);
      }
      linesBefore += countNewlines(whole, 0, end);
    }
    pos += end;
    if (stop || n < whole.length) break;
  }
  stats.bytesSearched = pos;
  if (whole.length > WORKER_KEPT_BUFFER_BYTES) whole = Buffer.allocUnsafe(CHUNK_BYTES);
  if (binary === 'text' && literalSeen) binaryOffset = firstNul;
  return { lines: [], stats, binaryOffset, skippedBinary: false };
}

/** As much of the file as fits in `buf`, from `position` (short only at the file's end). */
function readAt(fd: number, buf: Buffer, position: number): number {
  let n = 0;
  while (n < buf.length) {
    const got = fs.readSync(fd, buf, n, buf.length - n, position + n);
    if (got === 0) break;
    n += got;
  }
  return n;
}

const NEWLINE = 10;

/**
 * The whole file in `whole`: continuing after what `head` already holds (its first `headLength` bytes),
 * or from offset 0 again (the pages are in the page cache by now). `sizeHint` (the file's size, fstat'ed when
 * it is larger than a chunk) sizes the buffer once: doubling it up to a 24 MB file left ~32 MB of garbage.
 */
function readWhole(
  fd: number,
  head: Buffer | null,
  headLength: number,
  sizeHint: number,
): { buf: Buffer; length: number } {
  if (whole.length < sizeHint + 1) whole = Buffer.allocUnsafe(Math.max(sizeHint + 1, whole.length * 2));
  let length = 0;
  if (head) {
    head.copy(whole, 0, 0, headLength);
    length = headLength;
  }
  for (;;) {
    if (length === whole.length) {
      if (length > setup.maxFilesize) return { buf: whole, length };
      const bigger = Buffer.allocUnsafe(whole.length * 2);
      whole.copy(bigger, 0, 0, length);
      whole = bigger;
    }
    const want = whole.length - length;
    const n = fs.readSync(fd, whole, length, want, head ? null : length);
    length += n;
    // A regular file reads short only at its end: skip the read that would return 0.
    if (n < want) return { buf: whole, length };
  }
}

function searchedNothing(bytes: number): FileResult {
  return {
    lines: [],
    stats: { matches: 0, matchedLines: 0, bytesSearched: bytes, limitReached: false },
    binaryOffset: null,
    skippedBinary: false,
  };
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? 'EIO';
}

parentPort!.on('message', (msg: ToWorker) => {
  if (msg.type === 'setup') return begin(msg.setup);
  if (msg.type === 'mode') {
    if (msg.mode === 'count' && mode === 'lines') countOnly();
    return;
  }
  if (msg.type === 'content') {
    const buf = Buffer.from(msg.content.buffer, msg.content.byteOffset, msg.content.byteLength);
    const result = searchBuffer(buf, buf.length, matcher, prefilter, { ...setup.config, binary: msg.binary });
    parentPort!.postMessage({ type: 'content', batch: msg.batch, result } satisfies FromWorker);
    return;
  }
  const fresh = (): BatchResults => ({
    type: 'results',
    batch: msg.batch,
    outcomes: [],
    searched: 0,
    bytesSearched: 0,
    binary: 0,
  });
  let reply = fresh();
  let lines = 0;
  let units = 0;
  let lastPost = performance.now();
  const send = (r: BatchResults, partial?: number) => {
    if (partial !== undefined) r.partial = partial;
    r.outputUnits = units;
    if (credit) Atomics.add(credit, 0, units);
    parentPort!.postMessage(r satisfies FromWorker);
    heap.check();
    reply = fresh();
    lines = 0;
    units = 0;
    lastPost = performance.now();
  };
  for (const [k, task] of msg.files.entries()) {
    // A slow batch sends what it has every so often (if the deadline stops this worker, the files it
    // searched are still reported), and so does one with a lot of output (it is printed while the rest
    // is searched, instead of piling up).
    if (
      lines > PARTIAL_ANSWER_LINES ||
      units > PARTIAL_ANSWER_UNITS ||
      performance.now() - lastPost >= setup.partialAnswerMs
    )
      send(reply, k);
    waitForCredit();
    // A file's lines go in parts when there are many: each part an answer of its own, with the credit waited
    // for between them, so one file's lines are never all in flight (64 000 in the Linux tree). A large file
    // searched window by window hands its windows' lines over as it goes (`sendLines` below).
    let partsSent = false;
    const sendLines = (r: FileResult, all: SearchLine[], last: boolean) => {
      let from = 0;
      for (let i = 0; i < all.length; i++) {
        units += all[i]!.text.length + OUTPUT_LINE_OVERHEAD;
        lines++;
        if ((units > PARTIAL_ANSWER_UNITS && i + 1 < all.length) || (!last && i + 1 === all.length)) {
          reply.outcomes.push({
            seq: task.seq,
            result: { ...r, lines: all.slice(from, i + 1) },
            more: true,
            ...(partsSent ? { continued: true as const } : {}),
          });
          partsSent = true;
          send(reply, k);
          waitForCredit();
          from = i + 1;
        }
      }
      if (!last) return;
      const rest = from === 0 ? all : all.slice(from);
      reply.outcomes.push(
        partsSent
          ? { seq: task.seq, result: { ...r, lines: rest }, continued: true }
          : { seq: task.seq, result: r },
      );
    };
    const r = searchFile(task, (window) => sendLines(WINDOW_PART, window, false));
    if ('seq' in r) {
      reply.outcomes.push(r);
    } else if (r.skippedBinary) {
      reply.binary++;
    } else {
      reply.searched++;
      reply.bytesSearched += r.stats.bytesSearched;
      if (r.stats.matchedLines > 0 || setup.reportUnmatched) sendLines(r, r.lines, true);
      if (r.stats.matchedLines > 0) pastHorizon();
    }
  }
  send(reply);
});

/** Counts a file with matches; past the detail horizon, the files after it are counted, not reported line by line. */
function pastHorizon(): void {
  matchedFiles++;
  if (setup.detailFiles === undefined || matchedFiles < setup.detailFiles || mode !== 'lines') return;
  countOnly();
}

/** From now on files are counted (a `mode` message, or the horizon reached): context lines are not counted. */
function countOnly(): void {
  mode = 'count';
  setup = { ...setup, config: { ...setup.config, beforeContext: 0, afterContext: 0 } };
  byWindows = windowsPossible() ? 'maybe' : 'never';
}

/**
 * Blocks while the output this worker sent and the consumer has not taken is past the credit: the consumer
 * (stdout, a socket) sets the pace, not the workers. The engine always takes the answers of the batch next
 * in walk order, so the worker holding that batch is never kept waiting for long; a terminated worker
 * stops waiting too.
 */
function waitForCredit(): void {
  if (!credit) return;
  for (let v = Atomics.load(credit, 0); v > WORKER_OUTPUT_CREDIT; v = Atomics.load(credit, 0))
    Atomics.wait(credit, 0, v);
}
