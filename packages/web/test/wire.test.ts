// Tokens, wire format, labels, with the reference composer's quirks fixed.
import { describe, expect, it } from 'vitest';
import { parseDirTokens, parseMentions, removeMention } from '../src/tokens/mentions.js';
import { buildFileLabels, dirFullPath, makeRelative } from '../src/tokens/paths.js';
import {
  attachmentToken,
  buildWire,
  parseDirs,
  resolveDirSegment,
  segmentMessage,
  serializeDirTokens,
  spliceAttachments,
} from '../src/tokens/wire.js';

const rels = (text: string) => parseDirTokens(text).map((t) => t.rel);

describe('parseDirTokens', () => {
  it('extracts boundary-checked @rel/ tokens in appearance order', () => {
    const t = parseDirTokens('check @docs/ and @src/pages/ please');
    expect(t.map((x) => x.rel)).toEqual(['docs/', 'src/pages/']);
    expect(t[0]!.token).toBe('@docs/');
  });
  it('dedupes a repeated token', () => {
    expect(parseDirTokens('@docs/ then @docs/ again')).toHaveLength(1);
  });
  it('ignores file tokens (no trailing slash) and mid-word @', () => {
    expect(rels('see @src/main.ts and mail a@b.c/ now')).toEqual([]);
  });
  it('ignores URLs and slash-only bodies', () => {
    expect(rels('go to @https://example.com/ or @/ maybe @\\')).toEqual([]);
  });
  it('keeps a token followed by punctuation or wrapped in brackets (one grammar with files)', () => {
    expect(rels('@src/pages/, then')).toEqual(['src/pages/']);
    expect(rels('(@src/pages/)')).toEqual(['src/pages/']);
    expect(rels('see "@docs/".')).toEqual(['docs/']);
  });
  it('accepts absolute and Windows-shaped rels; a final backslash is a folder too)', () => {
    expect(rels('@/Users/me/demo/')).toEqual(['/Users/me/demo/']);
    expect(rels('@src\\pages/')).toEqual(['src\\pages/']);
    expect(rels('@src\\pages\\')).toEqual(['src\\pages\\']);
  });
  it('does not allow @ in a body, and a newline is whitespace', () => {
    expect(rels('@a@b/')).toEqual([]);
    expect(rels('x @docs/\ny')).toEqual(['docs/']);
  });
  it('keeps a longer sibling distinct', () => {
    expect(rels('@src/pages/ vs @src/pages/sub/')).toEqual(['src/pages/', 'src/pages/sub/']);
  });
});

describe('parseMentions (files)', () => {
  it('reads a :line suffix off a file mention and keeps the name whole', () => {
    const [m] = parseMentions('open @src/main.ts:42, please');
    expect(m).toMatchObject({ kind: 'file', rel: 'src/main.ts', line: 42 });
  });
  it('treats trailing punctuation clusters and wrappers as outside the token', () => {
    expect(parseMentions('@src/main.ts?!')[0]!.rel).toBe('src/main.ts');
    expect(parseMentions('(@report)')[0]!.rel).toBe('report');
    expect(parseMentions('@src/main.ts.bak')[0]!.rel).toBe('src/main.ts.bak');
  });
});

describe('removeMention', () => {
  it('strips the token and one following space, keeping the boundary before it', () => {
    expect(removeMention('look @docs/ now', 'docs/', 'dir')).toBe('look now');
    expect(removeMention('a @docs/\nb', 'docs/', 'dir')).toBe('a \nb');
  });
  it('leaves a longer sibling token alone', () => {
    expect(removeMention('@docs/ @docs/sub/ x', 'docs/', 'dir')).toBe('@docs/sub/ x');
  });
  it('removes adjacent repeats too)', () => {
    expect(removeMention('@docs/ @docs/ x', 'docs/', 'dir')).toBe('x');
  });
  it('takes a wrapper, a :line and punctuation with a file token', () => {
    expect(removeMention('please check (@src/main.ts) for bugs', 'src/main.ts', 'file')).toBe(
      'please check for bugs',
    );
    expect(removeMention('see @a.ts:3, ok', 'a.ts', 'file')).toBe('see ok');
  });
  it('does not touch a folder token when removing a file of the same rel', () => {
    expect(removeMention('@src/ @src', 'src', 'file')).toBe('@src/ ');
  });
});

