/**
 * tool (`@trawl/core/tool`): the agent `search` tool on the trawl engine — arguments as an LLM sends
 * them, text as an LLM reads it (pages, every cap and truncation said, hashline tags), archives and documents
 * searched in place, the fence applied. The CLI's `trawl search` and the MCP `search` tool print its text.
 *
 * @example
 * ```ts
 * import { searchTool } from '@trawl/core/tool';
 * const { text, details } = await searchTool({ pattern: 'TODO', paths: ['src'] }, { cwd: '/home/me/app' });
 * console.log(text); // "Found 3 files …" then each file's matching lines
 * ```
 */

export { type AgentTreeAdmission, agentTree } from './agent-tree.js';
export { type ArchiveMember, archives, type MemberList } from './archive.js';
export { SEARCH_TOOL_NAME, searchToolDefinition, searchToolDescription } from './description.js';
export { SearchToolError, type SearchToolErrorCode } from './errors.js';
export type { OutputFormat } from './format.js';
export { hashlineTag, normaliseForTag } from './hashline.js';
export {
  loadSearchToolInputSchema,
  type ParsedSearchToolArgs,
  parseSearchToolArgs,
  type SearchToolArgs,
} from './input.js';
export {
  defaultDocsDir,
  defaultResourceRouter,
  docsResourceHandler,
  type ResolvedResource,
  type ResourceHandler,
  ResourceRouter,
} from './resources.js';
export {
  type FileMatchCount,
  prepareSearchTool,
  type SearchToolDetails,
  type SearchToolOptions,
  type SearchToolResult,
  searchTool,
} from './search-tool.js';
export { TagCache } from './tag-cache.js';
export {
  AGENT_TREE_RULES,
  countPruned,
  describeSurvey,
  type SurveyRequest,
  type SurveyScope,
  surveyTree,
  TreeAdmission,
  type TreeRules,
  type TreeSurvey,
  treeWalkOptions,
  type UnenteredDir,
  type UnenteredReason,
  unenteredWords,
} from './tree-view.js';
export { xxHash32 } from './xxhash32.js';
