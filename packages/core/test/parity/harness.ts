import { spawnSync } from 'node:child_process';
import { type SeamedSearchRequest, searchWithSeams } from '../../src/engine/search.js';
import type { SearchEvent } from '../../src/index.js';
import { compareUtf8 } from '../../src/util/path-order.js';
import { FILE_TYPES } from '../../src/walk/file-types.js';

/** One parity case: a pattern and the rg flags it runs with. */
export interface ParityCase {
  name: string;
  pattern: string;
  i?: boolean;
  F?: boolean;
  w?: boolean;
  U?: boolean;
  hidden?: boolean;
  noIgnore?: boolean;
  noRequireGit?: boolean;
  globs?: string[];
  A?: number;
  B?: number;
  m?: number;
  /** -v */
  v?: boolean;
  /** -a / --binary */
  text?: boolean;
  binary?: boolean;
  maxDepth?: number;
  /** -t / -T, by ripgrep's type names (trawl's table is ripgrep 15's). */
  types?: string[];
  typesNot?: string[];
  noIgnoreVcs?: boolean;
  noIgnoreDot?: boolean;
  /** Search these paths instead of `.`. */
  paths?: string[];
  /** A named, deliberate difference from ripgrep (see README "Where trawl differs from ripgrep"). */
  exclusion?: 'empty-match-inside-char';
}

/** A file's results in a comparable form: one string per reported line. */
export interface FileRecords {
  path: string;
  lines: string[];
}

function lineKey(
  kind: string,
  lineNumber: number,
  offset: number,
  subs: Array<{ start: number; end: number }>,
  text: string,
  bytes?: string,
): string {
  const s = subs.map((m) => `${m.start}-${m.end}`).join(',');
  return `${kind} ${lineNumber} @${offset} [${s}] ${bytes !== undefined ? `bytes:${bytes}` : JSON.stringify(text)}`;
}

export function rgArgs(c: ParityCase): string[] {
  const a = ['--json', '--no-config', '--no-ignore-global'];
  if (c.i) a.push('-i');
  if (c.F) a.push('-F');
  if (c.w) a.push('-w');
  if (c.U) a.push('-U');
  if (c.hidden) a.push('--hidden');
  if (c.noIgnore) a.push('--no-ignore');
  if (c.noRequireGit) a.push('--no-require-git');
  for (const g of c.globs ?? []) a.push('-g', g);
  if (c.A) a.push('-A', String(c.A));
  if (c.B) a.push('-B', String(c.B));
  if (c.m !== undefined) a.push('-m', String(c.m));
  if (c.v) a.push('-v');
  if (c.text) a.push('-a');
  if (c.binary) a.push('--binary');
  if (c.maxDepth !== undefined) a.push('--max-depth', String(c.maxDepth));
  for (const t of c.types ?? []) a.push('-t', t);
  for (const t of c.typesNot ?? []) a.push('-T', t);
  if (c.noIgnoreVcs) a.push('--no-ignore-vcs');
  if (c.noIgnoreDot) a.push('--no-ignore-dot');
  a.push('-e', c.pattern, '--', ...(c.paths ?? ['.']));
  return a;
}

/**
 * Runs a real ripgrep and returns its files sorted in path byte order (rg's own order is scheduling).
 * Several roots are searched one rg run each: rg 15 given several roots applies parent-directory ignore
 * rules racily (about 1 run in 30 on this machine kind), and a flaky reference tests nothing.
 */
export function runRealRg(
  rg: string,
  cwd: string,
  c: ParityCase,
): { files: FileRecords[]; code: number | null; stderr: string } {
  const roots = c.paths ?? ['.'];
  if (roots.length > 1) {
    const runs = roots.map((p) => runRealRg(rg, cwd, { ...c, paths: [p] }));
    const code = runs.some((r) => r.code === 0) ? 0 : (runs.find((r) => r.code !== 1)?.code ?? 1);
    return { files: runs.flatMap((r) => r.files), code, stderr: runs.map((r) => r.stderr).join('') };
  }
  const r = spawnSync(rg, rgArgs(c), {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });
  const files: FileRecords[] = [];
  let current: FileRecords | null = null;
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const msg = JSON.parse(line);
    const d = msg.data;
    if (msg.type === 'begin') {
      current = { path: d.path.text ?? Buffer.from(d.path.bytes, 'base64').toString('utf8'), lines: [] };
    } else if ((msg.type === 'match' || msg.type === 'context') && current) {
      let subs: Array<{ start: number; end: number }> = d.submatches ?? [];
      if (c.exclusion === 'empty-match-inside-char' && typeof d.lines.text === 'string') {
        // rg reports an empty match at every byte offset, even inside a multi-byte character; trawl
        // reports them at character boundaries only.
        const bytes = Buffer.from(d.lines.text, 'utf8');
        subs = subs.filter(
          (m) => m.start !== m.end || m.start >= bytes.length || (bytes[m.start]! & 0xc0) !== 0x80,
        );
      }
      current.lines.push(
        lineKey(msg.type, d.line_number, d.absolute_offset, subs, d.lines.text, d.lines.bytes),
      );
    } else if (msg.type === 'end' && current) {
      files.push(current);
      current = null;
    }
  }
  files.sort((x, y) => compareUtf8(x.path, y.path));
  return { files, code: r.status, stderr: r.stderr };
}