describe('dirFullPath', () => {
  it('joins a relative token against the project root, without trailing slash', () => {
    expect(dirFullPath('src/pages/', '/repo')).toBe('/repo/src/pages');
    expect(dirFullPath('src/pages/', '/repo/')).toBe('/repo/src/pages');
  });
  it('passes an absolute rel through unchanged (picker fallback outside the root)', () => {
    expect(dirFullPath('/other/place/', '/repo')).toBe('/other/place');
    expect(dirFullPath('C:/x/', '/repo')).toBe('C:\\x');
    expect(dirFullPath('\\\\host\\share\\', '/repo')).toBe('\\\\host\\share');
  });
  it('joins with a backslash for a Windows project root, never mixing separators)', () => {
    expect(dirFullPath('src\\pages\\', 'C:\\repo')).toBe('C:\\repo\\src\\pages');
    expect(dirFullPath('src/pages/', 'C:\\repo')).toBe('C:\\repo\\src\\pages');
    expect(dirFullPath('src/pages/', 'C:/repo')).toBe('C:\\repo\\src\\pages');
  });
  it('normalises ./ and ../ lexically), and never expands ~', () => {
    expect(dirFullPath('./src/', '/repo')).toBe('/repo/src');
    expect(dirFullPath('../lib/', '/work/repo')).toBe('/work/lib');
    expect(dirFullPath('../../../x/', '/a')).toBe('/x');
    expect(dirFullPath('~/docs/', '/repo')).toBe('/repo/~/docs');
  });
  it('returns the rel trimmed without a project', () => {
    expect(dirFullPath('docs/', '')).toBe('docs');
  });
});

describe('makeRelative', () => {
  it('strips a POSIX root', () => expect(makeRelative('/repo/src/pages', '/repo')).toBe('src/pages'));
  it('strips a Windows root', () =>
    expect(makeRelative('C:\\repo\\src\\pages', 'C:\\repo')).toBe('src\\pages'));
  it('strips a Windows root that already ends in a separator', () =>
    expect(makeRelative('C:\\repo\\src', 'C:\\repo\\')).toBe('src'));
  it('returns the path unchanged when the root does not match', () =>
    expect(makeRelative('/other/src', '/repo')).toBe('/other/src'));
  it('returns the path unchanged with an empty root', () =>
    expect(makeRelative('/repo/src', '')).toBe('/repo/src'));
  it('does not strip a sibling that shares the prefix', () =>
    expect(makeRelative('/repo2/a', '/repo')).toBe('/repo2/a'));
});

describe('buildFileLabels', () => {
  it.each([
    [
      ['/a/pages', '/b/pages'],
      ['a/pages', 'b/pages'],
    ],
    [
      ['/a/x/report.docx', '/b/x/report.docx'],
      ['a/x/report.docx', 'b/x/report.docx'],
    ],
    [
      ['/repo/docs', '/repo/website/docs', '/repo/a.txt'],
      ['repo/docs', 'website/docs', 'a.txt'],
    ],
    [
      ['/a/b/c', '/x/b/c', '/y/z/c'],
      ['a/b/c', 'x/b/c', 'z/c'],
    ],
    [
      ['c', '/x/c'],
      ['c', 'x/c'],
    ],
    [
      ['/same', '/same'],
      ['same', 'same'],
    ],
    [['C:\\repo\\src\\widgets'], ['widgets']],
  ])('%j → %j', (paths, labels) => {
    expect(buildFileLabels(paths)).toEqual(labels);
  });
});

describe('serializeDirTokens', () => {
  it('rewrites each token to [attached_dir N] with the absolute path', () => {
    expect(serializeDirTokens('look in @docs/ and @src/pages/ now', '/repo')).toEqual({
      text: 'look in [attached_dir 1] /repo/docs and [attached_dir 2] /repo/src/pages now',
      dirs: ['/repo/docs', '/repo/src/pages'],
    });
  });
  it('is a no-op without folder tokens', () => {
    expect(serializeDirTokens('plain text with @file.ts', '/repo')).toEqual({
      text: 'plain text with @file.ts',
      dirs: [],
    });
  });
  it('a repeated token gets the same marker number', () => {
    expect(serializeDirTokens('@docs/ and @docs/ again', '/repo').text).toBe(
      '[attached_dir 1] /repo/docs and [attached_dir 1] /repo/docs again',
    );
  });
  it('never rewrites inside a longer sibling token', () => {
    expect(serializeDirTokens('@src/pages/ vs @src/pages/sub/', '/repo').text).toBe(
      '[attached_dir 1] /repo/src/pages vs [attached_dir 2] /repo/src/pages/sub',
    );
  });
  it('inserts a path containing replacement patterns literally', () => {
    expect(serializeDirTokens('see @$1/ now', '/re$&po').text).toBe('see [attached_dir 1] /re$&po/$1 now');
  });
  it('keeps punctuation and wrappers around a rewritten token', () => {
    expect(serializeDirTokens('(@docs/), fine', '/repo').text).toBe('([attached_dir 1] /repo/docs), fine');
  });
});

