import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The operator's `--agent` command, made to mean what the operator saw when they typed it. The agent runs in the
 * project it answers for (its working directory is the project), so a relative path in the command — the
 * program, or a script handed to an interpreter (`node examples/agent.mjs`) — would otherwise be found in the
 * project: a project that ships that file would run its own code as the agent. Here every path-like word is
 * resolved where `trawl serve` was started, and the program is found on PATH once, at start; serve prints what
 * will run.
 */

/** The command with the program and every path-like word absolute, or why it cannot run. */
export type ResolvedAgentCommand = { argv: string[] } | { error: string };

/**
 * Resolves `argv` (the operator's words) against `startDir`: the program by `PATH` (absolute entries only: an empty
 * or relative entry would mean the project) unless it names a path; any later word holding a path separator, not
 * an option, must be a file or directory in `startDir`, else the command is refused (it would be looked up in the
 * project); a bare word naming a file in `startDir` is made absolute too.
 */
export function resolveAgentCommand(
  argv: readonly string[],
  startDir: string,
  env: NodeJS.ProcessEnv,
): ResolvedAgentCommand {
  const [program, ...args] = argv;
  if (program === undefined || program === '') return { error: '--agent: no command given' };
  const exe = resolveProgram(program, startDir, env);
  if (exe === undefined)
    return {
      error: program.includes(path.sep)
        ? `--agent: ${program} is not an executable file in ${startDir} (where trawl serve started)`
        : `--agent: ${program} is not on PATH`,
    };
  const out = [exe];
  for (const word of args) {
    if (word.startsWith('-') || path.isAbsolute(word) || /^[a-z][a-z0-9+.-]*:\/\//i.test(word)) {
      out.push(word);
      continue;
    }
    const abs = path.resolve(startDir, word);
    if (word.includes('/') || word.includes(path.sep)) {
      if (!fs.existsSync(abs))
        return {
          error: `--agent: ${word} is not in ${startDir} (where trawl serve started); the agent runs in the project, so give the path from here or an absolute one`,
        };
      out.push(abs);
    } else {
      out.push(isFile(abs) ? abs : word);
    }
  }
  return { argv: out };
}

function resolveProgram(program: string, startDir: string, env: NodeJS.ProcessEnv): string | undefined {
  if (program.includes('/') || program.includes(path.sep)) {
    const abs = path.resolve(startDir, program);
    return isExecutable(abs) ? abs : undefined;
  }
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const abs = path.join(dir, program);
    if (isExecutable(abs)) return abs;
  }
  return undefined;
}

function isFile(abs: string): boolean {
  try {
    return fs.statSync(abs).isFile();
  } catch {
    return false;
  }
}

function isExecutable(abs: string): boolean {
  try {
    if (!fs.statSync(abs).isFile()) return false;
    fs.accessSync(abs, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
