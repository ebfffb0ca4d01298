import * as path from 'node:path';
import { type PrunedEntry, Walker, type WalkOptions } from '../walk/walker.js';
import { TREE_SURVEY_MAX_COUNTED, TREE_SURVEY_MAX_DIRS } from './limits.js';
import { SKIP_DIRS } from './types.js';

/**
 * The agent's view of a tree: which files and directories exist for an agent's tools (`search`, and on the MCP
 * server `grep_files`, `find_files` and `list_dir`), and what each answer says it did not enter. One set of
 * rules, so that the tools agree: ignore files (.gitignore, .ignore, .rgignore) honoured, dot files and
 * directories part of the tree, `.git` and `node_modules` never entered unless named. A directory the rules
 * leave out is named with its file count in every answer that could have found something there, so an agent
 * never reads "no match" where the match sits in a directory nobody looked in.
 *
 * The dashboard's endpoints keep their own (the seed's) rules; this module is the agents'.
 */

/** What is part of the tree. */
export interface TreeRules {
  /** Honour ignore files (`.gitignore`, `.ignore`, `.rgignore`, `.git/info/exclude`). */
  gitignore: boolean;
  /** Dot files and dot directories are part of the tree. */
  hidden: boolean;
  /** Directory names never entered below a walked root (a root named by the caller is entered). */
  skipDirs: ReadonlySet<string>;
}

/** The agent's rules: `search`'s defaults. */
export const AGENT_TREE_RULES: TreeRules = Object.freeze({
  gitignore: true,
  hidden: true,
  skipDirs: new Set(SKIP_DIRS),
});

/** The walk options `rules` mean (what every engine request and walk of the agent's tools carries). */
export function treeWalkOptions(
  rules: TreeRules,
): Required<Pick<WalkOptions, 'hidden' | 'ignoreFiles' | 'requireGit' | 'skipDirs'>> {
  // requireGit false: a project's .gitignore applies whether or not the tree is a git checkout (an unpacked
  // tarball, a copy), as the search tool has always applied it.
  return { hidden: rules.hidden, ignoreFiles: rules.gitignore, requireGit: false, skipDirs: rules.skipDirs };
}

/** Why a directory is not entered. */
export type UnenteredReason = 'skipped' | 'ignored' | 'hidden';

/** A directory the rules leave out, with what it holds. */
export interface UnenteredDir {
  /** As the tools show paths (relative to the working directory), with a trailing `/`. */
  path: string;
  reason: UnenteredReason;
  /** Files below it (every file: no rule applies inside); a floor when `filesExact` is false. */
  files: number;
  filesExact: boolean;
}

/** What the rules left out under some roots. */
export interface TreeSurvey {
  /** Directories not entered that hold at least one file, in walk order. */
  unentered: UnenteredDir[];
  /** Files the rules left out outside those directories (ignored by a rule, or dot files when hidden is off). */
  prunedFiles: number;
  /** The survey reached every directory of the roots (false: its budget stopped it; there may be more). */
  complete: boolean;
}

/** What to survey, under which rules and budgets (surveyTree). */
export interface SurveyRequest extends SurveyScope {
  rules: TreeRules;
}

/** What to survey and within which budgets, whatever the rules. */
export interface SurveyScope {
  /** Paths are shown relative to this. */
  cwd: string;
  /** Absolute roots (directories) the answer walked. */
  roots: readonly string[];
  /** The caller's exclusions (the fence, `!globs`): what they take is never named. */
  exclude?: (canonical: string) => boolean;
  /** Budgets (tests shrink them). */
  maxDirs?: number;
  maxCounted?: number;
  deadline?: number;
  signal?: AbortSignal;
}

/**
 * Walks `roots` with `rules` and collects what the rules leave out, counting the files inside each directory not
 * entered. Two budgets: directories listed by the walk of the tree, entries counted inside the directories not
 * entered (node_modules may hold 100 000 files; past the budget a count is a floor). Synchronous, like the walk.
 */
