import type { EngineChoice } from '../engine/index.js';
import type { SearchIndex } from '../engine/search-index.js';
import type { SensitiveFence } from '../fence/index.js';
import { AGENT_SKIP_DIRS } from '../walk/skip-dirs.js';
import type { OutputFormat, ShownFile } from './format.js';
import type { LineRange } from './line-ranges.js';
import type { ResourceRouter } from './resources.js';
import type { ShapedLines } from './shape.js';
import type { TagCache } from './tag-cache.js';
import type { Target } from './targets.js';
import type { UnenteredDir } from './tree-view.js';

/** How the host runs the search tool: working directory, roots, engine, index, deadline and output. */
export interface SearchToolOptions {
  /** Relative paths resolve here, and output paths are shown relative to it. Default: process.cwd(). */
  cwd?: string;
  /** 'hashline' (default): tagged headers and `*N:` lines for editable files; 'plain': `*N|` lines only. */
  format?: OutputFormat;
  /** Context lines before / after each match (default 1 / 3). */
  contextBefore?: number;
  contextAfter?: number;
  /** Which engine searches files (default 'auto': ripgrep when a vetted binary is available). */
  engine?: EngineChoice;
  /** Milliseconds the whole call may take; past it the search stops and the text says so (default 30 000). */
  deadlineMs?: number;
  /** URL schemes the caller may search (default: `docs://`). */
  resources?: ResourceRouter;
  signal?: AbortSignal;
  /** For `~` expansion; default the HOME of `homeDir()`. */
  homeDir?: string;
  /** A content index (or a registry of them): picks the files read, never what is found (content-index/). */
  index?: SearchIndex;
  /** The sensitive-path fence (default: the standard table anchored at `homeDir`). */
  fence?: SensitiveFence;
  /**
   * Remembers hashline tags between calls (a long-lived host passes one; see TagCache). Without one, every
   * file shown is hashed again.
   */
  tagCache?: TagCache;
  /**
   * Directories (canonical) every target must lie in, as spelled and where it leads; anything else is
   * refused (`path_outside_roots`). An MCP server passes its roots. Default: no confinement.
   */
  roots?: readonly string[];
  /**
   * The process answers one call and exits (the CLI): no search worker is warmed for later calls
   * (default false: a long-lived host, where a warm worker makes the next small search cheap).
   */
  oneShot?: boolean;
  /** The clock the deadline runs on; a seam for tests (default Date.now). */
  clock?: () => number;
  /**
   * Every answer that walked names the directories its rules did not enter, with their file counts, and counts the
   * files they left out (tree-view.ts; `details.unentered`). It walks the tree once more (≈45 ms for 11 500
   * files), so a host opts in: the MCP server does, where its other tools say the same. Default false.
   */
  nameUnentered?: boolean;
  /**
   * Credential-shaped values in every line returned (file lines, paths, notes) are replaced by `[REDACTED: kind]`,
   * and the answer says how many (redact/tool-output.ts, the redactor of every agent tool). The MCP server turns it
   * on (`trawl mcp --no-redact` turns it off); default false: the library and the CLI print what the files hold.
   */
  redact?: boolean;
}

export interface FileMatchCount {
  path: string;
  count: number;
}

/** Structured facts about one call (never the whole text again). */
export interface SearchToolDetails {
  /** The paths searched, as given (normalised), joined by ", ". */
  scopePath: string;
  /** Absolute common base of the filesystem targets (cwd when there are none). */
  searchPath: string;
  /** Matching lines shown on this page (before the byte cap). */
  matchCount: number;
  /** Files shown on this page. */
  fileCount: number;
  /** Files shown, in display order. */
  files: string[];
  fileMatches: FileMatchCount[];
  /** What was shown: lines, names only, or counts. */
  output: 'content' | 'files' | 'count';
  /** `output: "count"`: matching lines in every matching file (a lower bound when `totalFilesExact` is false). */
  totalMatches?: number;
  /** Files with matches in the whole search (a lower bound when `totalFilesExact` is false). */
  totalFiles: number;
  totalFilesExact: boolean;
  skip: number;
  /** `skip` for the next page, when there is one. */
  nextSkip?: number;
  /** Something was left out: a page limit, a per-file cap, a cut line, the byte cap or the deadline. */
  truncated: boolean;
  fileLimitReached?: number;
  perFileLimitReached?: number;
  /** Files whose matches were capped, with the first line not shown. */
  perFileLimited?: Array<{ path: string; nextLine: number | null; totalMatches?: number }>;
  linesTruncated?: boolean;
  /** The 50 KiB cap cut the text. */
  byteLimitReached?: boolean;
  outcome: 'complete' | 'timeout';
  engine?: string;
  elapsedMs: number;
  missingPaths?: string[];
  /** Named targets that were not searched, with the reason. */
  notSearched?: Array<{ path: string; reason: string }>;
  /** Directories under the walked paths that the rules did not enter and that hold files, with their counts. */
  unentered?: UnenteredDir[];
  /** Short notes, as they appear at the end of the text. */
  notes: string[];
  /** Values the redactor replaced in this answer (present when redaction was on). */
  redacted?: number;
}

/** What the search tool answers: the text for the model and structured `details` for the host. */
export interface SearchToolResult {
  text: string;
  details: SearchToolDetails;
}

/** Directory names never walked into, unless a target names them: the agent's list (walk/skip-dirs.ts). */
export const SKIP_DIRS = AGENT_SKIP_DIRS;

export interface PendingFile {
  key: string;
  display: string;
  kind: ShownFile['kind'];
  /** For files on disk: read for the tag, or re-searched when only counted. */
  abs?: string;
  taggable: boolean;
  /** Found by walking a directory or glob, not named by the caller. */
  walked: boolean;
  ranges: LineRange[] | null;
}

/** A file on the page: its lines (content), or its count of matching lines (`output: "count"`). */
export type PageEntry = { file: PendingFile; shaped: ShapedLines | null; count?: number | null };

/** A target after URL resolution: what the search plan is made of. */
export type Expanded =
  | Exclude<Target, { kind: 'resource' } | { kind: 'missing' } | { kind: 'unreadable' } | { kind: 'exclude' }>
  | { kind: 'virtual'; input: string; v: { url: string; content: Buffer; ranges: LineRange[] | null } }
  | {
      kind: 'backed';
      input: string;
      url: string;
      abs: string;
      immutable: boolean;
      ranges: LineRange[] | null;
    };

export interface EngineRoot {
  abs: string;
  display: string;
  kind: ShownFile['kind'];
  taggable: boolean;
  /** A directory to walk (else a named file). */
  walks: boolean;
}