describe('buildWire (files and folders)', () => {
  const picked = [{ rel: 'src/main.ts', path: '/repo/src/main.ts' }];
  it('numbers files and folders separately, each in appearance order, with meta in the same order', () => {
    const r = buildWire('check @src/main.ts:3 in @src/ and @lib/, @src/main.ts', '/repo', picked);
    expect(r.wire).toBe(
      'check [attached_file 1] /repo/src/main.ts:3 in [attached_dir 1] /repo/src and [attached_dir 2] /repo/lib, [attached_file 1] /repo/src/main.ts',
    );
    expect(r.meta).toEqual({
      files: [{ path: '/repo/src/main.ts', name: 'main.ts' }],
      dirs: [
        { path: '/repo/src', label: 'src' },
        { path: '/repo/lib', label: 'lib' },
      ],
    });
  });
  it('leaves a hand-typed @name that no pick recorded as text, and sends no empty meta keys', () => {
    expect(buildWire('ask @alice about it', '/repo', picked)).toEqual({
      wire: 'ask @alice about it',
      meta: {},
    });
  });
});

describe('parseDirs', () => {
  it('prefers meta.dirs over content markers', () => {
    expect(parseDirs('[attached_dir 1] /wrong', { dirs: [{ path: '/repo/docs', label: 'docs' }] })).toEqual([
      '/repo/docs',
    ]);
  });
  it('falls back to scanning markers when meta is absent', () => {
    expect(parseDirs('a [attached_dir 1] /repo/docs b [attached_dir 2] /repo/src', undefined)).toEqual([
      '/repo/docs',
      '/repo/src',
    ]);
  });
  it('blanks malformed members in place so marker numbers stay aligned)', () => {
    expect(parseDirs('', { dirs: [42, '/repo/b', { path: 7 }, { path: '/repo/d' }] })).toEqual([
      '',
      '/repo/b',
      '',
      '/repo/d',
    ]);
    expect(parseDirs('[attached_dir 1] /x', { dirs: 'oops' })).toEqual(['/x']);
  });
});

describe('resolveDirSegment', () => {
  it('rewrites markers back to @label/ tokens with a label->path map', () => {
    const r = resolveDirSegment('see [attached_dir 1] /repo/docs now', ['/repo/docs']);
    expect(r.display).toBe('see @docs/ now');
    expect([...r.dirMentionMap]).toEqual([['docs/', '/repo/docs']]);
  });
  it('recovers a path with spaces losslessly via the meta index', () => {
    const r = resolveDirSegment('see [attached_dir 1] /repo/my docs now', ['/repo/my docs']);
    expect(r.display).toBe('see @"my docs/" now');
    expect(r.dirMentionMap.get('my docs/')).toBe('/repo/my docs');
    expect(parseDirTokens(r.display).map((t) => t.rel)).toEqual(['my docs/']);
  });
  it('widens colliding basenames so both chips resolve distinctly', () => {
    const r = resolveDirSegment('[attached_dir 1] /a/pages and [attached_dir 2] /b/pages', [
      '/a/pages',
      '/b/pages',
    ]);
    expect(r.display).toBe('@a/pages/ and @b/pages/');
    expect(r.dirMentionMap.get('a/pages/')).toBe('/a/pages');
    expect(r.dirMentionMap.get('b/pages/')).toBe('/b/pages');
  });
  it('labels a Windows path by segment, not as one giant string', () => {
    const r = resolveDirSegment('see [attached_dir 1] C:\\repo\\src\\widgets now', [
      'C:\\repo\\src\\widgets',
    ]);
    expect(r.display).toBe('see @widgets/ now');
    expect(r.dirMentionMap.get('widgets/')).toBe('C:\\repo\\src\\widgets');
  });
  it('maps fresh @rel/ display tokens to their meta path (optimistic bubble shape)', () => {
    const r = resolveDirSegment('look in @src/pages/ now', ['/repo/src/pages']);
    expect(r.display).toBe('look in @src/pages/ now');
    expect(r.dirMentionMap.get('src/pages/')).toBe('/repo/src/pages');
  });
  it('without meta, reads a marker path up to the next space (the lossy fallback)', () => {
    const r = resolveDirSegment('[attached_dir 1] /repo/my docs', []);
    expect(r.display).toBe('@my/ docs');
    expect(r.dirMentionMap.get('my/')).toBe('/repo/my');
  });
  it('leaves unrelated text untouched', () => {
    const r = resolveDirSegment('nothing here', []);
    expect(r.display).toBe('nothing here');
    expect(r.dirMentionMap.size).toBe(0);
  });
});

