// docs/search-tool.md (served as docs://search-tool.md) documents every argument the search tool takes: each
// property of the input schema models are shown has a row in its Arguments table, and the table names no other.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchToolInputShape } from '../src/tool/input-schema.js';

const doc = fs.readFileSync(path.resolve(__dirname, '../docs/search-tool.md'), 'utf8');

/** The first-column names of the table under "## Arguments". */
function documentedArguments(): string[] {
  const start = doc.indexOf('\n## Arguments\n');
  expect(start).toBeGreaterThan(0);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end);
  return [...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]!);
}

describe('docs://search-tool.md', () => {
  it('has a row for every argument of the input schema, and for nothing else', () => {
    expect(documentedArguments().sort()).toEqual(Object.keys(searchToolInputShape).sort());
  });
});
