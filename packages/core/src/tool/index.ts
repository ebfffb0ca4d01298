// The agent `search` tool (seed 000) on the trawl engine: library surface.

export { SEARCH_TOOL_NAME, searchToolDescription } from './description.js';
export { SearchToolError, type SearchToolErrorCode } from './errors.js';
export type { OutputFormat } from './format.js';
export { hashlineTag, normaliseForTag } from './hashline.js';
export {
  loadSearchToolInputSchema,
  type ParsedSearchToolArgs,
  parseSearchToolArgs,
  type SearchToolArgs,
} from './input.js';
export * as searchToolLimits from './limits.js';
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
  type SearchToolDetails,
  type SearchToolOptions,
  type SearchToolResult,
  searchTool,
} from './search-tool.js';
export { xxHash32 } from './xxhash32.js';
