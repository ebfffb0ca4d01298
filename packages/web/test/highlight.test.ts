import { describe, expect, it } from 'vitest';
import { decodeEntities, safeHref } from '../src/thread/Markdown.js';
import { highlight, languageForFence, languageForPath, toLines } from '../src/ui/highlight.js';

describe('highlighting', () => {
  it('reads highlight.js output as lines of runs, a span that crosses a newline carried onto the next line', () => {
    const html =
      '<span class="hljs-comment">/* a\nb */</span> x &lt; &quot;y&quot; &amp;&#x27;\n<span class="hljs-keyword">if</span>';
    expect(toLines(html)).toEqual([
      [{ cls: 'hljs-comment', text: '/* a' }],
      [
        { cls: 'hljs-comment', text: 'b */' },
        { cls: '', text: ` x < "y" &'` },
      ],
      [{ cls: 'hljs-keyword', text: 'if' }],
    ]);
  });

  it('keeps any other markup as the text it is', () => {
    expect(toLines('<img src=x onerror=1>')).toEqual([
      [
        { cls: '', text: '<' },
        { cls: '', text: 'img src=x onerror=1>' },
      ],
    ]);
  });

  it('names grammars from fences and file names, and none for what it does not ship', () => {
    expect(languageForFence('ts title="a.ts"')).toBe('typescript');
    expect(languageForFence('{.python}')).toBe('python');
    expect(languageForFence('Shell')).toBe('shell');
    expect(languageForFence('brainfuck')).toBeUndefined();
    expect(languageForFence('')).toBeUndefined();
    expect(languageForPath('src/App.tsx')).toBe('typescript');
    expect(languageForPath('pkg/Makefile')).toBe('makefile');
    expect(languageForPath('.env')).toBeUndefined();
    expect(languageForFence('constructor')).toBeUndefined();
  });

  it('highlights with the grammar loaded on demand, and declines what is too long or unknown', async () => {
    const lines = await highlight('const a = 1;\nlet b = "s";', 'typescript');
    expect(lines?.map((l) => l.map((r) => r.text).join(''))).toEqual(['const a = 1;', 'let b = "s";']);
    expect(lines?.[0]?.[0]).toEqual({ cls: 'hljs-keyword', text: 'const' });
    expect(await highlight('x'.repeat(200_001), 'typescript')).toBeNull();
    expect(await highlight('x', 'cobol')).toBeNull();
  });
});

describe('reply links', () => {
  it('follows http, https and mailto only, judged as a browser would read the address', () => {
    expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'java\tscript:alert(1)',
      ' javascript:alert(1)',
      'jav&#x61;script:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      'file:///etc/passwd',
      '/api/conversations',
      '#top',
    ]) {
      expect(safeHref(bad), bad).toBeNull();
    }
  });

  it('decodes character references as CommonMark does', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &#65;&#x42; &#0; &nosuch')).toBe(
      'a & b <c> AB \ufffd &nosuch',
    );
  });
});