export function surveyTree(req: SurveyRequest): TreeSurvey {
  const pruned: PrunedEntry[] = [];
  const walker = new Walker({
    roots: [...req.roots],
    cwd: req.cwd,
    ...treeWalkOptions(req.rules),
    ...(req.exclude ? { exclude: req.exclude } : {}),
    maxDirs: req.maxDirs ?? TREE_SURVEY_MAX_DIRS,
    ...(req.deadline !== undefined ? { deadline: req.deadline } : {}),
    ...(req.signal ? { signal: req.signal } : {}),
    onPruned: (e) => {
      // The rules' own reasons only (globs and types are the caller's narrowing); nothing the caller excludes.
      if (e.reason !== 'skipped' && e.reason !== 'ignored' && e.reason !== 'hidden') return;
      if (!req.exclude?.(e.abs)) pruned.push(e);
    },
  });
  for (const _ of walker.entries());
  const counted = countPruned(
    pruned.map((e) => ({ abs: e.abs, isDir: e.isDir, reason: e.reason as UnenteredReason })),
    req,
  );
  return { ...counted, complete: counted.complete && walker.stats.stoppedBy === undefined };
}

/**
 * The survey of {@link surveyTree} from what a walk of the same roots under the same rules already left out (a
 * content index's kept walk, SearchIndex.walkPruned), without walking the tree again. That walk did not apply the
 * caller's `exclude`: an entry is kept only when neither it nor a directory between it and its root is excluded,
 * as the survey's own walk would have pruned there. Null when that walk listed more directories than the survey's
 * budget (the survey walks then, and says where it stopped).
 */
export function surveyFromPruned(
  walked: { pruned: readonly PrunedEntry[]; dirs: number },
  req: SurveyRequest,
): TreeSurvey | null {
  if (walked.dirs > (req.maxDirs ?? TREE_SURVEY_MAX_DIRS)) return null;
  const excluded = req.exclude ? excludedOrUnder(req.roots, req.exclude) : null;
  const kept = walked.pruned.filter(
    (e) => (e.reason === 'skipped' || e.reason === 'ignored' || e.reason === 'hidden') && !excluded?.(e.abs),
  );
  return countPruned(
    kept.map((e) => ({ abs: e.abs, isDir: e.isDir, reason: e.reason as UnenteredReason })),
    req,
  );
}

/** Whether `exclude` takes a path or a directory between it and the root it lies under (memoised per directory). */
function excludedOrUnder(
  roots: readonly string[],
  exclude: (abs: string) => boolean,
): (abs: string) => boolean {
  const stopAt = new Set(roots);
  const memo = new Map<string, boolean>();
  const dirExcluded = (dir: string): boolean => {
    let v = memo.get(dir);
    if (v === undefined) {
      const parent = path.dirname(dir);
      v = exclude(dir) || (!stopAt.has(dir) && parent !== dir && dirExcluded(parent));
      memo.set(dir, v);
    }
    return v;
  };
  return (abs) => exclude(abs) || (!stopAt.has(abs) && dirExcluded(path.dirname(abs)));
}

/**
 * Entries left out, counted: each directory with the files below it (within one shared budget of entries, past
 * which a count is a floor and `complete` false), each file as one of `prunedFiles`. Directories holding no file are
 * dropped (nothing there could match). For a caller that found the entries itself (list_dir's one level).
 */
export function countPruned(
  entries: ReadonlyArray<{ abs: string; isDir: boolean; reason: UnenteredReason }>,
  req: Pick<SurveyRequest, 'cwd' | 'exclude' | 'maxCounted' | 'deadline' | 'signal'>,
): TreeSurvey {
  let budget = req.maxCounted ?? TREE_SURVEY_MAX_COUNTED;
  let complete = true;
  const unentered: UnenteredDir[] = [];
  let prunedFiles = 0;
  for (const e of entries) {
    if (!e.isDir) {
      prunedFiles++;
      continue;
    }
    const counted = countFiles(e.abs, req, budget);
    budget -= counted.entries;
    if (!counted.exact) complete = false;
    if (counted.files === 0 && counted.exact) continue;
    unentered.push({
      path: `${shownPath(req.cwd, e.abs)}/`,
      reason: e.reason,
      files: counted.files,
      filesExact: counted.exact,
    });
  }
  return { unentered, prunedFiles, complete };
}

/** Files below `dir`, every one (no rule applies inside a directory not entered), within `budget` entries. */
function countFiles(
  dir: string,
  req: Pick<SurveyRequest, 'cwd' | 'exclude' | 'deadline' | 'signal'>,
  budget: number,
): { files: number; entries: number; exact: boolean } {
  if (budget <= 0) return { files: 0, entries: 0, exact: false };
  const walker = new Walker({
    roots: [dir],
    cwd: req.cwd,
    hidden: true,
    ignoreFiles: false,
    ...(req.exclude ? { exclude: req.exclude } : {}),
    maxEntries: budget,
    ...(req.deadline !== undefined ? { deadline: req.deadline } : {}),
    ...(req.signal ? { signal: req.signal } : {}),
  });
  let files = 0;
  for (const _ of walker.entries()) files++;
  return { files, entries: walker.stats.entries, exact: walker.stats.stoppedBy === undefined };
}

