// User bubbles render references as chips.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MessageText } from '../../src/thread/MessageText.js';

const chip = (path: string) => document.querySelector(`[title="${path}"]`) as HTMLElement | null;

describe('MessageText', () => {
  it('fresh message: @rel/ token + meta.dirs renders a folder chip, not plain text', () => {
    render(
      <MessageText
        text="look in @src/pages/ now"
        meta={{ dirs: [{ path: '/repo/src/pages', label: 'pages' }] }}
        project="/repo"
      />,
    );
    expect(chip('/repo/src/pages')?.textContent).toBe('Folder@src/pages/');
  });

  it('clicking the folder chip opens the directory', () => {
    const onFolderOpen = vi.fn();
    render(
      <MessageText
        text="look in @src/pages/ now"
        meta={{ dirs: [{ path: '/repo/src/pages', label: 'pages' }] }}
        project="/repo"
        onFolderOpen={onFolderOpen}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open folder /repo/src/pages' }));
    expect(onFolderOpen).toHaveBeenCalledWith('/repo/src/pages');
  });

  it('degrades to an inert chip when no folder handler is provided', () => {
    render(<MessageText text="@docs/" meta={{ dirs: ['/repo/docs'] }} project="/repo" />);
    expect(chip('/repo/docs')?.getAttribute('role')).toBeNull();
    expect(chip('/repo/docs')?.tagName).toBe('SPAN');
  });

  it('meta wins: a project path with spaces resolves whole', () => {
    render(
      <MessageText
        text="see @docs/"
        meta={{ dirs: [{ path: '/home/me/my repo/docs', label: 'docs' }] }}
        project="/home/me/my repo"
      />,
    );
    expect(chip('/home/me/my repo/docs')).not.toBeNull();
  });

  it('file and folder references coexist and resolve to their own paths; a file chip opens at its line', () => {
    const onFileOpen = vi.fn();
    render(
      <MessageText
        text="@docs/ and @a.ts:7"
        meta={{
          dirs: [{ path: '/repo/docs', label: 'docs' }],
          files: [{ path: '/repo/a.ts', name: 'a.ts' }],
        }}
        project="/repo"
        onFileOpen={onFileOpen}
        onFolderOpen={() => {}}
      />,
    );
    expect(chip('/repo/docs')).not.toBeNull();
    fireEvent.click(chip('/repo/a.ts')!);
    expect(onFileOpen).toHaveBeenCalledWith('/repo/a.ts', 7);
    expect(document.body.textContent).not.toContain('[attached_');
  });

  it('a plain sentence ending a clause with slash-less mentions is untouched', () => {
    render(<MessageText text="email a@b.c/ and read @notes.md now" meta={{}} project="/repo" />);
    expect(document.querySelector('[title]')).toBeNull();
    expect(document.body.textContent).toBe('email a@b.c/ and read @notes.md now');
  });
});
