import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Defined (as `true`) only inside a bundle that carries core's code among its own chunks: the CLI's bundle/ of
 * scripts/bundle.mjs. There this module is one of the bundle's chunks, not dist/util/package-files.js.
 */
declare const TRAWL_FLAT_BUNDLE: true | undefined;
const bundled = typeof TRAWL_FLAT_BUNDLE !== 'undefined';

/**
 * The URL of one of core's thread entry scripts, named by its path below dist/ (`engine/js/search-worker.js`).
 * Compiled, that file; under a TS-source test runner (this module is src/…/*.ts), the compiled one in dist/;
 * inside a bundle that carries core, the bundle's own entry `core-<file name>` beside this chunk
 * (scripts/bundle.mjs names it so), which loads a few chunks rather than core's modules one by one.
 */
export function coreScriptUrl(distPath: string): URL {
  if (bundled) return new URL(`./core-${path.posix.basename(distPath)}`, import.meta.url);
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL(`../${distPath}`, here);
  const built = path.join(fileURLToPath(new URL('../../dist/', here)), distPath);
  return existsSync(built) ? pathToFileURL(built) : new URL(`../${distPath}`, here);
}

/**
 * The directory of the @trawl/core package: its package.json, docs/ and the files shipped in its dist/ (the PDF
 * child). Resolved by the package's name, so from core's own files it is that package, and from a bundle that
 * carries core's code it is the @trawl/core installed beside the bundle (a dependency of it).
 */
export function corePackageDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('@trawl/core/package.json'));
}
