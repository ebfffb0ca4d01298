#!/usr/bin/env node
// The install a user does, end to end: pack the three packages as `npm publish` would, install the tarballs into an
// empty directory with no workspace around it (third-party dependencies from the registry), with no ripgrep on PATH,
// then run what the README tells people to run through `npx`. One line per check; exit 1 when any fails.
//
//   npm run smoke                    pack, install, check (a few minutes: the packing builds)
//   npm run smoke -- --keep          keep the scratch directory and say where it is
//
// .ci/run runs it as one check.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const repo = path.resolve(import.meta.dirname, '..');
const keep = process.argv.includes('--keep');
/** The install-size target of issue 26 (README "Install"): a fresh install's `du`, in MiB. */
const MAX_INSTALL_MIB = 40;
const WORKSPACES = ['packages/core', 'packages/server', 'packages/web'];

const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-smoke-')));
const results = [];
const children = new Set();

function check(name, ok, detail = '') {
  results.push({ name, ok });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
}

async function step(name, fn, { required = false } = {}) {
  try {
    const detail = await fn();
    check(name, true, typeof detail === 'string' ? detail : '');
  } catch (err) {
    const message =
      err instanceof Error
        ? `${err.message}${err.stderr ? `\n${String(err.stderr).slice(-2000)}` : ''}`
        : String(err);
    check(name, false, message);
    if (required) finish(); // everything after needs this step
  }
}

function finish() {
  for (const child of children) child.kill('SIGKILL');
  if (keep) console.log(`kept ${scratch}`);
  else fs.rmSync(scratch, { recursive: true, force: true });
  const failed = results.filter((r) => !r.ok).length;
  console.log(
    failed === 0
      ? `smoke: all ${results.length} checks passed`
      : `smoke: ${failed} of ${results.length} checks failed`,
  );
  process.exit(failed === 0 ? 0 : 1);
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** A directory on PATH holding node, npm and npx only: no system ripgrep can be found through it. */
function binWithoutRg() {
  const bin = path.join(scratch, 'bin');
  fs.mkdirSync(bin);
  const npmCli = fs.realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  const npmBin = path.dirname(npmCli);
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  fs.symlinkSync(path.join(npmBin, 'npm-cli.js'), path.join(bin, 'npm'));
  fs.symlinkSync(path.join(npmBin, 'npx-cli.js'), path.join(bin, 'npx'));
  fs.symlinkSync('/bin/sh', path.join(bin, 'sh')); // npm runs a package's bin through sh
  return bin;
}

const bin = binWithoutRg();
const app = path.join(scratch, 'app');
const tarballs = path.join(scratch, 'tarballs');
const project = path.join(scratch, 'project');
const env = {
  PATH: bin,
  HOME: path.join(scratch, 'home'),
  TRAWL_DATA_DIR: path.join(scratch, 'data'),
  npm_config_cache: process.env['npm_config_cache'] ?? path.join(os.homedir(), '.npm'),
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  CI: 'true',
};
fs.mkdirSync(env.HOME);
fs.mkdirSync(app);
fs.mkdirSync(tarballs);
fs.mkdirSync(path.join(project, 'src'), { recursive: true });
fs.writeFileSync(path.join(project, 'src', 'alpha.ts'), 'export const needle = "smoke-needle";\n');
fs.writeFileSync(path.join(project, 'README.md'), '# a project\n\nNothing to find here.\n');
// A real PDF (the test suite's generator): text extraction must work from the install, without a canvas renderer.
execFileSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    `import * as fs from 'node:fs'; import { pdf } from ${JSON.stringify(path.join(repo, 'packages/core/test/fixtures/office-docs.ts'))};
     fs.writeFileSync(process.argv[1], pdf(['the first page', 'a pdf-needle on page two']));`,
    path.join(project, 'report.pdf'),
  ],
  { cwd: repo, stdio: 'inherit' },
);

