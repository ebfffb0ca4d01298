import * as fs from 'node:fs';
import { type GramQuery, setSatisfies } from '../content-index/query.js';
import { type DocumentKind, documentKindOf, extractDocument } from '../docs/extract.js';
import {
  type DocumentIdentity,
  type DocumentTextStore,
  documentIdentity,
  type StoredDocument,
} from '../docs/store.js';
import type { DocSegment, ExtractOptions } from '../docs/types.js';
import { forEachMatch, MatchDeadlineError, type Span } from '../match/index.js';
import { descriptorIs, isFencedDescriptor, openNoFollow } from '../util/fs-safety.js';
import { type WalkEntry, Walker, type WalkOptions } from '../walk/walker.js';
import type { GrepPartialReason } from './reasons.js';
import type { RawHit } from './rows.js';

export interface DocPassOptions {
  /** The same walk rules as the text pass (root, hidden, skip dirs, the sensitive exclusion, dir budget). */
  walk: Omit<WalkOptions, 'deadline' | 'now'>;
  /** Rows the pass may still add (the cap minus the text hits). */
  room: number;
  deadline: number;
  now: () => number;
  /**
   * The request's matcher for this thread: `boundedMatcher`'s, which gives up at the deadline (MatchDeadlineError)
   * instead of backtracking through a long paragraph for minutes.
   */
  matcher: RegExp;
  maxDocBytes: number;
  extract?: Omit<ExtractOptions, 'deadline' | 'now'>;
  /** The authoritative per-hit fence (canonical absolute path → sensitive). */
  sensitive: (abs: string) => boolean;
  /**
   * The walk's entries as an index keeps them (SearchIndex.walkEntries), `walk.exclude` not yet applied: the pass
   * reads its documents from these instead of walking the tree again. Absent: it walks.
   */
  entries?: readonly WalkEntry[];
  /** Identities of fenced files with other names (SensitiveFence.fencedIdentities): such a document is not read. */
  fenced?: ReadonlySet<string>;
  /**
   * Extracted text by file version (docs/store.ts): a stored version is searched without reading the file, a new
   * one is extracted whole and kept for the next search.
   */
  documents?: DocumentTextStore;
  /**
   * A document `documents` lacks is not extracted by this search but counted as not searched (`doc_not_extracted`):
   * an index is extracting its documents in the background and will store it, so a search does not spend its budget
   * parsing documents (every search at once, the same ones).
   */
  deferExtraction?: boolean;
  /** The query's grams: a stored document that lacks one cannot match and is not searched. */
  grams?: GramQuery;
}

export interface DocPassResult {
  hits: RawHit[];
  /**
   * A floor of documents the pass did not search: oversize ones, ones left to the background extraction, and at least
   * one when time ran out first.
   */
  skipped: number;
  /** The answer is short: time, room, the directory budget, or a document read in part. */
  truncated: boolean;
  /** Documents opened and searched (for the audit line). */
  searched: number;
  /** Why the pass is short or left documents out (empty when it is complete). */
  reasons: Set<GrepPartialReason>;
}

/** Marks the pass short for `reason`. */
function short(out: DocPassResult, reason: GrepPartialReason): void {
  out.truncated = true;
  out.reasons.add(reason);
}

/**
 * The document pass: a second walk with the text pass's rules that claims files by extension (case-insensitively),
 * reads each one into memory once through a no-follow descriptor (never re-opened by path), and searches the
 * extracted text with the request's own matcher. One row per document: its first matching segment.
 */
export async function docPass(options: DocPassOptions): Promise<DocPassResult> {
  const out: DocPassResult = { hits: [], skipped: 0, truncated: false, searched: 0, reasons: new Set() };
  const walker = options.entries
    ? null
    : new Walker({ ...options.walk, deadline: options.deadline, now: options.now });
  const exclude = options.entries ? options.walk.exclude : undefined;
  for (const entry of options.entries ?? walker!.entries()) {
    const kind = documentKindOf(entry.path);
    if (kind === null) continue;
    if (exclude?.(entry.canon)) continue;
    if (options.sensitive(entry.abs)) continue;
    if (out.hits.length >= options.room) {
      short(out, 'cap');
      return out;
    }
    if (options.now() >= options.deadline) {
      out.skipped++;
      short(out, 'budget');
      return out;
    }
    const opened = openDocument(entry.abs, entry.canon, options.maxDocBytes, options.fenced);
    if (opened === 'too-large') {
      out.skipped++;
      out.reasons.add('doc_skipped');
      continue;
    }
    if (opened === null) continue;
    let found: DocumentSearch;
    try {
      const stored = options.documents?.get(entry.canon, opened.identity, options.extract?.maxChars);
      if (stored) found = searchStored(stored, options);
      else if (options.documents && options.deferExtraction) {
        out.skipped++;
        out.reasons.add('doc_not_extracted');
        continue;
      } else {
        const read = readDocument(opened.fd, opened.size, options.maxDocBytes);
        if (read === 'too-large') {
          out.skipped++;
          out.reasons.add('doc_skipped');
          continue;
        }
        if (read === null) continue;
        found = options.documents
          ? await extractAndSearch(kind, read, entry.canon, opened.identity, options.documents, options)
          : await searchDocument(kind, read, options);
      }
    } finally {
      fs.closeSync(opened.fd);
    }
    out.searched++;
    if (found.hit) out.hits.push({ file: entry.path, line: 0, text: found.hit.text, label: found.hit.label });
    else if (!found.whole && !found.skipped && !found.outOfTime) short(out, 'doc_partial_text');
    if (found.skipped || found.outOfTime) {
      out.skipped++;
      short(out, found.outOfTime ? 'budget' : 'doc_skipped');
    }
    if (found.outOfTime) return out;
  }
  const stop = walker?.stats.stoppedBy;
  if (stop === 'deadline') {
    out.skipped++; // the walk did not finish: at least one document may be unreached
    short(out, 'budget');
  } else if (stop) short(out, 'walk_budget');
  return out;
}