describe('segmentMessage (bubble chips)', () => {
  it('turns tokens the meta knows into chips, losslessly for a project path with spaces', () => {
    const meta = {
      dirs: [{ path: '/home/me/my repo/src', label: 'src' }],
      files: [{ path: '/home/me/my repo/a.ts', name: 'a.ts' }],
    };
    expect(segmentMessage('see @src/ and @a.ts:2.', meta, '/home/me/my repo')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'dir', token: '@src/', rel: 'src/', path: '/home/me/my repo/src' },
      { kind: 'text', text: ' and ' },
      { kind: 'file', token: '@a.ts', rel: 'a.ts', path: '/home/me/my repo/a.ts', line: 2 },
      { kind: 'text', text: ':2.' },
    ]);
  });
  it('leaves a plain sentence with slash-less mentions untouched', () => {
    expect(segmentMessage('email a@b.c/ and read @notes.md now', {}, '/repo')).toEqual([
      { kind: 'text', text: 'email a@b.c/ and read @notes.md now' },
    ]);
  });
});

const dirs = (...rels: string[]) => rels.map((rel) => ({ kind: 'dir' as const, rel }));
const splice = (value: string, caret: number | null, rels: string[]) => {
  const { refused, ...rest } = spliceAttachments(value, caret, dirs(...rels));
  expect(refused).toEqual([]);
  return rest;
};

describe('spliceAttachments', () => {
  it('appends a boundary-checked @path/ token when the caret is unknown', () => {
    const r = splice('', null, ['/Users/me/demo']);
    expect(r).toEqual({ value: '@/Users/me/demo/ ', caret: '@/Users/me/demo/ '.length, changed: true });
    expect(rels(r.value)).toEqual(['/Users/me/demo/']);
  });
  it('pads with a leading space when appending after existing text', () => {
    expect(splice('look here', null, ['docs']).value).toBe('look here @docs/ ');
  });
  it('inserts at the caret with whitespace padding on both sides', () => {
    const r = splice('check then send', 5, ['src/pages']);
    expect(r.value).toBe('check @src/pages/  then send');
    expect(r.caret).toBe('check @src/pages/ '.length);
  });
  it('keeps an existing trailing separator instead of doubling it', () => {
    expect(splice('', null, ['docs/']).value).toBe('@docs/ ');
    expect(splice('', null, ['src\\pages\\']).value).toBe('@src\\pages\\ ');
  });
  it('skips a rel whose token is already present, and says nothing changed', () => {
    expect(splice('see @docs/ now', null, ['docs'])).toEqual({
      value: 'see @docs/ now',
      caret: 14,
      changed: false,
    });
    expect(splice('see @docs/ now', null, ['docs', 'src']).changed).toBe(true);
  });
  it('dedupes within one batch, and inserts several folders as separate tokens', () => {
    expect(splice('', null, ['docs', 'docs/']).value).toBe('@docs/ ');
    expect(rels(splice('', null, ['a', 'b']).value)).toEqual(['a/', 'b/']);
  });
  it('clamps an out-of-range caret to the value length', () => {
    expect(splice('hi', 99, ['docs']).value).toBe('hi @docs/ ');
  });
});

