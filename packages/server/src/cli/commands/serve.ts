import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveAgentCommand } from '../../conversations/agent-command.js';
import { splitShellWords } from '../../conversations/shell-words.js';
import type { JudgedProject } from '../../http/server.js';
import { UsageError, write } from '../io.js';
import { untilStopped } from '../lifetime.js';
import { MAX_GREP_DEADLINE_S, MIN_GREP_DEADLINE_S } from '../limits.js';
import type { RegisterCommand } from '../program.js';
import { cliHome, cliRoot } from '../root.js';

interface ServeFlags {
  port?: string;
  host?: string;
  token?: string;
  tokenFile?: string;
  dataDir?: string;
  allowHost?: string[];
  open: boolean;
  index: boolean;
  agent?: string;
  grepDeadline?: number;
}

type IO = Parameters<RegisterCommand>[1];

/**
 * `trawl serve [DIR…]`: the web workbench and its HTTP API. The first line on stdout is
 * the URL with the access token. Heavy modules (hono, the worker pools) load only when this command runs.
 */
export const registerServe: RegisterCommand = (program, io, setExit) => {
  program
    .command('serve')
    .description('Serve the web workbench and its API for known projects. Prints the URL.')
    .argument('[dirs...]', 'known projects (default: the current directory)')
    .option('--port <n>', 'port to bind; 0 takes any free port (env TRAWL_PORT; default 7777)')
    .option('--host <addr>', 'address to bind (default 127.0.0.1: loopback only)')
    .option(
      '--token <token>',
      'access token; on the command line any local account can read it (ps): prefer TRAWL_TOKEN or --token-file (default: a random one per run)',
    )
    .option(
      '--token-file <path>',
      'read the access token from this file (its first line), kept off the command line',
    )
    .option(
      '--data-dir <dir>',
      'audit log, key and recent projects (env TRAWL_DATA_DIR; default ~/.local/share/trawl)',
    )
    .option('--allow-host <name...>', 'extra Host names to accept (a reverse proxy in front of trawl)')
    .option(
      '--agent <cmd>',
      'run CMD for each message sent in the workbench: JSON on stdin, its stdout is the reply (split into words, no shell)',
    )
    .option(
      '--grep-deadline <seconds>',
      'time a content search (/api/file-grep) may take before it answers with what it found, marked partial (default 2)',
      parseGrepDeadline,
    )
    .option('--no-open', 'do not open a browser')
    .option(
      '--no-index',
      'do not build the name and content indexes of the projects (every search walks and reads)',
    )
    .action(async (dirs: string[], flags: ServeFlags) => {
      setExit(await runServe(dirs, flags, io));
    });
};

/** Bytes a token file may hold: a token is one short line; anything bigger is the wrong file. */
const TOKEN_FILE_MAX_BYTES = 4096;

/**
 * The access token in `file`: its first line, without surrounding white space. A regular file, small; refused with
 * one line otherwise (never a stack trace), so a typo cannot start a server with an empty or wrong token.
 */
function readTokenFile(file: string): string {
  let text: string;
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) throw new UsageError(`--token-file: not a regular file: ${file}`);
      if (st.size > TOKEN_FILE_MAX_BYTES)
        throw new UsageError(`--token-file: ${file} holds ${st.size} bytes; a token file holds one line`);
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `--token-file: no such file: ${file}`
        : code === 'ELOOP'
          ? `--token-file: ${file} is a symbolic link; name the file itself`
          : `--token-file: cannot read ${file} (${code ?? 'error'})`,
    );
  }
  const line = text.split(/\r?\n/, 1)[0]!.trim();
  if (line === '') throw new UsageError(`--token-file: ${file} is empty`);
  return line;
}

function parseGrepDeadline(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < MIN_GREP_DEADLINE_S || n > MAX_GREP_DEADLINE_S) {
    throw new UsageError(
      `--grep-deadline expects seconds from ${MIN_GREP_DEADLINE_S} to ${MAX_GREP_DEADLINE_S}, got '${raw}'`,
    );
  }
  return n;
}

function parsePort(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,5}$/.test(raw.trim()) || Number(raw) > 65535) {
    throw new UsageError(`--port expects a port number 0-65535, got '${raw}'`);
  }
  return Number(raw);
}

