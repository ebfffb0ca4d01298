// The Files rail's search and content results, and the grep call.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, retryWhenBusy } from '../../src/api/client.js';
import { api } from '../../src/api/endpoints.js';
import { FilesRail, GREP_DEBOUNCE_MS } from '../../src/files/FilesRail.js';
import { findFolded } from '../../src/files/highlight.js';
import type { DebounceTimers } from '../../src/ui/useDebounced.js';
import { type Call, fakeServer, HttpError, handClock, never, renderWithQuery, row } from './helpers.js';

afterEach(() => vi.unstubAllGlobals());

const tree = (c: Call) => {
  const p = c.params.get('path') ?? '';
  if (p === '')
    return {
      root: '/repo',
      path: '',
      entries: [row('src', 'dir'), row('README.md', 'file', 10)],
      truncated: false,
    };
  if (p === 'src')
    return { root: '/repo', path: 'src', entries: [row('src/a.ts', 'file', 10)], truncated: false };
  return new HttpError(404, { error: 'not a directory', code: 'not_a_directory' });
};
const grepAnswer = {
  results: [
    { file: 'src/a.ts', line: 12, preview: 'const NEEDLE = 1;', ranges: [[6, 12]], count: 2 },
    { file: 'src/a.ts', line: 30, preview: 'return needle;', ranges: [[7, 13]], count: 2 },
    { file: 'docs/spec.docx', line: 0, preview: 'the needle in a doc', label: '' },
  ],
  truncated: false,
  engine: 'rg',
  skipped_docs: 0,
  root: '/repo',
};

function mount(
  routes: Record<string, (c: Call) => unknown> = {},
  project = '/repo',
  timers?: DebounceTimers,
) {
  const server = fakeServer({ 'GET /api/tree': tree, 'POST /api/file-grep': () => grepAnswer, ...routes });
  const onOpenFile = vi.fn();
  const r = renderWithQuery(<FilesRail project={project} onOpenFile={onOpenFile} reveal={null} />, timers);
  return { ...r, server, onOpenFile, grep: () => server.to('POST', '/api/file-grep') };
}
const content = () => fireEvent.click(screen.getByRole('button', { name: /search file contents/i }));
const field = () => screen.getByRole('searchbox');

describe('FilesRail tree', () => {
  it('lists the project root and opens a folder lazily, then a file', async () => {
    const m = mount();
    fireEvent.click(await screen.findByRole('treeitem', { name: /src/ }));
    fireEvent.click(await screen.findByRole('treeitem', { name: /a\.ts/ }));
    expect(m.onOpenFile).toHaveBeenCalledWith('src/a.ts');
    expect(m.server.to('GET', '/api/tree').map((c) => c.params.get('path'))).toEqual(['', 'src']);
  });
});

