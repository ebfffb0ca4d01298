// The `./` completion in the composer.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Composer } from '../../src/composer/Composer.js';
import { PICKER_DEBOUNCE_MS } from '../../src/composer/usePicker.js';
import {
  type Call,
  fakeServer,
  findOption,
  type HandClock,
  handClock,
  never,
  optionNamed,
  renderWithQuery,
  row,
} from './helpers.js';

const ROOT = '/srv/proj';

function listing(call: Call) {
  const dir = call.params.get('dir');
  const q = call.params.get('q') ?? '';
  if (dir === './src/') return { results: [row(`${ROOT}/src/app.ts`, 'file', 120)], root: ROOT };
  const all = [row(`${ROOT}/src`, 'dir'), row(`${ROOT}/readme.md`, 'file', 2048)];
  return { results: all.filter((r) => r.name.startsWith(q)), root: ROOT };
}

/** `clock`: the debounce runs on a hand-moved clock (else the browser's timers). */
function setup(routes: Record<string, (c: Call) => unknown> = {}, project = ROOT, clock?: HandClock) {
  const server = fakeServer({
    'GET /api/path-complete': listing,
    'GET /api/file-search': () => ({ results: [], root: ROOT }),
    ...routes,
  });
  const onSend = vi.fn(async () => {});
  renderWithQuery(<Composer conversationId="c1" project={project} onSend={onSend} />, clock?.timers);
  const box = screen.getByLabelText('Message') as HTMLTextAreaElement;
  const type = (value: string) => fireEvent.change(box, { target: { value } });
  return { server, onSend, box, type, pc: () => server.to('GET', '/api/path-complete') };
}

afterEach(() => vi.unstubAllGlobals());

