/**
 * What a search asks of a content index, owned by the engine that asks: the engine narrows its walk through any
 * `SearchIndex` (content-index/ implements it) and never learns how the index is kept.
 */
import type { DocumentTextStore } from '../docs/store.js';
import type { RequiredLiterals } from '../match/index.js';
import type { ByteWindows } from '../search/windows.js';
import type { PrunedEntry, WalkEntry, WalkOptions, WalkStats } from '../walk/walker.js';

/** How a search used the index (the summary says it). */
export interface IndexUse {
  used: boolean;
  reason: string;
  /** Files the search read, of the files its walk yields. */
  candidates?: number;
  files?: number;
  /** Of the candidates, the large files handed to the searcher with the byte ranges that hold their matches. */
  windowed?: number;
}

/** The walk a search asks an index for: the walk's options without the per-search stop conditions. */
export type IndexWalkOptions = Omit<WalkOptions, 'deadline' | 'signal' | 'now'>;

/** A walk asked of an index, with the stop conditions of the search that asks. */
export interface IndexWalkRequest {
  walk: IndexWalkOptions;
  deadline?: number;
  signal?: AbortSignal;
  now?: () => number;
}

/** What a search asks of the index. */
export interface IndexSelectRequest extends IndexWalkRequest {
  required: RequiredLiterals | null;
  maxFilesize: number;
}

/** What the index answers a search: the files to read, or why it declines and what it knows all the same. */
export interface IndexSelection {
  use: IndexUse;
  /**
   * When used: the files to search, in walk order, and the walk's own report; per file (same order), the byte
   * ranges that hold all its matches when the index knows them (large base files), else undefined.
   */
  walk?: { entries: WalkEntry[]; stats: WalkStats; windows?: Array<ByteWindows | undefined> };
  /**
   * When it declines for a scan: every walked file is known, from the index's own records, to be at most the
   * request's `maxFilesize` bytes. Set only while the watchers vouch for the tree and every changed file's size is
   * known; a scan may then skip the size check per file (ripgrep's --max-filesize costs it a stat per file).
   */
  withinSizeCap?: true;
  /**
   * When it declines for a scan while the watchers vouch for the tree: its candidates all the same (walk order,
   * the request's exclusions applied, as `walk` would hold them) if every one is known, from the index's records,
   * to hold no NUL byte and to be at most `maxFilesize` bytes. Such files read the same as named files (ripgrep
   * given them on its command line: no binary detection to differ, no size check to skip), so a reader of named
   * files over this list finds what the scan finds. `bytes`: what they hold, of `totalBytes` walked.
   */
  plainCandidates?: { entries: WalkEntry[]; stats: WalkStats; bytes: number; totalBytes: number };
}

/** What a search needs of an index: one, or a set of them (a server with several roots). */
export interface SearchIndex {
  select(req: IndexSelectRequest): Promise<IndexSelection>;
  /** Lists and keeps a walk ahead of the searches that will ask for it (ContentIndex.prepareWalk). */
  prepareWalk?(req: IndexWalkRequest): Promise<boolean>;
  /** The walk's entries from the index's kept list, or null: walk instead (ContentIndex.walkEntries). */
  walkEntries?(req: IndexWalkRequest): Promise<WalkEntry[] | null>;
  /** What the walk's rules left out, from the index's kept list, or null: walk instead (ContentIndex.walkPruned). */
  walkPruned?(req: IndexWalkRequest): Promise<{ pruned: readonly PrunedEntry[]; dirs: number } | null>;
  /** The document text store of the index covering `root` (content-index/documents.ts), when there is one. */
  documentsFor?(root: string): DocumentTextStore | undefined;
  /** Whether the index covering `root` is extracting its documents into that store in the background now. */
  extractingDocuments?(root: string): boolean;
}
