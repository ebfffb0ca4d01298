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
