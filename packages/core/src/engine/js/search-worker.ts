import * as fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import {
  OUTPUT_LINE_OVERHEAD,
  PARTIAL_ANSWER_LINES,
  PARTIAL_ANSWER_UNITS,
  WORKER_KEPT_BUFFER_BYTES,
  WORKER_OUTPUT_CREDIT,
} from '../../limits.js';
import {
  type FileResult,
  type LineMatcher,
  Prefilter,
  type SearcherConfig,
  searchBuffer,
  startsWithUtf16Bom,
  transcodes,
} from '../../search/searcher.js';
import { searchWindows } from '../../search/windows.js';
import { describeError } from '../../util/errors.js';
import {
  type BatchResults,
  type FileOutcome,
  type FileTask,
  type FromWorker,
  fromMatcherSpec,
  type ToWorker,
  type WorkerSetup,
} from './protocol.js';

/**
 * A search worker: reads files synchronously into one reused buffer and searches them. Synchronous reads
 * in a worker beat async reads by 15–22× here (spec/engine-notes.md); the worker thread keeps them off
 * the caller's event loop, and a runaway regex can be stopped by terminating the worker. Workers are kept
 * warm between searches (worker-pool.ts); each search begins with a `setup` message that replaces all
 * of this state.
 */
let setup: WorkerSetup;
let matcher: LineMatcher;
let prefilter: Prefilter;
let mode: SearcherConfig['mode'];
let credit: Int32Array | null = null;

function begin(next: WorkerSetup): void {
  setup = next;
  credit = next.outputCredit ? new Int32Array(next.outputCredit) : null;
  matcher = fromMatcherSpec(next.matcher);
  prefilter = new Prefilter(matcher.required);
  mode = next.config.mode;
  // One huge file of an earlier search should not stay resident in an idle worker.
  if (whole.length > WORKER_KEPT_BUFFER_BYTES) whole = Buffer.allocUnsafe(CHUNK_BYTES);
}

const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/**
 * Opens a file without blocking on FIFOs and, for walked files (regular files when listed), without
 * following a symlink swapped in since. Named files are fstat'ed; walked ones skip that syscall.
 */
function searchFile(task: FileTask): FileOutcome | FileResult {
  let fd: number;
  try {
    fd = fs.openSync(task.abs, fs.constants.O_RDONLY | O_NONBLOCK | (task.explicit ? 0 : O_NOFOLLOW));
  } catch (err) {
    return { seq: task.seq, skip: 'unreadable', code: errCode(err), message: describeError(err) };
  }
  try {
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

function tooLarge(task: FileTask): FileOutcome {
  return {
    seq: task.seq,
    skip: 'too-large',
    code: 'EFBIG',
    message: `larger than ${setup.maxFilesize} bytes`,
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

function readForSearch(fd: number, sizeHint: number): { buf: Buffer; length: number } | 'no-match' {
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
    return readWhole(fd, chunk, first, sizeHint || fs.fstatSync(fd).size);
  // Scan the rest chunk by chunk, keeping an overlap so a literal across a boundary is still seen.
  const overlap = Math.max(0, prefilter.longestLiteralBytes - 1);
  let total = first;
  let filled = first;
  for (;;) {
    if (prefilter.mayMatch(chunk, filled))
      return readWhole(fd, null, 0, Math.max(sizeHint || fs.fstatSync(fd).size, total));
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
    mode = msg.mode;
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
    const r = searchFile(task);
    if ('seq' in r) {
      reply.outcomes.push(r);
    } else if (r.skippedBinary) {
      reply.binary++;
    } else {
      reply.searched++;
      reply.bytesSearched += r.stats.bytesSearched;
      if (r.stats.matchedLines > 0 || setup.reportUnmatched) {
        // A file with more output than a part goes in parts, each an answer of its own, with the credit
        // waited for between them: one file's lines are never all in flight (64 000 in the Linux tree).
        let from = 0;
        for (let i = 0; i < r.lines.length; i++) {
          units += r.lines[i]!.text.length + OUTPUT_LINE_OVERHEAD;
          lines++;
          if (units > PARTIAL_ANSWER_UNITS && i + 1 < r.lines.length) {
            reply.outcomes.push({
              seq: task.seq,
              result: { ...r, lines: r.lines.slice(from, i + 1) },
              more: true,
              ...(from > 0 ? { continued: true as const } : {}),
            });
            send(reply, k);
            waitForCredit();
            from = i + 1;
          }
        }
        reply.outcomes.push(
          from === 0
            ? { seq: task.seq, result: r }
            : { seq: task.seq, result: { ...r, lines: r.lines.slice(from) }, continued: true },
        );
      }
    }
  }
  send(reply);
});

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