function run(cmd, args, options = {}) {
  return execFileSync(cmd, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

const version = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).version;

await step(
  'npm pack of the three packages (prepack builds what is packed)',
  () => {
    const out = execFileSync(
      'npm',
      ['pack', '--json', '--pack-destination', tarballs, ...WORKSPACES.flatMap((w) => ['-w', w])],
      { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 },
    );
    // Lifecycle scripts (the builds) may print before the JSON array.
    const packs = JSON.parse(out.slice(out.search(/^\[/m)));
    assert(packs.length === 3, `expected 3 tarballs, got ${packs.length}`);
    const stray = packs.flatMap((p) =>
      p.files
        .map((f) => f.path)
        .filter((f) =>
          /\.map$|(^|\/)(test|tests|fixtures?|__tests__)\/|\.test\.[cm]?[jt]sx?$|(^|\/)src\//.test(f),
        )
        .map((f) => `${p.name}:${f}`),
    );
    assert(stray.length === 0, `packed what must not ship: ${stray.slice(0, 5).join(', ')}`);
    return packs.map((p) => `${p.filename} ${(p.unpackedSize / 1024 / 1024).toFixed(1)} MiB`).join(', ');
  },
  { required: true },
);

await step(
  'the tarballs install into an empty directory outside any workspace',
  () => {
    fs.writeFileSync(
      path.join(app, 'package.json'),
      `${JSON.stringify({ name: 'trawl-smoke-app', private: true }, null, 2)}\n`,
    );
    const files = fs.readdirSync(tarballs).map((f) => path.join(tarballs, f));
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...files], {
      cwd: app,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    for (const name of ['trawl', '@trawl/core', '@trawl/web']) {
      const pkg = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', name, 'package.json'), 'utf8'));
      assert(pkg.version === version, `${name} is ${pkg.version}, not ${version}`);
    }
    // Each trawl package is the tarball's: none came from the registry under the same name.
    const nested = ['trawl/node_modules/@trawl'].filter((p) =>
      fs.existsSync(path.join(app, 'node_modules', p)),
    );
    assert(nested.length === 0, `a second copy of @trawl/* was installed: ${nested.join(', ')}`);
    assert(
      !fs.existsSync(path.join(app, 'node_modules', '@napi-rs', 'canvas')),
      '@napi-rs/canvas was installed (trawl only extracts PDF text)',
    );
  },
  { required: true },
);

await step("a client's tsc reads trawl/wire from the install (types of the HTTP API, not any)", () => {
  const dir = path.join(app, 'wire-client');
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, 'client.mts'),
    `import type { Conversation, FileGrepResponse, FileSearchResponse, NameResult } from 'trawl/wire';
const grep: FileGrepResponse = { results: [{ file: 'a.ts', line: 1, preview: 'x' }], truncated: false, engine: 'rg', skipped_docs: 0, root: '/p' };
const row: NameResult = { path: '/p/a.ts', name: 'a.ts', kind: 'file', size: 1, mtime: 0 };
const found: FileSearchResponse = { results: [{ ...row, positions: [0] }] };
// @ts-expect-error the engine is 'rg' | 'js' | '': the types resolved to the server's, not to any
const wrong: FileGrepResponse = { ...grep, engine: 'python' };
export const used: [Conversation | null, FileSearchResponse, FileGrepResponse] = [null, found, wrong];
`,
  );
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
      files: ['client.mts'],
    }),
  );
  // The repository's compiler: the install has none, and a client brings its own.
  run(process.execPath, [path.join(repo, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir });
});

await step(`a fresh install is at most ${MAX_INSTALL_MIB} MiB (du)`, () => {
  const kib = Number(run('du', ['-sk', path.join(app, 'node_modules')], { env: process.env }).split(/\s/)[0]);
  const mib = kib / 1024;
  assert(mib <= MAX_INSTALL_MIB, `${mib.toFixed(1)} MiB`);
  return `${mib.toFixed(1)} MiB`;
});

await step('no ripgrep on the smoke run PATH', () => {
  let found = true;
  try {
    run('sh', ['-c', 'command -v rg'], { cwd: app });
  } catch {
    found = false;
  }
  assert(!found, 'rg is reachable on PATH');
});

await step('npx trawl --version', () => {
  const out = run('npx', ['--no-install', 'trawl', '--version'], { cwd: app }).trim();
  assert(out === version, `printed '${out}', not '${version}'`);
  return out;
});

await step('npx trawl mcp --version', () => {
  const out = run('npx', ['--no-install', 'trawl', 'mcp', '--version'], { cwd: app }).trim();
  assert(out === version, `printed '${out}', not '${version}'`);
  return out;
});

