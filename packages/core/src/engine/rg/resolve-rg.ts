import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { isWithin } from '../../util/fs-safety.js';
import { corePackageDir } from '../../util/package-files.js';

export type RgSource = 'configured' | 'bundled' | 'path';

export interface VettedRg {
  path: string;
  source: RgSource;
}

export interface RgResolution {
  rg: VettedRg | null;
  /** Why each candidate was passed over, in order; said in the summary when the js engine runs instead. */
  rejected: string[];
}

/**
 * Finds a ripgrep binary we are willing to run: the configured path, then the one `@vscode/ripgrep` ships
 * in its platform package, then `rg` on PATH. A candidate must resolve to an absolute, regular, executable
 * file that is not world-writable (nor is its directory) and does not lie inside a tree being searched
 * (a searched tree may be written by whoever wrote the files we are asked to read).
 */
export function resolveRipgrep(options: {
  configured?: string;
  searchRoots: string[];
  env?: NodeJS.ProcessEnv;
}): RgResolution {
  const rejected: string[] = [];
  const roots = options.searchRoots.map(realOrSelf);
  const consider = (candidate: string | null, source: RgSource): VettedRg | null => {
    if (!candidate) return null;
    const problem = vet(candidate, roots);
    if (problem) {
      rejected.push(`${source} rg ${candidate}: ${problem}`);
      return null;
    }
    return { path: fs.realpathSync(candidate), source };
  };
  if (options.configured !== undefined) {
    const rg = consider(options.configured, 'configured');
    // An explicit choice that fails is not silently replaced by another binary.
    return { rg, rejected };
  }
  const rg =
    consider(bundledRgPath(), 'bundled') ?? consider(findOnPath('rg', options.env ?? process.env), 'path');
  return { rg, rejected };
}

function vet(candidate: string, roots: string[]): string | null {
  if (!path.isAbsolute(candidate)) return 'not an absolute path';
  let real: string;
  let st: fs.Stats;
  try {
    real = fs.realpathSync(candidate);
    st = fs.statSync(real);
  } catch {
    return 'does not exist';
  }
  if (!st.isFile()) return 'not a regular file';
  try {
    fs.accessSync(real, fs.constants.X_OK);
  } catch {
    return 'not executable';
  }
  if (st.mode & 0o002) return 'world-writable';
  try {
    const dir = fs.statSync(path.dirname(real));
    if (dir.mode & 0o002 && !(dir.mode & 0o1000)) return 'in a world-writable directory';
  } catch {
    return 'directory not readable';
  }
  for (const root of roots) {
    if (isWithin(real, root)) return `inside the searched tree ${root}`;
  }
  return null;
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The binary inside `@vscode/ripgrep`'s platform package, if that optional dependency is installed. */
function bundledRgPath(): string | null {
  try {
    // From the engine's package: a bundle carrying its code (util/package-files.ts) may be installed elsewhere.
    const require = createRequire(path.join(corePackageDir(), 'package.json'));
    const arch = process.arch;
    const binary = process.platform === 'win32' ? 'rg.exe' : 'rg';
    // Resolve through the main package so its version pin decides which platform package we get.
    const main = require.resolve('@vscode/ripgrep');
    const fromMain = createRequire(main);
    return fromMain.resolve(`@vscode/ripgrep-${process.platform}-${arch}/bin/${binary}`);
  } catch {
    return null;
  }
}

function findOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
