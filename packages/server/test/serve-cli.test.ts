import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(__dirname, '../bin/trawl.js');
let tmp: string;
let home: string;
let proj: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-serve-cli-')));
  home = path.join(tmp, 'home');
  proj = path.join(home, 'proj');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'key');
  fs.mkdirSync(path.join(proj, 'src', 'appdata'), { recursive: true });
  fs.writeFileSync(path.join(proj, 'src', 'app.ts'), 'x');
  fs.writeFileSync(path.join(proj, 'readme.md'), 'x');
});

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env['PATH'] ?? '',
  HOME: home,
  ...extra,
});

/** Starts `trawl serve` and resolves with the first stdout line. */
function serve(args: string[], extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { cwd: proj, env: env(extraEnv) });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const firstLine = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** Resolves once stderr holds `re` (an event per chunk, no polling). */
  const stderrMatching = (re: RegExp) =>
    new Promise<void>((resolve) => {
      if (re.test(stderr)) return resolve();
      child.stderr!.on('data', () => {
        if (re.test(stderr)) resolve();
      });
    });
  return { child, firstLine, exited, stderr: () => stderr, stderrMatching };
}

function trawl(args: string[], extraEnv: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: proj,
    encoding: 'utf8',
    timeout: 30_000,
    env: env(extraEnv),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('trawl serve (a real child process)', () => {
  it('prints the URL with the token first, serves the API off its pools, and stops cleanly on SIGTERM', async () => {
    const dataDir = path.join(tmp, 'data1');
    const s = serve([proj, '--port', '0', '--no-open', '--data-dir', dataDir]);
    const url = await s.firstLine;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
    const origin = url.slice(0, url.indexOf('/#token='));
    const token = url.slice(url.indexOf('token=') + 6);
    const auth = { authorization: `Bearer ${token}` };

    const health = await fetch(`${origin}/api/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${origin}/api/projects`)).status).toBe(401);

    const fsearch = await fetch(`${origin}/api/file-search?q=app&project=${encodeURIComponent(proj)}`, {
      headers: auth,
    });
    const found = (await fsearch.json()) as { results: Array<{ name: string }>; root: string };
    expect(found.root).toBe(proj);
    expect(found.results.map((r) => r.name)).toEqual(expect.arrayContaining(['app.ts', 'appdata']));

    const pc = await fetch(`${origin}/api/path-complete?path=${encodeURIComponent(proj)}&dir=./src/`, {
      headers: auth,
    });
    expect(((await pc.json()) as { results: Array<{ name: string }> }).results.map((r) => r.name)).toEqual([
      'appdata',
      'app.ts',
    ]);

    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toMatch(/stopping/);
    const verify = trawl(['audit', 'verify', '--data-dir', dataDir]);
    expect(verify.code).toBe(0);
    // 401 on /api/projects, one file search, one listing (health is not audited)
    expect(verify.stdout).toMatch(/audit log ok: 3 record\(s\)/);
  });

  it('serves the current directory by default and takes TRAWL_TOKEN, TRAWL_PORT and TRAWL_DATA_DIR', async () => {
    const token = 'operator-chosen-token-0123456789';
    const dataDir = path.join(tmp, 'data2');
    const s = serve(['--no-open'], { TRAWL_TOKEN: token, TRAWL_PORT: '0', TRAWL_DATA_DIR: dataDir });
    const url = await s.firstLine;
    expect(url.endsWith(`/#token=${token}`)).toBe(true);
    const origin = url.slice(0, url.indexOf('/#token='));
    const r = await fetch(`${origin}/api/projects`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await r.json()) as { projects: Array<{ path: string }> }).projects.map((p) => p.path)).toEqual([
      proj,
    ]);
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'audit', 'audit.jsonl'))).toBe(true);
  });

  it('takes the token from --token-file, keeping it off every command line; --token works but warns', async () => {
    const token = 'token-from-a-file-0123456789abcdef';
    const file = path.join(tmp, 'token.txt');
    fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
    const s = serve([
      '--no-open',
      '--port',
      '0',
      '--token-file',
      file,
      '--data-dir',
      path.join(tmp, 'data-tf'),
    ]);
    const url = await s.firstLine;
    expect(url.endsWith(`/#token=${token}`)).toBe(true);
    const cmdline = fs.readFileSync(`/proc/${s.child.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain(token);
    expect(s.stderr()).not.toMatch(/--token puts the token on the command line/);
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);

    const t = serve(['--no-open', '--port', '0', '--token', token, '--data-dir', path.join(tmp, 'data-t')]);
    await t.firstLine;
    await t.stderrMatching(/--token puts the token on the command line, where any local account can read it/);
    t.child.kill('SIGINT');
    expect(await t.exited).toBe(0);
  });

  // One process per case: each is a whole Node start-up, and six in one test ran past its timeout under load.
  it.each([
    [() => [path.join(tmp, 'missing'), '--port', '0'], /^trawl: no such directory: /],
    [() => [path.join(proj, 'readme.md'), '--port', '0'], /^trawl: not a directory: /],
    [() => [path.join(home, '.ssh'), '--port', '0'], /^trawl: .* is a sensitive location/],
    [() => ['--port', 'abc'], /^trawl: --port expects a port number/],
    [() => ['--port', '70000'], /^trawl: --port expects a port number/],
    [() => ['--port', '0', '--token', 'short'], /^trawl: the access token must be at least 16/],
    [
      () => ['--port', '0', '--token-file', path.join(tmp, 'no-such-token')],
      /^trawl: --token-file: no such file: /,
    ],
    [
      () => ['--port', '0', '--token', 'a-token-long-enough-0123', '--token-file', path.join(tmp, 'x')],
      /^trawl: --token and --token-file name two tokens: give one/,
    ],
    [
      () => ['--port', '0', '--grep-deadline', '0'],
      /^trawl: --grep-deadline expects seconds from 0.1 to 30, got '0'/,
    ],
    [
      () => ['--port', '0', '--grep-deadline', '31'],
      /^trawl: --grep-deadline expects seconds from 0.1 to 30, got '31'/,
    ],
  ] as Array<[() => string[], RegExp]>)(
    'refuses a caller mistake (%#) with one line on stderr and exit 2',
    (args, msg) => {
      const r = trawl(['serve', '--no-open', '--data-dir', path.join(tmp, 'data3'), ...args()]);
      expect(r.code, args().join(' ')).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stdout).toBe('');
    },
  );

  // Fails without the fix: "trawl: internal error: EEXIST: file already exists, mkdir …".
  it('a data directory that cannot be one is a usage error, not an internal error', () => {
    const file = path.join(tmp, 'data-is-a-file');
    fs.writeFileSync(file, 'x');
    for (const dir of [file, path.join(file, 'below')]) {
      const r = trawl(['serve', proj, '--no-open', '--port', '0', '--data-dir', dir]);
      expect(r.code, dir).toBe(2);
      expect(r.stderr).toMatch(
        /^trawl: cannot use the data directory .*: a file is in the way of a directory\n$/,
      );
      expect(r.stdout).toBe('');
    }
  });

  it.runIf(process.platform !== 'win32')(
    'a data directory writable by others, or with a linked subdirectory, is refused with a coded line',
    () => {
      const open = path.join(tmp, 'data-open');
      fs.mkdirSync(open);
      fs.chmodSync(open, 0o777);
      const linked = path.join(tmp, 'data-linked');
      const elsewhere = path.join(tmp, 'elsewhere');
      fs.mkdirSync(linked, { mode: 0o700 });
      fs.mkdirSync(elsewhere, { mode: 0o700 });
      fs.symlinkSync(elsewhere, path.join(linked, 'conversations'));
      const indexLinked = path.join(tmp, 'data-index-linked');
      fs.mkdirSync(indexLinked, { mode: 0o700 });
      fs.symlinkSync(elsewhere, path.join(indexLinked, 'content-index'));
      const cases: Array<[string[], RegExp]> = [
        [
          ['serve', proj, '--no-open', '--port', '0', '--data-dir', open],
          /writable by other accounts .*\(data_dir_mode\)/,
        ],
        [
          ['serve', proj, '--no-open', '--port', '0', '--data-dir', linked],
          /conversations is a symbolic link.*\(data_dir_link\)/,
        ],
        [
          ['serve', proj, '--no-open', '--port', '0', '--data-dir', indexLinked],
          /content-index is a symbolic link.*\(data_dir_link\)/,
        ],
        [['index', proj, '--data-dir', open], /\(data_dir_mode\)/],
        [['index', proj, '--status', '--data-dir', indexLinked], /\(data_dir_link\)/],
        [['mcp', '--root', proj, '--data-dir', open], /\(data_dir_mode\)/],
      ];
      for (const [args, line] of cases) {
        const r = trawl(args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr, args.join(' ')).toMatch(/^trawl: cannot use the data directory: [^\n]*\n$/);
        expect(r.stderr, args.join(' ')).toMatch(line);
        expect(r.stdout).toBe('');
      }
      // Nothing was written through the links, and the open directory's mode is left as it was.
      expect(fs.readdirSync(elsewhere)).toEqual([]);
      expect(fs.statSync(open).mode & 0o777).toBe(0o777);
    },
  );

  it('a port in use is a usage error, not a crash', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = trawl(['serve', '--no-open', '--port', String(port), '--data-dir', path.join(tmp, 'data4')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/port \d+ is in use; try --port 0/);
    } finally {
      blocker.close();
    }
  });

  it('`trawl --version` does not load the server (hono, the pools): they load only when serve runs', () => {
    const hooks = path.join(tmp, 'hooks.mjs');
    const log = path.join(tmp, 'resolved.log');
    fs.writeFileSync(
      hooks,
      `import { appendFileSync } from 'node:fs';\nexport async function resolve(spec, ctx, next) {\n  const r = await next(spec, ctx);\n  appendFileSync(${JSON.stringify(log)}, r.url + '\\n');\n  return r;\n}\n`,
    );
    const register = path.join(tmp, 'register.mjs');
    fs.writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`,
    );
    const r = spawnSync(process.execPath, ['--import', register, BIN, '--version'], {
      encoding: 'utf8',
      env: env(),
    });
    expect(r.status).toBe(0);
    const loaded = fs.readFileSync(log, 'utf8');
    expect(loaded).toContain('/dist/cli/main.js');
    expect(loaded).not.toMatch(/\/hono\/|@hono|\/dist\/http\//);
  });
});

