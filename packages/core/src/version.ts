import { createRequire } from 'node:module';

/**
 * The package's version, read from its package.json (one place: `src/` and `dist/` both sit one level below
 * it), so a release changes one file.
 */
export const version: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;
