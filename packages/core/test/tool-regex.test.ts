import { beforeAll, describe, expect, it } from 'vitest';
import { hashlineTag } from '../src/tool/index.js';
import { type Engine, makeTree, refusal, run } from './fixtures/tool/helpers.js';

/** The text dollar-brace-platform-brace, a template placeholder in the searched file (not in this test). */
const PLATFORM = '$' + '{platform}';

let dir: string;
beforeAll(() => {
  dir = makeTree({
    'call.txt': 'call foo(bar) here\n',
    'tpl.ts': `const p = \`${PLATFORM}\`;\n`,
    'q.txt': 'xxy\ninterface{}\na{b}c\n',
    'alt.txt': 'json|tool\njson\ntool\n',
    'a.txt': 'foo\nbar\n',
    'three.txt': 'start\nfoo\nbar\nend\nfoo\nbaz\n',
    'routes.ts': "app.get('/a', h);\napp.post('/b', h);\napp.getter = 1;\n",
  });
});

const body = (text: string) => text.split('\n').slice(1).join('\n');
/** The shown file lines of a single-file result (heading and notes left out). */
const matchLines = (text: string) => text.split('\n').filter((l) => /^[* ]\d+[:|]/.test(l));

describe.each<Engine>(['js', 'rg'])('search tool: regex dialect, engine %s', (engine) => {
  it('an unbalanced parenthesis is taken literally, and the text says so', async () => {
    const open = await run(dir, { pattern: 'foo(', paths: 'call.txt' }, { engine });
    expect(open.text).toBe(
      `¶call.txt#${hashlineTag('call foo(bar) here\n')}\n*1:call foo(bar) here\n\n` +
        'Pattern searched as foo\\( (an unbalanced parenthesis was taken literally).',
    );
    expect(matchLines((await run(dir, { pattern: 'bar)', paths: 'call.txt' }, { engine })).text)).toEqual([
      '*1:call foo(bar) here',
    ]);
  });

  it('paren repair escapes only the unbalanced parenthesis: real groups stay groups', async () => {
    // Escaping every paren (the reference's retry) made `(get|post)` a literal and found nothing.
    const r = await run(dir, { pattern: '\\.(get|post)(', paths: 'routes.ts' }, { engine });
    expect(matchLines(r.text)).toEqual(["*1:app.get('/a', h);", "*2:app.post('/b', h);"]);
    expect(r.text).toContain(
      'Pattern searched as \\.(get|post)\\( (an unbalanced parenthesis was taken literally).',
    );
    const escaped = await run(dir, { pattern: '\\.(get|post)\\(', paths: 'routes.ts' }, { engine });
    expect(matchLines(escaped.text)).toEqual(matchLines(r.text));
    expect(escaped.text).not.toContain('Pattern searched as');
  });

  it('a repair that would change the meaning is refused with the readings spelled out', async () => {
    // Escaped, `(foo|bar` would search "(foo" or "bar" and find every "bar" line.
    const r = await refusal(run(dir, { pattern: '(foo|bar', paths: 'a.txt' }, { engine }));
    expect(r.code).toBe('invalid_regex');
    expect(r.message).toContain('two readings, the group "(foo|bar)" or the literal text "\\(foo\\|bar"');
    const named = await refusal(run(dir, { pattern: '(?P<x>foo', paths: 'a.txt' }, { engine }));
    expect(named.message).toContain('the group opened at "(?P<x>foo" is never closed');
  });

  it('a named group in the (?P<name>…) form is a group, as in ripgrep', async () => {
    const r = await run(dir, { pattern: '(?P<fn>foo)\\(bar', paths: 'call.txt' }, { engine });
    expect(matchLines(r.text)).toEqual(['*1:call foo(bar) here']);
    expect(r.text).not.toContain('Pattern searched as');
  });

  it('the $-brace placeholder text is found; escaped forms too', async () => {
    for (const pattern of [PLATFORM, '\\$\\{platform\\}', `\\${PLATFORM}`]) {
      expect(matchLines((await run(dir, { pattern, paths: 'tpl.ts' }, { engine })).text)).toEqual([
        `*1:const p = \`${PLATFORM}\`;`,
      ]);
    }
    const repaired = await run(dir, { pattern: PLATFORM, paths: 'tpl.ts' }, { engine });
    expect(repaired.text).toContain('(a brace that is not a repetition was taken literally)');
  });

  it('a valid repetition stays a repetition; other braces are literal', async () => {
    expect(body((await run(dir, { pattern: 'x{2}y', paths: 'q.txt' }, { engine })).text)).toBe('*1:xxy');
    expect(matchLines((await run(dir, { pattern: 'interface{}', paths: 'q.txt' }, { engine })).text)).toEqual(
      ['*2:interface{}'],
    );
    expect(matchLines((await run(dir, { pattern: 'a{b}c', paths: 'q.txt' }, { engine })).text)).toEqual([
      '*3:a{b}c',
    ]);
  });

  it('look-around is refused as an invalid regex (Rust syntax)', async () => {
    const r = await refusal(run(dir, { pattern: '(?<=f)oo', paths: 'call.txt' }, { engine }));
    expect(r.code).toBe('invalid_regex');
    expect(r.message).toMatch(/^Invalid regex: .*look-around/);
  });

  it('\\| is a literal bar, not alternation', async () => {
    expect(body((await run(dir, { pattern: 'json\\|tool', paths: 'alt.txt' }, { engine })).text)).toBe(
      '*1:json|tool',
    );
    expect((await run(dir, { pattern: 'json|tool', paths: 'alt.txt' }, { engine })).details.matchCount).toBe(
      3,
    );
  });

  it('\\n in the pattern matches across lines in files, every line of the match marked', async () => {
    expect(body((await run(dir, { pattern: 'foo\\nbar', paths: 'a.txt' }, { engine })).text)).toBe(
      '*1:foo\n*2:bar',
    );
    const ctx = await run(
      dir,
      { pattern: 'foo\\nba', paths: 'three.txt' },
      { engine, contextBefore: 1, contextAfter: 1 },
    );
    expect(body(ctx.text)).toBe(' 1:start\n*2:foo\n*3:bar\n 4:end\n*5:foo\n*6:baz');
    const literal = await run(dir, { pattern: 'foo\nbar', paths: 'a.txt' }, { engine });
    expect(body(literal.text)).toBe('*1:foo\n*2:bar');
  });

  it('multi-line matches in a directory count once per match for the per-file cap', async () => {
    const d = makeTree({ 'm.txt': 'ab\ncd\n'.repeat(30) });
    const r = await run(d, { pattern: 'ab\\ncd', paths: '.' }, { engine });
    expect(r.text.split('\n').filter((l) => l.startsWith('*'))).toHaveLength(40);
    expect(r.details.perFileLimited).toEqual([{ path: 'm.txt', nextLine: 41 }]);
  });
});
