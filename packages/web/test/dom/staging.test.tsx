// Chips derive from tokens, exact removal, drafts per conversation, send serialisation.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Composer, type Outgoing } from '../../src/composer/Composer.js';
import { fakeServer, findOption, renderWithQuery, row } from './helpers.js';

afterEach(() => vi.unstubAllGlobals());

const search = () => ({
  results: [row('/repo/src/widgets', 'dir'), row('/repo/src/main.ts', 'file', 10)],
  root: '/repo',
});

function mount(conversationId = 'a', onSend = vi.fn(async (_o: Outgoing) => {})) {
  fakeServer({ 'GET /api/file-search': search });
  const r = renderWithQuery(<Composer conversationId={conversationId} project="/repo" onSend={onSend} />);
  const box = () => screen.getByLabelText('Message') as HTMLTextAreaElement;
  const type = (v: string) => fireEvent.change(box(), { target: { value: v } });
  const show = (id: string) =>
    r.rerender(<Composer key={id} conversationId={id} project="/repo" onSend={onSend} />);
  return { ...r, box, type, onSend, show };
}
const dirChips = () => document.querySelectorAll('[data-dir-chip]');
const fileChips = () => document.querySelectorAll('[data-file-chip]');

async function stageFolder(m: ReturnType<typeof mount>) {
  m.type('@wid');
  fireEvent.mouseDown(await findOption('widgets/'));
  await screen.findByLabelText('Remove folder');
}

describe('staged folder references', () => {
  it('switching conversations: staged folders stay with their draft (no cross-conversation leak)', async () => {
    const m = mount('a');
    await stageFolder(m);
    m.show('b');
    expect(screen.queryByLabelText('Remove folder')).toBeNull();
    m.show('a');
    expect(dirChips()).toHaveLength(1);
    expect(m.box().value).toContain('@src/widgets/');
  });

  it('a draft survives a reload (remount from localStorage)', async () => {
    const m = mount('a');
    await stageFolder(m);
    m.unmount();
    expect(localStorage.getItem('trawl.draft.a')).toContain('@src/widgets/');
    const again = mount('a');
    expect(again.box().value).toBe('@src/widgets/ ');
    expect(dirChips()).toHaveLength(1);
  });

  it('removing the folder chip also strips its @-token from the composer', async () => {
    const m = mount();
    await stageFolder(m);
    fireEvent.click(screen.getByLabelText('Remove folder'));
    expect(dirChips()).toHaveLength(0);
    expect(m.box().value).not.toContain('@src/widgets/');
  });

  it('token strip is exact: a longer sibling token survives the remove', async () => {
    const m = mount();
    m.type('@src/widgets/ @src/widgets/sub/ ');
    expect(dirChips()).toHaveLength(2);
    fireEvent.click(screen.getAllByLabelText('Remove folder')[0]!);
    expect(m.box().value).toBe('@src/widgets/sub/ ');
    expect(dirChips()).toHaveLength(1);
  });

  it('hand-editing the token out of the composer drops the orphaned chip', async () => {
    const m = mount();
    await stageFolder(m);
    m.type('nothing staged');
    expect(dirChips()).toHaveLength(0);
  });

  it('a hand-typed folder token stages its own chip, also followed by punctuation', () => {
    const m = mount();
    m.type('look at (@src/widgets/sub/), instead');
    expect(dirChips()).toHaveLength(1);
    fireEvent.click(screen.getByLabelText('Remove folder'));
    expect(m.box().value).toBe('look at instead');
  });
});

describe('file chips', () => {
  it('removing a picker-picked file chip strips its inserted @-token from the composer', async () => {
    const m = mount();
    m.type('please check @mai');
    fireEvent.mouseDown(await findOption('main.ts'));
    expect(m.box().value).toBe('please check @src/main.ts ');
    fireEvent.click(screen.getByLabelText('Remove'));
    expect(m.box().value).toBe('please check ');
    expect(fileChips()).toHaveLength(0);
  });

  it('token strip survives a remount: the restored draft keeps its pick', async () => {
    const m = mount('a');
    m.type('please check @mai');
    fireEvent.mouseDown(await findOption('main.ts'));
    m.unmount();
    const again = mount('a');
    expect(fileChips()).toHaveLength(1);
    fireEvent.click(screen.getByLabelText('Remove'));
    expect(again.box().value).toBe('please check ');
  });

  it('a token cut then pasted back restages the file chip; punctuation after it keeps it', async () => {
    const m = mount();
    m.type('@mai');
    fireEvent.mouseDown(await findOption('main.ts'));
    m.type('gone');
    expect(fileChips()).toHaveLength(0);
    m.type('back: @src/main.ts:42, please');
    expect(fileChips()).toHaveLength(1);
  });

  it('a hand-typed @name no pick recorded stays text', () => {
    mount().type('ask @alice about it');
    expect(fileChips()).toHaveLength(0);
  });
});

describe('send', () => {
  it('rewrites tokens to markers with absolute paths, carries meta, keeps the display text, clears the draft', async () => {
    const onSend = vi.fn(async (_o: Outgoing) => {});
    const m = mount('a', onSend);
    m.type('check @mai');
    fireEvent.mouseDown(await findOption('main.ts'));
    m.type('check @src/main.ts in @src/widgets/ please');
    fireEvent.keyDown(m.box(), { key: 'Enter' });
    await waitFor(() => expect(onSend).toHaveBeenCalledTimes(1));
    expect(onSend.mock.calls[0]![0]).toEqual({
      text: 'check @src/main.ts in @src/widgets/ please',
      wire: 'check [attached_file 1] /repo/src/main.ts in [attached_dir 1] /repo/src/widgets please',
      meta: {
        files: [{ path: '/repo/src/main.ts', name: 'main.ts' }],
        dirs: [{ path: '/repo/src/widgets', label: 'widgets' }],
      },
    });
    await waitFor(() => expect(m.box().value).toBe(''));
    expect(localStorage.getItem('trawl.draft.a')).toBeNull();
  });

  it('Shift+Enter is a new line, and a failed send keeps the text and says why', async () => {
    const onSend = vi.fn(async () => {
      throw new Error('server down');
    });
    const m = mount('a', onSend);
    m.type('hello');
    fireEvent.keyDown(m.box(), { key: 'Enter', shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toContain('server down');
    expect(m.box().value).toBe('hello');
  });
});
