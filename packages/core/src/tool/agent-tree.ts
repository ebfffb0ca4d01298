import {
  AGENT_TREE_RULES,
  countPruned,
  describeSurvey,
  type SurveyScope,
  surveyTree,
  TreeAdmission,
  type TreeSurvey,
  treeWalkOptions,
  type UnenteredReason,
} from './tree-view.js';

/** Whether entries below a root are part of the agent's tree ({@link agentTree}'s `admission`). */
export interface AgentTreeAdmission {
  /** Why `abs` (a path below the root) is out of the tree, or null when it is in. */
  why(abs: string, isDir: boolean): UnenteredReason | null;
  /** Why the entry `abs` is left out of its directory's listing (only its own name judged), or null. */
  whyEntry(abs: string, isDir: boolean): UnenteredReason | null;
}

/**
 * The agent's view of a tree (tree-view.ts) for tools outside this package — the MCP server's `grep_files`,
 * `find_files`, `list_dir`, `file_info` — with the agent's rules bound once, so each of them judges a tree as
 * `search` does and none can pick other rules.
 */
export const agentTree = Object.freeze({
  /** The walk options of the agent's rules, for an engine request or a walk of the tree. */
  walkOptions: Object.freeze(treeWalkOptions(AGENT_TREE_RULES)),
  /** Whether an entry below `root` is part of the tree, and why not (one per call: it caches ignore files). */
  admission: (root: string): AgentTreeAdmission => new TreeAdmission(root, AGENT_TREE_RULES),
  /** Walks the roots and collects what the rules leave out, with the files each directory not entered holds. */
  survey: (req: SurveyScope): TreeSurvey => surveyTree({ ...req, rules: AGENT_TREE_RULES }),
  /** Entries a caller found left out itself (list_dir's one level), counted as a survey counts them. */
  count: (
    entries: ReadonlyArray<{ abs: string; isDir: boolean; reason: UnenteredReason }>,
    req: Pick<SurveyScope, 'cwd' | 'exclude' | 'maxCounted' | 'deadline' | 'signal'>,
  ): TreeSurvey => countPruned(entries, req),
  /** The survey in words for the end of an answer (`Not searched: node_modules/ (skipped, 1204 files)…`), or null. */
  describe: describeSurvey,
});