/**
 * The document, opened through one descriptor without following links and judged by where it is: it must read back
 * as the canonical path the walk (and the fence) decided on, so a directory on the way swapped for a link cannot
 * hand over a file outside the root, and must not be a fenced file under another name (a hard link). Not a regular
 * file, unreadable, elsewhere or fenced → null. The caller closes `fd`.
 */
function openDocument(
  abs: string,
  canon: string,
  maxBytes: number,
  fenced: ReadonlySet<string> | undefined,
): { fd: number; size: number; identity: DocumentIdentity } | 'too-large' | null {
  let fd: number;
  try {
    fd = openNoFollow(abs);
  } catch {
    return null;
  }
  let keep = false;
  try {
    if (!descriptorIs(fd, canon) || isFencedDescriptor(fd, fenced)) return null;
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return null;
    if (st.size > maxBytes) return 'too-large';
    keep = true;
    return { fd, size: st.size, identity: documentIdentity(fd) };
  } catch {
    return null;
  } finally {
    if (!keep) fs.closeSync(fd);
  }
}

/** The bytes of an opened document; one that grows while read is not a settled file (null, or too large). */
function readDocument(fd: number, size: number, maxBytes: number): Buffer | 'too-large' | null {
  try {
    const buf = Buffer.allocUnsafe(size + 1);
    let got = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
      if (got > size) return got > maxBytes ? 'too-large' : null;
    }
    return buf.subarray(0, got);
  } catch {
    return null;
  }
}

interface DocumentSearch {
  hit?: { label: string; text: string };
  whole: boolean;
  skipped: boolean;
  /** The matcher stopped at the deadline inside this document. */
  outOfTime: boolean;
}

async function searchDocument(
  kind: DocumentKind,
  bytes: Buffer,
  options: DocPassOptions,
): Promise<DocumentSearch> {
  let hit: DocumentSearch['hit'];
  let outOfTime = false;
  const result = await extractDocument(
    kind,
    bytes,
    (segment) => {
      let span: Span | null;
      try {
        span = firstMatch(options.matcher, segment.text);
      } catch (err) {
        if (!(err instanceof MatchDeadlineError)) throw err;
        outOfTime = true;
        return true; // ends the extraction: nothing more can be searched in time
      }
      if (!span) return false;
      hit = { label: segment.label, text: lineAt(segment.text, span.start).trim() };
      return true;
    },
    { ...options.extract, deadline: options.deadline, now: options.now },
  );
  return {
    ...(hit ? { hit } : {}),
    whole: result.whole,
    skipped: result.skipped !== undefined,
    outOfTime,
  };
}

/** A stored text searched segment by segment (no file read, no extraction). */
function searchStored(doc: StoredDocument, options: DocPassOptions): DocumentSearch {
  const whole = !doc.partial;
  const skipped = doc.skipped !== undefined;
  if (options.grams && !setSatisfies(doc.grams, options.grams)) return { whole, skipped, outOfTime: false };
  const found = searchSegments(doc.segments, options.matcher);
  return { ...(found.hit ? { hit: found.hit } : {}), whole, skipped, outOfTime: found.outOfTime };
}

/** Extracts a new version whole into the store, then searches it; a deadline's cut reads as running out of time. */
async function extractAndSearch(
  kind: DocumentKind,
  bytes: Buffer,
  canon: string,
  identity: DocumentIdentity,
  store: DocumentTextStore,
  options: DocPassOptions,
): Promise<DocumentSearch> {
  const { doc, cutByDeadline } = await store.extract(kind, bytes, canon, identity, {
    ...options.extract,
    deadline: options.deadline,
    now: options.now,
  });
  const found = searchStored(doc, options);
  if (cutByDeadline && !found.hit) return { whole: false, skipped: true, outOfTime: true };
  return found;
}

function searchSegments(
  segments: readonly DocSegment[],
  matcher: RegExp,
): { hit?: { label: string; text: string }; outOfTime: boolean } {
  for (const segment of segments) {
    let span: Span | null;
    try {
      span = firstMatch(matcher, segment.text);
    } catch (err) {
      if (!(err instanceof MatchDeadlineError)) throw err;
      return { outOfTime: true };
    }
    if (span)
      return {
        hit: { label: segment.label, text: lineAt(segment.text, span.start).trim() },
        outOfTime: false,
      };
  }
  return { outOfTime: false };
}

function firstMatch(regex: RegExp, text: string): Span | null {
  let found: Span | null = null;
  forEachMatch(regex, text, (s) => {
    found = s;
    return false;
  });
  return found;
}

/** The `\n`-delimited line of `text` that holds offset `at`. */
function lineAt(text: string, at: number): string {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const end = text.indexOf('\n', at);
  return text.slice(start, end < 0 ? text.length : end);
}
