/**
 * Syntax highlighting, loaded on first use: highlight.js's core and each language's grammar are chunks of their own,
 * fetched the first time a block or file in that language is shown, so the first load carries none of them.
 *
 * The result is data, never HTML: lines of `{cls, text}` runs that a caller renders as `<span className>` text. What
 * a file or a reply contains can therefore never become markup, whatever highlight.js does with it.
 */
import type { HLJSApi, LanguageFn } from 'highlight.js';
import { useEffect, useState } from 'react';

/** One run of text and the highlight.js classes over it (`''`: plain). */
export interface Run {
  cls: string;
  text: string;
}
/** A highlighted line: its runs, in order; the line's text is their concatenation. */
export type HighlightedLine = Run[];

/**
 * Past this many characters nothing is highlighted: a grammar's cost grows with the text and runs on the page's
 * thread, and a 1 MiB file would hold the page for a second.
 */
export const HIGHLIGHT_MAX_CHARS = 200_000;

type Loader = () => Promise<{ default: LanguageFn }>;

/** The grammars we ship, by highlight.js name; each `import()` is a chunk of its own. */
const GRAMMARS: Readonly<Record<string, Loader>> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  go: () => import('highlight.js/lib/languages/go'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  php: () => import('highlight.js/lib/languages/php'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

/** Fence names and file extensions that mean one of {@link GRAMMARS}. */
const ALIASES: Readonly<Record<string, string>> = {
  sh: 'bash',
  zsh: 'bash',
  ksh: 'bash',
  console: 'shell',
  shellsession: 'shell',
  h: 'c',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  'c++': 'cpp',
  cs: 'csharp',
  patch: 'diff',
  docker: 'dockerfile',
  golang: 'go',
  toml: 'ini',
  cfg: 'ini',
  conf: 'ini',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  node: 'javascript',
  jsonc: 'json',
  json5: 'json',
  kt: 'kotlin',
  kts: 'kotlin',
  make: 'makefile',
  mk: 'makefile',
  md: 'markdown',
  mdx: 'markdown',
  py: 'python',
  python3: 'python',
  rb: 'ruby',
  rs: 'rust',
  sass: 'scss',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  html: 'xml',
  htm: 'xml',
  svg: 'xml',
  xhtml: 'xml',
  yml: 'yaml',
};

/** Whole file names that say their language (no extension to go by). */
const FILE_NAMES: Readonly<Record<string, string>> = {
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  gnumakefile: 'makefile',
  '.bashrc': 'bash',
  '.zshrc': 'bash',
  '.profile': 'bash',
};

/**
 * The grammar a code fence's info string names (` ```ts title="x" ` → `typescript`), or undefined when we have none
 * (the block is then shown plain).
 */
export function languageForFence(info: string | undefined): string | undefined {
  const word = (info ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  const name = word.replace(/^\{?\.?/, '').replace(/\}$/, '');
  if (name === '') return undefined;
  if (Object.hasOwn(GRAMMARS, name)) return name;
  return Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;
}

/** The grammar a file's name implies (`src/main.ts` → `typescript`, `Makefile` → `makefile`), or undefined. */
export function languageForPath(path: string): string | undefined {
  const base = (path.split(/[/\\]/).pop() ?? '').toLowerCase();
  if (Object.hasOwn(FILE_NAMES, base)) return FILE_NAMES[base];
  const dot = base.lastIndexOf('.');
  return dot > 0 ? languageForFence(base.slice(dot + 1)) : undefined;
}

let core: Promise<HLJSApi> | undefined;
const registered = new Map<string, Promise<void>>();

function loadCore(): Promise<HLJSApi> {
  core ??= import('highlight.js/lib/core').then((m) => m.default as HLJSApi);
  return core;
}

function loadLanguage(hljs: HLJSApi, name: string): Promise<void> {
  let p = registered.get(name);
  if (!p) {
    const load = GRAMMARS[name];
    if (!load) return Promise.reject(new Error(`no grammar ${name}`));
    p = load().then((m) => hljs.registerLanguage(name, m.default));
    // A failed chunk load (server gone) is tried again next time rather than remembered.
    p.catch(() => registered.delete(name));
    registered.set(name, p);
  }
  return p;
}

/**
 * Highlights `code` as `language` (a name {@link languageForFence} or {@link languageForPath} returned). Resolves to
 * its lines, or null when there is nothing to do: an unknown language, text over {@link HIGHLIGHT_MAX_CHARS}, or a
 * grammar that could not be loaded. Never rejects.
 */
export async function highlight(code: string, language: string): Promise<HighlightedLine[] | null> {
  if (code.length > HIGHLIGHT_MAX_CHARS || !Object.hasOwn(GRAMMARS, language)) return null;
  try {
    const hljs = await loadCore();
    await loadLanguage(hljs, language);
    // Sub-languages a grammar embeds (xml's <script>, markdown's fences) stay plain unless already loaded.
    return toLines(hljs.highlight(code, { language, ignoreIllegals: true }).value);
  } catch {
    return null;
  }
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
};
const decode = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e] ?? e);

/**
 * highlight.js's output as lines of runs. It escapes every character of the source and adds only
 * `<span class="…">` and `</span>`, so those three shapes are all there is to read; anything else is kept as text.
 */
export function toLines(html: string): HighlightedLine[] {
  const lines: HighlightedLine[] = [[]];
  const stack: string[] = [];
  const push = (text: string) => {
    const parts = text.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part !== '') lines[lines.length - 1]!.push({ cls: stack.join(' '), text: part });
    });
  };
  const re = /<span class="([^"<>]*)">|<\/span>|[^<]+|</g;
  for (const m of html.matchAll(re)) {
    if (m[1] !== undefined) stack.push(m[1]);
    else if (m[0] === '</span>') stack.pop();
    else push(decode(m[0]));
  }
  return lines;
}

/**
 * The hook both the thread and the file viewer use: null until the grammar has loaded and run (render the text plain
 * meanwhile), then the lines. `language` undefined, or `enabled` false (a code block still streaming), keeps it plain.
 */
export function useHighlight(
  code: string,
  language: string | undefined,
  enabled = true,
): HighlightedLine[] | null {
  const [result, setResult] = useState<{ code: string; language: string; lines: HighlightedLine[] } | null>(
    null,
  );
  useEffect(() => {
    if (!enabled || !language) return;
    let live = true;
    void highlight(code, language).then((lines) => {
      if (live && lines) setResult({ code, language, lines });
    });
    return () => {
      live = false;
    };
  }, [code, language, enabled]);
  return result && result.code === code && result.language === language ? result.lines : null;
}