describe('trawl complete', () => {
  it('prints completed tokens, directories with a slash', () => {
    const r = trawl(['complete', './src/ap']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('./src/appdata/\n./src/app.ts\n');
  });

  it('--json prints the /api/path-complete body', () => {
    const r = trawl(['complete', './', '--json', '--root', proj]);
    expect(JSON.parse(r.stdout)).toEqual({
      results: [
        expect.objectContaining({ name: 'src', kind: 'dir', path: path.join(proj, 'src') }),
        expect.objectContaining({ name: 'readme.md', kind: 'file' }),
      ],
      root: proj,
    });
  });

  it('a token leading outside the root lists nothing, says so, and exits 0', () => {
    const r = trawl(['complete', '../', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ results: [], root: '', outside: true });
    const plain = trawl(['complete', '../../']);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(/leads outside/);
    expect(plain.code).toBe(0);
  });

  it('never offers or enters a link', () => {
    fs.symlinkSync(path.join(home, '.ssh'), path.join(proj, 'keys'));
    try {
      expect(trawl(['complete', './']).stdout).not.toContain('keys');
      const r = trawl(['complete', './keys/']);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/not a real directory/);
    } finally {
      fs.unlinkSync(path.join(proj, 'keys'));
    }
  });

  it('a sensitive root is refused with exit 2', () => {
    const r = trawl(['complete', './', '--root', path.join(home, '.ssh')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^trawl: access denied/);
  });
});

describe('one root policy on every command that takes a root', () => {
  const sshLink = () => path.join(tmp, 'ssh-via-link');
  beforeAll(() => fs.symlinkSync(path.join(home, '.ssh'), sshLink()));

  const commands: Array<[string, (root: string) => string[]]> = [
    ['find', (root) => ['find', 'id_rsa', '--root', root]],
    ['complete', (root) => ['complete', './', '--root', root]],
    ['mcp', (root) => ['mcp', '--root', root]],
    ['serve', (root) => ['serve', root, '--port', '0', '--no-open']],
  ];
  const spellings: Array<[string, () => string]> = [
    ['named directly', () => path.join(home, '.ssh')],
    ['with ~', () => '~/.ssh'],
    ['through a link', sshLink],
    ['below it, missing', () => path.join(home, '.ssh', 'missing')],
  ];
  // One process per test (a Node start-up each): sixteen in four tests ran past their timeouts under load.
  it.each(commands.flatMap(([cmd, argv]) => spellings.map(([how, root]) => [cmd, how, argv, root] as const)))(
    '🔒 %s refuses a store %s, in one line with exit 2',
    (_cmd, _how, argv, root) => {
      const r = trawl(argv(root()));
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^trawl: .*(access denied|sensitive location).*\n$/);
      expect(r.stderr.split('\n')).toHaveLength(2);
    },
  );

  it('mcp refuses a root that is not a directory', () => {
    const r = trawl(['mcp', '--root', path.join(proj, 'readme.md')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`trawl: --root: not a directory: ${path.join(proj, 'readme.md')}\n`);
  });
});
