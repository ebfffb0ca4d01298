import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The compiled script `name` next to the module whose `import.meta.url` is `here` (a worker's or a child's entry
 * point). Under a TS-source test runner that module is `src/…/*.ts`, where no `.js` sibling exists: the one in
 * `dist` is used.
 */
export function builtScriptUrl(name: string, here: string): URL {
  const url = new URL(`./${name}`, here);
  if (here.endsWith('.ts')) {
    const p = fileURLToPath(url);
    const i = p.lastIndexOf('/src/');
    const built = i < 0 ? p : `${p.slice(0, i)}/dist/${p.slice(i + 5)}`;
    if (existsSync(built)) return pathToFileURL(built);
  }
  return url;
}
