import * as fs from 'node:fs';
import * as path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CanonicalRoot, SensitiveFence } from '@trawl/core/fence';
import { redactValues } from '@trawl/core/redact';
import { agentTree, type UnenteredReason } from '@trawl/core/tool';
import { z } from 'zod';
import { FILE_INFO_MAX_LINE_COUNT_BYTES, FILE_INFO_SNIFF_BYTES } from '../limits.js';

export const FILE_INFO_TOOL_NAME = 'file_info';

export interface FileInfoRegistration {
  /** The project root, judged by the root policy: nothing outside it is described. */
  root: CanonicalRoot;
  /** The server's one fence (mcp/server.ts builds it). */
  fence: SensitiveFence;
  /** Redact a credential-shaped value in the path echoed back (default true). */
  redact?: boolean;
}

export const fileInfoInputShape = {
  path: z
    .string()
    .min(1)
    .max(4096)
    .describe('A file or directory relative to the project root, e.g. "src/app.ts".'),
};

const DESCRIPTION =
  'What a path is before you read it: kind, size, modification time, line count, encoding, whether it is binary, and whether the other tools see it (or why not: ignored, a skipped directory). Inside the project root only; links are described, not followed.';

/** What file_info reports (the structured output). */
export interface FileInfo {
  path: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
  mtime: string;
  lines?: number;
  encoding?: 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'binary';
  binary?: boolean;
  entries?: number;
  inTree: boolean;
  notInTreeBecause?: UnenteredReason;
}

/** Registers `file_info` on an MCP server: one path's facts, judged by the agent's tree rules (tool/tree-view.ts). */
export function registerFileInfoTool(server: McpServer, options: FileInfoRegistration): void {
  const { fence, root } = options;
  server.registerTool(
    FILE_INFO_TOOL_NAME,
    {
      title: 'Describe a file',
      description: DESCRIPTION,
      inputSchema: fileInfoInputShape,
      outputSchema: {
        path: z.string(),
        kind: z.enum(['file', 'dir', 'symlink', 'other']),
        size: z.number(),
        mtime: z.string(),
        lines: z.number().optional(),
        encoding: z.string().optional(),
        binary: z.boolean().optional(),
        entries: z.number().optional(),
        inTree: z.boolean(),
        notInTreeBecause: z.enum(['skipped', 'ignored', 'hidden']).optional(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      // The server's fence is long-lived: what changed before this call is in its table.
      await fence.settled();
      const fail = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: true });
      const shown = options.redact === false ? args.path : redactValues(args.path).text;
      if (args.path.includes('\0')) return fail('A path cannot contain a NUL character.');
      const abs = path.resolve(root, args.path);
      if (!within(abs, root)) return fail(`${shown} is outside the project root.`);
      let st: fs.Stats;
      try {
        st = fs.lstatSync(abs);
      } catch {
        return fail(`${shown} does not exist.`);
      }
      // Where it really is: a directory on the way may be a link.
      let real: string;
      try {
        real = fs.realpathSync(st.isSymbolicLink() ? path.dirname(abs) : abs);
        if (st.isSymbolicLink()) real = path.join(real, path.basename(abs));
      } catch {
        return fail(`${shown} cannot be resolved.`);
      }
      if (!within(real, root)) return fail(`${shown} leads outside the project root.`);
      if (fence.isSensitiveCanonical(real)) return fail(`${shown} is a sensitive location (credentials).`);
      const kind = st.isSymbolicLink()
        ? 'symlink'
        : st.isDirectory()
          ? 'dir'
          : st.isFile()
            ? 'file'
            : 'other';
      const why = abs === root ? null : agentTree.admission(root).why(abs, kind === 'dir');
      const info: FileInfo = {
        path: path.relative(root, abs) || '.',
        kind,
        size: kind === 'dir' ? 0 : st.size,
        mtime: st.mtime.toISOString(),
        inTree: why === null && kind !== 'symlink' && kind !== 'other',
        ...(why ? { notInTreeBecause: why } : {}),
      };
      if (kind === 'file') Object.assign(info, contentFacts(abs, st.size));
      if (kind === 'dir') {
        try {
          info.entries = fs.readdirSync(abs).length;
        } catch {
          // unreadable: no count
        }
      }
      if (options.redact !== false) info.path = redactValues(info.path).text;
      return {
        content: [{ type: 'text' as const, text: describe(info) }],
        structuredContent: { ...info },
      };
    },
  );
}

