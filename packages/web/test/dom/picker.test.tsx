// Folder rows, selection payloads, and the @ picker's keyboard and empty states.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileRow } from '../../src/api/endpoints.js';
import { Composer } from '../../src/composer/Composer.js';
import { PICKER_DEBOUNCE_MS, rowKind, selectionFor } from '../../src/composer/usePicker.js';
import type { DebounceTimers } from '../../src/ui/useDebounced.js';
import { fakeServer, findOption, HttpError, handClock, never, renderWithQuery, row } from './helpers.js';

afterEach(() => vi.unstubAllGlobals());

describe('selectionFor', () => {
  it('appends a trailing slash to directory relative paths', () => {
    expect(selectionFor(row('/repo/src/widgets', 'dir'), '/repo')).toEqual({
      rel: 'src/widgets/',
      kind: 'dir',
    });
  });
  it('leaves file relative paths untouched', () => {
    expect(selectionFor(row('/repo/src/widgets.ts', 'file'), '/repo')).toEqual({
      rel: 'src/widgets.ts',
      kind: 'file',
    });
  });
  it('does not double up an existing trailing slash', () => {
    expect(
      selectionFor({ ...row('/repo/src/widgets', 'dir'), path: '/repo/src/widgets/' }, '/repo').rel,
    ).toBe('src/widgets/');
  });
  it('falls back to the absolute path when no root is known', () => {
    expect(selectionFor(row('/repo/src/widgets', 'dir'), '').rel).toBe('/repo/src/widgets/');
  });
  it('inserts a relative folder token for a Windows root', () => {
    expect(
      selectionFor(
        { path: 'C:\\repo\\src\\pages', name: 'pages', kind: 'dir', size: 0, mtime: 0 },
        'C:\\repo',
      ).rel,
    ).toBe('src\\pages/');
  });
  it("keeps the user's prefix in path mode", () => {
    expect(selectionFor(row('/repo/src', 'dir'), '/repo', './').rel).toBe('./src/');
    expect(selectionFor(row('/repo/src', 'dir'), '/repo', '../').rel).toBe('../src/');
  });
});

describe('rowKind', () => {
  it('treats a row without a kind (outside the wire contract) as a file', () => {
    expect(rowKind({ path: '/x', name: 'x', size: 0, mtime: 0 } as FileRow)).toBe('file');
  });
  it('reads an explicit dir kind', () => expect(rowKind(row('/x', 'dir'))).toBe('dir'));
});

function setup(
  search: () => unknown = () => ({
    results: [row('/repo/src/widgets', 'dir'), row('/repo/src/widgets.ts', 'file', 2048)],
    root: '/repo',
  }),
  timers?: DebounceTimers,
) {
  const server = fakeServer({ 'GET /api/file-search': search });
  const onSend = vi.fn(async () => {});
  renderWithQuery(<Composer conversationId="c1" project="/repo" onSend={onSend} />, timers);
  const box = screen.getByLabelText('Message') as HTMLTextAreaElement;
  return { server, onSend, box, type: (v: string) => fireEvent.change(box, { target: { value: v } }) };
}

describe('the @ picker', () => {
  it('renders a directory name with a trailing slash, marks rows with their kind, and labels sizes', async () => {
    const { type } = setup();
    type('@widgets');
    const dir = await findOption('widgets/');
    const file = await findOption('widgets.ts');
    expect(dir.dataset['kind']).toBe('dir');
    expect(file.dataset['kind']).toBe('file');
    expect(dir.textContent).toMatch(/folder · /);
    expect(file.textContent).toMatch(/2kB · /);
    expect(screen.getByLabelText('Folder')).toBeTruthy();
    expect(screen.getByRole('listbox').getAttribute('aria-label')).toBe('Files and folders');
  });

  it('searches the project with the query, once for a burst of keys, with the bearer token', async () => {
    sessionStorage.setItem('trawl.token', 'tok-123');
    const { type, server } = setup();
    for (const v of ['@w', '@wi', '@wid', '@widg']) type(v);
    await findOption('widgets/');
    const calls = server.to('GET', '/api/file-search');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.params.get('q')).toBe('widg');
    expect(calls[0]!.params.get('project')).toBe('/repo');
    expect(calls[0]!.headers['Authorization']).toBe('Bearer tok-123');
  });

  it('asks for nothing under two characters and says so', async () => {
    const clock = handClock();
    const { type, server } = setup(undefined, clock.timers);
    const asked = () => server.to('GET', '/api/file-search').map((c) => c.params.get('q'));
    type('@w');
    await screen.findByText(/Type 2\+ characters/);
    clock.advance(PICKER_DEBOUNCE_MS);
    expect(asked()).toEqual([]);
    // The control: two characters ask, exactly when the window has passed, and only for them.
    type('@wi');
    clock.advance(PICKER_DEBOUNCE_MS - 1);
    expect(asked()).toEqual([]);
    clock.advance(1);
    await findOption('widgets/');
    expect(asked()).toEqual(['wi']);
  });

  it('inserts a folder as @dir/ with a chip, and a file as @file with a chip', async () => {
    const { type, box } = setup();
    type('look at @wid');
    fireEvent.mouseDown(await findOption('widgets/'));
    expect(box.value).toBe('look at @src/widgets/ ');
    expect(screen.getByTestId('preview-strip').querySelector('[data-dir-chip]')?.textContent).toContain(
      'widgets/',
    );
    type('look at @src/widgets/ and @wid');
    fireEvent.mouseDown(await findOption('widgets.ts'));
    expect(box.value).toBe('look at @src/widgets/ and @src/widgets.ts ');
    expect(screen.getByTestId('preview-strip').querySelector('[data-file-chip]')?.getAttribute('title')).toBe(
      '/repo/src/widgets.ts',
    );
  });

  it('moves with the arrows (the list grows upward, best match nearest the composer) and Enter picks', async () => {
    const { type, box } = setup();
    type('@wid');
    await findOption('widgets.ts');
    const options = () => screen.getAllByRole('option');
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(options()[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(options()[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('@src/widgets.ts ');
  });

  it('never sends a half-typed mention: Enter is held while the search is in flight', async () => {
    const { type, box, onSend } = setup(never);
    type('see @widg');
    await screen.findByText('Searching…');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    expect(box.value).toBe('see @widg');
  });

  it('never sends an unresolved @query on Enter; Esc closes the picker, then Enter sends it as text', async () => {
    const { type, box, onSend } = setup(() => ({ results: [], root: '/repo' }));
    type('mail @someone');
    await screen.findByText(/No matching files/);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Escape' });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(onSend).toHaveBeenCalledTimes(1));
  });

  it('shows a settled failure as a failure, not as no matches', async () => {
    const { type } = setup(() => new HttpError(503, { error: 'busy', code: 'path_probe_busy' }));
    type('@widg');
    expect((await screen.findByTestId('file-picker-search-error')).textContent).toContain('busy');
    expect(screen.queryByText(/No matching files/)).toBeNull();
  });
});
