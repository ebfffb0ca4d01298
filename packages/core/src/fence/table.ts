/**
 * The sensitive-location table: every place trawl refuses to name, read or list, in one list.
 * Entries are HOME-relative and authored with `/`. Where a tool lets an environment variable move its store, the
 * entry names that variable too; both the HOME spelling and the moved one are then sensitive.
 */

export interface SensitiveLocation {
  /** Path under HOME, `/`-separated; the location and everything under it is sensitive. */
  readonly home: string;
  /** Environment variables that relocate this store: `{ name, rel }` means `$name/rel` (rel may be empty). */
  readonly env?: readonly { readonly name: string; readonly rel: string; readonly list?: boolean }[];
  /** Why it is here (documentation; shown by nothing). */
  readonly what: string;
}

export const SENSITIVE_HOME_LOCATIONS: readonly SensitiveLocation[] = [
  // Generic credential stores.
  { home: '.ssh', what: 'ssh keys and known hosts' },
  {
    home: '.aws',
    what: 'AWS credentials and config',
    env: [
      { name: 'AWS_SHARED_CREDENTIALS_FILE', rel: '' },
      { name: 'AWS_CONFIG_FILE', rel: '' },
    ],
  },
  { home: '.gnupg', what: 'GnuPG keyrings', env: [{ name: 'GNUPGHOME', rel: '' }] },
  { home: '.gpg', what: 'GnuPG keyrings (alternate spelling)' },
  { home: '.password-store', what: 'pass(1) store', env: [{ name: 'PASSWORD_STORE_DIR', rel: '' }] },
  {
    home: '.config/gcloud',
    what: 'Google Cloud SDK credentials',
    env: [
      { name: 'CLOUDSDK_CONFIG', rel: '' },
      { name: 'XDG_CONFIG_HOME', rel: 'gcloud' },
    ],
  },
  { home: '.azure', what: 'Azure CLI tokens', env: [{ name: 'AZURE_CONFIG_DIR', rel: '' }] },
  {
    home: '.docker/config.json',
    what: 'Docker registry auth',
    env: [{ name: 'DOCKER_CONFIG', rel: 'config.json' }],
  },
  {
    home: '.kube/config',
    what: 'Kubernetes credentials',
    env: [{ name: 'KUBECONFIG', rel: '', list: true }],
  },
  { home: '.npmrc', what: 'npm tokens', env: [{ name: 'NPM_CONFIG_USERCONFIG', rel: '' }] },
  { home: '.pypirc', what: 'PyPI tokens' },
  { home: '.netrc', what: 'machine passwords', env: [{ name: 'NETRC', rel: '' }] },
  { home: '.git-credentials', what: 'git credential-store passwords' },
  {
    home: '.config/gh/hosts.yml',
    what: 'GitHub CLI tokens',
    env: [
      { name: 'GH_CONFIG_DIR', rel: 'hosts.yml' },
      { name: 'XDG_CONFIG_HOME', rel: 'gh/hosts.yml' },
    ],
  },
  { home: '.config/hub', what: 'hub tokens', env: [{ name: 'XDG_CONFIG_HOME', rel: 'hub' }] },
  { home: '.cargo/credentials', what: 'crates.io token', env: [{ name: 'CARGO_HOME', rel: 'credentials' }] },
  {
    home: '.cargo/credentials.toml',
    what: 'crates.io token',
    env: [{ name: 'CARGO_HOME', rel: 'credentials.toml' }],
  },
  { home: '.gem/credentials', what: 'RubyGems API key' },
  { home: '.terraform.d/credentials.tfrc.json', what: 'Terraform Cloud token' },
  { home: '.vault-token', what: 'HashiCorp Vault token' },
  { home: '.pgpass', what: 'PostgreSQL passwords', env: [{ name: 'PGPASSFILE', rel: '' }] },
  { home: '.my.cnf', what: 'MySQL client passwords' },
  {
    home: '.local/share/keyrings',
    what: 'GNOME keyrings',
    env: [{ name: 'XDG_DATA_HOME', rel: 'keyrings' }],
  },
  // Agent harness credential files and identity stores.
  { home: '.codex/auth.json', what: 'Codex CLI auth', env: [{ name: 'CODEX_HOME', rel: 'auth.json' }] },
  {
    home: '.claude/.credentials.json',
    what: 'Claude Code credentials',
    env: [{ name: 'CLAUDE_CONFIG_DIR', rel: '.credentials.json' }],
  },
  {
    home: '.local/share/opencode/auth.json',
    what: 'opencode auth',
    env: [{ name: 'XDG_DATA_HOME', rel: 'opencode/auth.json' }],
  },
  {
    home: '.config/goose/secrets.yaml',
    what: 'goose secrets',
    env: [{ name: 'XDG_CONFIG_HOME', rel: 'goose/secrets.yaml' }],
  },
  {
    home: '.pi/agent/auth.json',
    what: 'pi agent auth',
    env: [{ name: 'PI_CODING_AGENT_DIR', rel: 'auth.json' }],
  },
  { home: '.gemini/oauth_creds.json', what: 'Gemini CLI OAuth credentials' },
  {
    home: '.local/share/kiro-cli',
    what: 'Kiro CLI identity store',
    env: [{ name: 'XDG_DATA_HOME', rel: 'kiro-cli' }],
  },
  {
    home: '.local/share/amazon-q',
    what: 'Amazon Q identity store',
    env: [{ name: 'XDG_DATA_HOME', rel: 'amazon-q' }],
  },
  { home: 'Library/Application Support/kiro-cli', what: 'Kiro CLI identity store (macOS)' },
  { home: 'Library/Application Support/amazon-q', what: 'Amazon Q identity store (macOS)' },
  { home: 'AppData/Local/kiro-cli', what: 'Kiro CLI identity store (Windows)' },
  { home: 'AppData/Roaming/kiro-cli', what: 'Kiro CLI identity store (Windows)' },
];

/**
 * trawl's own data directories (tokens, audit log, config): `$TRAWL_HOME` when set, else the XDG data and config
 * homes' `trawl` folders. Every one is sensitive.
 */
export function trawlDataDirs(home: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const dirs: string[] = [];
  const trawlHome = env['TRAWL_HOME'];
  if (trawlHome) dirs.push(trawlHome);
  dirs.push(joinUnder(env['XDG_DATA_HOME'] || joinUnder(home, '.local/share'), 'trawl'));
  dirs.push(joinUnder(env['XDG_CONFIG_HOME'] || joinUnder(home, '.config'), 'trawl'));
  dirs.push(joinUnder(env['XDG_STATE_HOME'] || joinUnder(home, '.local/state'), 'trawl'));
  return dirs;
}

function joinUnder(base: string, rel: string): string {
  return rel ? `${base.replace(/\/+$/, '')}/${rel}` : base;
}
