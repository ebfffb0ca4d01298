import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.join(import.meta.dirname, '..', 'src');

/** The server's folders each module of `folder` imports from (relative imports only, type-only ones included). */
function foldersImportedBy(folder: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const name of fs.readdirSync(path.join(SRC, folder))) {
    if (!name.endsWith('.ts')) continue;
    const file = path.join(SRC, folder, name);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/g)) {
      const target = path.relative(SRC, path.resolve(path.dirname(file), m[1] ?? m[2]!));
      const top = target.includes(path.sep) ? target.split(path.sep)[0]! : '.';
      out.set(top, [...(out.get(top) ?? []), `${folder}/${name}`]);
    }
  }
  return out;
}

describe("the server's layers", () => {
  it('conversations and the audit log import nothing of the surfaces (HTTP, MCP, CLI)', () => {
    for (const folder of ['conversations', 'audit']) {
      const imported = foldersImportedBy(folder);
      for (const surface of ['http', 'mcp', 'cli']) expect(imported.get(surface) ?? []).toEqual([]);
      // The reader sees the check looked at real imports.
      expect(imported.size).toBeGreaterThan(0);
    }
  });
});