function within(p: string, root: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** Encoding, binary-ness and the line count, from the bytes (the count only up to a size: it reads the file). */
function contentFacts(abs: string, size: number): Pick<FileInfo, 'lines' | 'encoding' | 'binary'> {
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    return {};
  }
  try {
    const head = Buffer.alloc(Math.min(size, FILE_INFO_SNIFF_BYTES));
    const got = fs.readSync(fd, head, 0, head.length, 0);
    const b = head.subarray(0, got);
    let encoding: NonNullable<FileInfo['encoding']> = 'utf-8';
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) encoding = 'utf-8-bom';
    else if (b[0] === 0xff && b[1] === 0xfe) encoding = 'utf-16le';
    else if (b[0] === 0xfe && b[1] === 0xff) encoding = 'utf-16be';
    // A NUL marks binary (the engine's rule), except in UTF-16, where every ASCII character has one.
    const binary = !encoding.startsWith('utf-16') && b.includes(0);
    if (binary) return { encoding: 'binary', binary: true };
    if (size > FILE_INFO_MAX_LINE_COUNT_BYTES) return { encoding, binary: false };
    const newline = encoding === 'utf-16le' ? [0x0a, 0x00] : encoding === 'utf-16be' ? [0x00, 0x0a] : [0x0a];
    return { encoding, binary: false, lines: countLines(fd, size, newline) };
  } finally {
    fs.closeSync(fd);
  }
}

function countLines(fd: number, size: number, newline: number[]): number {
  const chunk = Buffer.alloc(1024 * 1024);
  let lines = 0;
  let last = -1;
  let pos = 0;
  const step = newline.length;
  while (pos < size) {
    const got = fs.readSync(fd, chunk, 0, chunk.length - (chunk.length % step), pos);
    if (got <= 0) break;
    for (let i = 0; i + step <= got; i += step) {
      if (chunk[i] === newline[0] && (step === 1 || chunk[i + 1] === newline[1])) lines++;
    }
    last = chunk[got - step] === newline[0] && (step === 1 || chunk[got - 1] === newline[1]) ? 1 : 0;
    pos += got;
  }
  // A last line without its newline is a line too.
  return size > 0 && last === 0 ? lines + 1 : lines;
}

const WHY_WORDS: Record<UnenteredReason, string> = {
  skipped: 'it is in a directory the tools skip (.git, node_modules); name it in paths to search it',
  ignored: 'an ignore file (.gitignore, .ignore) leaves it out; search it by name, or with gitignore: false',
  hidden: 'it is a dot file and hidden is false',
};

function describe(i: FileInfo): string {
  const facts: string[] = [
    `${i.path}: ${i.kind === 'symlink' ? 'a symbolic link (not followed)' : i.kind === 'dir' ? 'a directory' : i.kind === 'file' ? 'a file' : 'not a regular file'}`,
  ];
  if (i.kind === 'file') facts.push(`${i.size} bytes`);
  if (i.entries !== undefined) facts.push(`${i.entries} entries`);
  if (i.lines !== undefined) facts.push(`${i.lines} line${i.lines === 1 ? '' : 's'}`);
  if (i.encoding) facts.push(i.binary ? 'binary' : i.encoding);
  facts.push(`modified ${i.mtime}`);
  const seen = i.inTree
    ? 'search, grep_files, find_files and list_dir see it.'
    : i.notInTreeBecause
      ? `Not in the tools' tree: ${WHY_WORDS[i.notInTreeBecause]}.`
      : 'The tools do not read it.';
  return `${facts.join(', ')}.\n${seen}`;
}
