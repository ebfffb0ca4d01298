/**
 * The public surface of `@trawl/core/tool`: the agent search tool. The layer and its modules are described in
 * `index.ts`, the barrel the rest of the engine imports from; only what is named here is the package's API.
 */
export {
  AGENT_TREE_RULES,
  countPruned,
  defaultResourceRouter,
  describeSurvey,
  loadSearchToolInputSchema,
  type OutputFormat,
  prepareSearchTool,
  ResourceRouter,
  SEARCH_TOOL_NAME,
  type SearchToolArgs,
  type SearchToolDetails,
  SearchToolError,
  type SearchToolOptions,
  type SearchToolResult,
  type SurveyRequest,
  searchTool,
  searchToolDescription,
  surveyTree,
  TagCache,
  TreeAdmission,
  type TreeRules,
  type TreeSurvey,
  treeWalkOptions,
  type UnenteredDir,
  type UnenteredReason,
} from './index.js';