/** Runs one of our engines; returns files in the order the engine emitted them. */
export async function runTrawl(
  engine: 'js' | 'rg',
  cwd: string,
  c: ParityCase,
  rgPath?: string,
  extra: Partial<SeamedSearchRequest> = {},
): Promise<FileRecords[]> {
  const files: FileRecords[] = [];
  let current: FileRecords | null = null;
  for await (const e of trawlEvents(engine, cwd, c, rgPath, 'lines', extra)) {
    if (e.type === 'begin') current = { path: e.path, lines: [] };
    else if ((e.type === 'match' || e.type === 'context') && current) {
      current.lines.push(
        lineKey(
          e.type,
          e.lineNumber,
          e.absoluteOffset,
          e.submatches,
          e.text,
          e.bytes ? Buffer.from(e.bytes).toString('base64') : undefined,
        ),
      );
    } else if (e.type === 'end' && current) {
      files.push(current);
      current = null;
    }
  }
  return files;
}

/** Runs one of our engines in files-with-matches mode; returns the paths in the order emitted. */
export async function runTrawlFileList(
  engine: 'js' | 'rg',
  cwd: string,
  c: ParityCase,
  rgPath?: string,
): Promise<string[]> {
  const paths: string[] = [];
  for await (const e of trawlEvents(engine, cwd, c, rgPath, 'files-with-matches', {}))
    if (e.type === 'end') paths.push(e.path);
  return paths;
}

async function* trawlEvents(
  engine: 'js' | 'rg',
  cwd: string,
  c: ParityCase,
  rgPath: string | undefined,
  mode: 'lines' | 'files-with-matches',
  extra: Partial<SeamedSearchRequest>,
): AsyncGenerator<SearchEvent> {
  const events: AsyncIterable<SearchEvent> = searchWithSeams({
    pattern: c.pattern,
    paths: c.paths ?? ['.'],
    cwd,
    fixedStrings: c.F ?? false,
    caseInsensitive: c.i ?? false,
    wordRegexp: c.w ?? false,
    multiline: c.U ?? false,
    lenient: false,
    hidden: c.hidden ?? false,
    ignoreFiles: !c.noIgnore,
    requireGit: !c.noRequireGit,
    globs: c.globs ?? [],
    beforeContext: c.B ?? 0,
    afterContext: c.A ?? 0,
    ...(c.m !== undefined ? { maxCount: c.m } : {}),
    ...(c.v ? { invertMatch: true } : {}),
    ...(c.text ? { binary: 'text' as const } : c.binary ? { binary: 'search' as const } : {}),
    ...(c.maxDepth !== undefined ? { maxDepth: c.maxDepth } : {}),
    ...(c.types || c.typesNot
      ? {
          fileTypes: {
            include: (c.types ?? []).flatMap((t) => FILE_TYPES[t] ?? []),
            exclude: (c.typesNot ?? []).flatMap((t) => FILE_TYPES[t] ?? []),
          },
        }
      : {}),
    ...(c.noIgnoreVcs ? { vcsIgnore: false } : {}),
    ...(c.noIgnoreDot ? { dotIgnore: false } : {}),
    mode,
    engine,
    ...(rgPath ? { rgPath } : {}),
    deadlineMs: 60_000,
    ...extra,
  });
  for await (const e of events) {
    if (e.type === 'summary' && e.summary.outcome !== 'complete')
      throw new Error(`search did not complete: ${e.summary.outcome}`);
    yield e;
  }
}

/**
 * Named exclusions: where trawl deliberately differs from ripgrep (listed in the README).
 * - late-nul-binary: a file whose first NUL lies beyond 64 KiB. ripgrep reports the matches of the read
 *   buffers it searched before the NUL, and its buffer size depends on the files the same thread read
 *   earlier; trawl reports every match on lines before the NUL's line. So rg's lines must be a subset.
 */
export function compareFiles(
  ours: FileRecords[],
  theirs: FileRecords[],
  lateBinary: Set<string>,
): string | null {
  const strip = (p: string) => p.replace(/^\.\//, '');
  const theirsByPath = new Map(theirs.map((f) => [strip(f.path), f]));
  const oursByPath = new Map(ours.map((f) => [strip(f.path), f]));
  for (const f of theirs) {
    const p = strip(f.path);
    const o = oursByPath.get(p);
    if (lateBinary.has(p)) {
      const missing = f.lines.filter((l) => !(o?.lines ?? []).includes(l));
      if (missing.length > 0) return `late-nul-binary ${p}: rg reported lines trawl did not: ${missing[0]}`;
      continue;
    }
    if (!o) return `file only in rg: ${f.path}\n  first line: ${f.lines[0]}`;
    const n = Math.max(o.lines.length, f.lines.length);
    for (let k = 0; k < n; k++) {
      if (o.lines[k] !== f.lines[k]) {
        return `${f.path}: line record ${k} differs\n  rg:    ${f.lines[k]}\n  trawl: ${o.lines[k]}`;
      }
    }
  }
  for (const o of ours) {
    const p = strip(o.path);
    if (!theirsByPath.has(p) && !lateBinary.has(p))
      return `file only in trawl: ${o.path}\n  first line: ${o.lines[0]}`;
  }
  return null;
}
