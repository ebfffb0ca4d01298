/**
 * The directories a walk does not enter unless a caller names them: two lists, one for each kind of reader.
 * Every surface takes one of these; none writes its own.
 */

/**
 * The dashboard's list (the workbench's name search and content search, `/api/file-search`, `/api/file-grep`):
 * dependency trees, build output, virtual environments, VCS and caches — where a person's hit is noise. Exact,
 * case-sensitive names, as the reference walk compares them.
 */
export const DASHBOARD_SKIP_DIRS: ReadonlySet<string> = new Set([
  '.cache',
  '.git',
  '.venv',
  '__pycache__',
  'build',
  'dist',
  'env',
  'node_modules',
  'out',
  'target',
  'venv',
]);

/**
 * The agent's list (the search tool and the MCP tools): only the VCS store and installed dependencies, as ripgrep
 * users expect; build output and virtual environments are searched (`.gitignore` hides what the project ignores).
 */
export const AGENT_SKIP_DIRS: readonly string[] = ['.git', 'node_modules'];