describe('FilesRail search-mode toggle', () => {
  it('names both modes in words with aria-pressed, starting on Name', async () => {
    mount();
    const name = screen.getByRole('button', { name: /search file names/i });
    expect(name.textContent).toBe('Name');
    expect(name.getAttribute('aria-pressed')).toBe('true');
    expect(field().getAttribute('placeholder')).toBe('Filter files…');
    content();
    expect(screen.getByRole('button', { name: /search file contents/i }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(field().getAttribute('placeholder')).toBe('Search in files…');
  });

  it('clears the query on Escape and from the X button, and leaves it on other keys', () => {
    mount();
    fireEvent.change(field(), { target: { value: 'rail' } });
    fireEvent.keyDown(field(), { key: 'Enter' });
    expect((field() as HTMLInputElement).value).toBe('rail');
    fireEvent.keyDown(field(), { key: 'Escape' });
    expect((field() as HTMLInputElement).value).toBe('');
    fireEvent.change(field(), { target: { value: 'rail' } });
    fireEvent.click(screen.getByRole('button', { name: 'Close search' }));
    expect((field() as HTMLInputElement).value).toBe('');
  });

  it('asks for nothing below the two-character floor', async () => {
    const clock = handClock();
    const m = mount({}, '/repo', clock.timers);
    content();
    fireEvent.change(field(), { target: { value: 'n' } });
    await screen.findByText(/at least two characters/);
    clock.advance(GREP_DEBOUNCE_MS);
    expect(m.grep()).toHaveLength(0);
    // The control: two characters ask, exactly when the window has passed, and only for them.
    fireEvent.change(field(), { target: { value: 'ne' } });
    clock.advance(GREP_DEBOUNCE_MS - 1);
    expect(m.grep()).toHaveLength(0);
    clock.advance(1);
    await screen.findByTitle('src/a.ts');
    expect(m.grep().map((c) => (c.body as { q: string }).q)).toEqual(['ne']);
  });

  it('debounces to ONE request for a burst of keystrokes, POSTing root and query in the body', async () => {
    const m = mount();
    content();
    for (const v of ['ne', 'nee', 'need', 'needl', 'needle'])
      fireEvent.change(field(), { target: { value: v } });
    await screen.findByTitle('src/a.ts');
    expect(m.grep()).toHaveLength(1);
    expect(m.grep()[0]!.body).toEqual({ root: '/repo', q: 'needle', per_file: 5 });
  });
});

describe('FilesRail content results', () => {
  async function search(m: ReturnType<typeof mount>) {
    content();
    fireEvent.change(field(), { target: { value: 'needle' } });
    await screen.findByTitle('src/a.ts');
    return m;
  }

  const lineButtons = () => [...document.querySelectorAll<HTMLElement>('.hit-line')];

  it('groups the lines under their file with its count, opens a line at its line and a document at its passage', async () => {
    const m = await search(mount());
    const file = screen.getByTitle('src/a.ts');
    // A disclosure button: the name, then the count, read as words.
    expect(file.getAttribute('aria-expanded')).toBe('true');
    expect(file.textContent).toBe('a.tssrc/2 matching lines');
    expect(within(file).getByTestId('hit-count').textContent).toBe('2 matching lines');
    const lines = document.getElementById(file.getAttribute('aria-controls')!)!;
    expect([...lines.querySelectorAll('.hit-line')].map((b) => b.textContent)).toEqual([
      'line 12const NEEDLE = 1;',
      'line 30return needle;',
    ]);
    expect([...lines.querySelectorAll('mark')].map((x) => x.textContent)).toEqual(['NEEDLE', 'needle']);
    fireEvent.click(lineButtons()[1]!);
    expect(m.onOpenFile).toHaveBeenCalledWith('src/a.ts', 30);
    // A document has no line and no count: the viewer finds the hit's passage (its preview) in the text.
    const doc = screen.getByTitle('docs/spec.docx');
    expect(within(doc).queryByTestId('hit-count')).toBeNull();
    fireEvent.click(lineButtons()[2]!);
    expect(m.onOpenFile).toHaveBeenLastCalledWith('docs/spec.docx', undefined, 'the needle in a doc');
    expect(screen.getByTestId('file-grep-doc-note').textContent).toMatch(/matching passage marked/);
  });

  it('collapses and expands a file by click and by Left/Right, and moves through files and lines with Up/Down', async () => {
    await search(mount());
    const file = screen.getByTitle('src/a.ts');
    fireEvent.click(file);
    expect(file.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById(file.getAttribute('aria-controls')!)).toBeNull();
    fireEvent.click(file);
    expect(lineButtons()).toHaveLength(3);
    file.focus();
    fireEvent.keyDown(file, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(lineButtons()[0]);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(lineButtons()[1]);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByTitle('docs/spec.docx'));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(file);
    fireEvent.keyDown(file, { key: 'ArrowLeft' });
    expect(file.getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(file, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByTitle('docs/spec.docx'));
    fireEvent.keyDown(file, { key: 'ArrowRight' });
    expect(file.getAttribute('aria-expanded')).toBe('true');
  });

  it('shows more of a file by asking the same search narrowed to that file, at the per-file ceiling', async () => {
    const five = [1, 2, 3, 4, 5].map((l) => ({
      file: 'src/[x].ts',
      line: l,
      preview: `needle ${l}`,
      count: 7,
    }));
    const all = [
      ...five,
      ...[6, 7].map((l) => ({ file: 'src/[x].ts', line: l, preview: `needle ${l}`, count: 7 })),
    ];
    const m = mount({
      'POST /api/file-grep': (c) => ({
        ...grepAnswer,
        results: (c.body as { per_file: number }).per_file === 20 ? all : five,
      }),
    });
    content();
    fireEvent.change(field(), { target: { value: 'needle' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Show 2 more lines' }));
    await waitFor(() => expect(lineButtons()).toHaveLength(7));
    expect(m.grep()[1]!.body).toEqual({
      root: '/repo',
      q: 'needle',
      include: ['/src/\\[x\\].ts'],
      per_file: 20,
    });
    expect(screen.queryByRole('button', { name: /more line/ })).toBeNull();
  });

  it('says "5+" and offers more where the count did not arrive, and past the ceiling opens the file at the last line', async () => {
    const rows = (n: number, count?: number) =>
      Array.from({ length: n }, (_, i) => ({
        file: 'big.txt',
        line: i + 1,
        preview: 'needle',
        ...(count ? { count } : {}),
      }));
    const m = mount({
      'POST /api/file-grep': (c) =>
        (c.body as { per_file: number }).per_file === 20
          ? { ...grepAnswer, results: rows(20, 57) }
          : { ...grepAnswer, results: rows(5) },
    });
    content();
    fireEvent.change(field(), { target: { value: 'needle' } });
    const file = await screen.findByTitle('big.txt');
    expect(within(file).getByTestId('hit-count').textContent).toBe('5+ matching lines');
    expect(screen.getByTestId('file-grep-status').textContent).toBe('5+ matching lines in 1 file');
    fireEvent.click(screen.getByRole('button', { name: 'Show more lines' }));
    const rest = await screen.findByRole('button', { name: '37 more lines: open the file at line 20' });
    expect(within(file).getByTestId('hit-count').textContent).toBe('57 matching lines');
    fireEvent.click(rest);
    expect(m.onOpenFile).toHaveBeenCalledWith('big.txt', 20);
  });

  it('sends the include and exclude fields as glob lists, split at commas outside braces, and shows a refused glob', async () => {
    const m = mount({
      'POST /api/file-grep': (c) =>
        (c.body as { include?: string[] }).include?.includes('[z')
          ? new HttpError(400, { error: 'invalid glob [z: unclosed class', code: 'invalid_glob' })
          : grepAnswer,
    });
    content();
    const filters = screen.getByRole('button', { name: 'Filters' });
    expect(filters.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(filters);
    fireEvent.change(screen.getByRole('textbox', { name: 'Files to include' }), {
      target: { value: '*.{ts,tsx}, src/** ,' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Files to exclude' }), {
      target: { value: '**/test/**' },
    });
    fireEvent.change(field(), { target: { value: 'needle' } });
    await screen.findByTitle('src/a.ts');
    expect(m.grep().at(-1)!.body).toEqual({
      root: '/repo',
      q: 'needle',
      include: ['*.{ts,tsx}', 'src/**'],
      exclude: ['**/test/**'],
      per_file: 5,
    });
    fireEvent.click(filters);
    expect(screen.getByRole('button', { name: 'Filters (3)' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Files to include' })).toBeNull();
    fireEvent.click(filters);
    fireEvent.change(screen.getByRole('textbox', { name: 'Files to include' }), { target: { value: '[z' } });
    expect((await screen.findByTestId('file-grep-error')).textContent).toContain('invalid glob [z');
  });

  it('reports the matching lines and files, and keeps the engine name out of the line', async () => {
    await search(mount());
    const status = screen.getByTestId('file-grep-status');
    expect(status.textContent).toBe('3 matching lines in 2 files');
    expect(status.getAttribute('title')).toBeNull();
  });

  it('says the list is partial and names the documents the budget did not reach', async () => {
    await search(
      mount({
        'POST /api/file-grep': () => ({ ...grepAnswer, truncated: true, skipped_docs: 1 }),
      }),
    );
    const status = screen.getByTestId('file-grep-status');
    expect(status.textContent).toContain('partial');
    expect(status.textContent).toContain('1 or more documents not searched');
    expect(screen.getByTestId('file-grep-partial-why')).toBeTruthy();
  });

  it('reports an empty answer as no results, without the unit', async () => {
    mount({ 'POST /api/file-grep': () => ({ ...grepAnswer, results: [] }) });
    content();
    fireEvent.change(field(), { target: { value: 'needle' } });
    await screen.findByText('No results');
    expect(screen.getByTestId('file-grep-status').textContent).toBe('0 files');
  });

  it('says the search failed instead of showing zero results', async () => {
    mount({
      'POST /api/file-grep': () => new HttpError(403, { error: 'Access denied', code: 'sensitive_path' }),
    });
    content();
    fireEvent.change(field(), { target: { value: 'needle' } });
    const err = await screen.findByTestId('file-grep-error');
    expect(err.getAttribute('role')).toBe('alert');
    expect(err.textContent).toContain("Couldn't search file contents");
    expect(screen.queryByText('No results')).toBeNull();
  });

  it('keeps the previous hits on screen while a refined query is in flight', async () => {
    let first = true;
    const m = mount({
      'POST /api/file-grep': () => {
        if (first) {
          first = false;
          return grepAnswer;
        }
        return never();
      },
    });
    await search(m);
    fireEvent.change(field(), { target: { value: 'needles' } });
    await waitFor(() => expect(m.grep()).toHaveLength(2));
    expect(screen.getByTitle('src/a.ts')).toBeTruthy();
  });

  it("drops the previous project's hits when the project changes", async () => {
    const m = await search(
      mount({
        'POST /api/file-grep': (c) => ((c.body as { root: string }).root === '/repo' ? grepAnswer : never()),
      }),
    );
    m.rerender(<FilesRail key="/other" project="/other" onOpenFile={m.onOpenFile} reveal={null} />);
    content();
    fireEvent.change(field(), { target: { value: 'needle' } });
    await waitFor(() =>
      expect(m.grep().some((c) => (c.body as { root: string }).root === '/other')).toBe(true),
    );
    expect(screen.queryByTitle('src/a.ts')).toBeNull();
  });
});

describe('FilesRail and a busy server', () => {
  it('asks again when the server answers busy, showing "Searching…" meanwhile, not an error', async () => {
    let calls = 0;
    const m = mount({
      'POST /api/file-grep': () =>
        ++calls === 1 ? new HttpError(503, { error: 'busy', code: 'transfer_busy' }) : grepAnswer,
    });
    content();
    fireEvent.change(field(), { target: { value: 'needle' } });
    await screen.findByTitle('src/a.ts', {}, { timeout: 10_000 });
    expect(m.grep()).toHaveLength(2);
    expect(screen.queryByTestId('file-grep-error')).toBeNull();
  });

  it('shows the failure once the retries are spent, and never retries other errors', async () => {
    const m = mount({
      'POST /api/file-grep': () => new HttpError(400, { error: 'bad', code: 'invalid_request' }),
    });
    content();
    fireEvent.change(field(), { target: { value: 'needle' } });
    expect((await screen.findByTestId('file-grep-error')).textContent).toContain('bad');
    expect(m.grep()).toHaveLength(1);
  });
});

describe('retryWhenBusy', () => {
  it('retries a 503 twice, nothing else', () => {
    const busy = new ApiError(503, 'transfer_busy', 'busy');
    expect([0, 1, 2].map((n) => retryWhenBusy(n, busy))).toEqual([true, true, false]);
    expect(retryWhenBusy(0, new ApiError(500, 'x', 'x'))).toBe(false);
    expect(retryWhenBusy(0, new TypeError('network'))).toBe(false);
  });
});

describe('highlight', () => {
  it('marks the right characters when lowercasing changes length', () => {
    const text = 'İstanbul needle here';
    const r = findFolded(text, 'NEEDLE')!;
    expect(text.slice(r[0], r[1])).toBe('needle');
  });
});

describe('api.fileGrep', () => {
  it('POSTs the root and query in the body, never in the URL', async () => {
    const server = fakeServer({ 'POST /api/file-grep': () => grepAnswer });
    const answer = await api.fileGrep('/p/with space', 'sk-live-secret(&q=1');
    const [call] = server.to('POST', '/api/file-grep');
    expect(call!.params.toString()).toBe('');
    expect(call!.body).toEqual({ root: '/p/with space', q: 'sk-live-secret(&q=1' });
    expect(answer).toEqual(grepAnswer);
  });
  it('lets a transport error surface rather than shaping an empty answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('network down'))),
    );
    // the failure is an ApiError a person can read (never the browser's own words), not an empty answer
    await expect(api.fileGrep('/p', 'qq')).rejects.toMatchObject({ status: 0, code: 'unreachable' });
  });
  it('turns an error answer into an ApiError with the server code', async () => {
    fakeServer({
      'POST /api/file-grep': () => new HttpError(403, { error: 'Access denied', code: 'sensitive_path' }),
    });
    await expect(api.fileGrep('/p', 'qq')).rejects.toMatchObject({ status: 403, code: 'sensitive_path' });
  });
});
