// "Add to message" from the Files rail: the row becomes the token a pick would have typed, so it stages, sends and
// drafts like one; a name the token grammar cannot carry is refused in words, never attached as something else.
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AttachRequest, Composer, type Outgoing } from '../../src/composer/Composer.js';
import { FilesRail } from '../../src/files/FilesRail.js';
import type { Attachment } from '../../src/tokens/wire.js';
import { type Call, fakeServer, findOption, renderWithQuery, row } from './helpers.js';

afterEach(() => vi.unstubAllGlobals());

function mountComposer(attach: AttachRequest | null = null) {
  fakeServer({});
  const onSend = vi.fn(async (_o: Outgoing) => {});
  const ui = (a: AttachRequest | null) => (
    <Composer conversationId="c" project="/repo" onSend={onSend} attach={a} />
  );
  const r = renderWithQuery(ui(attach));
  const box = () => screen.getByLabelText('Message') as HTMLTextAreaElement;
  return { ...r, box, onSend, attach: (a: AttachRequest) => r.rerender(ui(a)) };
}
const req = (n: number, ...items: (Attachment & { path: string })[]): AttachRequest => ({ items, n });

describe('Composer attach requests', () => {
  it('inserts a folder and a file as tokens, stages both chips, and sends them on the wire', async () => {
    const m = mountComposer();
    fireEvent.change(m.box(), { target: { value: 'look at' } });
    m.attach(req(1, { kind: 'dir', rel: 'src/widgets', path: '/repo/src/widgets' }));
    m.attach(req(2, { kind: 'file', rel: 'src/main.ts', path: '/repo/src/main.ts' }));
    expect(m.box().value).toBe('look at @src/widgets/ @src/main.ts ');
    expect(document.querySelectorAll('[data-dir-chip]')).toHaveLength(1);
    expect(document.querySelectorAll('[data-file-chip]')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(m.onSend).toHaveBeenCalledTimes(1));
    const out = m.onSend.mock.calls[0]![0];
    expect(out.wire).toBe('look at [attached_dir 1] /repo/src/widgets [attached_file 1] /repo/src/main.ts ');
    expect(out.meta.files).toEqual([{ path: '/repo/src/main.ts', name: 'main.ts' }]);
  });

  it('adds a row already in the message once, and applies each request once', () => {
    const m = mountComposer();
    const one = req(1, { kind: 'dir', rel: 'docs', path: '/repo/docs' });
    m.attach(one);
    m.attach(one);
    m.attach(req(2, { kind: 'dir', rel: 'docs', path: '/repo/docs' }));
    expect(m.box().value).toBe('@docs/ ');
  });

  it('does not apply the request that was there before it mounted (a conversation switch)', () => {
    const m = mountComposer(req(7, { kind: 'dir', rel: 'docs', path: '/repo/docs' }));
    expect(m.box().value).toBe('');
  });

  it('attaches a name with a space or @ as a quoted token, chip and all', () => {
    const m = mountComposer();
    m.attach(req(1, { kind: 'file', rel: 'my notes@home.md', path: '/repo/my notes@home.md' }));
    expect(m.box().value).toBe('@"my notes@home.md" ');
    expect(screen.queryByText(/Can't attach/)).toBeNull();
    expect(document.querySelectorAll('[data-file-chip]')).toHaveLength(1);
  });

  it('refuses a name with a line break in words and changes nothing else', () => {
    const m = mountComposer();
    m.attach(req(1, { kind: 'file', rel: 'two\nlines.md', path: '/repo/two\nlines.md' }));
    expect(m.box().value).toBe('');
    expect(screen.getByRole('status').textContent).toMatch(/Can't attach “two\nlines\.md”/);
    expect(document.querySelectorAll('[data-file-chip]')).toHaveLength(0);
    fireEvent.change(m.box(), { target: { value: 'x' } });
    expect(screen.queryByText(/Can't attach/)).toBeNull();
  });
});

const tree = (c: Call) =>
  (c.params.get('path') ?? '') === ''
    ? {
        root: '/repo',
        path: '',
        entries: [row('src', 'dir'), row('README.md', 'file', 10)],
        truncated: false,
      }
    : { root: '/repo', path: 'src', entries: [], truncated: false };

describe('FilesRail "Add to message"', () => {
  function mountRail(onAttach?: (a: Attachment) => void) {
    fakeServer({
      'GET /api/tree': tree,
      'GET /api/file-search': () => ({ results: [row('/repo/src/app.ts', 'file', 3)], root: '/repo' }),
      'POST /api/file-grep': () => ({
        results: [{ file: '/repo/lib/x.ts', line: 3, preview: 'needle' }],
        truncated: false,
        engine: 'rg',
        skipped_docs: 0,
        root: '/repo',
      }),
    });
    return renderWithQuery(
      <FilesRail project="/repo" onOpenFile={() => {}} reveal={null} onAttach={onAttach} />,
    );
  }

  it('attaches a folder and a file from the tree, by keyboard-reachable buttons named for the row', async () => {
    const onAttach = vi.fn();
    mountRail(onAttach);
    fireEvent.click(await screen.findByRole('button', { name: 'Add src/ to message' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add README.md to message' }));
    expect(onAttach.mock.calls).toEqual([
      [{ kind: 'dir', rel: 'src' }],
      [{ kind: 'file', rel: 'README.md' }],
    ]);
  });

  it('attaches name and content search hits by their project-relative path', async () => {
    const onAttach = vi.fn();
    mountRail(onAttach);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'app' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Add src/app.ts to message' }));
    fireEvent.click(screen.getByRole('button', { name: /search file contents/i }));
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'needle' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Add lib/x.ts to message' }));
    expect(onAttach.mock.calls).toEqual([
      [{ kind: 'file', rel: 'src/app.ts' }],
      [{ kind: 'file', rel: 'lib/x.ts' }],
    ]);
  });

  it('has no add buttons when there is no composer to add to', async () => {
    mountRail(undefined);
    await screen.findByRole('treeitem', { name: /src/ });
    expect(screen.queryByRole('button', { name: /to message/ })).toBeNull();
  });
});

describe('the @ picker and names a bare token cannot carry', () => {
  it('picking a row with a space in its name inserts it quoted and stages it', async () => {
    fakeServer({
      'GET /api/file-search': () => ({ results: [row('/repo/docs/my notes.md', 'file', 3)], root: '/repo' }),
    });
    renderWithQuery(<Composer conversationId="p" project="/repo" onSend={async () => {}} />);
    const box = screen.getByLabelText('Message') as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'see @not', selectionStart: 8 } });
    fireEvent.mouseDown(await findOption('my notes.md'));
    expect(box.value).toBe('see @"docs/my notes.md" ');
    expect(document.querySelectorAll('[data-file-chip]')).toHaveLength(1);
  });
});
