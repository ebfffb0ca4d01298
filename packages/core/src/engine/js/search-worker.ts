import * as fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { describeError } from '../../walk/walker.js';
import { type FileResult, type LineMatcher, Prefilter, type SearcherConfig, searchBuffer } from '../../search/searcher.js';
import type { FileOutcome, FileTask, FromWorker, MatcherSpec, ToWorker, WorkerSetup } from './protocol.js';

/**
 * A search worker: reads files synchronously into one reused buffer and searches them. Synchronous reads
 * in a worker beat async reads by 15–22× here (spec/engine-notes.md); the worker thread keeps them off
 * the caller's event loop, and a runaway regex can be stopped by terminating the worker.
 */
const setup = workerData as WorkerSetup;
const matcher = rebuild(setup.matcher);
const prefilter = new Prefilter(matcher.required);
let mode: SearcherConfig['mode'] = setup.config.mode;
let buffer = Buffer.allocUnsafe(64 * 1024);

function rebuild(spec: MatcherSpec): LineMatcher {
  const re = (r: { source: string; flags: string }) => new RegExp(r.source, r.flags);
  return {
    regex: re(spec.regex),
    asciiRegex: re(spec.asciiRegex),
    ...(spec.lineRegex ? { lineRegex: re(spec.lineRegex) } : {}),
    ...(spec.asciiLineRegex ? { asciiLineRegex: re(spec.asciiLineRegex) } : {}),
    required: spec.required,
    multiline: spec.multiline,
  };
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
    let sizeHint = 0;
    if (task.explicit) {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) return { seq: task.seq, skip: 'not-a-file', code: 'ENOTFILE', message: 'Not a regular file' };
      if (st.size > setup.maxFilesize) return tooLarge(task);
      sizeHint = st.size;
    }
    const length = readAll(fd, sizeHint);
    if (length > setup.maxFilesize) return tooLarge(task);
    return searchBuffer(buffer, length, matcher, prefilter, {
      ...setup.config,
      mode,
      binary: task.explicit ? 'text' : 'quit',
    });
  } catch (err) {
    return { seq: task.seq, skip: 'unreadable', code: errCode(err), message: describeError(err) };
  } finally {
    fs.closeSync(fd);
  }
}

function tooLarge(task: FileTask): FileOutcome {
  return { seq: task.seq, skip: 'too-large', code: 'EFBIG', message: `larger than ${setup.maxFilesize} bytes` };
}

/** Reads the whole file into `buffer` (grown as needed; a file may grow while it is read). */
function readAll(fd: number, sizeHint: number): number {
  if (buffer.length < sizeHint + 1) buffer = Buffer.allocUnsafe(Math.max(sizeHint + 1, buffer.length * 2));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > setup.maxFilesize) return length;
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) return length;
    length += n;
  }
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? 'EIO';
}

parentPort!.on('message', (msg: ToWorker) => {
  if (msg.type === 'mode') {
    mode = msg.mode;
    return;
  }
  const reply: FromWorker = { type: 'results', batch: msg.batch, outcomes: [], searched: 0, bytesSearched: 0, binary: 0 };
  for (const task of msg.files) {
    const r = searchFile(task);
    if ('seq' in r) {
      reply.outcomes.push(r);
    } else if (r.skippedBinary) {
      reply.binary++;
    } else {
      reply.searched++;
      reply.bytesSearched += r.stats.bytesSearched;
      if (r.stats.matchedLines > 0) reply.outcomes.push({ seq: task.seq, result: r });
    }
  }
  parentPort!.postMessage(reply);
});