async function runServe(dirs: string[], flags: ServeFlags, io: IO): Promise<number> {
  const env = io.env;
  const home = cliHome(io);
  const [
    { startServer },
    { defaultDataDir, DataDirError },
    { SensitiveFence, expandHome },
    { validateAccessToken },
    { AuditKeyError },
  ] = await Promise.all([
    import('../../http/server.js'),
    import('../../http/data-dir.js'),
    import('@trawl/core/fence'),
    import('../../http/access.js'),
    import('../../audit/key.js'),
  ]);

  const dataDir = flags.dataDir
    ? path.resolve(io.cwd, expandHome(flags.dataDir, home))
    : defaultDataDir(env, home);
  // The server's table (its data directory fenced too), so what is judged here need not be judged again.
  const fence = new SensitiveFence({ home, env, extra: [dataDir] });
  // Judged once, here: the server indexes each at the root it was judged to, and keeps the operator's spelling.
  const projects: JudgedProject[] = [];
  for (const d of dirs.length > 0 ? dirs : ['.']) {
    const judged = await cliRoot(d, io, { fence });
    if (!projects.some((p) => p.lexical === judged.lexical)) projects.push(judged);
  }
  const port = parsePort(flags.port ?? env['TRAWL_PORT']);
  if (flags.token !== undefined && flags.tokenFile !== undefined)
    throw new UsageError('--token and --token-file name two tokens: give one');
  const token =
    flags.token ??
    (flags.tokenFile !== undefined
      ? readTokenFile(path.resolve(io.cwd, expandHome(flags.tokenFile, home)))
      : undefined) ??
    env['TRAWL_TOKEN'] ??
    undefined;
  if (token !== undefined) {
    const bad = validateAccessToken(token);
    if (bad) throw new UsageError(bad);
  }
  if (flags.token !== undefined)
    await write(
      io.stderr,
      'trawl serve: --token puts the token on the command line, where any local account can read it (ps); use TRAWL_TOKEN or --token-file\n',
    );
  let agent: string[] | undefined;
  if (flags.agent !== undefined) {
    const split = splitShellWords(flags.agent);
    if ('error' in split) throw new UsageError(split.error);
    const resolved = resolveAgentCommand(split.argv, io.cwd, env);
    if ('error' in resolved) throw new UsageError(resolved.error);
    agent = resolved.argv;
  }
  const log = (line: string) => io.stderr.write(`${line}\n`);

  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      projects,
      dataDir,
      home,
      env,
      log,
      index: flags.index,
      ...(agent ? { agent } : {}),
      ...(flags.grepDeadline !== undefined ? { grepBudgetMs: Math.round(flags.grepDeadline * 1000) } : {}),
      ...(port !== undefined ? { port } : {}),
      ...(flags.host ? { host: flags.host } : {}),
      ...(token ? { token } : {}),
      ...(flags.allowHost ? { allowHosts: flags.allowHost } : {}),
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new UsageError(`port ${port ?? 7777} is in use; try --port 0`);
    if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND')
      throw new UsageError(`cannot bind ${flags.host}`);
    if (e.code === 'EACCES') throw new UsageError(`not allowed to bind port ${port}`);
    if (err instanceof AuditKeyError) throw new UsageError(err.message);
    if (err instanceof DataDirError) throw new UsageError(err.message, err.code);
    throw err;
  }

  // Signals are ours from before the URL is printed: whoever reads it may stop the server at once, and it must end
  // cleanly (server closed, audit flushed), not by the signal's default.
  const lifetime = untilStopped();
  await write(io.stdout, `${server.url}\n`);
  log(`trawl serve: ${projects.length} project(s): ${projects.map((p) => p.lexical).join(', ')}`);
  log(
    agent
      ? `trawl serve: agent (runs in the project): ${agent.join(' ')}`
      : 'trawl serve: no --agent: replies preview what an agent would receive',
  );
  log(`trawl serve: audit log in ${path.join(dataDir, 'audit')}; Ctrl-C stops`);
  const host = flags.host ?? '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
    log(
      `trawl serve: bound to ${host}, not loopback: anyone who can reach it and holds the token can search this host`,
    );
  }
  let opened: string | undefined;
  if (flags.open && io.stdout.isTTY && !env['CI'])
    opened = openBrowser(server.url, dataDir, server.port, log);

  const reason = await lifetime.stopped;
  log(`trawl serve: stopping (${reason})`);
  if (opened) fs.rmSync(opened, { force: true });
  await server.close();
  return 0;
}

/**
 * Opens the browser on the token URL WITHOUT putting the token in a child's argv (which other local accounts can
 * read from the process table): a 0600 redirect page in the data directory is opened instead.
 */
function openBrowser(
  url: string,
  dataDir: string,
  port: number,
  log: (line: string) => void,
): string | undefined {
  try {
    const dir = path.join(dataDir, 'run');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `open-${port}.html`);
    const json = JSON.stringify(url).replace(/</g, '\\u003c');
    fs.writeFileSync(
      file,
      `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>trawl</title>` +
        `<script>location.replace(${json})</script>`,
      { mode: 0o600 },
    );
    const target = pathToFileURL(file).href;
    const [cmd, args] =
      process.platform === 'darwin'
        ? ['open', [target]]
        : process.platform === 'win32'
          ? ['cmd', ['/c', 'start', '""', target]]
          : ['xdg-open', [target]];
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => log('trawl serve: could not open a browser; open the URL above'));
    child.unref();
    return file;
  } catch {
    log('trawl serve: could not open a browser; open the URL above');
    return undefined;
  }
}
