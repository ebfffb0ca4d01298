// The workbench reads the server's wire shapes through the `trawl/wire` package export, as types only: no module of
// it reaches into another package's files by a relative path, and nothing of the server is imported for its code.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(__dirname, '../src');

function modules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return modules(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Every `import … from 'X'` and `export … from 'X'` of a module, with whether it is type-only. */
function imports(file: string): { spec: string; typeOnly: boolean }[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?\sfrom\s+'([^']+)'/gms)].map((m) => ({
    spec: m[3]!,
    typeOnly: m[2] !== undefined,
  }));
}

describe('the workbench and the server wire types', () => {
  const all = modules(src).flatMap((f) => imports(f).map((i) => ({ ...i, file: path.relative(src, f) })));

  it('no module imports a file outside packages/web by a relative path', () => {
    const outside = all.filter(
      (i) => i.spec.startsWith('.') && !path.resolve(src, path.dirname(i.file), i.spec).startsWith(`${src}/`),
    );
    expect(outside).toEqual([]);
  });

  it('the server is imported only as types, only from trawl/wire', () => {
    const server = all.filter((i) => i.spec === 'trawl' || i.spec.startsWith('trawl/'));
    expect(server.length).toBeGreaterThan(0);
    expect(server.filter((i) => i.spec !== 'trawl/wire' || !i.typeOnly)).toEqual([]);
  });
});
