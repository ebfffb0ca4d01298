/**
 * The public surface of `@trawl/core/tool`: the agent search tool. The layer and its modules are described in
 * `index.ts`, the barrel the rest of the engine imports from; only what is named here is the package's API.
 */
export {
  type AgentTreeAdmission,
  type ArchiveMember,
  agentTree,
  archives,
  type MemberList,
  type OutputFormat,
  prepareSearchTool,
  ResourceRouter,
  type SearchToolDetails,
  SearchToolError,
  type SearchToolOptions,
  type SearchToolResult,
  type SurveyScope,
  searchTool,
  searchToolDefinition,
  TagCache,
  type TreeSurvey,
  type UnenteredDir,
  type UnenteredReason,
} from './index.js';