/** Starts `npx ARGS` in the app directory; its stdout lines come through `lines`. */
function start(args) {
  const child = spawn('npx', ['--no-install', ...args], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  child.on('exit', () => children.delete(child));
  return { child, stderr: () => stderr };
}

function firstLine(stream, ms) {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`no line within ${ms / 1000} s`)), ms);
    stream.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(buf.slice(0, nl));
      }
    });
  });
}

function exited(child, ms) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function refused(url) {
  try {
    await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return false;
  } catch {
    return true;
  }
}

await step(
  'npx trawl serve DIR --port 0: / is the workbench, its script loads, the token opens the API',
  async () => {
    const serve = start(['trawl', 'serve', project, '--port', '0', '--no-open']);
    try {
      const printed = await firstLine(serve.child.stdout, 120_000).catch((e) => {
        throw new Error(`${e.message}: ${serve.stderr().slice(-400)}`);
      });
      const url = new URL(printed);
      const token = new URLSearchParams(url.hash.slice(1)).get('token');
      assert(token, `no token in '${printed}'`);
      const origin = url.origin;
      const page = await (await fetch(`${origin}/`)).text();
      assert(!/has not been built/.test(page), '/ is the placeholder: the workbench is not in the package');
      const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
      assert(script, '/ names no module script');
      const js = await fetch(`${origin}${script}`);
      assert(js.ok && /javascript/.test(js.headers.get('content-type') ?? ''), `${script}: ${js.status}`);
      assert((await js.text()).length > 10_000, `${script} is too short to be the workbench`);
      const health = await fetch(`${origin}/api/health`, { headers: { authorization: `Bearer ${token}` } });
      assert(health.ok && (await health.json()).status === 'ok', `/api/health: ${health.status}`);
      const projects = await fetch(`${origin}/api/projects`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert(projects.ok, `/api/projects with the printed token: ${projects.status}`);
      // A content search runs on the server's worker pool: the bundle's worker entry must load.
      const grep = await fetch(`${origin}/api/file-grep`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ root: project, q: 'smoke-needle' }),
      });
      const hits = grep.ok ? (await grep.json()).results : [];
      assert(
        hits.some((h) => h.file === 'src/alpha.ts'),
        `/api/file-grep: ${grep.status} ${JSON.stringify(hits)}`,
      );
      const without = await fetch(`${origin}/api/projects`);
      assert(without.status === 401, `/api/projects without the token: ${without.status}`);

      // SIGTERM to npx ends the server it started: nothing is left serving on the port.
      serve.child.kill('SIGTERM');
      assert(await exited(serve.child, 20_000), 'npx did not exit within 20 s of SIGTERM');
      let gone = false;
      for (let i = 0; i < 40 && !gone; i++) {
        gone = await refused(`${origin}/api/health`);
        if (!gone) await new Promise((r) => setTimeout(r, 250));
      }
      assert(gone, `SIGTERM to npx left a server answering on ${origin}`);
      return `${origin}, ${script}`;
    } finally {
      serve.child.kill('SIGKILL');
    }
  },
);

await step(
  'npx trawl mcp --root DIR: initialize, tools/list, one search over stdio (MCP SDK client)',
  async () => {
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--no-install', 'trawl', 'mcp', '--root', project],
      cwd: app,
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'trawl-smoke', version });
    try {
      await client.connect(transport, { timeout: 120_000 });
      const server = client.getServerVersion();
      assert(server?.version === version, `initialize: server version ${server?.version}`);
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      for (const want of ['find_files', 'grep_files', 'list_dir', 'search']) {
        assert(tools.includes(want), `tools/list has no ${want}: ${tools.join(', ')}`);
      }
      const result = await client.callTool({
        name: 'search',
        arguments: { pattern: 'smoke-needle', paths: ['src'] },
      });
      const text = result.content.map((c) => c.text ?? '').join('\n');
      assert(!result.isError && /alpha\.ts/.test(text), `search answered: ${text.slice(0, 300)}`);
      return `${server.name} ${server.version}; tools: ${tools.join(', ')}`;
    } finally {
      await client.close();
    }
  },
);

