import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as tar from 'tar';
import { beforeAll, describe, expect, it } from 'vitest';
import { archives } from '../src/tool/public.js';
import { type Engine, makeTree, refusal, run } from './fixtures/tool/helpers.js';
import { zip } from './fixtures/zip.js';

let dir: string;
beforeAll(() => {
  dir = makeTree({ 'note.txt': 'needle outside\n', 'stage/docs/notes.md': 'one\nneedle in tar\n' });
  fs.writeFileSync(
    path.join(dir, 'bundle.zip'),
    zip([
      { name: 'src/', deflate: false },
      { name: 'src/foo.ts', data: 'alpha\nneedle in zip\nomega\n', deflate: false },
      { name: 'src/deflated.ts', data: 'alpha\nneedle deflated\n'.repeat(3) },
      { name: 'bin.dat', data: Buffer.from('needle\u0000bin\n'), deflate: false },
      {
        name: 'latin.txt',
        data: Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x20, 0xe9, 0x0a]),
        deflate: false,
      },
      { name: 'dir/inner.txt', data: 'needle inner\n', deflate: false },
      { name: 'huge.txt', data: 'a'.repeat(17 * 1024 * 1024) },
    ]),
  );
  tar.c({ file: path.join(dir, 'rel.tar.gz'), cwd: path.join(dir, 'stage'), gzip: true, sync: true }, [
    'docs',
  ]);
  tar.c({ file: path.join(dir, 'rel.tar'), cwd: path.join(dir, 'stage'), sync: true }, ['docs']);
  fs.copyFileSync(path.join(dir, 'rel.tar.gz'), path.join(dir, 'rel.tgz'));
  // Zip-format packages by their extensions, and a zip known only by its bytes.
  for (const name of ['pkg-1.0-py3-none-any.whl', 'lib.jar', 'ext.vsix', 'payload.bin'])
    fs.copyFileSync(path.join(dir, 'bundle.zip'), path.join(dir, name));
});