describe('Composer — ./ path completion', () => {
  it('opens the picker on a bare ./ and asks the endpoint for that directory', async () => {
    const { type, pc } = setup();
    type('./');
    await screen.findByRole('listbox');
    await findOption('src/');
    const call = pc()[0]!;
    expect(call.params.get('path')).toBe(ROOT);
    expect(call.params.get('dir')).toBe('./');
    expect(call.params.has('q')).toBe(false);
  });

  it('narrows as the partial name is typed', async () => {
    const { type, pc } = setup();
    type('read ./read');
    await waitFor(() =>
      expect(pc().some((c) => c.params.get('dir') === './' && c.params.get('q') === 'read')).toBe(true),
    );
  });

  it('scopes to the sub-directory named by the token', async () => {
    const { type, pc } = setup();
    type('read ../../src/comp');
    await waitFor(() =>
      expect(pc().some((c) => c.params.get('dir') === '../../src/' && c.params.get('q') === 'comp')).toBe(
        true,
      ),
    );
  });

  it('does not open without a project dir to resolve the token against', async () => {
    const clock = handClock();
    const { type, pc, server } = setup({}, '', clock);
    type('read ./');
    clock.advance(PICKER_DEBOUNCE_MS);
    expect(pc()).toHaveLength(0);
    expect(screen.queryByRole('listbox')).toBeNull();
    // The control: the same composer does ask once a window has passed, for a token it can resolve.
    type('read ./ @src');
    clock.advance(PICKER_DEBOUNCE_MS);
    await waitFor(() => expect(server.to('GET', '/api/file-search')).toHaveLength(1));
    expect(pc()).toHaveLength(0);
  });

  it('does not open for an abbreviation or a sentence-final full stop', async () => {
    const clock = handClock();
    const { type, pc } = setup({}, ROOT, clock);
    type('e.g. done.');
    clock.advance(PICKER_DEBOUNCE_MS);
    expect(pc()).toHaveLength(0);
    expect(screen.queryByRole('listbox')).toBeNull();
    // The control: a real token in the same composer asks, exactly when the window has passed.
    type('e.g. done. ./');
    clock.advance(PICKER_DEBOUNCE_MS - 1);
    expect(pc()).toHaveLength(0);
    clock.advance(1);
    await findOption('src/');
    expect(pc().map((c) => c.params.get('dir'))).toEqual(['./']);
  });

  it('attaches a file it completes: the path becomes an @ token with a chip', async () => {
    const { type, box } = setup();
    type('read ./rea');
    fireEvent.mouseDown(await findOption('readme.md'));
    expect(box.value).toBe('read @readme.md ');
    expect(screen.getByTestId('preview-strip').hidden).toBe(false);
  });

  it('Tab accepts the highlighted row', async () => {
    const { type, box } = setup();
    type('read ./');
    await findOption('src/');
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('read ./src/');
  });

  it('Enter accepts the highlighted row instead of sending', async () => {
    const { type, box, onSend } = setup();
    type('read ./');
    await findOption('src/');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('read ./src/');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('accepting a directory keeps the menu open on the new level', async () => {
    const { type, pc } = setup();
    type('./');
    fireEvent.mouseDown(await findOption('src/'));
    await waitFor(() =>
      expect(pc().some((c) => c.params.get('dir') === './src/' && !c.params.has('q'))).toBe(true),
    );
    await findOption('app.ts');
    expect(screen.getByRole('listbox')).toBeTruthy();
  });

  it('accepting inside the debounce window uses the prefix the rows came from', async () => {
    const { type, box } = setup();
    type('read ./sr');
    await findOption('src/');
    type('read ./src/');
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('read ./src/');
  });

  it('does not ask for a directory before the token is one', async () => {
    const { type, pc } = setup();
    type('./');
    await findOption('src/');
    expect(pc().every((c) => c.params.get('dir') !== '' && c.params.get('dir') !== null)).toBe(true);
  });

  it('does not pair stale rows with a deeper prefix while the next level is in flight', async () => {
    const clock = handClock();
    const { type, box, pc } = setup(
      { 'GET /api/path-complete': (c) => (c.params.get('dir') === './src/' ? never() : listing(c)) },
      ROOT,
      clock,
    );
    type('read ./');
    clock.advance(PICKER_DEBOUNCE_MS);
    await findOption('src/');
    type('read ./src/');
    clock.advance(PICKER_DEBOUNCE_MS);
    // The next level is asked for and never answers: it is in flight from here on.
    await waitFor(() => expect(pc().map((c) => c.params.get('dir'))).toEqual(['./', './src/']));
    expect(optionNamed('src/')).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('read ./src/');
  });

  it('says the token left the project instead of claiming no matches', async () => {
    const { type } = setup({ 'GET /api/path-complete': () => ({ results: [], root: '', outside: true }) });
    type('read ../');
    await screen.findByText(/ends up outside the project/);
    expect(screen.queryByText(/No matching files/)).toBeNull();
  });

  it('still says no matches for an empty directory inside the project', async () => {
    const { type } = setup({ 'GET /api/path-complete': () => ({ results: [], root: ROOT }) });
    type('read ./');
    await screen.findByText(/No matching files/);
  });

  it('Escape dismisses the picker', async () => {
    const { type, box } = setup();
    type('./');
    await screen.findByRole('listbox');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('leaves ~/ to the shell — home is not a completion root', async () => {
    const clock = handClock();
    const { type, pc } = setup({}, ROOT, clock);
    type('read ~/');
    clock.advance(PICKER_DEBOUNCE_MS);
    expect(pc()).toHaveLength(0);
    expect(screen.queryByRole('listbox')).toBeNull();
    // The control: ./ in the same composer asks once the window has passed.
    type('read ~/ ./');
    clock.advance(PICKER_DEBOUNCE_MS);
    await findOption('src/');
    expect(pc().map((c) => c.params.get('dir'))).toEqual(['./']);
  });

  it('an @ mention still goes to the file search, not path completion', async () => {
    const { type, server, pc } = setup();
    type('see @src');
    await waitFor(() => expect(server.to('GET', '/api/file-search')).toHaveLength(1));
    expect(pc()).toHaveLength(0);
  });
});