/** VS Code's variable for the open folder, as its entry spells it. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's own placeholder, not a template
const WORKSPACE_FOLDER = '${workspaceFolder}';

/**
 * The MCP client entries of the README ("MCP in your agent"), each as the command and arguments a client would run:
 * the fenced block after each `<!-- mcp:NAME -->` marker, read as that client reads it.
 */
function readmeMcpEntries() {
  const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
  const entries = [];
  for (const m of readme.matchAll(/<!-- mcp:(\w+) -->\n```\w*\n([\s\S]*?)\n```/g)) {
    const [, name, body] = m;
    let command;
    let args;
    if (name === 'claude') {
      // claude mcp add NAME -- COMMAND ARGS…
      const words = body.trim().split(/\s+/);
      [command, ...args] = words.slice(words.indexOf('--') + 1);
    } else if (name === 'codex') {
      command = JSON.parse(body.match(/^command = (.*)$/m)[1]);
      args = JSON.parse(body.match(/^args = (.*)$/m)[1]);
    } else {
      const json = JSON.parse(body);
      const server = (json.mcpServers ?? json.servers).trawl;
      ({ command, args } = server);
    }
    entries.push({ name, command, args });
  }
  return entries;
}

await step(
  'each MCP client entry of the README starts the server (npx -y trawl mcp, MCP SDK client)',
  async () => {
    const entries = readmeMcpEntries();
    assert(
      ['claude', 'cursor', 'vscode', 'codex'].every((n) => entries.some((e) => e.name === n)),
      `README entries found: ${entries.map((e) => e.name).join(', ')}`,
    );
    // The client starts the server in the project (Claude Code and Codex: where they were started). This project sits
    // inside the install's directory, so `npx -y trawl` finds the packed trawl there and never asks the registry.
    const workspace = path.join(app, 'workspace');
    fs.cpSync(project, workspace, { recursive: true });
    for (const e of entries) {
      const transport = new StdioClientTransport({
        command: e.command,
        args: e.args.map((a) => a.replace(WORKSPACE_FOLDER, workspace)),
        cwd: workspace,
        env: { ...env, npm_config_offline: 'true' }, // were it to look, npm could not fetch another "trawl"
        stderr: 'pipe',
      });
      const client = new Client({ name: `trawl-smoke-${e.name}`, version });
      try {
        await client.connect(transport, { timeout: 120_000 });
        const tools = (await client.listTools()).tools.map((t) => t.name).sort();
        assert(tools.length === 5, `${e.name}: tools/list answered ${tools.join(', ')}`);
        const result = await client.callTool({
          name: 'search',
          arguments: { pattern: 'smoke-needle', paths: ['src'] },
        });
        const text = result.content.map((c) => c.text ?? '').join('\n');
        assert(!result.isError && /alpha\.ts/.test(text), `${e.name}: search answered ${text.slice(0, 200)}`);
      } finally {
        await client.close();
      }
    }
    return entries.map((e) => `${e.name}: ${e.command} ${e.args.join(' ')}`).join('; ');
  },
);

await step('npx trawl rg finds a match', () => {
  const out = run('npx', ['--no-install', 'trawl', 'rg', '-n', 'smoke-needle', project], { cwd: app });
  assert(/alpha\.ts/.test(out) && /1:export const needle/.test(out), `printed: ${out.slice(0, 300)}`);
});

await step('npx trawl grep reads a PDF (pdf.js without @napi-rs/canvas)', () => {
  // The extraction is checked, not the 2 s default budget: on a loaded machine the PDF child starts later than that.
  const out = run(
    'npx',
    ['--no-install', 'trawl', 'grep', 'pdf-needle', '--root', project, '--deadline', '120'],
    { cwd: app },
  );
  assert(/report\.pdf/.test(out), `printed: ${out.slice(0, 300)}`);
  return out.trim().split('\n')[0];
});

await step('npm pack is reproducible: packing again gives the same bytes', () => {
  const again = path.join(scratch, 'again');
  fs.mkdirSync(again);
  execFileSync('npm', ['pack', '--pack-destination', again, ...WORKSPACES.flatMap((w) => ['-w', w])], {
    cwd: repo,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const differ = fs
    .readdirSync(tarballs)
    .filter((f) => !fs.readFileSync(path.join(tarballs, f)).equals(fs.readFileSync(path.join(again, f))));
  assert(differ.length === 0, `differ: ${differ.join(', ')}`);
});

finish();