describe('attachments from the Files rail', () => {
  it('writes a file as @rel and a folder as @rel/, each read back by the one mention grammar', () => {
    const r = spliceAttachments('see', null, [
      { kind: 'file', rel: 'src/main.ts' },
      { kind: 'dir', rel: 'docs' },
    ]);
    expect(r.value).toBe('see @src/main.ts @docs/ ');
    expect(r.refused).toEqual([]);
    expect(parseMentions(r.value).map((m) => [m.kind, m.rel])).toEqual([
      ['file', 'src/main.ts'],
      ['dir', 'docs/'],
    ]);
  });
  it('quotes the names a bare token cannot carry, and reads every one back exactly', () => {
    const names = [
      'my docs/a.md',
      'a@b.ts',
      'notes.',
      'build:12',
      'x)',
      'say "hi".md',
      'back\\slash "q\\x',
      '"x"',
    ];
    for (const rel of names) {
      const token = attachmentToken({ kind: 'file', rel });
      expect(token, rel).toMatch(/^@"/);
      const back = parseMentions(`see ${token}, ok`);
      expect(
        back.map((m) => [m.kind, m.rel, m.line]),
        rel,
      ).toEqual([['file', rel, undefined]]);
    }
    expect(attachmentToken({ kind: 'file', rel: 'plain.md' })).toBe('@plain.md');
    expect(attachmentToken({ kind: 'dir', rel: 'my docs' })).toBe('@"my docs/"');
    expect(parseMentions('@"my docs/"')[0]).toMatchObject({ kind: 'dir', rel: 'my docs/' });
    expect(attachmentToken({ kind: 'file', rel: 'two\nlines' })).toBeNull();
    const r = spliceAttachments('', null, [
      { kind: 'file', rel: 'my notes.md' },
      { kind: 'file', rel: 'ok.md' },
    ]);
    expect(r).toEqual({ value: '@"my notes.md" @ok.md ', caret: 22, changed: true, refused: [] });
  });
  it('a line range rides after the token as :N-M, bare or quoted, and stays on the wire after the path', () => {
    expect(parseMentions('see @src/a.ts:10-20.')[0]).toMatchObject({
      rel: 'src/a.ts',
      line: 10,
      endLine: 20,
    });
    expect(parseMentions('@"my a.ts":3-4')[0]).toMatchObject({ rel: 'my a.ts', line: 3, endLine: 4 });
    expect(attachmentToken({ kind: 'file', rel: 'src/a.ts', lines: { from: 10, to: 20 } })).toBe(
      '@src/a.ts:10-20',
    );
    expect(attachmentToken({ kind: 'file', rel: 'src/a.ts', lines: { from: 7, to: 7 } })).toBe('@src/a.ts:7');
    const r = spliceAttachments('@src/a.ts ', null, [
      { kind: 'file', rel: 'src/a.ts', lines: { from: 1, to: 2 } },
    ]);
    expect(r.value).toBe('@src/a.ts @src/a.ts:1-2 ');
    const { wire } = buildWire(r.value, '/p', [{ rel: 'src/a.ts', path: '/p/src/a.ts' }]);
    expect(wire).toBe('[attached_file 1] /p/src/a.ts [attached_file 1] /p/src/a.ts:1-2 ');
  });
  it('a quoted token takes a line suffix, wrappers and punctuation like a bare one', () => {
    const [m] = parseMentions('open (@"my file.ts":42), please');
    expect(m).toMatchObject({ kind: 'file', rel: 'my file.ts', line: 42 });
    expect('open (@"my file.ts":42), please'.slice(m!.start, m!.end)).toBe('@"my file.ts"');
    expect(removeMention('open (@"my file.ts":42), please', 'my file.ts', 'file')).toBe('open please');
  });
  it('a quoted token goes on the wire as the seed marker with the absolute path, and back to a chip', () => {
    const picked = [{ rel: 'my notes@2.md', path: '/p/my notes@2.md' }];
    const text = 'read @"my notes@2.md" now';
    const { wire, meta } = buildWire(text, '/p', picked);
    expect(wire).toBe('read [attached_file 1] /p/my notes@2.md now');
    expect(meta.files).toEqual([{ path: '/p/my notes@2.md', name: 'my notes@2.md' }]);
    const segs = segmentMessage(text, meta, '/p');
    expect(segs.filter((x) => x.kind === 'file')).toEqual([
      { kind: 'file', token: '@"my notes@2.md"', rel: 'my notes@2.md', path: '/p/my notes@2.md' },
    ]);
  });
  it('does not take a folder token for the file of the same name, or the reverse', () => {
    expect(spliceAttachments('@docs/ ', null, [{ kind: 'file', rel: 'docs' }]).value).toBe('@docs/ @docs ');
    expect(spliceAttachments('@a.md ', null, [{ kind: 'file', rel: 'a.md' }]).changed).toBe(false);
  });
});