function shownPath(cwd: string, abs: string): string {
  const rel = path.relative(cwd, abs);
  return (rel === '' || rel.startsWith('..') ? abs : rel).split(path.sep).join('/');
}

const REASON_WORDS: Record<UnenteredReason, string> = {
  skipped: 'skipped',
  ignored: 'ignored by an ignore file',
  hidden: 'a dot directory',
};

/**
 * The survey in words, for the end of an answer, or null when the rules left nothing out that could hold a match:
 * `Not searched: node_modules/ (skipped, 1204 files), build/ (ignored by an ignore file, 12 files); 3 ignored files.`
 * `verb` names what the tool did not do there ("searched", "listed"); `how` says how to look there.
 */
export function describeSurvey(survey: TreeSurvey, verb: string, how: string, maxNames = 8): string | null {
  if (survey.unentered.length === 0 && survey.prunedFiles === 0) return null;
  const named = survey.unentered.slice(0, maxNames).map(unenteredWords);
  const rest = survey.unentered.slice(maxNames);
  if (rest.length > 0) {
    const files = rest.reduce((n, d) => n + d.files, 0);
    const exact = rest.every((d) => d.filesExact);
    named.push(
      `${rest.length} more director${rest.length === 1 ? 'y' : 'ies'} (${exact ? '' : 'at least '}${files} files)`,
    );
  }
  const parts: string[] = [];
  if (named.length > 0) parts.push(named.join(', '));
  if (survey.prunedFiles > 0)
    parts.push(`${survey.prunedFiles} file${survey.prunedFiles === 1 ? '' : 's'} left out by ignore rules`);
  const floor = survey.complete ? '' : ' (the check stopped at its budget: there may be more)';
  return `Not ${verb}: ${parts.join('; ')}${floor}. ${how}`;
}

/** One directory not entered, in words: `build/ (ignored by an ignore file, 12 files)`. */
export function unenteredWords(d: UnenteredDir): string {
  return `${d.path} (${REASON_WORDS[d.reason]}, ${d.filesExact ? '' : 'at least '}${d.files} file${d.files === 1 && d.filesExact ? '' : 's'})`;
}

/**
 * Whether an entry below `root` is part of the tree under `rules`, judged as the walk would judge it on its way
 * there (every component's ignore files, hidden-ness, skip directories, in the walk's order). For tools that list
 * or score entries themselves (find_files, list_dir). One instance per call: it caches the ignore files it reads.
 */
export class TreeAdmission {
  private readonly walker: Walker;
  /** The same rules with dot names admitted: tells an ignored dot entry from a merely hidden one. */
  private readonly withDots: Walker | null;

  constructor(
    private readonly root: string,
    private readonly rules: TreeRules,
  ) {
    this.walker = new Walker({ roots: [''], cwd: root, ...treeWalkOptions(rules) });
    this.withDots = rules.hidden
      ? null
      : new Walker({ roots: [''], cwd: root, ...treeWalkOptions({ ...rules, hidden: true }) });
  }

  /** Why `abs` (a path below the root) is out of the tree, or null when it is in. */
  why(abs: string, isDir: boolean): UnenteredReason | null {
    const rel = path.relative(this.root, abs);
    if (rel === '' || rel.startsWith('..')) return null;
    const names = rel.split(path.sep);
    let at = this.root;
    for (let i = 0; i < names.length; i++) {
      at = path.join(at, names[i]!);
      const why = this.whyEntry(at, i < names.length - 1 || isDir);
      if (why !== null) return why;
    }
    return null;
  }

  /**
   * Why the entry `abs` is left out of its directory's listing (only its own name is judged, by the ignore files
   * of its directory and those above it), or null. A directory the caller named is listed whatever its own name.
   */
  whyEntry(abs: string, isDir: boolean): UnenteredReason | null {
    const name = path.basename(abs);
    const parent = path.dirname(abs);
    if (this.walker.ignoredBelow(parent, abs, isDir)) {
      const dot = !this.rules.hidden && name.startsWith('.');
      return dot && !this.withDots!.ignoredBelow(parent, abs, isDir) ? 'hidden' : 'ignored';
    }
    if (isDir && this.rules.skipDirs.has(name)) return 'skipped';
    return null;
  }
}
