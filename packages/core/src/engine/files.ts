import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import type { EngineName } from '../search/events.js';
import { compareUtf8 } from '../util/path-order.js';
import { Walker, type WalkIssue } from '../walk/walker.js';
import { resolveRipgrep } from './rg/resolve-rg.js';
import { rgWalkArgs } from './rg/rg-argv.js';
import { parseRgError } from './rg/rg-output.js';
import { deadlineMsOf, EngineUnavailableError, type SearchRequest, walkOptionsOf } from './search.js';

/** What a listing found: the files, in output order, and what went wrong on the way. */
export interface FileListing {
  files: string[];
  errors: WalkIssue[];
  missingRoots: string[];
  engine: EngineName;
}

/**
 * ripgrep's `--files`: the files a search of `request` would read, without searching them, in the
 * engines' output order (byte order of the path, roots in the order given). The js engine walks; the rg
 * engine asks a vetted ripgrep (`--files`) and sorts what it prints.
 */
export async function listFiles(request: Omit<SearchRequest, 'pattern'>): Promise<FileListing> {
  const cwd = path.resolve(request.cwd ?? process.cwd());
  const roots = request.paths && request.paths.length > 0 ? request.paths : [''];
  const walk = walkOptionsOf(request, roots, cwd);
  const choice = request.engine ?? 'auto';
  if (choice !== 'js') {
    const { rg, rejected } = resolveRipgrep({
      ...(request.rgPath !== undefined ? { configured: request.rgPath } : {}),
      searchRoots: roots.map((r) => path.resolve(cwd, r || '.')),
    });
    if (rg) return listWithRg(rg.path, request, roots, cwd);
    if (choice === 'rg')
      throw new EngineUnavailableError(`no usable ripgrep: ${rejected.join('; ') || 'none found'}`);
  }
  const deadlineMs = deadlineMsOf(request);
  const walker = new Walker({
    ...walk,
    ...(deadlineMs !== undefined ? { deadline: (request.now ?? Date.now)() + deadlineMs } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const files: string[] = [];
  for (const e of walker.entries()) {
    if (request.maxFilesize !== undefined && !e.explicit && sizeOf(e.abs) > request.maxFilesize) continue;
    files.push(e.path);
  }
  return { files, errors: walker.stats.errors, missingRoots: walker.stats.missingRoots, engine: 'js' };
}

async function listWithRg(
  rg: string,
  request: Omit<SearchRequest, 'pattern'>,
  roots: string[],
  cwd: string,
): Promise<FileListing> {
  const args = [
    '--files',
    '--no-config',
    '--no-ignore-global',
    ...rgWalkArgs(walkOptionsOf(request, roots, cwd)),
  ];
  if (request.maxFilesize !== undefined) args.push('--max-filesize', String(request.maxFilesize));
  const files: string[] = [];
  const errors: WalkIssue[] = [];
  const missingRoots: string[] = [];
  // One rg per root, as the rg search engine does (rg 15 applies parent ignore rules racily with several).
  for (const root of roots) {
    const child = spawn(rg, [...args, '--', root === '' ? '.' : root], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => {
      if (stderr.length < 64 * 1024) stderr += c;
    });
    const found: string[] = [];
    for await (const line of createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY })) {
      found.push(root === '' && line.startsWith('./') ? line.slice(2) : line);
    }
    await new Promise((resolve) => child.once('close', resolve));
    files.push(...found.sort(compareUtf8));
    for (const line of stderr.split('\n')) {
      const e = parseRgError(line);
      if (e) {
        if (e.path === root && e.code === 'ENOENT') missingRoots.push(root);
        errors.push(e);
      } else if (/^rg: .*?: /.test(line)) {
        errors.push({ path: '', code: 'ERG', message: line.slice(4) }); // a loop: its message names the paths
      }
    }
  }
  return { files, errors, missingRoots, engine: 'rg' };
}

function sizeOf(abs: string): number {
  try {
    return fs.statSync(abs).size;
  } catch {
    return 0;
  }
}
