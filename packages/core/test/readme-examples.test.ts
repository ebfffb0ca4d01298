// The library examples of packages/core/README.md run as written and print what the README says they print: each
// `## layer` section's ts block is written to a module inside this package (so '@trawl/core/…' resolves to the
// built package by its own name, as a user's import does) and run by node in a generated project; its output is
// compared with the section's text block, where `…` stands for any text (an absolute path).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const pkg = path.resolve(__dirname, '..');
const readme = fs.readFileSync(path.join(pkg, 'README.md'), 'utf8');
const sections = [
  ...readme.matchAll(/^## ([\w/-]+)\n\n```ts\n([\s\S]*?)```\n\n```text\n([\s\S]*?)```/gm),
].map(([, name, code, prints]) => ({ name: name!, code: code!, prints: prints! }));

let project: string;
let scripts: string;

beforeAll(() => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-readme-')));
  fs.mkdirSync(path.join(project, 'src'));
  fs.mkdirSync(path.join(project, 'mm'));
  fs.writeFileSync(path.join(project, 'src', 'app.ts'), 'export const app = 1; // TODO tests\n');
  fs.writeFileSync(
    path.join(project, 'src', 'index.ts'),
    '// TODO: wire the login\nexport function main() {}\n',
  );
  fs.writeFileSync(path.join(project, 'mm', 'mmap.c'), 'int mmap;\n');
  scripts = fs.mkdtempSync(path.join(pkg, '.readme-examples-'));
});

afterAll(() => {
  fs.rmSync(project, { recursive: true, force: true });
  fs.rmSync(scripts, { recursive: true, force: true });
});

/** The README's text block as a pattern over the whole output: `…` is any text within a line. */
function printed(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/…/g, '.*');
  return new RegExp(`^${escaped}$`);
}

describe('packages/core/README.md', () => {
  it('has an example with its output for every entry point it lists', () => {
    const listed = [...readme.matchAll(/^\| `@trawl\/core\/([\w/-]+)` \|/gm)].map((m) => m[1]);
    expect(sections.map((s) => s.name)).toEqual(listed);
  });

  it('lists every subpath of the package, and only those', () => {
    const pkgJson = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const subpaths = Object.keys(pkgJson.exports)
      .filter((k) => k !== '.' && k !== './package.json')
      .map((k) => k.slice(2));
    const listed = [...readme.matchAll(/^\| `@trawl\/core\/([\w/-]+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(subpaths.sort());
  });

  for (const { name, code, prints } of sections) {
    it(`the ${name} example prints what the README shows`, () => {
      const file = path.join(scripts, `${name.replace('/', '-')}.mjs`);
      fs.writeFileSync(file, code);
      const r = spawnSync(process.execPath, [file], {
        cwd: project,
        encoding: 'utf8',
        timeout: 60_000,
        env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? os.homedir() },
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(printed(prints));
    });
  }
});