describe.each<Engine>(['js', 'rg'])('search tool: archive members, engine %s', (engine) => {
  it('a member is searched in memory and the output names it', async () => {
    const r = await run(dir, { pattern: 'needle', paths: 'bundle.zip:src/foo.ts' }, { engine });
    expect(r.text).toBe('# bundle.zip:src/foo.ts\n*2|needle in zip');
    expect(r.details).toMatchObject({
      scopePath: 'bundle.zip:src/foo.ts',
      files: ['bundle.zip:src/foo.ts'],
      searchPath: path.join(dir, 'bundle.zip'),
    });
    const ranged = await run(
      dir,
      { pattern: 'needle|alpha', paths: 'bundle.zip:src/foo.ts:1-1' },
      { engine },
    );
    expect(ranged.text).toBe('# bundle.zip:src/foo.ts\n*1|alpha');
    expect(
      (await run(dir, { pattern: 'needle', paths: 'bundle.zip:src/deflated.ts' }, { engine })).details
        .matchCount,
    ).toBe(3);
    for (const a of ['rel.tar.gz', 'rel.tar', 'rel.tgz']) {
      expect((await run(dir, { pattern: 'needle', paths: `${a}:docs/notes.md` }, { engine })).text).toBe(
        `# ${a}:docs/notes.md\n*2|needle in tar`,
      );
    }
    expect(
      (await run(dir, { pattern: 'needle', paths: 'rel.tar:./docs//notes.md' }, { engine })).details
        .matchCount,
    ).toBe(1);
  });

  it('members get the same context rules as files', async () => {
    const r = await run(
      dir,
      { pattern: 'needle', paths: 'bundle.zip:src/foo.ts' },
      { engine, contextBefore: 1, contextAfter: 3 },
    );
    expect(r.text).toBe('# bundle.zip:src/foo.ts\n 1|alpha\n*2|needle in zip\n 3|omega');
  });

  it('unreadable members are refused with the reason', async () => {
    const cases: Array<[string, string]> = [
      ['bundle.zip:bin.dat', 'bundle.zip:bin.dat (binary archive entry)'],
      ['bundle.zip:latin.txt', 'bundle.zip:latin.txt (non-UTF-8 archive entry)'],
      ['bundle.zip:nope.ts', "bundle.zip:nope.ts (Archive file 'nope.ts' not found)"],
      ['bundle.zip:dir', "bundle.zip:dir (Archive path 'dir' is a directory)"],
      ['bundle.zip:src', "bundle.zip:src (Archive path 'src' is a directory)"],
      ['gone.zip:a.ts', 'gone.zip:a.ts (cannot open archive: gone.zip: no such file)'],
      ['rel.tar:nope.md', "rel.tar:nope.md (Archive file 'nope.md' not found)"],
      [
        'bundle.zip:../etc/passwd',
        "bundle.zip:../etc/passwd (Archive path '../etc/passwd' is not a member path)",
      ],
      ['bundle.zip:huge.txt', 'bundle.zip:huge.txt (archive entry larger than 16 MiB)'],
      ['note.txt.zip:x', 'note.txt.zip:x (cannot open archive: note.txt.zip: no such file)'],
    ];
    for (const [paths, item] of cases) {
      const r = await refusal(run(dir, { pattern: 'needle', paths }, { engine }));
      expect(r).toEqual({
        code: 'archive_unreadable',
        // The UTF-8 sentence only where the member exists but is not text (issue 11 item 11: a missing
        // member was told "Only UTF-8 text members can be searched").
        message: `Cannot search archive member(s): ${item}.${/binary|non-UTF-8/.test(item) ? ' Only UTF-8 text members can be searched.' : ''}`,
      });
    }
  });

  it('a readable and an unreadable member — note, and no scratch path anywhere', async () => {
    const r = await run(
      dir,
      { pattern: 'needle', paths: ['bundle.zip:src/foo.ts', 'bundle.zip:bin.dat'] },
      { engine },
    );
    expect(r.text).toBe(
      '# bundle.zip:src/foo.ts\n*2|needle in zip\n\nSkipped archive entries (search supports text members only): bundle.zip:bin.dat (binary archive entry)',
    );
    expect(r.details.scopePath).toBe('bundle.zip:src/foo.ts, bundle.zip:bin.dat');
    expect(r.details.notSearched).toEqual([{ path: 'bundle.zip:bin.dat', reason: 'binary archive entry' }]);
    expect(JSON.stringify(r)).not.toMatch(/omp-search|scratch|\/tmp\/[^"]*-\d+-foo/);
  });

  it('a member next to a file: grouped under the archive, the walk root stays sane', async () => {
    const r = await run(dir, { pattern: 'needle', paths: ['bundle.zip:src/foo.ts', 'note.txt'] }, { engine });
    expect(r.text).toBe(
      '# bundle.zip:src/\n## foo.ts\n*2|needle in zip\n\n# note.txt#CAFD\n*1:needle outside',
    );
    expect(r.details.searchPath).toBe(dir);
  });

  it('no match with a skipped member; a whole archive is a binary file', async () => {
    const r = await run(dir, { pattern: 'zzz', paths: ['bundle.zip:bin.dat', 'note.txt'] }, { engine });
    expect(r.text).toBe(
      'No matches found\nSkipped archive entries (search supports text members only): bundle.zip:bin.dat (binary archive entry)',
    );
    const whole = await run(dir, { pattern: 'needle', paths: 'bundle.zip' }, { engine });
    expect(whole.text).toBe(
      'Nothing was searched.\nNot searched: bundle.zip (a zip archive: search a member as bundle.zip:path/inside)',
    );
  });

  it('zip-format packages (.whl, .jar, .vsix) and a zip known by its bytes are archives too', async () => {
    for (const archive of ['pkg-1.0-py3-none-any.whl', 'lib.jar', 'ext.vsix', 'payload.bin']) {
      const r = await run(dir, { pattern: 'needle', paths: `${archive}:src/foo.ts` }, { engine });
      expect(r.text).toBe(`# ${archive}:src/foo.ts\n*2|needle in zip`);
    }
    const named = await run(dir, { pattern: 'needle', paths: 'lib.jar' }, { engine });
    expect(named.text).toContain(
      'Not searched: lib.jar (a zip archive: search a member as lib.jar:path/inside)',
    );
    const tarred = await run(dir, { pattern: 'needle', paths: 'rel.tar' }, { engine });
    expect(tarred.text).toContain(
      'Not searched: rel.tar (a tar archive: search a member as rel.tar:path/inside)',
    );
  });

  it('a member and a directory: the directory is walked as itself, the member read from memory', async () => {
    const r = await run(dir, { pattern: 'needle', paths: ['bundle.zip:src/foo.ts', 'stage'] }, { engine });
    expect(r.details.files).toEqual(['bundle.zip:src/foo.ts', 'stage/docs/notes.md']);
  });
});

describe('search tool: archives write nothing to disk', () => {
  it('reads zip and tar.gz members with an empty, read-only TMPDIR', () => {
    const tmp = makeTree({});
    fs.chmodSync(tmp, 0o555);
    const core = path.resolve(__dirname, '../dist/index.js');
    const script = `
      const { searchTool } = await import(${JSON.stringify(core)});
      const a = await searchTool({ pattern: 'needle', paths: ['bundle.zip:src/foo.ts', 'rel.tar.gz:docs/notes.md'] }, { cwd: ${JSON.stringify(dir)}, engine: 'js' });
      process.stdout.write(a.text);
    `;
    const scriptFile = path.join(makeTree({ 'run.mjs': script }), 'run.mjs');
    const res = spawnSync(process.execPath, [scriptFile], {
      env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp },
      encoding: 'utf8',
    });
    fs.chmodSync(tmp, 0o755);
    expect(res.stderr).toBe('');
    expect(res.stdout).toContain('## foo.ts\n');
    expect(res.stdout).toContain('*2|needle in tar');
    expect(fs.readdirSync(tmp)).toEqual([]);
  });
});

describe('archives: the members as search reads them, for a tool outside core', () => {
  it('tells an archive by its bytes, finds the selector in an entry, and lists the members', async () => {
    expect(Object.isFrozen(archives)).toBe(true);
    expect(archives.formatOf(path.join(dir, 'payload.bin'))).toBe('zip');
    expect(archives.formatOf(path.join(dir, 'rel.tgz'))).toBe('tar');
    expect(archives.formatOf(path.join(dir, 'note.txt'))).toBeNull();
    const formatOf = (p: string) => archives.formatOf(path.join(dir, p));
    expect(archives.parseSelector('payload.bin:src/foo.ts', formatOf)).toEqual({
      archive: 'payload.bin',
      member: 'src/foo.ts',
      format: 'zip',
    });
    const listed = await archives.listMembers(path.join(dir, 'rel.tar'), 'tar');
    expect(listed).toMatchObject({ ok: true, complete: true });
    expect(listed.ok && listed.members.filter((m) => !m.dir).map((m) => m.path)).toEqual(['docs/notes.md']);
  });
});
