// Where the benchmarks find things: the repository, the corpora cache (built by bench/corpora/, never committed),
// the trawl CLI and the ripgrep 15 binary that @vscode/ripgrep installs. One place, so every bench agrees.
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '..');
export const CACHE = process.env.TRAWL_BENCH_CACHE || join(homedir(), '.cache/trawl-bench');
// TRAWL_BENCH_CLI: another checkout's CLI (a before/after comparison with this checkout's bench scripts).
export const TRAWL = process.env.TRAWL_BENCH_CLI || join(repo, 'packages/server/bin/trawl.js');
export const RG15 = process.env.TRAWL_BENCH_RG || join(repo, 'node_modules/@vscode/ripgrep-linux-x64/bin/rg');
