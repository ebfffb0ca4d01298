import { z } from 'zod';

/** One file or directory in a tool's structured output (find_files, list_dir): the HTTP API's row. */
export const entryRowShape = z.object({
  path: z.string(),
  name: z.string(),
  kind: z.enum(['file', 'dir']),
  size: z.number(),
  mtime: z.number(),
});
