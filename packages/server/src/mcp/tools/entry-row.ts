import * as path from 'node:path';
import { redactValues } from '@trawl/core/redact';
import { z } from 'zod';

/** One file or directory in a tool's structured output (find_files, list_dir): the HTTP API's row. */
export const entryRowShape = z.object({
  path: z.string(),
  name: z.string(),
  kind: z.enum(['file', 'dir']),
  size: z.number(),
  mtime: z.number(),
});

/** A directory an agent's tool did not enter (tool/tree-view.ts), in a tool's structured output. */
export const unenteredShape = z.object({
  path: z.string(),
  reason: z.enum(['skipped', 'ignored', 'hidden']),
  files: z.number(),
  filesExact: z.boolean(),
});

/**
 * The tool redactor (redact/tool-output.ts) over the names a listing returns (find_files, list_dir): a file can be
 * named with a token. Counts what it replaced; off, it passes everything through.
 */
export class NameRedaction {
  count = 0;
  constructor(private readonly on: boolean) {}

  /** Text as it may be returned. */
  text(s: string): string {
    if (!this.on) return s;
    const r = redactValues(s);
    this.count += r.count;
    return r.text;
  }

  /** A row's path and name as they may be returned (the path stays absolute; only what is below `root` is judged). */
  row(root: string, r: { path: string; name: string }): { path: string; name: string } {
    if (!this.on) return { path: r.path, name: r.name };
    const rel = path.relative(root, r.path);
    const clean = this.text(rel);
    return { path: clean === rel ? r.path : path.join(root, clean), name: redactValues(r.name).text };
  }
}
